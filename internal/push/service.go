package push

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Store is what the channel service needs from the database.
type Store interface {
	CreateChannel(ctx context.Context, c *Channel, sealedSecret string) error
	// UpdateChannel replaces name, URL and devices of the owner's channel.
	UpdateChannel(ctx context.Context, c *Channel) error
	SetChannelEnabled(ctx context.Context, owner, id int64, enabled bool, at time.Time) error
	SetChannelSecret(ctx context.Context, owner, id int64, sealed string) error
	DeleteChannel(ctx context.Context, owner, id int64) error
	FindChannel(ctx context.Context, owner, id int64) (*Channel, error)
	Channels(ctx context.Context, owner int64, kind string) ([]*Channel, error)
	Deliveries(ctx context.Context, f LogFilter) ([]*Delivery, int, error)
	ChannelStats(ctx context.Context, channel int64, since time.Time) (Stats, error)
	// RetryDelivery makes a failed delivery of the owner's pending again.
	RetryDelivery(ctx context.Context, owner, id int64, now time.Time) error
}

// Sealer seals and opens channel secrets (secret.Keeper).
type Sealer interface {
	Seal(plain []byte) string
	Open(sealed string) ([]byte, error)
}

// Devices is the one permission check (devices.Service).
type Devices interface {
	Authorize(ctx context.Context, viewer, id int64, need devices.Need) (*devices.Device, devices.Right, error)
}

// Options configure the channel service.
type Options struct {
	Store   Store
	Devices Devices
	Keys    Sealer
	Guard   Guard
	Worker  interface{ Wake() }
	// Retries is the worker's retry schedule, for what receivers are told.
	Retries []time.Duration
	Now     func() time.Time
}

// Service holds the rules of channels.
type Service struct{ Options }

// New returns the channel service.
func New(o Options) *Service { return &Service{Options: o} }

// RetrySchedule is the waits before each retry.
func (s *Service) RetrySchedule() []time.Duration {
	if s.Retries != nil {
		return s.Retries
	}
	return DefaultBackoff
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// check validates c and that the owner may push each device's data: its
// owner, or a grantee with the export right (pushing data out is an export).
func (s *Service) check(ctx context.Context, c *Channel) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if err := s.Guard.Check(ctx, "url", c.URL); err != nil {
		return err
	}
	for _, id := range c.DeviceIDs {
		if _, _, err := s.Devices.Authorize(ctx, c.OwnerID, id, devices.NeedExport); err != nil {
			return errs.OnField(err, "deviceIds")
		}
	}
	return nil
}

// NewSecret returns a fresh signing secret, shown once.
func NewSecret() string {
	b := make([]byte, 24)
	rand.Read(b)
	return "whsec_" + hex.EncodeToString(b)
}

// Create adds a channel and returns its signing secret, the only time it is
// shown. Returns EINVALID (see Channel.Validate; push.url.unresolved or
// push.url.private for an address the guard refuses); for a chosen device
// (deviceIds), ENOTFOUND when the owner cannot see it and EFORBIDDEN
// (export.noRight) when it is shared without the export right.
func (s *Service) Create(ctx context.Context, c *Channel) (string, error) {
	if c.Kind == "" {
		c.Kind = KindChannel
	}
	if err := s.check(ctx, c); err != nil {
		return "", err
	}
	c.CreatedAt, c.UpdatedAt = s.now(), s.now()
	secret := NewSecret()
	if err := s.Store.CreateChannel(ctx, c, s.Keys.Seal([]byte(secret))); err != nil {
		return "", err
	}
	return secret, nil
}

// Update replaces a channel's name, address and devices. Returns ENOTFOUND
// for another account's channel; EINVALID, ENOTFOUND and EFORBIDDEN for its
// fields and devices as Create.
func (s *Service) Update(ctx context.Context, c *Channel) error {
	old, err := s.Store.FindChannel(ctx, c.OwnerID, c.ID)
	if err != nil {
		return err
	}
	c.Kind, c.Enabled, c.CreatedAt, c.UpdatedAt = old.Kind, old.Enabled, old.CreatedAt, s.now()
	if err := s.check(ctx, c); err != nil {
		return err
	}
	return s.Store.UpdateChannel(ctx, c)
}

