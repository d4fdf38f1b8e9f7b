package devicecert

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Certificate is the record of an issued device certificate. The key and
// the certificate itself are not kept: the owner downloads them once.
type Certificate struct {
	Serial    string // hex
	DeviceID  int64
	OwnerID   int64 // the owner it was issued to; it stops working when the device changes hands
	CreatedAt time.Time
	NotAfter  time.Time
	RevokedAt *time.Time
}

// Store keeps the issued certificates.
type Store interface {
	// AddDeviceCertificate records a certificate; ENOTFOUND unless the device
	// is owned by c.OwnerID.
	AddDeviceCertificate(ctx context.Context, c Certificate) error
	// DeviceCertificates lists a device's certificates issued under its
	// current owner, newest first.
	DeviceCertificates(ctx context.Context, deviceID int64) ([]Certificate, error)
	// RevokeDeviceCertificate marks one revoked; ENOTFOUND when the device
	// has no such certificate under its current owner (or it is revoked).
	RevokeDeviceCertificate(ctx context.Context, deviceID int64, serial string, at time.Time) error
	// DeviceCertificateValid reports whether serial was issued to the device
	// sn under its current owner and is not revoked.
	DeviceCertificateValid(ctx context.Context, serial, sn string) (bool, error)
}

// Service issues, lists and revokes device certificates and checks the
// ones devices present.
type Service struct {
	// CertFile and KeyFile hold the CA; with Create they are made on first
	// use when absent (the CA under --data).
	CertFile, KeyFile string
	Create            bool
	Store             Store
	// Years is how long an issued certificate is valid (default 10).
	Years int
	// OnRevoke runs after a revocation, e.g. to disconnect the device
	// connected with that certificate.
	OnRevoke func(serial string)
	// OnRefused, if set, is told of each certificate refused at a handshake.
	OnRefused func()

	mu sync.Mutex
	ca *CA
}

// Authority loads the CA (creating it when allowed) on first use.
func (s *Service) Authority() (*CA, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ca == nil {
		ca, err := LoadCA(s.CertFile, s.KeyFile, s.Create)
		if err != nil {
			return nil, err
		}
		s.ca = ca
	}
	return s.ca, nil
}

// Issue makes a certificate for device d, owned by ownerID, and records it.
func (s *Service) Issue(ctx context.Context, ownerID int64, d *devices.Device) (*Issued, error) {
	years := s.Years
	if years <= 0 {
		years = 10
	}
	ca, err := s.Authority()
	if err != nil {
		return nil, errs.Internal("device CA: %w", err)
	}
	now := time.Now()
	is, err := ca.Issue(d.SN, now, years)
	if err != nil {
		return nil, errs.Internal("issue device certificate: %w", err)
	}
	if err := s.Store.AddDeviceCertificate(ctx, Certificate{Serial: is.Serial, DeviceID: d.ID, OwnerID: ownerID,
		CreatedAt: now, NotAfter: is.NotAfter}); err != nil {
		return nil, err
	}
	return is, nil
}

// List lists a device's certificates.
func (s *Service) List(ctx context.Context, deviceID int64) ([]Certificate, error) {
	return s.Store.DeviceCertificates(ctx, deviceID)
}

// Revoke revokes one of a device's certificates: from now on it is refused
// at the TLS handshake, and a device connected with it is disconnected.
func (s *Service) Revoke(ctx context.Context, deviceID int64, serial string) error {
	if err := s.Store.RevokeDeviceCertificate(ctx, deviceID, serial, time.Now()); err != nil {
		return err
	}
	if s.OnRevoke != nil {
		s.OnRevoke(serial)
	}
	return nil
}

// ErrRefused is the handshake error for a certificate the store does not
// accept (revoked, unknown, or of a device that changed hands).
var ErrRefused = errors.New("device certificate revoked or unknown")

// VerifyConnection is a tls.Config.VerifyConnection: a client certificate
// (already verified against the CA) must be one the console issued to the
// device its CN names, not revoked. A connection without one passes: the
// device then logs in with its SN and key.
func (s *Service) VerifyConnection(cs tls.ConnectionState) error {
	if len(cs.PeerCertificates) == 0 {
		return nil
	}
	leaf := cs.PeerCertificates[0]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ok, err := s.Store.DeviceCertificateValid(ctx, SerialHex(leaf.SerialNumber), leaf.Subject.CommonName)
	if err != nil {
		return err
	}
	if !ok {
		if s.OnRefused != nil {
			s.OnRefused()
		}
		return ErrRefused
	}
	return nil
}

// ServerConfig is the device listeners' TLS configuration: the server's
// certificate from getCert (a Reloader's or ACME's GetCertificate), and
// client certificates of the CA accepted (not required) and checked
// against the store.
func (s *Service) ServerConfig(getCert func(*tls.ClientHelloInfo) (*tls.Certificate, error)) (*tls.Config, error) {
	ca, err := s.Authority()
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: getCert}
	cfg.ClientAuth = tls.VerifyClientCertIfGiven
	cfg.ClientCAs = ca.Pool()
	cfg.VerifyConnection = s.VerifyConnection
	return cfg, nil
}

// stater is a connection that went through a TLS handshake: *tls.Conn, or
// a WebSocket connection over one.
type stater interface {
	ConnectionState() tls.ConnectionState
}

// Peer is the SN and serial of the verified client certificate a
// connection presented; ok is false without one.
func Peer(c net.Conn) (sn, serial string, ok bool) {
	st, isTLS := c.(stater)
	if !isTLS {
		return "", "", false
	}
	cs := st.ConnectionState()
	if len(cs.VerifiedChains) == 0 || len(cs.PeerCertificates) == 0 {
		return "", "", false
	}
	leaf := cs.PeerCertificates[0]
	return leaf.Subject.CommonName, SerialHex(leaf.SerialNumber), true
}
