package devicecert

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// ACME obtains and renews the server certificate of the configured names
// from an ACME CA (Let's Encrypt by default) with the TLS-ALPN-01
// challenge, which the HTTPS listener answers: it must be reachable on
// port 443 of those names. Certificates and the account key are cached in
// a directory, and renewed 30 days before they expire.
type ACME struct {
	m       *autocert.Manager
	domains []string
}

// NewACME configures the manager. directory is the CA's ACME directory URL
// ("" is Let's Encrypt's); roots, if set, are the CAs that check the
// directory's own HTTPS (a private ACME server's).
func NewACME(domains []string, email, cacheDir, directory string, roots *x509.CertPool) *ACME {
	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      autocert.DirCache(cacheDir),
		HostPolicy: autocert.HostWhitelist(domains...),
		Email:      email,
	}
	if directory != "" || roots != nil {
		c := &acme.Client{DirectoryURL: directory}
		if roots != nil {
			c.HTTPClient = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
		}
		m.Client = c
	}
	return &ACME{m: m, domains: domains}
}

// GetCertificate is a tls.Config.GetCertificate. A client that sends no
// server name (some device TLS stacks do not) gets the first name's.
func (a *ACME) GetCertificate(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
	if hello.ServerName == "" {
		h := *hello
		h.ServerName = a.domains[0]
		hello = &h
	}
	return a.m.GetCertificate(hello)
}

// ServerConfig is the HTTPS configuration: the ACME certificates, and the
// TLS-ALPN-01 challenge answered on the same port.
func (a *ACME) ServerConfig() *tls.Config {
	cfg := a.m.TLSConfig()
	cfg.MinVersion = tls.VersionTLS12
	cfg.GetCertificate = a.GetCertificate
	return cfg
}
