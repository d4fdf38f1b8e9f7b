package app_test

// The secure device link with real clients: Debian's mosquitto_pub and
// mosquitto_sub over TLS (with the device key, with device certificates,
// revoked and foreign certificates), the paho client over WebSocket, and a
// certificate reload under connected devices.

import (
	"archive/zip"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	pahomqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
)

// serverPKI is a CA of the test's own and a server certificate it signed
// for 127.0.0.1, written to files as an operator would give them.
type serverPKI struct {
	dir                       string
	caFile, certFile, keyFile string
	caCert                    *x509.Certificate
	caKey                     *ecdsa.PrivateKey
}

func newServerPKI(t *testing.T) *serverPKI {
	t.Helper()
	p := &serverPKI{dir: t.TempDir()}
	p.caFile, p.certFile, p.keyFile = filepath.Join(p.dir, "ca.pem"), filepath.Join(p.dir, "server.pem"), filepath.Join(p.dir, "server.key")
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test server CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	p.caCert, _ = x509.ParseCertificate(der)
	p.caKey = key
	writePEM(t, p.caFile, "CERTIFICATE", der)
	p.issueServer(t, 2)
	return p
}

// issueServer writes a new server certificate (with this serial) and key.
func (p *serverPKI) issueServer(t *testing.T, serial int64) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.caCert, &key.PublicKey, p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	writePEM(t, p.keyFile, "EC PRIVATE KEY", kb)
	writePEM(t, p.certFile, "CERTIFICATE", der)
}

