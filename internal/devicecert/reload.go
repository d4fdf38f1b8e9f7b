// Package devicecert holds the TLS side of the device link: server
// certificates that reload without a restart, the device certificate
// authority and the certificates the console issues to devices.
package devicecert

import (
	"crypto/tls"
	"fmt"
	"os"
	"sync"
	"time"
)

// Reloader serves a certificate and key pair from files and picks up a new
// pair when the files change (checked at most once a second, on a
// handshake) or when Reload is called (on SIGHUP). Connections made with
// the old pair stay up: only new handshakes see the new one.
type Reloader struct {
	CertFile, KeyFile string

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   string // the files' sizes and modification times when loaded
	checked time.Time
}

// NewReloader loads the pair once, so a bad pair fails at start.
func NewReloader(certFile, keyFile string) (*Reloader, error) {
	r := &Reloader{CertFile: certFile, KeyFile: keyFile}
	if err := r.Reload(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Reloader) fileStamp() string {
	s := ""
	for _, f := range []string{r.CertFile, r.KeyFile} {
		if fi, err := os.Stat(f); err == nil {
			s += fmt.Sprintf("%d:%d;", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return s
}

// Reload reads the pair again. A pair that does not load leaves the
// current one in place.
func (r *Reloader) Reload() error {
	stamp := r.fileStamp()
	cert, err := tls.LoadX509KeyPair(r.CertFile, r.KeyFile)
	if err != nil {
		return fmt.Errorf("load %s and %s: %w", r.CertFile, r.KeyFile, err)
	}
	r.mu.Lock()
	r.cert, r.stamp, r.checked = &cert, stamp, time.Now()
	r.mu.Unlock()
	return nil
}

// GetCertificate is a tls.Config.GetCertificate: the current pair, reloaded
// first when the files changed since it was loaded.
func (r *Reloader) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	stale := time.Since(r.checked) >= time.Second
	if stale {
		r.checked = time.Now()
	}
	cert, stamp := r.cert, r.stamp
	r.mu.Unlock()
	if stale && r.fileStamp() != stamp {
		// A half-written pair (one file renewed, not yet the other) fails to
		// load; the old pair serves until both are in place.
		if err := r.Reload(); err == nil {
			r.mu.Lock()
			cert = r.cert
			r.mu.Unlock()
		}
	}
	return cert, nil
}

// ServerConfig is a TLS 1.2+ server configuration serving r's pair.
func (r *Reloader) ServerConfig() *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: r.GetCertificate}
}
