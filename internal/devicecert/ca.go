package devicecert

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// CA is the authority that signs device certificates: the one created
// under --data, or the operator's own.
type CA struct {
	Cert *x509.Certificate
	Key  crypto.Signer
	PEM  []byte // Cert as PEM, handed to devices to check nothing but their CA
}

// DefaultFiles are the CA's files under the data directory.
func DefaultFiles(data string) (certFile, keyFile string) {
	return filepath.Join(data, "device-ca.pem"), filepath.Join(data, "device-ca.key")
}

// LoadCA loads the CA from its files. With create, absent files are made
// first: a new ECDSA P-256 key (mode 0600) and a self-signed certificate
// valid 30 years.
func LoadCA(certFile, keyFile string, create bool) (*CA, error) {
	if create {
		if _, err := os.Stat(certFile); errors.Is(err, fs.ErrNotExist) {
			if err := createCA(certFile, keyFile); err != nil {
				return nil, err
			}
		}
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("device CA %s and %s: %w", certFile, keyFile, err)
	}
	leaf := pair.Leaf
	if leaf == nil {
		if leaf, err = x509.ParseCertificate(pair.Certificate[0]); err != nil {
			return nil, fmt.Errorf("device CA %s: %w", certFile, err)
		}
	}
	if !leaf.IsCA {
		return nil, fmt.Errorf("device CA %s: the certificate is not a CA (basic constraints CA:TRUE)", certFile)
	}
	signer, ok := pair.PrivateKey.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("device CA %s: the key cannot sign", keyFile)
	}
	return &CA{Cert: leaf, Key: signer, PEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leaf.Raw})}, nil
}

func createCA(certFile, keyFile string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          randomSerial(),
		Subject:               pkix.Name{CommonName: "Fieldwatch device CA", Organization: []string{"Fieldwatch"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(30, 0, 0),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	keyPEM, err := keyToPEM(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(keyFile), 0o700); err != nil {
		return err
	}
	// O_EXCL: two servers starting at once on one data directory never
	// overwrite each other's key.
	f, err := os.OpenFile(keyFile, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("device CA key %s: %w", keyFile, err)
	}
	if _, err := f.Write(keyPEM); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
}

func keyToPEM(key *ecdsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), nil
}

// randomSerial is a 128-bit positive serial number.
func randomSerial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		panic(err) // crypto/rand does not fail
	}
	return n.Add(n, big.NewInt(1))
}

// Issued is a new device certificate with its key, as PEM.
type Issued struct {
	Serial   string // hex
	SN       string
	CertPEM  []byte
	KeyPEM   []byte
	CAPEM    []byte
	NotAfter time.Time
}

// Issue signs a certificate for the device sn: subject CN = sn, client
// authentication only, valid years years (never past the CA's own end), on a
// new ECDSA P-256 key.
func (ca *CA) Issue(sn string, now time.Time, years int) (*Issued, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	notAfter := now.AddDate(years, 0, 0)
	if notAfter.After(ca.Cert.NotAfter) {
		notAfter = ca.Cert.NotAfter
	}
	serial := randomSerial()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: sn, Organization: []string{"Fieldwatch device"}},
		NotBefore:    now.Add(-time.Hour), // a device clock a little behind still accepts it
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.Key)
	if err != nil {
		return nil, fmt.Errorf("sign device certificate: %w", err)
	}
	keyPEM, err := keyToPEM(key)
	if err != nil {
		return nil, err
	}
	return &Issued{Serial: SerialHex(serial), SN: sn, NotAfter: notAfter, CAPEM: ca.PEM, KeyPEM: keyPEM,
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}, nil
}

// SerialHex is a serial number as the store keeps it: lower-case hex.
func SerialHex(n *big.Int) string { return fmt.Sprintf("%x", n) }

// Pool is a certificate pool of the CA alone.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

// SelfSigned writes a self-signed server certificate for hosts (names or
// IP addresses) and its key to dir, for benchmarks and local trials; a
// client trusts it with the certificate file as its CA.
func SelfSigned(dir string, hosts ...string) (certFile, keyFile string, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          randomSerial(),
		Subject:               pkix.Name{CommonName: hosts[0]},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(1, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", "", err
	}
	keyPEM, err := keyToPEM(key)
	if err != nil {
		return "", "", err
	}
	certFile, keyFile = filepath.Join(dir, "server.pem"), filepath.Join(dir, "server.key")
	if err := os.WriteFile(keyFile, keyPEM, 0o600); err != nil {
		return "", "", err
	}
	return certFile, keyFile, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
}