func writePEM(t *testing.T, file, typ string, der []byte) {
	t.Helper()
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

// serverSerial is the serial of the certificate a new TLS connection sees.
func serverSerial(t *testing.T, addr string, roots *x509.CertPool) int64 {
	t.Helper()
	c, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: roots, ServerName: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.ConnectionState().PeerCertificates[0].SerialNumber.Int64()
}

type issuedCert struct {
	Serial      string `json:"serial"`
	SN          string `json:"sn"`
	Certificate string `json:"certificate"`
	Key         string `json:"key"`
	CA          string `json:"ca"`
	NotAfter    int64  `json:"notAfter"`
}

// issue asks the console for a certificate of the device and writes its
// files; it returns the record and the certificate and key files.
func (a *api) issue(id int64, dir string) (issuedCert, string, string) {
	a.t.Helper()
	status, env := a.do("POST", fmt.Sprintf("/apis/poi/%d/certificate", id), "", nil)
	if status != 200 || env.Code != 0 {
		a.t.Fatalf("issue certificate: HTTP %d %+v", status, env)
	}
	var c issuedCert
	if err := json.Unmarshal(env.Data, &c); err != nil {
		a.t.Fatal(err)
	}
	certFile, keyFile := filepath.Join(dir, c.Serial+".crt"), filepath.Join(dir, c.Serial+".key")
	if err := os.WriteFile(certFile, []byte(c.Certificate), 0o600); err != nil {
		a.t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, []byte(c.Key), 0o600); err != nil {
		a.t.Fatal(err)
	}
	return c, certFile, keyFile
}

func TestMosquittoTLS(t *testing.T) {
	pub := needTool(t, "mosquitto_pub")
	sub := needTool(t, "mosquitto_sub")
	pki := newServerPKI(t)
	cfg := ingestConfig(t)
	cfg.MQTTS, cfg.MQTTWS = "127.0.0.1:0", "127.0.0.1:0"
	cfg.MQTTTLSCert, cfg.MQTTTLSKey = pki.certFile, pki.keyFile
	m := start(t, cfg)
	a := loginAPI(t, m.URL())
	host, port, err := net.SplitHostPort(m.Broker.ListenerAddr(ingest.ListenerTLS).String())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()

	weather := a.devicesOfType(5)
	if len(weather) < 2 {
		t.Fatalf("want two demo weather stations, got %+v", weather)
	}
	devA, devB := weather[0], weather[1]
	credA, credB := a.credentials(devA.ID), a.credentials(devB.ID)
	baseB := a.waitBackfill(devB.ID)
	ts := reportTS()

	// tlsArgs: a publish over TLS checking the server against the test CA;
	// extra are the login (-u/-P, or --cert/--key).
	tlsArgs := func(version, topic, payload string, extra ...string) []string {
		return append([]string{"-h", host, "-p", port, "--cafile", pki.caFile, "-V", version,
			"-i", "fwtls-" + version, "-q", "1", "-t", topic, "-m", payload}, extra...)
	}
	published := func(t *testing.T, id int64, at int64, value float64) {
		t.Helper()
		got, ok := a.latest(id, "airTemp")
		if !ok || got.Value != value || got.Time != at*1000 {
			t.Fatalf("detect airTemp = %+v (found %v), want %g at %d", got, ok, value, at*1000)
		}
	}

	t.Run("TLS with the key", func(t *testing.T) {
		for i, version := range []string{"mqttv311", "5"} {
			at, value := ts+int64(i), 21.5+float64(i)
			out, code := run(t, pub, tlsArgs(version, "devices/"+credA.SN+"/telemetry",
				fmt.Sprintf(`{"ts": %d, "values": {"airTemp": %g}}`, at, value), "-u", credA.SN, "-P", credA.Key)...)
			if code != 0 {
				t.Fatalf("-V %s: exit %d: %s", version, code, out)
			}
			published(t, devA.ID, at, value)
		}
		// TLS 1.2 and 1.3 both.
		for _, v := range []string{"tlsv1.2", "tlsv1.3"} {
			out, code := run(t, pub, tlsArgs("5", "devices/"+credA.SN+"/telemetry",
				fmt.Sprintf(`{"ts": %d, "values": {"airTemp": 1}}`, ts+2), "-u", credA.SN, "-P", credA.Key, "--tls-version", v)...)
			if code != 0 {
				t.Errorf("--tls-version %s: exit %d: %s", v, code, out)
			}
		}
		// A wrong key is still refused over TLS.
		if out, code := run(t, pub, tlsArgs("5", "devices/"+credA.SN+"/telemetry", `{"values": {"airTemp": 1}}`,
			"-u", credA.SN, "-P", strings.Repeat("0", len(credA.Key)))...); code == 0 {
			t.Errorf("a wrong key connected over TLS: %s", out)
		}
	})

	certA, certFileA, keyFileA := a.issue(devA.ID, dir)
	_, certFileB, keyFileB := a.issue(devB.ID, dir)

	t.Run("issued certificate", func(t *testing.T) {
		if certA.SN != credA.SN || !strings.Contains(certA.Key, "PRIVATE KEY") || !strings.Contains(certA.CA, "CERTIFICATE") {
			t.Fatalf("issued %+v", certA)
		}
		block, _ := pem.Decode([]byte(certA.Certificate))
		leaf, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		if leaf.Subject.CommonName != credA.SN || fmt.Sprintf("%x", leaf.SerialNumber) != certA.Serial {
			t.Errorf("certificate subject %q serial %x, want %s %s", leaf.Subject.CommonName, leaf.SerialNumber, credA.SN, certA.Serial)
		}
		// The CA was created under --data, its key for the owner alone.
		fi, err := os.Stat(filepath.Join(cfg.Data, "device-ca.key"))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("device-ca.key: %v, mode %v", err, fi)
		}
		var list struct {
			List []struct {
				Serial    string `json:"serial"`
				RevokedAt *int64 `json:"revokedAt"`
			} `json:"list"`
		}
		a.get(fmt.Sprintf("/apis/poi/%d/certificates", devA.ID), nil, &list)
		if len(list.List) != 1 || list.List[0].Serial != certA.Serial || list.List[0].RevokedAt != nil {
			t.Errorf("certificates of A: %+v", list.List)
		}

		// The zip download: a new certificate with its key and the CA.
		res, err := a.c.Post(a.base+fmt.Sprintf("/apis/poi/%d/certificate?format=zip", devA.ID), "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/zip" || res.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("zip: HTTP %d %v", res.StatusCode, res.Header)
		}
		z, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range z.File {
			names = append(names, f.Name)
		}
		if want := []string{"ca.pem", credA.SN + ".crt", credA.SN + ".key"}; !slices.Equal(names, want) {
			t.Errorf("zip holds %v, want %v", names, want)
		}
		// It is listed as well: revoke it so that A has one valid certificate again.
		a.get(fmt.Sprintf("/apis/poi/%d/certificates", devA.ID), nil, &list)
		if len(list.List) != 2 {
			t.Fatalf("after the zip: %+v", list.List)
		}
		for _, c := range list.List {
			if c.Serial != certA.Serial {
				if status, env := a.do("DELETE", fmt.Sprintf("/apis/poi/%d/certificate/%s", devA.ID, c.Serial), "", nil); status != 200 || env.Code != 0 {
					t.Fatalf("revoke the zip's: HTTP %d %+v", status, env)
				}
			}
		}
		// A format it does not know: refused, naming the field, in the caller's language.
		status, env := a.do("POST", fmt.Sprintf("/apis/poi/%d/certificate?format=p12", devA.ID), "", map[string]string{"lang": "en_US"})
		if status != 400 || env.Error == nil || env.Error.Field != "format" || !strings.Contains(env.Message, "json or zip") {
			t.Errorf("format=p12: HTTP %d %+v %+v", status, env, env.Error)
		}
	})

	t.Run("TLS with a device certificate", func(t *testing.T) {
		for i, version := range []string{"mqttv311", "5"} {
			at, value := ts+10+int64(i), 30.25+float64(i)
			// No username and no password: the certificate is the login.
			out, code := run(t, pub, tlsArgs(version, "devices/"+credA.SN+"/telemetry",
				fmt.Sprintf(`{"ts": %d, "values": {"airTemp": %g}}`, at, value), "--cert", certFileA, "--key", keyFileA)...)
			if code != 0 {
				t.Fatalf("-V %s: exit %d: %s", version, code, out)
			}
			published(t, devA.ID, at, value)
		}
	})

	t.Run("another device's certificate on this SN's topic", func(t *testing.T) {
		payload := fmt.Sprintf(`{"ts": %d, "values": {"airTemp": -40}}`, ts+20)
		out, code := run(t, pub, tlsArgs("5", "devices/"+credB.SN+"/telemetry", payload, "--cert", certFileA, "--key", keyFileA)...)
		if code == 0 && !strings.Contains(strings.ToLower(out), "not authorized") {
			t.Errorf("A's certificate published on B's topic: exit %d: %s", code, out)
		}
		out, code = run(t, pub, tlsArgs("mqttv311", "devices/"+credB.SN+"/telemetry", payload, "--cert", certFileA, "--key", keyFileA)...)
		if code == 0 {
			t.Errorf("-V mqttv311: A's certificate published on B's topic: %s", out)
		}
		// Naming B as the username does not make A's certificate B's.
		out, code = run(t, pub, tlsArgs("5", "devices/"+credB.SN+"/telemetry", payload, "--cert", certFileA, "--key", keyFileA, "-u", credB.SN, "-P", credB.Key)...)
		if code == 0 {
			t.Errorf("A's certificate with B's username connected: %s", out)
		}
		if got, _ := a.latest(devB.ID, "airTemp"); got != baseB {
			t.Errorf("B's airTemp changed to %+v (was %+v)", got, baseB)
		}
		// B's own certificate works on B's topic.
		payload = fmt.Sprintf(`{"ts": %d, "values": {"airTemp": 12.5}}`, ts+21)
		if out, code := run(t, pub, tlsArgs("5", "devices/"+credB.SN+"/telemetry", payload, "--cert", certFileB, "--key", keyFileB)...); code != 0 {
			t.Fatalf("B's certificate: exit %d: %s", code, out)
		}
		published(t, devB.ID, ts+21, 12.5)
	})

	t.Run("a certificate of another CA", func(t *testing.T) {
		// The server's own CA signs a client certificate for A: not the
		// device CA, so it is not a login.
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(99), Subject: pkix.Name{CommonName: credA.SN},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, pki.caCert, &key.PublicKey, pki.caKey)
		if err != nil {
			t.Fatal(err)
		}
		kb, _ := x509.MarshalECPrivateKey(key)
		cf, kf := filepath.Join(dir, "foreign.crt"), filepath.Join(dir, "foreign.key")
		writePEM(t, cf, "CERTIFICATE", der)
		writePEM(t, kf, "EC PRIVATE KEY", kb)
		if out, code := run(t, pub, tlsArgs("5", "devices/"+credA.SN+"/telemetry", `{"values": {"airTemp": 1}}`, "--cert", cf, "--key", kf)...); code == 0 {
			t.Errorf("a certificate of another CA connected: %s", out)
		}
	})

	t.Run("revoked certificate refused", func(t *testing.T) {
		// A subscriber connected with the certificate is dropped on revocation.
		subCmd := exec.Command(sub, "-h", host, "-p", port, "--cafile", pki.caFile, "-V", "5", "-i", "fwtls-sub",
			"--cert", certFileA, "--key", keyFileA, "-t", "devices/"+credA.SN+"/commands")
		if err := subCmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- subCmd.Wait() }()
		t.Cleanup(func() { subCmd.Process.Kill() })
		waitClient(t, m, credA.SN+"/fwtls-sub")

		status, env := a.do("DELETE", fmt.Sprintf("/apis/poi/%d/certificate/%s", devA.ID, certA.Serial), "", nil)
		if status != 200 || env.Code != 0 {
			t.Fatalf("revoke: HTTP %d %+v", status, env)
		}
		<-exited // mosquitto_sub ends when the broker drops it
		before := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_mqtt_denied_total", map[string]string{"reason": "certificate"})
		defer func() {
			after := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_mqtt_denied_total", map[string]string{"reason": "certificate"})
			if after != before+1 {
				t.Errorf("denied{certificate}: %g → %g, want +1", before, after)
			}
		}()
		out, code := run(t, pub, tlsArgs("5", "devices/"+credA.SN+"/telemetry", fmt.Sprintf(`{"ts": %d, "values": {"airTemp": 1}}`, ts+30),
			"--cert", certFileA, "--key", keyFileA)...)
		if code == 0 {
			t.Errorf("a revoked certificate connected: %s", out)
		}
		if got, _ := a.latest(devA.ID, "airTemp"); got.Time == (ts+30)*1000 {
			t.Errorf("a revoked certificate's report was stored")
		}
		// Revoking twice: not found.
		if status, _ := a.do("DELETE", fmt.Sprintf("/apis/poi/%d/certificate/%s", devA.ID, certA.Serial), "", nil); status != 404 {
			t.Errorf("second revoke: HTTP %d, want 404", status)
		}
		// B's certificate is unaffected.
		if out, code := run(t, pub, tlsArgs("5", "devices/"+credB.SN+"/telemetry", fmt.Sprintf(`{"ts": %d, "values": {"airTemp": 2}}`, ts+31),
			"--cert", certFileB, "--key", keyFileB)...); code != 0 {
			t.Errorf("B's certificate after A's revocation: exit %d: %s", code, out)
		}
	})

	t.Run("WebSocket publish", func(t *testing.T) {
		wsAddr := m.Broker.ListenerAddr(ingest.ListenerWS).String()
		roots := x509.NewCertPool()
		roots.AddCert(pki.caCert)
		for i, url := range []string{"wss://" + wsAddr + "/mqtt", "wss://" + wsAddr + "/"} {
			opts := pahomqtt.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("fwws-%d", i)).
				SetUsername(credB.SN).SetPassword(credB.Key).SetTLSConfig(&tls.Config{RootCAs: roots}).
				SetAutoReconnect(false).SetProtocolVersion(4)
			c := pahomqtt.NewClient(opts)
			if tok := c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
				t.Fatalf("%s: connect: %v", url, tok.Error())
			}
			at, value := ts+40+int64(i), 17.75+float64(i)
			publish(t, c, "devices/"+credB.SN+"/telemetry", fmt.Sprintf(`{"ts": %d, "values": {"airTemp": %g}}`, at, value))
			c.Disconnect(100)
			published(t, devB.ID, at, value)
		}
		// B's device certificate is the login over wss too.
		pair, err := tls.LoadX509KeyPair(certFileB, keyFileB)
		if err != nil {
			t.Fatal(err)
		}
		opts := pahomqtt.NewClientOptions().AddBroker("wss://" + wsAddr + "/mqtt").SetClientID("fwws-cert").
			SetTLSConfig(&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{pair}}).
			SetAutoReconnect(false).SetProtocolVersion(4)
		c := pahomqtt.NewClient(opts)
		if tok := c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
			t.Fatalf("wss with a device certificate: %v", tok.Error())
		}
		at := ts + 45
		publish(t, c, "devices/"+credB.SN+"/telemetry", fmt.Sprintf(`{"ts": %d, "values": {"airTemp": 19.5}}`, at))
		c.Disconnect(100)
		published(t, devB.ID, at, 19.5)
	})

	t.Run("certificate reload keeps devices connected", func(t *testing.T) {
		tlsAddr := m.Broker.ListenerAddr(ingest.ListenerTLS).String()
		roots := x509.NewCertPool()
		roots.AddCert(pki.caCert)
		opts := pahomqtt.NewClientOptions().AddBroker("ssl://" + tlsAddr).SetClientID("fw-reload").
			SetUsername(credB.SN).SetPassword(credB.Key).SetTLSConfig(&tls.Config{RootCAs: roots}).
			SetAutoReconnect(false).SetProtocolVersion(4)
		c := pahomqtt.NewClient(opts)
		if tok := c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
			t.Fatalf("connect: %v", tok.Error())
		}
		defer c.Disconnect(100)
		// And Debian's mosquitto_sub, subscribed with the key over TLS.
		subCmd := exec.Command(sub, "-h", host, "-p", port, "--cafile", pki.caFile, "-V", "5", "-i", "fwtls-stay",
			"-u", credB.SN, "-P", credB.Key, "-t", "devices/"+credB.SN+"/commands")
		if err := subCmd.Start(); err != nil {
			t.Fatal(err)
		}
		subDone := make(chan error, 1)
		go func() { subDone <- subCmd.Wait() }()
		defer subCmd.Process.Kill()
		waitClient(t, m, credB.SN+"/fwtls-stay")
		if got := serverSerial(t, tlsAddr, roots); got != 2 {
			t.Fatalf("server serial %d, want 2", got)
		}
		// SIGHUP's path: a new pair, then ReloadTLS.
		pki.issueServer(t, 3)
		if err := m.ReloadTLS(); err != nil {
			t.Fatal(err)
		}
		if got := serverSerial(t, tlsAddr, roots); got != 3 {
			t.Errorf("after ReloadTLS: server serial %d, want 3", got)
		}
		// The file-change path: a new pair and no signal; seen within a
		// second or two of the change.
		time.Sleep(1100 * time.Millisecond) // the files' modification times must differ
		pki.issueServer(t, 4)
		for serverSerial(t, tlsAddr, roots) != 4 {
			time.Sleep(100 * time.Millisecond)
		}
		if !c.IsConnectionOpen() {
			t.Fatal("the device connected before the reloads was dropped")
		}
		select {
		case err := <-subDone:
			t.Fatalf("mosquitto_sub ended across the reloads: %v", err)
		default:
		}
		if !slices.Contains(m.MQTTClients(), credB.SN+"/fwtls-stay") {
			t.Fatal("mosquitto_sub's connection is gone after the reloads")
		}
		at := ts + 50
		publish(t, c, "devices/"+credB.SN+"/telemetry", fmt.Sprintf(`{"ts": %d, "values": {"airTemp": 8.5}}`, at))
		published(t, devB.ID, at, 8.5)
	})
}

