package devicecert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReloaderKeepsTheOldPairUntilTheNewLoads(t *testing.T) {
	dir := t.TempDir()
	cert, key, err := SelfSigned(dir, "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReloader(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := r.GetCertificate(nil)

	// Half a renewal: a new certificate whose key is not there yet.
	other := t.TempDir()
	newCert, newKey, err := SelfSigned(other, "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(newCert)
	os.WriteFile(cert, b, 0o644)
	r.mu.Lock()
	r.checked = time.Time{} // as if a second had passed
	r.mu.Unlock()
	if got, _ := r.GetCertificate(nil); got != first {
		t.Fatal("a certificate without its key replaced the working pair")
	}
	if err := r.Reload(); err == nil {
		t.Fatal("Reload of a mismatched pair succeeded")
	}

	// The key arrives: the next handshake after the check interval sees it.
	b, _ = os.ReadFile(newKey)
	os.WriteFile(key, b, 0o600)
	r.mu.Lock()
	r.checked = time.Time{}
	r.mu.Unlock()
	if got, _ := r.GetCertificate(nil); got == first {
		t.Fatal("the renewed pair was not picked up")
	}
}

func TestCA(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := DefaultFiles(dir)
	if _, err := LoadCA(certFile, keyFile, false); err == nil {
		t.Fatal("an absent CA loaded without create")
	}
	ca, err := LoadCA(certFile, keyFile, true)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(keyFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("CA key mode: %v %v", fi, err)
	}
	again, err := LoadCA(certFile, keyFile, true)
	if err != nil || !again.Cert.Equal(ca.Cert) {
		t.Fatalf("second load made another CA: %v", err)
	}
	is, err := ca.Issue("TQS0100042", time.Now(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(is.KeyPEM), "EC PRIVATE KEY") || is.NotAfter.Before(time.Now().AddDate(9, 11, 0)) {
		t.Errorf("issued %+v", is)
	}

	// A device certificate is not a CA.
	os.WriteFile(filepath.Join(dir, "leaf.pem"), is.CertPEM, 0o644)
	os.WriteFile(filepath.Join(dir, "leaf.key"), is.KeyPEM, 0o600)
	if _, err := LoadCA(filepath.Join(dir, "leaf.pem"), filepath.Join(dir, "leaf.key"), false); err == nil || !strings.Contains(err.Error(), "not a CA") {
		t.Errorf("a device certificate loaded as CA: %v", err)
	}
}
