package devices

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Store is what the device service needs from the database.
type Store interface {
	CreateDevice(ctx context.Context, d *Device, sealedKey string) error
	FindDeviceByID(ctx context.Context, id int64) (*Device, error)
	FindDeviceBySN(ctx context.Context, sn string) (*Device, error)
	FindDeviceByHashID(ctx context.Context, hashID string) (*Device, error)
	DeviceKey(ctx context.Context, id int64) (string, error)
	SetDeviceKey(ctx context.Context, id int64, sealedKey string) error
	// DeviceRight returns the device and viewer's right on it; ENOTFOUND when
	// the viewer cannot see it.
	DeviceRight(ctx context.Context, viewer, id int64) (*Device, Right, error)
	FindDevices(ctx context.Context, viewer int64, f Filter, now time.Time) ([]*Device, int, error)
	MapDevices(ctx context.Context, viewer int64, now time.Time, each func(*MapPoint)) error
	UpdateProfile(ctx context.Context, id int64, p Profile) error
	UpdateConfig(ctx context.Context, id int64, c Config) error
	BindDevice(ctx context.Context, id, owner int64, name string, at time.Time) error
	UnbindDevice(ctx context.Context, id int64) error
	SetHealth(ctx context.Context, id int64, h Health) error
	SetState(ctx context.Context, id int64, st State) error
	SetLastError(ctx context.Context, id int64, e *IngestError) error
	Slaves(ctx context.Context, hostID int64) ([]*Device, error)

	Tags(ctx context.Context, account int64) ([]Tag, error)
	CreateTag(ctx context.Context, account int64, name string) (*Tag, error)
	DeleteTag(ctx context.Context, account, id int64) error
	AddDeviceTag(ctx context.Context, account, device, tag int64) error
	// AddDeviceTagNamed puts the account's tag of that name on a device,
	// creating the tag in the same transaction, so a refusal leaves none.
	AddDeviceTagNamed(ctx context.Context, account, device int64, name string) (*Tag, error)
	RemoveDeviceTag(ctx context.Context, account, device, tag int64) error
	DeviceTags(ctx context.Context, account int64, ids []int64) (map[int64][]Tag, error)
	// DeviceRights returns account's grant on those of ids shared with it.
	DeviceRights(ctx context.Context, account int64, ids []int64) (map[int64]Right, error)
}

// Health is what a status message reports.
type Health struct {
	At            time.Time
	Battery       *float64
	ChargeVoltage *float64
	Signal        *float64
	Faults        []int
}

// Keeper seals device keys and checks label codes (package secret).
type Keeper interface {
	Seal(plain []byte) string
	Open(sealed string) ([]byte, error)
	Code(s string) string
	CheckCode(s, code string) bool
}

// Service holds the business rules of devices. Every method taking a viewer
// answers ENOTFOUND for a device the viewer cannot see, exactly as for one
// that does not exist.
type Service struct {
	store Store
	keys  Keeper
	now   func() time.Time
	// keyChanged is told the SN of a device whose key was just replaced, so
	// the broker drops connections made with the old one.
	keyChanged func(sn string)
	// loginChanged is told the SN of a device whose broker login changed:
	// added, its key replaced, retired or back in service.
	loginChanged func(sn string)
}

// OnKeyChange sets what is told the SN of a device whose key was replaced
// (the embedded broker disconnects it). Call before serving.
func (s *Service) OnKeyChange(f func(sn string)) { s.keyChanged = f }

// OnLoginChange sets what is told the SN of a device whose login changed
// (registered, key replaced, retired or returned to service), so an external
// broker's logins follow (Login says what the login is now). Call before
// serving.
func (s *Service) OnLoginChange(f func(sn string)) { s.loginChanged = f }

func (s *Service) loginChange(sn string) {
	if s.loginChanged != nil {
		s.loginChanged(sn)
	}
}

// BrokerLogin is how a device logs in to a broker: its SN and key, and the
// SNs of the slaves it also speaks for. Key "" means it may not log in.
type BrokerLogin struct {
	SN, Key string
	Slaves  []string
}

