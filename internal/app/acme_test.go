package app_test

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devicecert"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
)

// freePort is a loopback port free a moment ago, for a server that takes
// its ports from a configuration file.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// ACME against Pebble, Let's Encrypt's ACME test server, with validation
// turned off (PEBBLE_VA_ALWAYS_VALID): it checks that the server orders,
// caches and serves the certificate on HTTPS and on the MQTT TLS listener,
// not the TLS-ALPN-01 challenge itself, which needs port 443 of a public
// name. Pebble is not a Debian package: make test-go installs it from the
// Go module proxy into bin/tools and names it in FIELDWATCH_PEBBLE. Without
// it the test is skipped, and fails in CI.
func TestACMEPebble(t *testing.T) {
	pebble := os.Getenv("FIELDWATCH_PEBBLE")
	if pebble == "" {
		var err error
		if pebble, err = exec.LookPath("pebble"); err != nil {
			// make test-go installs it and names it; in CI a missing one fails the test.
			if os.Getenv("CI") == "true" {
				t.Fatalf("pebble not found (make test-go installs it; or FIELDWATCH_PEBBLE=path): %v", err)
			}
			t.Skip("pebble not found (make test-go installs it; or go install github.com/letsencrypt/pebble/v2/cmd/pebble@v2.10.3 and FIELDWATCH_PEBBLE=path)")
		}
	}
	dir := t.TempDir()
	certFile, keyFile, err := devicecert.SelfSigned(dir, "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	port, mgmt := freePort(t), freePort(t)
	conf, _ := json.Marshal(map[string]any{"pebble": map[string]any{
		"listenAddress": fmt.Sprintf("127.0.0.1:%d", port), "managementListenAddress": fmt.Sprintf("127.0.0.1:%d", mgmt),
		"certificate": certFile, "privateKey": keyFile, "httpPort": freePort(t), "tlsPort": freePort(t),
		"externalAccountBindingRequired": false,
	}})
	confFile := filepath.Join(dir, "pebble.json")
	if err := os.WriteFile(confFile, conf, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pebble, "-config", confFile)
	cmd.Env = append(os.Environ(), "PEBBLE_VA_ALWAYS_VALID=1", "PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0", "PEBBLE_AUTHZREUSE=100")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	pem, _ := os.ReadFile(certFile)
	pebbleCA := x509.NewCertPool()
	pebbleCA.AppendCertsFromPEM(pem)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pebbleCA}}, Timeout: 30 * time.Second}
	get := func(url string) ([]byte, error) {
		res, err := client.Get(url)
		if err != nil {
			return nil, err
		}
		defer res.Body.Close()
		if res.StatusCode != 200 {
			return nil, fmt.Errorf("%s: HTTP %d", url, res.StatusCode)
		}
		return io.ReadAll(res.Body)
	}
	directory := fmt.Sprintf("https://127.0.0.1:%d/dir", port)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := get(directory); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("pebble never answered: %v", err)
		}
	}

	const domain = "farm.fieldwatch.test"
	cfg := ingestConfig(t)
	cfg.Demo = false
	cfg.MQTTS = "127.0.0.1:0"
	cfg.ACMEDomains, cfg.ACMEEmail, cfg.ACMEDirectory, cfg.ACMECA = []string{domain}, "ops@fieldwatch.test", directory, certFile
	m := start(t, cfg)

	// The certificate is ordered at the first handshake that names it.
	tlsAddr := m.Broker.ListenerAddr(ingest.ListenerTLS).String()
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: time.Minute}, "tcp", tlsAddr, &tls.Config{ServerName: domain, InsecureSkipVerify: true})
	if err != nil {
		t.Fatalf("MQTT TLS handshake: %v", err)
	}
	leaf := c.ConnectionState().PeerCertificates
	c.Close()
	if len(leaf) == 0 || !slices.Contains(leaf[0].DNSNames, domain) {
		t.Fatalf("MQTT TLS certificate names %v, want %s", leaf[0].DNSNames, domain)
	}
	// It chains to Pebble's root.
	rootPEM, err := get(fmt.Sprintf("https://127.0.0.1:%d/roots/0", mgmt))
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(rootPEM) {
		t.Fatalf("pebble root: %s", rootPEM)
	}
	trusted := &tls.Config{ServerName: domain, RootCAs: roots}
	c, err = tls.Dial("tcp", tlsAddr, trusted)
	if err != nil {
		t.Fatalf("MQTT TLS with Pebble's root: %v", err)
	}
	c.Close()
	// A device that sends no server name gets the same certificate.
	c, err = tls.Dial("tcp", tlsAddr, &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		t.Fatalf("MQTT TLS without SNI: %v", err)
	}
	if names := c.ConnectionState().PeerCertificates[0].DNSNames; !slices.Contains(names, domain) {
		t.Errorf("without SNI: certificate names %v", names)
	}
	c.Close()

	// HTTPS on --addr serves it too.
	https := &http.Client{Transport: &http.Transport{TLSClientConfig: trusted}, Timeout: 30 * time.Second}
	res, err := https.Get(m.URL() + "/healthz")
	if err != nil {
		t.Fatalf("HTTPS: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("HTTPS /healthz: %d", res.StatusCode)
	}
	// Cached under --data for the next start.
	entries, err := os.ReadDir(filepath.Join(cfg.Data, "acme"))
	if err != nil || !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == domain }) {
		t.Errorf("acme cache: %v %v", entries, err)
	}
}
