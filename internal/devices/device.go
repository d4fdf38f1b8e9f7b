package devices

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/text"
)

// State is where a device is in its life, set by the operator (SPEC §4).
// Only a device in use reports; the others are on a shelf, in a van or at
// the repair bench.
type State string

const (
	StateProduce   State = "produce"   // built, not yet sold
	StateToDeliver State = "toDeliver" // sold, waiting to ship
	StateTransit   State = "transit"   // on its way
	StateDeliver   State = "deliver"   // delivered, not installed
	StateUsed      State = "used"      // installed and working
	StateIdle      State = "idle"      // bound but not deployed
	StateRepair    State = "repair"    // back for repair
	StateScrap     State = "scrap"     // retired
)

// States lists every lifecycle state.
var States = []State{StateProduce, StateToDeliver, StateTransit, StateDeliver, StateUsed, StateIdle, StateRepair, StateScrap}

// Status is what the console shows for a device: its lifecycle state, or,
// for a device in use, how it is doing.
type Status string

const (
	StatusOnline   Status = "online"
	StatusOffline  Status = "offline"
	StatusLowpower Status = "lowpower"
	StatusFault    Status = "fault"
)

// Statuses lists every status a device can show, operational first.
var Statuses = []Status{StatusOnline, StatusOffline, StatusLowpower, StatusFault,
	Status(StateProduce), Status(StateToDeliver), Status(StateTransit), Status(StateDeliver),
	Status(StateIdle), Status(StateRepair), Status(StateScrap)}

// Group is the map's colouring of a status.
type Group string

const (
	GroupWorking     Group = "working"
	GroupFault       Group = "fault"
	GroupNotDeployed Group = "notDeployed"
)

// GroupOf returns the map group of a status.
func GroupOf(s Status) Group {
	switch s {
	case StatusOnline, StatusOffline, StatusLowpower:
		return GroupWorking
	case StatusFault, Status(StateRepair):
		return GroupFault
	}
	return GroupNotDeployed
}

// LowBattery is the voltage under which a lithium-cell device needs charging
// (SPEC §9: charge at least 4 hours). Solar stations run 12 V packs, so the
// rule is meaningful only for cells, whose full charge is about 4.2 V.
const LowBattery = 3.2

// OfflineAfter is how long past its nominal interval a device may stay
// silent before it counts as offline: a sleepy probe that reports hourly is
// not offline at minute 61. Two missed reports plus a margin for clock drift
// and retries.
func OfflineAfter(interval time.Duration) time.Duration { return 2*interval + 5*time.Minute }

// Interval is how often the device reports: its setting, else its type's.
func (d *Device) Interval() time.Duration {
	if d.Config.ReportInterval > 0 {
		return time.Duration(d.Config.ReportInterval) * time.Minute
	}
	if t := d.Type(); t != nil {
		return t.Interval
	}
	return time.Hour
}

// Device is a field device (a POI in the spec's words).
type Device struct {
	ID     int64  // poiId
	HashID string // opaque id used in page routes
	SN     string
	TypeID int
	Slave  bool // a slave unit (LQS001) reporting through its host
	// APIOnly: reachable only through its owner's open-API applications,
	// not listed in the console (SPEC §6).
	APIOnly bool
	HostID  int64 // the host of a slave, 0 otherwise
	OwnerID int64 // 0 while unbound
	Name    string
	State   State

	Location  string
	Lat, Lng  *float64 // WGS84
	Altitude  *float64 // metres
	InstallAt *time.Time

	ServiceUntil  *time.Time // data service period end
	WarrantyUntil *time.Time
	CreatedAt     time.Time

	LastReportAt *time.Time
	OfflineAt    *time.Time // offline unless it reports again by then
	// GapFrom and GapTo bound the device's latest silence longer than its
	// offline threshold, set when it reported again; nil if it never had one.
	GapFrom, GapTo *time.Time
	Battery        *float64
	ChargeVoltage  *float64
	Signal         *float64
	Faults         []int // the device's fault codes; empty when healthy
	LastError      *IngestError
	Config         Config

	Tags []Tag // the caller's tags on this device
	// Grant is the caller's right on a device shared with them, where a
	// list knows it; nil for their own devices.
	Grant *Right
}

// Type returns the device's type; for a slave, its slave catalogue.
func (d *Device) Type() *Type {
	t, ok := TypeByID(d.TypeID)
	if !ok {
		return nil
	}
	if d.Slave && t.Slave != nil {
		return t.SlaveType()
	}
	return t
}

// StatusAt is the device's status at now.
func (d *Device) StatusAt(now time.Time) Status {
	if d.State != StateUsed {
		return Status(d.State)
	}
	if len(d.Faults) > 0 {
		return StatusFault
	}
	if d.OfflineAt == nil || now.After(*d.OfflineAt) {
		return StatusOffline
	}
	if d.Battery != nil && *d.Battery < LowBattery {
		return StatusLowpower
	}
	return StatusOnline
}

// IngestError is the last report a device sent that was refused.
type IngestError struct {
	At     time.Time
	Code   string // i18n key, e.g. ingest.unknownParam
	Field  string // JSON path of the fault
	Params map[string]any
}

