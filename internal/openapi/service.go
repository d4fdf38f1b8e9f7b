package openapi

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/push"
)

// Store is what the application service needs from the database.
type Store interface {
	AuthStore
	CreateApp(ctx context.Context, a *App, sealed string) error
	// UpdateApp stores name, push address, range, channel and published.
	UpdateApp(ctx context.Context, a *App) error
	SetAppSecret(ctx context.Context, owner, id int64, sealed string) error
	DeleteApp(ctx context.Context, owner, id int64) error
	FindApp(ctx context.Context, owner, id int64) (*App, error)
	Apps(ctx context.Context, owner int64) ([]*App, error)
	// AppDevices returns the devices an application reaches, by id.
	AppDevices(ctx context.Context, a *App) ([]*devices.Device, error)
}

// Channels is the data-push store an application's push goes through.
type Channels interface {
	CreateChannel(ctx context.Context, c *push.Channel, sealedSecret string) error
	UpdateChannel(ctx context.Context, c *push.Channel) error
	SetChannelEnabled(ctx context.Context, owner, id int64, enabled bool, at time.Time) error
	SetChannelSecret(ctx context.Context, owner, id int64, sealed string) error
	DeleteChannel(ctx context.Context, owner, id int64) error
}

// Sealer seals and opens secrets (secret.Keeper).
type Sealer interface {
	Seal(plain []byte) string
	Open(sealed string) ([]byte, error)
}

// Owner checks a device belongs to an account (devices.Service.Owned).
type Owner interface {
	Owned(ctx context.Context, owner, id int64) (*devices.Device, error)
}

// Options configure the application service.
type Options struct {
	Store    Store
	Channels Channels
	Devices  Owner
	Keys     Sealer
	Guard    push.Guard
	Worker   interface{ Wake() }
	Now      func() time.Time
}

// Service holds the rules of applications.
type Service struct{ Options }

// New returns the application service.
func New(o Options) *Service { return &Service{Options: o} }

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// check validates a and that its chosen devices are the owner's (an
// application reads its owner's devices, including those reachable only
// through the open API).
func (s *Service) check(ctx context.Context, a *App) error {
	if err := a.Validate(); err != nil {
		return err
	}
	if a.PushURL != "" {
		if err := s.Guard.Check(ctx, "pushUrl", a.PushURL); err != nil {
			return err
		}
	}
	for _, id := range a.DeviceIDs {
		if _, err := s.Devices.Owned(ctx, a.OwnerID, id); err != nil {
			return errs.OnField(err, "deviceIds")
		}
	}
	return nil
}

// Create adds an unpublished application and returns its secret, the only
// time it is shown. Returns EINVALID (see App.Validate; push.url.unresolved
// or push.url.private for a push address the guard refuses), ENOTFOUND
// (deviceIds) for a chosen device that is not the owner's.
func (s *Service) Create(ctx context.Context, a *App) (string, error) {
	if err := s.check(ctx, a); err != nil {
		return "", err
	}
	a.AppKey, a.CreatedAt, a.UpdatedAt = NewKey(), s.now(), s.now()
	secret := NewSecret()
	sealed := s.Keys.Seal([]byte(secret))
	if err := s.syncChannel(ctx, a, sealed); err != nil {
		return "", err
	}
	if err := s.Store.CreateApp(ctx, a, sealed); err != nil {
		return "", err
	}
	return secret, nil
}