// waitClient waits until the broker has the client of this id connected.
func waitClient(t *testing.T, m interface{ MQTTClients() []string }, id string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, c := range m.MQTTClients() {
			if c == id {
				return
			}
		}
	}
	t.Fatalf("client %s never connected", id)
}

// With the plain listener off, the broker serves TLS alone: plain MQTT is
// refused on the TLS port and the demo fleet (which speaks plain MQTT)
// cannot be combined with it.
func TestMQTTPlainOff(t *testing.T) {
	pub := needTool(t, "mosquitto_pub")
	pki := newServerPKI(t)
	cfg := ingestConfig(t)
	cfg.Demo = false
	cfg.MQTT, cfg.MQTTS = "off", "127.0.0.1:0"
	cfg.MQTTTLSCert, cfg.MQTTTLSKey = pki.certFile, pki.keyFile
	m := start(t, cfg)
	if a := m.Broker.ListenerAddr(ingest.ListenerTCP); a != nil {
		t.Fatalf("plain listener at %s with --mqtt off", a)
	}
	host, port, _ := net.SplitHostPort(m.Broker.ListenerAddr(ingest.ListenerTLS).String())
	if out, code := run(t, pub, "-h", host, "-p", port, "-u", "X", "-P", "y", "-t", "devices/X/telemetry", "-m", "{}"); code == 0 {
		t.Errorf("plain MQTT accepted with --mqtt off: %s", out)
	}

	bad := ingestConfig(t)
	bad.MQTT = ""
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "--mqtt off") {
		t.Errorf("--demo with --mqtt \"\": %v", err)
	}
	noCert := config.DefaultServe()
	noCert.MQTTS = ":8883"
	if err := noCert.Validate(); err == nil || !strings.Contains(err.Error(), "--mqtts needs a certificate") {
		t.Errorf("--mqtts without a certificate: %v", err)
	}
}