// Login returns a device's broker login, without a key when it may not log
// in at all: unknown, or retired (StateScrap).
func (s *Service) Login(ctx context.Context, sn string) (BrokerLogin, error) {
	l := BrokerLogin{SN: sn}
	d, err := s.store.FindDeviceBySN(ctx, sn)
	if errs.KindOf(err) == errs.ENotFound {
		return l, nil
	}
	if err != nil {
		return l, err
	}
	if d.State == StateScrap {
		return l, nil
	}
	k, err := s.openKey(ctx, d.ID)
	if err != nil {
		return l, err
	}
	if !d.Slave && d.Type().Slave != nil {
		slaves, err := s.store.Slaves(ctx, d.ID)
		if err != nil {
			return l, err
		}
		for _, sl := range slaves {
			l.Slaves = append(l.Slaves, sl.SN)
		}
	}
	l.Key = string(k)
	return l, nil
}

// openKey opens device id's key. Returns ENOTFOUND.
func (s *Service) openKey(ctx context.Context, id int64) ([]byte, error) {
	sealed, err := s.store.DeviceKey(ctx, id)
	if err != nil {
		return nil, err
	}
	k, err := s.keys.Open(sealed)
	if err != nil {
		return nil, errs.Internal("device %d key: %w", id, err)
	}
	return k, nil
}

// Options configure a Service.
type Options struct {
	Store Store
	// Keys seals device keys and checks label codes (package secret).
	Keys Keeper
}

// New returns a device service.
func New(o Options) *Service {
	return &Service{store: o.Store, keys: o.Keys, now: time.Now}
}

// Registration is what registering a device needs.
type Registration struct {
	SN     string
	TypeID int
	Slave  bool   // an LQS001 slave of HostSN
	HostSN string // for a slave
	Owner  int64  // 0: unbound, bound later by scanning its label
	Name   string // default: model + last 5 of the SN
	Lat    *float64
	Lng    *float64
	State  State // default: used when owned, produce otherwise
	// ServiceYears and WarrantyYears from registration (default 3 and 1).
	ServiceYears, WarrantyYears int
}

// Register creates a device with a fresh key and returns the key, the only
// time it is shown besides the owner's credentials page. Returns EINVALID:
// device.sn.invalid (sn), device.type.unknown or device.type.noSlave
// (typeId), device.host.invalid (host), device.name.required or
// device.name.tooLong (name); ECONFLICT (device.sn.taken).
func (s *Service) Register(ctx context.Context, n Registration) (*Device, string, error) {
	if !ValidSN(n.SN) {
		return nil, "", errs.Invalid("sn", "device.sn.invalid")
	}
	t, ok := TypeByID(n.TypeID)
	if !ok {
		return nil, "", errs.Invalid("typeId", "device.type.unknown")
	}
	now := s.now()
	d := &Device{SN: n.SN, TypeID: n.TypeID, OwnerID: n.Owner, State: n.State, Lat: n.Lat, Lng: n.Lng, CreatedAt: now}
	if n.Slave {
		if t.Slave == nil {
			return nil, "", errs.Invalid("typeId", "device.type.noSlave")
		}
		host, err := s.store.FindDeviceBySN(ctx, n.HostSN)
		if err != nil || host.TypeID != n.TypeID || host.Slave {
			return nil, "", errs.Invalid("host", "device.host.invalid")
		}
		d.Slave, d.HostID = true, host.ID
		if d.OwnerID == 0 {
			d.OwnerID = host.OwnerID
		}
	}
	if d.State == "" {
		d.State = StateProduce
		if d.OwnerID != 0 {
			d.State = StateUsed
		}
	}
	name := n.Name
	if name == "" {
		name = d.Type().Model + "-" + lastDigits(n.SN, 5)
	}
	var err error
	if d.Name, err = NormalizeName(name); err != nil {
		return nil, "", err
	}
	if d.OwnerID != 0 {
		d.InstallAt = &now
	}
	service, warranty := n.ServiceYears, n.WarrantyYears
	if service == 0 {
		service = 3
	}
	if warranty == 0 {
		warranty = 1
	}
	su, wu := now.AddDate(service, 0, 0), now.AddDate(warranty, 0, 0)
	d.ServiceUntil, d.WarrantyUntil = &su, &wu
	d.HashID = randomHex(8)
	key := randomHex(16)
	if err := s.store.CreateDevice(ctx, d, s.keys.Seal([]byte(key))); err != nil {
		return nil, "", err
	}
	s.loginChange(d.SN)
	if d.Slave && n.HostSN != "" {
		s.loginChange(n.HostSN) // the host speaks for it
	}
	return d, key, nil
}