// Config is a device's settings. Edits take effect at the next report.
type Config struct {
	// ReportInterval overrides the type's interval, in minutes; 0 keeps it.
	ReportInterval int `json:"reportInterval"`
}

// The range of a report interval a user may set, in minutes.
const (
	MinReportInterval = 1
	MaxReportInterval = 1440
)

// Validate checks the settings.
func (c Config) Validate() error {
	if c.ReportInterval != 0 && (c.ReportInterval < MinReportInterval || c.ReportInterval > MaxReportInterval) {
		return errs.Invalid("reportInterval", "device.config.interval").
			With(map[string]any{"min": MinReportInterval, "max": MaxReportInterval})
	}
	return nil
}

// Tag is a label an account puts on devices.
type Tag struct {
	ID   int64  `json:"tagId"`
	Name string `json:"tag"`
}

// MaxTags is how many tags a device may carry (SPEC §5).
const MaxTags = 3

// MaxTagName bounds a tag's length in characters.
const MaxTagName = 16

// NormalizeTagName trims a tag name and checks it.
func NormalizeTagName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", errs.Invalid("tag", "device.tag.required")
	}
	if utf8.RuneCountInString(name) > MaxTagName {
		return "", errs.Invalid("tag", "device.tag.tooLong").With(map[string]any{"max": MaxTagName})
	}
	return name, text.CheckName("tag", name)
}

// MaxName bounds a device name (SPEC §5: 1-16 characters).
const MaxName = 16

// NormalizeName trims a device name and checks it.
func NormalizeName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", errs.Invalid("name", "device.name.required")
	}
	if utf8.RuneCountInString(name) > MaxName {
		return "", errs.Invalid("name", "device.name.tooLong").With(map[string]any{"max": MaxName})
	}
	return name, text.CheckName("name", name)
}

// EarliestInstall is the earliest install time a profile may carry: no
// device of the registry was installed before 2000, and an earlier time
// (0, -1) is a client's placeholder, not a date.
var EarliestInstall = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Profile is the part of a device its users edit.
type Profile struct {
	Name      string
	Location  string
	Lat, Lng  *float64
	Altitude  *float64
	InstallAt *time.Time
}

// Validate normalizes and checks a profile.
func (p *Profile) Validate() error {
	name, err := NormalizeName(p.Name)
	if err != nil {
		return err
	}
	p.Name = name
	p.Location = strings.TrimSpace(p.Location)
	if utf8.RuneCountInString(p.Location) > 64 {
		return errs.Invalid("location", "device.location.tooLong").With(map[string]any{"max": 64})
	}
	if err := text.CheckName("location", p.Location); err != nil {
		return err
	}
	if (p.Lat == nil) != (p.Lng == nil) {
		return errs.Invalid("coordinates", "device.coordinates.pair")
	}
	if p.Lat != nil && (*p.Lat < -90 || *p.Lat > 90 || *p.Lat != *p.Lat) {
		return errs.Invalid("lat", "device.coordinates.lat")
	}
	if p.Lng != nil && (*p.Lng < -180 || *p.Lng > 180 || *p.Lng != *p.Lng) {
		return errs.Invalid("lng", "device.coordinates.lng")
	}
	if p.Altitude != nil && (*p.Altitude < -500 || *p.Altitude > 9000 || *p.Altitude != *p.Altitude) {
		return errs.Invalid("altitude", "device.altitude.range").With(map[string]any{"min": -500, "max": 9000})
	}
	if p.InstallAt != nil && p.InstallAt.Before(EarliestInstall) {
		return errs.Invalid("installTime", "device.installTime.tooEarly")
	}
	if p.InstallAt != nil && p.InstallAt.After(time.Now().Add(24*time.Hour)) {
		return errs.Invalid("installTime", "device.installTime.future")
	}
	return nil
}

// Belong selects devices by how the caller holds them.
type Belong string

const (
	BelongAll    Belong = "all"
	BelongMine   Belong = "mine"
	BelongShared Belong = "shared"
)

// Filter selects devices for the list. Pointer fields are optional.
type Filter struct {
	NameOrSN string // name substring, or the last 5+ digits of the SN
	Status   *Status
	TypeID   *int
	Category *Category
	Belong   Belong
	TagID    *int64
	Sort     string // name, sn, type, status, lastReport, created
	Desc     bool
	Offset   int
	Limit    int
}

// ValidSN reports whether s can be a serial number: 6-32 letters, digits or
// dashes. SNs appear in MQTT topics, so '/', '+' and '#' are never allowed.
func ValidSN(s string) bool {
	if len(s) < 6 || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == '-') {
			return false
		}
	}
	return true
}

// MapPoint is what the map shows of a device: little, for ten thousand of
// them. Map hands points to a callback one at a time, and the point is
// reused for the next: copy what must outlive the call.
type MapPoint struct {
	ID         int64
	HashID     string
	SN         string
	Name       string
	TypeID     int
	Status     Status
	HasPos     bool
	Lat, Lng   float64 // WGS84, when HasPos
	LastReport int64   // unix ms, 0 when never
}