// SetDevices replaces only the devices. Errors are as Update's.
func (s *Service) SetDevices(ctx context.Context, owner, id int64, ids []int64) error {
	c, err := s.Store.FindChannel(ctx, owner, id)
	if err != nil {
		return err
	}
	c.DeviceIDs = ids
	return s.Update(ctx, c)
}

// Switch enables or disables a channel. Reports that arrive while it is
// disabled are not pushed later. Returns ENOTFOUND.
func (s *Service) Switch(ctx context.Context, owner, id int64, enabled bool) error {
	if err := s.Store.SetChannelEnabled(ctx, owner, id, enabled, s.now()); err != nil {
		return err
	}
	if enabled && s.Worker != nil {
		s.Worker.Wake()
	}
	return nil
}

// ResetSecret replaces the signing secret and returns the new one (shown
// once). Returns ENOTFOUND.
func (s *Service) ResetSecret(ctx context.Context, owner, id int64) (string, error) {
	secret := NewSecret()
	if err := s.Store.SetChannelSecret(ctx, owner, id, s.Keys.Seal([]byte(secret))); err != nil {
		return "", err
	}
	return secret, nil
}

// Delete removes a channel and its log. Returns ENOTFOUND.
func (s *Service) Delete(ctx context.Context, owner, id int64) error {
	return s.Store.DeleteChannel(ctx, owner, id)
}

// Get returns one of the owner's channels. Returns ENOTFOUND.
func (s *Service) Get(ctx context.Context, owner, id int64) (*Channel, error) {
	return s.Store.FindChannel(ctx, owner, id)
}

// List returns the owner's channels of a kind. Fails only with EINTERNAL.
func (s *Service) List(ctx context.Context, owner int64, kind string) ([]*Channel, error) {
	return s.Store.Channels(ctx, owner, kind)
}

// Windows are the log's time filters (SPEC §9).
var Windows = map[string]time.Duration{
	"15m": 15 * time.Minute, "1h": time.Hour, "3h": 3 * time.Hour,
	"1d": 24 * time.Hour, "3d": 72 * time.Hour, "1w": 7 * 24 * time.Hour,
}

// LogFilter selects log entries.
type LogFilter struct {
	OwnerID   int64
	ChannelID int64 // 0: every channel of the owner
	DeviceID  int64
	Since     time.Time
	Status    Status // "" any
	Offset    int
	Limit     int
}

// Stats are a channel's figures over a window.
type Stats struct {
	LastActivity *time.Time
	Attempted    int // deliveries with at least one attempt in the window
	Succeeded    int
	Failed       int // dead-lettered
	Pending      int
	P50, P95     time.Duration // response time of successful deliveries
}

// SuccessRate is the share of attempted deliveries that succeeded, or -1
// when none was attempted.
func (s Stats) SuccessRate() float64 {
	if s.Attempted == 0 {
		return -1
	}
	return float64(s.Succeeded) / float64(s.Attempted)
}

// Log returns one page of log entries and the total. Returns ENOTFOUND for
// a channel that is not the owner's, EINVALID (status, query.unknownValue)
// for an unknown status.
func (s *Service) Log(ctx context.Context, f LogFilter) ([]*Delivery, int, error) {
	if f.ChannelID != 0 {
		if _, err := s.Store.FindChannel(ctx, f.OwnerID, f.ChannelID); err != nil {
			return nil, 0, err
		}
	}
	if !slices.Contains([]Status{"", StatusPending, StatusSuccess, StatusFail}, f.Status) {
		return nil, 0, errs.Invalid("status", "query.unknownValue")
	}
	return s.Store.Deliveries(ctx, f)
}

// Stats returns a channel's figures since a time. Returns ENOTFOUND.
func (s *Service) Stats(ctx context.Context, owner, id int64, since time.Time) (Stats, error) {
	if _, err := s.Store.FindChannel(ctx, owner, id); err != nil {
		return Stats{}, err
	}
	return s.Store.ChannelStats(ctx, id, since)
}

// Retry sends a failed delivery again, now. Returns ENOTFOUND for a
// delivery that is not the owner's or has not failed.
func (s *Service) Retry(ctx context.Context, owner, id int64) error {
	if err := s.Store.RetryDelivery(ctx, owner, id, s.now()); err != nil {
		return err
	}
	if s.Worker != nil {
		s.Worker.Wake()
	}
	return nil
}
