// Package sharing lets an owner share devices with other accounts, with
// rights per grant, and hand devices over to another account (SPEC §3
// Authorization, §6). Both travel as links that expire after 30 minutes and
// work once. Who may see a device is decided in one place (the store's
// visibility clause, through devices.Service.Authorize); this package only
// creates and removes grants and moves ownership.
package sharing

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Kind is what a link does.
type Kind string

const (
	KindGrant    Kind = "grant"    // share with rights
	KindTransfer Kind = "transfer" // move ownership
)

// LinkTTL is how long a link can be accepted (SPEC §9).
const LinkTTL = 30 * time.Minute

// MaxLinkDevices bounds one link.
const MaxLinkDevices = 500

// Link is an offer to share or transfer devices. Only the SHA-256 of its
// token is stored: a database dump does not reveal live links.
type Link struct {
	ID        string // hex SHA-256 of the token
	Kind      Kind
	OwnerID   int64
	Right     devices.Right // for grants; Owner is always false
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
	UsedBy    int64
	DeviceIDs []int64
}

// Available reports whether the link can still be accepted at now.
func (l *Link) Available(now time.Time) bool {
	return l.UsedAt == nil && now.Before(l.ExpiresAt)
}

// Person is an account as others see it.
type Person struct {
	ID            int64
	Name          string
	AccountNumber string
}

// DeviceRef is what a sharing list shows of a device.
type DeviceRef struct {
	ID     int64
	HashID string
	SN     string
	Name   string
	TypeID int
	Slave  bool
}

// Entry is one grant: a device, its owner, the grantee and their right.
type Entry struct {
	Device  DeviceRef
	Owner   Person
	Grantee Person
	Right   devices.Right
	At      time.Time
}

// Transfer records one change of a device's owner.
type Transfer struct {
	DeviceID, From, To int64
	At                 time.Time
}

// EntryFilter selects grants; zero fields do not filter.
type EntryFilter struct {
	OwnerID   int64 // devices owned by
	GranteeID int64
	DeviceID  int64
}

// Store is what sharing needs from the database.
type Store interface {
	CreateLink(ctx context.Context, l *Link) error
	// FindLink returns a link by ID with its devices. Returns ENOTFOUND.
	FindLink(ctx context.Context, id string) (*Link, error)
	// LinkDevices returns the devices of a link that its owner still owns.
	LinkDevices(ctx context.Context, l *Link) ([]DeviceRef, error)
	// AcceptLink marks the link used by account and, in the same
	// transaction, grants or transfers those of its devices (and their
	// slaves) its owner still owns. Returns the devices, or ECONFLICT
	// share.linkUnavailable when the link is used, expired or covers
	// nothing any more.
	AcceptLink(ctx context.Context, id string, account int64, now time.Time) ([]int64, error)
	Entries(ctx context.Context, f EntryFilter) ([]Entry, error)
	// Revoke removes grants matching f (at least one field set); returns
	// how many.
	Revoke(ctx context.Context, f EntryFilter) (int, error)
	// SetRight changes one grant. Returns ENOTFOUND.
	SetRight(ctx context.Context, device, grantee int64, r devices.Right) error
	FindAccount(ctx context.Context, id int64) (*Person, error)
}

// Devices is the one permission check (devices.Service).
type Devices interface {
	Authorize(ctx context.Context, viewer, id int64, need devices.Need) (*devices.Device, devices.Right, error)
}

// Options configure a Service.
type Options struct {
	Store   Store
	Devices Devices
	Now     func() time.Time // default time.Now
}

// Service holds the rules of sharing.
type Service struct{ Options }

// New returns the sharing service.
func New(o Options) *Service { return &Service{Options: o} }

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// NewToken returns a link token and its stored ID.
func NewToken() (token, id string) {
	b := make([]byte, 16)
	rand.Read(b)
	token = hex.EncodeToString(b)
	return token, TokenID(token)
}

// TokenID is the stored ID of a token.
func TokenID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Offer creates a link for devices the viewer owns. right is ignored for a
// transfer, and never grants ownership. Returns the link and its token
// (shown once); EINVALID: query.unknownValue (kind), share.noDevices ('batch
// authorization' rule) or share.tooManyDevices (poiIds); ENOTFOUND (a
// device the viewer cannot see); EFORBIDDEN (device.noModifyRight: one
// shared with the viewer).
func (s *Service) Offer(ctx context.Context, viewer int64, kind Kind, ids []int64, right devices.Right) (*Link, string, error) {
	if kind != KindGrant && kind != KindTransfer {
		return nil, "", errs.Invalid("kind", "query.unknownValue")
	}
	ids = dedupe(ids)
	if len(ids) == 0 {
		return nil, "", errs.Invalid("poiIds", "share.noDevices")
	}
	if len(ids) > MaxLinkDevices {
		return nil, "", errs.Invalid("poiIds", "share.tooManyDevices").With(map[string]any{"max": MaxLinkDevices})
	}
	for _, id := range ids {
		if _, _, err := s.Devices.Authorize(ctx, viewer, id, devices.NeedOwner); err != nil {
			return nil, "", err
		}
	}
	now := s.now()
	token, id := NewToken()
	l := &Link{ID: id, Kind: kind, OwnerID: viewer, CreatedAt: now, ExpiresAt: now.Add(LinkTTL), DeviceIDs: ids}
	if kind == KindGrant {
		l.Right = devices.Right{Rename: right.Rename, Settings: right.Settings, Export: right.Export}
	}
	if err := s.Store.CreateLink(ctx, l); err != nil {
		return nil, "", err
	}
	return l, token, nil
}