// syncChannel makes the application's push channel match it: created,
// updated or removed with its push address, enabled while published. It
// signs with the application's secret.
func (s *Service) syncChannel(ctx context.Context, a *App, sealed string) error {
	if a.PushURL == "" {
		if a.ChannelID != 0 {
			if err := s.Channels.DeleteChannel(ctx, a.OwnerID, a.ChannelID); err != nil && errs.KindOf(err) != errs.ENotFound {
				return err
			}
			a.ChannelID = 0
		}
		return nil
	}
	c := &push.Channel{ID: a.ChannelID, OwnerID: a.OwnerID, Kind: push.KindApp, Name: a.Name, URL: a.PushURL,
		AllDevices: a.AllDevices, DeviceIDs: a.DeviceIDs, Enabled: a.Published, CreatedAt: s.now(), UpdatedAt: s.now()}
	if a.ChannelID == 0 {
		if err := s.Channels.CreateChannel(ctx, c, sealed); err != nil {
			return err
		}
		a.ChannelID = c.ID
		return nil
	}
	if err := s.Channels.UpdateChannel(ctx, c); err != nil {
		return err
	}
	return s.Channels.SetChannelEnabled(ctx, a.OwnerID, a.ChannelID, a.Published, s.now())
}

// Update replaces name, push address and range. Returns ENOTFOUND for
// another account's application, EINVALID and ENOTFOUND (deviceIds) as
// Create.
func (s *Service) Update(ctx context.Context, a *App) error {
	old, err := s.Store.FindApp(ctx, a.OwnerID, a.ID)
	if err != nil {
		return err
	}
	a.AppKey, a.Published, a.ChannelID, a.CreatedAt, a.UpdatedAt = old.AppKey, old.Published, old.ChannelID, old.CreatedAt, s.now()
	if err := s.check(ctx, a); err != nil {
		return err
	}
	sealed := ""
	if a.PushURL != "" && a.ChannelID == 0 {
		if _, sealed, err = s.Store.AppByKey(ctx, a.AppKey); err != nil {
			return err
		}
	}
	if err := s.syncChannel(ctx, a, sealed); err != nil {
		return err
	}
	return s.Store.UpdateApp(ctx, a)
}

// Publish turns an application's key (and its push) on or off. Returns
// ENOTFOUND.
func (s *Service) Publish(ctx context.Context, owner, id int64, published bool) (*App, error) {
	a, err := s.Store.FindApp(ctx, owner, id)
	if err != nil {
		return nil, err
	}
	a.Published, a.UpdatedAt = published, s.now()
	if a.ChannelID != 0 {
		if err := s.Channels.SetChannelEnabled(ctx, owner, a.ChannelID, published, s.now()); err != nil {
			return nil, err
		}
	}
	if err := s.Store.UpdateApp(ctx, a); err != nil {
		return nil, err
	}
	if published && s.Worker != nil {
		s.Worker.Wake()
	}
	return a, nil
}

// ResetSecret replaces the secret (and the push signature's) and returns
// the new one, shown once. Returns ENOTFOUND.
func (s *Service) ResetSecret(ctx context.Context, owner, id int64) (string, error) {
	a, err := s.Store.FindApp(ctx, owner, id)
	if err != nil {
		return "", err
	}
	secret := NewSecret()
	sealed := s.Keys.Seal([]byte(secret))
	if err := s.Store.SetAppSecret(ctx, owner, id, sealed); err != nil {
		return "", err
	}
	if a.ChannelID != 0 {
		if err := s.Channels.SetChannelSecret(ctx, owner, a.ChannelID, sealed); err != nil {
			return "", err
		}
	}
	return secret, nil
}

// Delete removes an application and its push channel. Returns ENOTFOUND.
func (s *Service) Delete(ctx context.Context, owner, id int64) error {
	a, err := s.Store.FindApp(ctx, owner, id)
	if err != nil {
		return err
	}
	if a.ChannelID != 0 {
		if err := s.Channels.DeleteChannel(ctx, owner, a.ChannelID); err != nil && errs.KindOf(err) != errs.ENotFound {
			return err
		}
	}
	return s.Store.DeleteApp(ctx, owner, id)
}

// Get returns one of the owner's applications. Returns ENOTFOUND.
func (s *Service) Get(ctx context.Context, owner, id int64) (*App, error) {
	return s.Store.FindApp(ctx, owner, id)
}

// List returns the owner's applications, newest first. Fails only with
// EINTERNAL.
func (s *Service) List(ctx context.Context, owner int64) ([]*App, error) {
	return s.Store.Apps(ctx, owner)
}