func lastDigits(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Authenticate checks a device's credentials (SN and key) and returns the
// device. Returns EUNAUTHORIZED (ingest.badCredentials) for an unknown SN
// or a wrong key alike.
func (s *Service) Authenticate(ctx context.Context, sn, key string) (*Device, error) {
	bad := errs.New(errs.EUnauthorized, "ingest.badCredentials")
	d, err := s.store.FindDeviceBySN(ctx, sn)
	if errs.KindOf(err) == errs.ENotFound {
		return nil, bad
	}
	if err != nil {
		return nil, err
	}
	want, err := s.openKey(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare(want, []byte(key)) != 1 || d.State == StateScrap {
		return nil, bad // a retired device logs in nowhere
	}
	return d, nil
}

// Owned returns a device of owner's, including one reachable only through
// the open API. Returns ENOTFOUND for anyone else's.
func (s *Service) Owned(ctx context.Context, owner, id int64) (*Device, error) {
	d, err := s.store.FindDeviceByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if d.OwnerID != owner || owner == 0 {
		return nil, errs.NotFound()
	}
	return d, nil
}

// FindByHashID resolves a page route's hash id to a device, whoever owns
// it: callers authorize the id before showing anything. Returns ENOTFOUND.
func (s *Service) FindByHashID(ctx context.Context, hashID string) (*Device, error) {
	return s.store.FindDeviceByHashID(ctx, hashID)
}

// FindBySN returns a device by SN, whoever owns it: for the device link,
// never for a user's request. Returns ENOTFOUND.
func (s *Service) FindBySN(ctx context.Context, sn string) (*Device, error) {
	return s.store.FindDeviceBySN(ctx, sn)
}

// Get returns a device the viewer can see, with the viewer's right and tags.
// Returns ENOTFOUND.
func (s *Service) Get(ctx context.Context, viewer, id int64) (*Device, Right, error) {
	return s.Open(ctx, viewer, id, NeedRead)
}

// BySN returns a device by SN if the viewer can see it. Returns ENOTFOUND.
func (s *Service) BySN(ctx context.Context, viewer int64, sn string) (*Device, Right, error) {
	d, err := s.store.FindDeviceBySN(ctx, sn)
	if err != nil {
		return nil, Right{}, err
	}
	return s.Get(ctx, viewer, d.ID)
}

// ByHashID returns a device by the hash id of its page routes if the viewer
// can see it. Returns ENOTFOUND.
func (s *Service) ByHashID(ctx context.Context, viewer int64, hashID string) (*Device, Right, error) {
	d, err := s.store.FindDeviceByHashID(ctx, hashID)
	if err != nil {
		return nil, Right{}, err
	}
	return s.Get(ctx, viewer, d.ID)
}

// MaxPage bounds a list page.
const MaxPage = 100

// List returns one page of the viewer's devices and the total matching.
// Fails only with EINTERNAL.
func (s *Service) List(ctx context.Context, viewer int64, f Filter) ([]*Device, int, error) {
	f.NameOrSN = strings.TrimSpace(f.NameOrSN)
	if f.Limit <= 0 || f.Limit > MaxPage {
		f.Limit = 20
	}
	if f.Offset < 0 {
		f.Offset = 0
	}
	if f.Belong == "" {
		f.Belong = BelongAll
	}
	list, total, err := s.store.FindDevices(ctx, viewer, f, s.now())
	if err != nil {
		return nil, 0, err
	}
	if err := s.attachTags(ctx, viewer, list); err != nil {
		return nil, 0, err
	}
	return list, total, nil
}

// All returns every device the viewer can see (for exports), with tags.
// Fails only with EINTERNAL.
func (s *Service) All(ctx context.Context, viewer int64) ([]*Device, error) {
	list, _, err := s.store.FindDevices(ctx, viewer, Filter{Belong: BelongAll, Limit: -1}, s.now())
	if err != nil {
		return nil, err
	}
	return list, s.attachTags(ctx, viewer, list)
}

func (s *Service) attachTags(ctx context.Context, viewer int64, list []*Device) error {
	ids := make([]int64, len(list))
	for i, d := range list {
		ids[i] = d.ID
	}
	tags, err := s.store.DeviceTags(ctx, viewer, ids)
	if err != nil {
		return err
	}
	var shared []int64
	for _, d := range list {
		d.Tags = tags[d.ID]
		if d.OwnerID != viewer {
			shared = append(shared, d.ID)
		}
	}
	rights, err := s.store.DeviceRights(ctx, viewer, shared)
	if err != nil {
		return err
	}
	for _, d := range list {
		if r, ok := rights[d.ID]; ok {
			d.Grant = &r
		}
	}
	return nil
}

// Map calls each for every device the viewer can see, in id order, with
// its position and status (the point is reused; see MapPoint). Fails only
// with EINTERNAL.
func (s *Service) Map(ctx context.Context, viewer int64, each func(*MapPoint)) error {
	return s.store.MapDevices(ctx, viewer, s.now(), each)
}

// UpdateProfile edits name, location, coordinates, altitude and install
// time. Returns ENOTFOUND, EFORBIDDEN (device.noModifyRight), EINVALID
// naming the field (see Profile.Validate).
func (s *Service) UpdateProfile(ctx context.Context, viewer, id int64, p Profile) error {
	if _, _, err := s.Authorize(ctx, viewer, id, NeedRename); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return err
	}
	return s.store.UpdateProfile(ctx, id, p)
}

// Rename changes only the name. Returns ENOTFOUND, EFORBIDDEN
// (device.noModifyRight), EINVALID (name: device.name.required,
// device.name.tooLong).
func (s *Service) Rename(ctx context.Context, viewer, id int64, name string) error {
	d, _, err := s.Authorize(ctx, viewer, id, NeedRename)
	if err != nil {
		return err
	}
	p := Profile{Name: name, Location: d.Location, Lat: d.Lat, Lng: d.Lng, Altitude: d.Altitude, InstallAt: d.InstallAt}
	if err := p.Validate(); err != nil {
		return err
	}
	return s.store.UpdateProfile(ctx, id, p)
}

// UpdateConfig edits the device's settings; they take effect at its next
// report. Returns ENOTFOUND, EFORBIDDEN (device.noModifyRight), EINVALID
// (reportInterval: device.config.interval).
func (s *Service) UpdateConfig(ctx context.Context, viewer, id int64, c Config) error {
	if _, _, err := s.Authorize(ctx, viewer, id, NeedSettings); err != nil {
		return err
	}
	if err := c.Validate(); err != nil {
		return err
	}
	return s.store.UpdateConfig(ctx, id, c)
}

// Remove unbinds a device from its owner and erases its history and tags;
// the device itself may be bound again from its label. Owner only. Returns
// ENOTFOUND, EFORBIDDEN (device.noModifyRight).
func (s *Service) Remove(ctx context.Context, viewer, id int64) error {
	if _, _, err := s.Authorize(ctx, viewer, id, NeedOwner); err != nil {
		return err
	}
	return s.store.UnbindDevice(ctx, id)
}

// Credentials returns a device's SN and key. Owner only. Returns
// ENOTFOUND, EFORBIDDEN (device.noModifyRight).
func (s *Service) Credentials(ctx context.Context, viewer, id int64) (*Device, string, error) {
	d, _, err := s.Authorize(ctx, viewer, id, NeedOwner)
	if err != nil {
		return nil, "", err
	}
	key, err := s.openKey(ctx, d.ID)
	if err != nil {
		return nil, "", err
	}
	return d, string(key), nil
}

// RotateKey replaces a device's key with a fresh one and returns it: the
// old key stops working at once, for new connections and HTTP reports, and
// connections made with it are closed. Owner only. Returns ENOTFOUND,
// EFORBIDDEN (device.noModifyRight).
func (s *Service) RotateKey(ctx context.Context, viewer, id int64) (*Device, string, error) {
	d, _, err := s.Authorize(ctx, viewer, id, NeedOwner)
	if err != nil {
		return nil, "", err
	}
	key := randomHex(16)
	if err := s.store.SetDeviceKey(ctx, id, s.keys.Seal([]byte(key))); err != nil {
		return nil, "", err
	}
	if s.keyChanged != nil {
		s.keyChanged(d.SN)
	}
	s.loginChange(d.SN)
	return d, key, nil
}

// Activate is a device's call at power-on: it proves itself with its SN and
// key and learns whether it has an owner yet. Returns EUNAUTHORIZED
// (ingest.badCredentials), as Authenticate.
func (s *Service) Activate(ctx context.Context, sn, key string) (*Device, error) {
	return s.Authenticate(ctx, sn, key)
}

// SetState moves a device through its lifecycle (operator tooling: the
// factory, logistics and the repair bench set these). Returns ENOTFOUND,
// EINVALID (state: device.state.unknown).
func (s *Service) SetState(ctx context.Context, sn string, st State) error {
	if !slices.Contains(States, st) {
		return errs.Invalid("state", "device.state.unknown")
	}
	d, err := s.store.FindDeviceBySN(ctx, sn)
	if err != nil {
		return err
	}
	if err := s.store.SetState(ctx, d.ID, st); err != nil {
		return err
	}
	if (d.State == StateScrap) != (st == StateScrap) {
		// Retired: its connections close and its login goes; back: it returns.
		if st == StateScrap && s.keyChanged != nil {
			s.keyChanged(d.SN)
		}
		s.loginChange(d.SN)
	}
	return nil
}

// Key returns a device's key for operator tooling (the simulator's
// registration), never for a user's request. Returns ENOTFOUND.
func (s *Service) Key(ctx context.Context, id int64) (string, error) {
	key, err := s.openKey(ctx, id)
	return string(key), err
}

// LabelCode is the text of a device's QR label: its SN and a code proving
// possession of the label.
func (s *Service) LabelCode(sn string) string { return "fw:" + sn + ":" + s.keys.Code(sn) }

// Scanned is what a label says, for the viewer.
type Scanned struct {
	Device *Device
	Mine   bool // the viewer already owns it
	Bound  bool // someone owns it
}

// parseLabel reads what a label says or a user typed: the label's URL
// (…/apps/info?code=fw:…), its text fw:{sn}:{code}, the SN and the check
// code printed under the QR code separated by a space, or a bare SN. A bare
// SN proves nothing: it finds only the viewer's own device.
func parseLabel(code string) (sn, proof string) {
	code = strings.TrimSpace(code)
	if u, err := url.Parse(code); err == nil && u.Scheme != "" && u.Host != "" {
		code = strings.TrimSpace(u.Query().Get("code"))
	}
	if rest, ok := strings.CutPrefix(code, "fw:"); ok {
		sn, proof, _ = strings.Cut(rest, ":")
		return sn, proof
	}
	if f := strings.Fields(code); len(f) == 2 {
		return f[0], f[1]
	}
	return code, ""
}

// Scan describes the device a label names. An unknown or malformed code is
// ENOTFOUND; so is a label whose proof is wrong, and a bare SN of a device
// that is not the viewer's.
func (s *Service) Scan(ctx context.Context, viewer int64, code string) (*Scanned, error) {
	sn, proof := parseLabel(code)
	if !ValidSN(sn) || proof == "" && viewer == 0 || proof != "" && !s.keys.CheckCode(sn, proof) {
		return nil, errs.NotFound()
	}
	d, err := s.store.FindDeviceBySN(ctx, sn)
	if err != nil {
		return nil, err
	}
	if proof == "" && d.OwnerID != viewer {
		return nil, errs.NotFound()
	}
	return &Scanned{Device: d, Mine: d.OwnerID == viewer, Bound: d.OwnerID != 0}, nil
}

// Bind makes the viewer the owner of the unbound device a label names, in
// use from now, under the name given. Returns ENOTFOUND (as Scan),
// ECONFLICT (device.bind.mine: the viewer's already; device.bind.taken:
// another account's), EINVALID (code: device.bind.slave for a slave, bound
// with its host; name: device.name.required, device.name.tooLong and
// text.CheckName's codes).
func (s *Service) Bind(ctx context.Context, viewer int64, code, name string) (*Device, error) {
	sc, err := s.Scan(ctx, viewer, code)
	if err != nil {
		return nil, err
	}
	switch {
	case sc.Mine:
		return nil, errs.New(errs.EConflict, "device.bind.mine")
	case sc.Bound:
		return nil, errs.New(errs.EConflict, "device.bind.taken")
	case sc.Device.Slave:
		return nil, errs.Invalid("code", "device.bind.slave")
	}
	if name, err = NormalizeName(name); err != nil {
		return nil, err
	}
	if err := s.store.BindDevice(ctx, sc.Device.ID, viewer, name, s.now()); err != nil {
		return nil, err
	}
	d, _, err := s.Get(ctx, viewer, sc.Device.ID)
	return d, err
}

// Topology returns a host and its slaves; for a slave, its host and
// siblings. Returns ENOTFOUND.
func (s *Service) Topology(ctx context.Context, viewer, id int64) (*Device, []*Device, error) {
	d, _, err := s.Authorize(ctx, viewer, id, NeedRead)
	if err != nil {
		return nil, nil, err
	}
	host := d
	if d.Slave && d.HostID != 0 {
		if host, err = s.store.FindDeviceByID(ctx, d.HostID); err != nil {
			return nil, nil, err
		}
	}
	slaves, err := s.store.Slaves(ctx, host.ID)
	return host, slaves, err
}

// RecordHealth stores what a status message said, unless a newer one is
// stored. Fails only with EINTERNAL.
func (s *Service) RecordHealth(ctx context.Context, id int64, h Health) error {
	return s.store.SetHealth(ctx, id, h)
}

// RecordError keeps the last refused report of a device for its owner.
// Fails only with EINTERNAL.
func (s *Service) RecordError(ctx context.Context, id int64, e *IngestError) error {
	return s.store.SetLastError(ctx, id, e)
}

// Tags lists the viewer's tags. Fails only with EINTERNAL.
func (s *Service) Tags(ctx context.Context, viewer int64) ([]Tag, error) {
	return s.store.Tags(ctx, viewer)
}

// CreateTag adds a tag. Returns EINVALID (tag): device.tag.required,
// device.tag.tooLong, or device.tag.taken when the viewer has a tag of that
// name.
func (s *Service) CreateTag(ctx context.Context, viewer int64, name string) (*Tag, error) {
	name, err := NormalizeTagName(name)
	if err != nil {
		return nil, err
	}
	return s.store.CreateTag(ctx, viewer, name)
}

// DeleteTag removes a tag from every device. Returns ENOTFOUND.
func (s *Service) DeleteTag(ctx context.Context, viewer, id int64) error {
	return s.store.DeleteTag(ctx, viewer, id)
}

// TagDevice puts one of the viewer's tags on a device the viewer can see;
// a tag it already carries is no error. Returns ENOTFOUND (the device),
// EINVALID (tagId: device.tag.notFound for a tag that is not the viewer's),
// ECONFLICT (device.tag.limit: already MaxTags).
func (s *Service) TagDevice(ctx context.Context, viewer, id, tag int64) error {
	if _, _, err := s.Authorize(ctx, viewer, id, NeedRead); err != nil {
		return err
	}
	return s.store.AddDeviceTag(ctx, viewer, id, tag)
}

// TagDeviceNamed puts the viewer's tag of that name on a device the viewer
// can see, creating the tag when the viewer has none, in one transaction: a
// refusal creates no tag. Returns the tag, ENOTFOUND (the device), EINVALID
// (tag: NormalizeTagName's codes), ECONFLICT (device.tag.limit).
func (s *Service) TagDeviceNamed(ctx context.Context, viewer, id int64, name string) (*Tag, error) {
	name, err := NormalizeTagName(name)
	if err != nil {
		return nil, err
	}
	if _, _, err := s.Authorize(ctx, viewer, id, NeedRead); err != nil {
		return nil, err
	}
	return s.store.AddDeviceTagNamed(ctx, viewer, id, name)
}

// UntagDevice removes a tag from a device. Returns ENOTFOUND (the device,
// or the tag was not on it).
func (s *Service) UntagDevice(ctx context.Context, viewer, id, tag int64) error {
	if _, _, err := s.Authorize(ctx, viewer, id, NeedRead); err != nil {
		return err
	}
	return s.store.RemoveDeviceTag(ctx, viewer, id, tag)
}
