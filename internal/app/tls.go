package app

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fieldwatch/fieldwatch/internal/devicecert"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
)

// buildTLS sets up the certificates of the device link: the device CA
// service (its CA created under --data on first use, unless the operator
// gives one), the HTTPS pair and the MQTT TLS pair, each reloaded when its
// files change or on ReloadTLS (SIGHUP).
func (m *Graph) buildTLS() error {
	c := m.Config
	m.DeviceCerts = &devicecert.Service{Store: m.DB, CertFile: c.DeviceCACert, KeyFile: c.DeviceCAKey,
		OnRefused: func() { m.Metrics.Denied.WithLabelValues("certificate").Inc() }}
	if c.DeviceCACert == "" {
		m.DeviceCerts.CertFile, m.DeviceCerts.KeyFile = devicecert.DefaultFiles(c.Data)
		m.DeviceCerts.Create = true
	} else if _, err := m.DeviceCerts.Authority(); err != nil {
		return fmt.Errorf("--device-ca-cert: %w", err) // the operator's CA must load at start
	}
	if len(c.ACMEDomains) > 0 {
		var roots *x509.CertPool
		if c.ACMECA != "" {
			pem, err := os.ReadFile(c.ACMECA)
			if err != nil {
				return fmt.Errorf("--acme-ca: %w", err)
			}
			if roots = x509.NewCertPool(); !roots.AppendCertsFromPEM(pem) {
				return fmt.Errorf("--acme-ca %s: no PEM certificate in it", c.ACMECA)
			}
		}
		m.ACME = devicecert.NewACME(c.ACMEDomains, c.ACMEEmail, filepath.Join(c.Data, "acme"), c.ACMEDirectory, roots)
	}
	if c.TLSCert != "" {
		r, err := devicecert.NewReloader(c.TLSCert, c.TLSKey)
		if err != nil {
			return fmt.Errorf("--tls-cert: %w", err)
		}
		m.HTTPCert = r
	}
	if cert, key := c.MQTTCertPair(); cert != "" && m.Config.EmbeddedBroker() && (c.MQTTS != "" || c.MQTTWS != "") {
		if m.HTTPCert != nil && cert == c.TLSCert && key == c.TLSKey {
			m.MQTTCert = m.HTTPCert
		} else {
			r, err := devicecert.NewReloader(cert, key)
			if err != nil {
				return fmt.Errorf("--mqtt-tls-cert: %w", err)
			}
			m.MQTTCert = r
		}
	}
	return nil
}

// brokerListeners are the embedded broker's listeners as configured.
func (m *Graph) brokerListeners() (ingest.Listeners, error) {
	ls := ingest.Listeners{MQTT: m.Config.MQTT, MQTTS: m.Config.MQTTS, WS: m.Config.MQTTWS, Queue: m.Config.MQTTQueue, Buffer: m.Config.MQTTBuffer}
	var getCert func(*tls.ClientHelloInfo) (*tls.Certificate, error)
	switch {
	case m.MQTTCert != nil:
		getCert = m.MQTTCert.GetCertificate
	case m.ACME != nil && (ls.MQTTS != "" || ls.WS != ""):
		getCert = m.ACME.GetCertificate
	default:
		return ls, nil
	}
	cfg, err := m.DeviceCerts.ServerConfig(getCert)
	if err != nil {
		return ls, err
	}
	ls.TLS = cfg
	return ls, nil
}

// listenerFlag names the flag of a broker listener, for errors.
func listenerFlag(id string) string {
	switch id {
	case ingest.ListenerTLS:
		return "--mqtts"
	case ingest.ListenerWS:
		return "--mqtt-ws"
	}
	return "--mqtt"
}

// brokerError explains a broker that did not start.
func brokerError(err error, addrInUse error) error {
	var le *ingest.ListenError
	if !errors.As(err, &le) {
		return fmt.Errorf("mqtt: %w", err)
	}
	flag := listenerFlag(le.Listener)
	if errors.Is(err, addrInUse) {
		return fmt.Errorf("%s %s: the port is already in use (is another MQTT broker running?); choose another with %s, or use it with --mqtt-broker", flag, le.Addr, flag)
	}
	return fmt.Errorf("%s %s: %w", flag, le.Addr, le.Err)
}

// ReloadTLS reads the certificate files again (SIGHUP). Connections made
// with the old certificates stay up.
func (m *Graph) ReloadTLS() error {
	var out []error
	if m.HTTPCert != nil {
		out = append(out, m.HTTPCert.Reload())
	}
	if m.MQTTCert != nil && m.MQTTCert != m.HTTPCert {
		out = append(out, m.MQTTCert.Reload())
	}
	return errors.Join(out...)
}

// HTTPTLS is the HTTPS server's configuration; nil without --tls-cert or
// --acme-domain.
func (m *Graph) HTTPTLS() *tls.Config {
	switch {
	case m.ACME != nil:
		return m.ACME.ServerConfig()
	case m.HTTPCert != nil:
		return m.HTTPCert.ServerConfig()
	}
	return nil
}

// MQTTClients are the ids of the clients connected to the embedded broker.
func (m *Graph) MQTTClients() []string {
	if m.Broker == nil {
		return nil
	}
	return m.Broker.ClientIDs()
}
