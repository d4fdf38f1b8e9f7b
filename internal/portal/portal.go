// Package portal keeps the unified portal links of devices: a page with no
// login that shows one device's readings, its controls and its recent
// commands to whoever holds the link (SPEC §2 /uni-portal/{sn}).
//
// No login does not mean open to anyone. The owner turns the portal on for
// one device and gets a link carrying a 256-bit random token, shown once;
// only its SHA-256 is kept. Making a new link replaces the old one, turning
// the portal off deletes it, and a link counts only while the device has the
// owner who made it (a removed or transferred device drops its link).
package portal

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Link is a device's portal link, without its token.
type Link struct {
	DeviceID     int64
	OwnerID      int64 // the owner who made it, and in whose name its commands go
	AllowControl bool  // whether the portal may send commands
	CreatedAt    time.Time
}

// Store keeps links by the hash of their token.
type Store interface {
	// SetDevicePortal makes or replaces the device's link; ENOTFOUND unless
	// l.OwnerID owns the device.
	SetDevicePortal(ctx context.Context, l Link, tokenHash string) error
	// DevicePortal returns the device's link under its current owner;
	// ENOTFOUND when there is none.
	DevicePortal(ctx context.Context, deviceID int64) (*Link, error)
	// DeleteDevicePortal removes the device's link; ENOTFOUND when there is none.
	DeleteDevicePortal(ctx context.Context, deviceID int64) error
	// OpenDevicePortal returns the link of the device sn whose token hashes
	// to tokenHash, while the device has the owner who made it; ENOTFOUND
	// otherwise.
	OpenDevicePortal(ctx context.Context, sn, tokenHash string) (*Link, error)
}

// Service makes, reads, revokes and opens portal links.
type Service struct {
	Store Store
	Now   func() time.Time // time.Now when nil
}

// tokenBytes is the randomness of a link's token: 256 bits.
const tokenBytes = 32

// Create turns the portal of d on for its owner, replacing any link made
// before, and returns the new link's token: the only time it is known.
// Returns ENOTFOUND when owner does not own d.
func (s *Service) Create(ctx context.Context, owner int64, d *devices.Device, allowControl bool) (string, *Link, error) {
	if d.OwnerID != owner {
		return "", nil, errs.NotFound()
	}
	b := make([]byte, tokenBytes)
	rand.Read(b)
	token := base64.RawURLEncoding.EncodeToString(b)
	l := &Link{DeviceID: d.ID, OwnerID: owner, AllowControl: allowControl, CreatedAt: s.now().Truncate(time.Millisecond)}
	if err := s.Store.SetDevicePortal(ctx, *l, Hash(token)); err != nil {
		return "", nil, err
	}
	return token, l, nil
}

// Status returns the device's link, or nil when its portal is off.
func (s *Service) Status(ctx context.Context, deviceID int64) (*Link, error) {
	l, err := s.Store.DevicePortal(ctx, deviceID)
	if errs.KindOf(err) == errs.ENotFound {
		return nil, nil
	}
	return l, err
}

// Revoke turns the device's portal off: its link stops working at once.
// Turning off a portal that is off is not an error.
func (s *Service) Revoke(ctx context.Context, deviceID int64) error {
	if err := s.Store.DeleteDevicePortal(ctx, deviceID); err != nil && errs.KindOf(err) != errs.ENotFound {
		return err
	}
	return nil
}

// Open returns the link a visitor holds for the device sn. A wrong token,
// a device that does not exist, one whose portal is off and one that
// changed hands all answer ENOTFOUND, alike.
func (s *Service) Open(ctx context.Context, sn, token string) (*Link, error) {
	if len(token) != base64.RawURLEncoding.EncodedLen(tokenBytes) || !devices.ValidSN(sn) {
		return nil, errs.NotFound()
	}
	return s.Store.OpenDevicePortal(ctx, sn, Hash(token))
}

// Hash is what is kept of a token: its SHA-256 in hex. The token has 256
// bits of randomness, so no slow hash is needed.
func Hash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}