func dedupe(ids []int64) []int64 {
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if id > 0 && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// Offered is a link as its receiver sees it before accepting.
type Offered struct {
	Link    *Link
	From    *Person
	Devices []DeviceRef
}

// Describe returns what a link offers, or nil when it is unavailable
// (unknown, used, expired, or its devices are gone). Needs no login: the
// token is the proof. Fails only with EINTERNAL.
func (s *Service) Describe(ctx context.Context, token string) (*Offered, error) {
	l, err := s.Store.FindLink(ctx, TokenID(token))
	if errs.KindOf(err) == errs.ENotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !l.Available(s.now()) {
		return nil, nil
	}
	ds, err := s.Store.LinkDevices(ctx, l)
	if err != nil || len(ds) == 0 {
		return nil, err
	}
	from, err := s.Store.FindAccount(ctx, l.OwnerID)
	if err != nil {
		return nil, err
	}
	return &Offered{Link: l, From: from, Devices: ds}, nil
}

// Accept uses a link: the viewer becomes a grantee, or the owner. Returns
// the link's kind and devices; ECONFLICT share.linkUnavailable, or
// share.ownLink when the viewer made it.
func (s *Service) Accept(ctx context.Context, viewer int64, token string) (Kind, []int64, error) {
	unavailable := errs.New(errs.EConflict, "share.linkUnavailable")
	l, err := s.Store.FindLink(ctx, TokenID(token))
	if errs.KindOf(err) == errs.ENotFound {
		return "", nil, unavailable
	}
	if err != nil {
		return "", nil, err
	}
	if l.OwnerID == viewer {
		return "", nil, errs.New(errs.EConflict, "share.ownLink")
	}
	ids, err := s.Store.AcceptLink(ctx, l.ID, viewer, s.now())
	if err != nil {
		return "", nil, err
	}
	return l.Kind, ids, nil
}

// SharedWithMe lists the grants the viewer holds. Fails only with
// EINTERNAL.
func (s *Service) SharedWithMe(ctx context.Context, viewer int64) ([]Entry, error) {
	return s.Store.Entries(ctx, EntryFilter{GranteeID: viewer})
}

// Granted lists the grants on the viewer's devices. Fails only with
// EINTERNAL.
func (s *Service) Granted(ctx context.Context, viewer int64) ([]Entry, error) {
	return s.Store.Entries(ctx, EntryFilter{OwnerID: viewer})
}

// Grantees lists the grants on one of the viewer's devices. Owner only.
// Returns ENOTFOUND, EFORBIDDEN (device.noModifyRight).
func (s *Service) Grantees(ctx context.Context, viewer, device int64) ([]Entry, error) {
	if _, _, err := s.Devices.Authorize(ctx, viewer, device, devices.NeedOwner); err != nil {
		return nil, err
	}
	return s.Store.Entries(ctx, EntryFilter{OwnerID: viewer, DeviceID: device})
}

// GiveBack ends the grant the viewer holds on device. Returns ENOTFOUND
// when there is none.
func (s *Service) GiveBack(ctx context.Context, viewer, device int64) error {
	if device <= 0 { // a zero device would match every grant the viewer holds
		return errs.NotFound()
	}
	return revoked(s.Store.Revoke(ctx, EntryFilter{GranteeID: viewer, DeviceID: device}))
}

// RevokeDevice ends every grant on one of the viewer's devices; grantee 0
// means all of them. Owner only. Returns ENOTFOUND (a device the viewer
// cannot see, or nothing matched), EFORBIDDEN (device.noModifyRight).
func (s *Service) RevokeDevice(ctx context.Context, viewer, device, grantee int64) error {
	if _, _, err := s.Devices.Authorize(ctx, viewer, device, devices.NeedOwner); err != nil {
		return err
	}
	return revoked(s.Store.Revoke(ctx, EntryFilter{OwnerID: viewer, DeviceID: device, GranteeID: grantee}))
}

// RevokeUser ends every grant the viewer made to grantee. Returns ENOTFOUND
// when there was none.
func (s *Service) RevokeUser(ctx context.Context, viewer, grantee int64) error {
	if grantee <= 0 {
		return errs.NotFound()
	}
	return revoked(s.Store.Revoke(ctx, EntryFilter{OwnerID: viewer, GranteeID: grantee}))
}

func revoked(n int, err error) error {
	if err == nil && n == 0 {
		return errs.NotFound()
	}
	return err
}

// Permissions returns grantee's right on one of the viewer's devices (owner
// only), or with grantee 0 the viewer's own right. Returns ENOTFOUND (a
// device the viewer cannot see, or grantee holds no grant on it),
// EFORBIDDEN (device.noModifyRight) when a grantee asks about another
// account.
func (s *Service) Permissions(ctx context.Context, viewer, device, grantee int64) (devices.Right, error) {
	if grantee == 0 || grantee == viewer {
		_, r, err := s.Devices.Authorize(ctx, viewer, device, devices.NeedRead)
		return r, err
	}
	es, err := s.Grantees(ctx, viewer, device)
	if err != nil {
		return devices.Right{}, err
	}
	for _, e := range es {
		if e.Grantee.ID == grantee {
			return e.Right, nil
		}
	}
	return devices.Right{}, errs.NotFound()
}

// SetPermissions changes grantee's right on one of the viewer's devices;
// it never grants ownership. Owner only. Returns ENOTFOUND (a device the
// viewer cannot see, or grantee holds no grant on it), EFORBIDDEN
// (device.noModifyRight).
func (s *Service) SetPermissions(ctx context.Context, viewer, device, grantee int64, r devices.Right) error {
	if _, _, err := s.Devices.Authorize(ctx, viewer, device, devices.NeedOwner); err != nil {
		return err
	}
	return s.Store.SetRight(ctx, device, grantee, devices.Right{Rename: r.Rename, Settings: r.Settings, Export: r.Export})
}
