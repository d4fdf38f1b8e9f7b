package briefing

import (
	"context"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/exports"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// Store keeps presets, each scoped to its owner.
type Store interface {
	CreateBriefing(ctx context.Context, p *Preset) error
	// UpdateBriefing replaces one of p.OwnerID's presets; ENOTFOUND when
	// there is none with p.ID.
	UpdateBriefing(ctx context.Context, p *Preset) error
	Briefing(ctx context.Context, owner, id int64) (*Preset, error)
	Briefings(ctx context.Context, owner int64, page, size int) ([]*Preset, int, error)
	DeleteBriefing(ctx context.Context, owner, id int64) error
}

// Devices is what the service needs to know of devices: the ones a viewer
// may see.
type Devices interface {
	Get(ctx context.Context, viewer, id int64) (*devices.Device, devices.Right, error)
	All(ctx context.Context, viewer int64) ([]*devices.Device, error)
}

// Options configure the service.
type Options struct {
	Store   Store
	Devices Devices
	// Reports is what Report reads the data with.
	Reports ReportOptions
	// FontPath is the font embedded in PDFs (DefaultFont when empty);
	// Location is where days begin and times are written.
	FontPath string
	Location *time.Location
	// Exports queues the files: on demand and on schedule.
	Exports *exports.Service
	Now     func() time.Time
}

// Service is the business side of briefings; every call is scoped to the
// caller.
type Service struct{ Options }

// New returns the service.
func New(o Options) *Service { return &Service{Options: o} }

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// IsSoil reports whether a device type measures soil moisture per node.
func IsSoil(t *devices.Type) bool {
	if t == nil || len(t.Nodes) == 0 {
		return false
	}
	for _, p := range t.Params {
		if p.ID == "soilMoisture" {
			return true
		}
	}
	return false
}

// IsWeather reports whether a device type measures rainfall (a weather
// point of a briefing).
func IsWeather(t *devices.Type) bool {
	if t == nil {
		return false
	}
	for _, p := range t.Params {
		if p.ID == "rainfall" {
			return true
		}
	}
	return false
}

// check validates p and that every device is one owner can see and of the
// right kind. A device owner cannot see is briefing.devices.unknown, the
// same answer as one that does not exist.
func (s *Service) check(ctx context.Context, owner int64, p *Preset) error {
	p.Normalize()
	if err := p.Validate(); err != nil {
		return err
	}
	for _, sd := range p.SoilDevices {
		d, _, err := s.Devices.Get(ctx, owner, sd.DeviceID)
		if errs.KindOf(err) == errs.ENotFound {
			return errs.Invalid("zsDeviceIds", "briefing.devices.unknown")
		} else if err != nil {
			return err
		}
		if t, _ := devices.TypeByID(d.TypeID); !IsSoil(t) {
			return errs.Invalid("zsDeviceIds", "briefing.devices.notSoil").With(map[string]any{"name": d.Name})
		}
	}
	for _, id := range p.WeatherIDs {
		d, _, err := s.Devices.Get(ctx, owner, id)
		if errs.KindOf(err) == errs.ENotFound {
			return errs.Invalid("tqDeviceIds", "briefing.devices.unknown")
		} else if err != nil {
			return err
		}
		if t, _ := devices.TypeByID(d.TypeID); !IsWeather(t) {
			return errs.Invalid("tqDeviceIds", "briefing.devices.notWeather").With(map[string]any{"name": d.Name})
		}
	}
	return nil
}

// Create validates and stores a new preset of owner. Returns EINVALID.
func (s *Service) Create(ctx context.Context, owner int64, p *Preset) error {
	p.ID, p.OwnerID = 0, owner
	if err := s.check(ctx, owner, p); err != nil {
		return err
	}
	p.CreatedAt, p.UpdatedAt = s.now(), s.now()
	return s.Store.CreateBriefing(ctx, p)
}

// Update replaces one of owner's presets. Returns ENOTFOUND, EINVALID.
func (s *Service) Update(ctx context.Context, owner int64, p *Preset) error {
	old, err := s.Store.Briefing(ctx, owner, p.ID)
	if err != nil {
		return err
	}
	p.OwnerID = owner
	if err := s.check(ctx, owner, p); err != nil {
		return err
	}
	p.CreatedAt, p.UpdatedAt = old.CreatedAt, s.now()
	return s.Store.UpdateBriefing(ctx, p)
}

// SetSchedule switches one of owner's presets' schedule on or off.
// Returns ENOTFOUND, EINVALID (recipients required to switch on).
func (s *Service) SetSchedule(ctx context.Context, owner, id int64, on bool) (*Preset, error) {
	p, err := s.Store.Briefing(ctx, owner, id)
	if err != nil {
		return nil, err
	}
	p.Schedule.Enabled = on
	if err := s.Update(ctx, owner, p); err != nil {
		return nil, err
	}
	return p, nil
}

// Get returns one of owner's presets. Returns ENOTFOUND.
func (s *Service) Get(ctx context.Context, owner, id int64) (*Preset, error) {
	return s.Store.Briefing(ctx, owner, id)
}

// List returns a page of owner's presets, newest first.
func (s *Service) List(ctx context.Context, owner int64, page, size int) ([]*Preset, int, error) {
	return s.Store.Briefings(ctx, owner, page, size)
}

// Delete deletes one of owner's presets. Returns ENOTFOUND.
func (s *Service) Delete(ctx context.Context, owner, id int64) error {
	return s.Store.DeleteBriefing(ctx, owner, id)
}

// Candidate is a device a user may put in a briefing.
type Candidate struct {
	ID       int64  `json:"id"`
	SN       string `json:"sn"`
	Name     string `json:"name"`
	TypeID   int    `json:"typeId"`
	TypeName string `json:"typeName"`
	Kind     string `json:"kind"`  // "soil" or "weather"
	Nodes    []int  `json:"nodes"` // soil: its node depths, cm
	// MissingBands are the bands (1–3) the device has no node for with
	// the default band nodes.
	MissingBands []int    `json:"missingBands"`
	Lng          *float64 `json:"lng,omitempty"`
	Lat          *float64 `json:"lat,omitempty"`
}

// Candidates lists the soil and weather devices viewer may put in a
// briefing (briefing/device).
func (s *Service) Candidates(ctx context.Context, viewer int64, lang i18n.Lang) ([]Candidate, error) {
	all, err := s.Devices.All(ctx, viewer)
	if err != nil {
		return nil, err
	}
	out := []Candidate{}
	for _, d := range all {
		t, ok := devices.TypeByID(d.TypeID)
		if !ok {
			continue
		}
		c := Candidate{ID: d.ID, SN: d.SN, Name: d.Name, TypeID: d.TypeID, TypeName: t.Name(lang), Nodes: []int{}, MissingBands: []int{}}
		c.Lng, c.Lat = d.Lng, d.Lat
		switch {
		case IsSoil(t):
			c.Kind, c.Nodes = "soil", slices.Clone(t.Nodes)
			c.MissingBands = missingBands(t.Nodes, DefaultBandNodes)
		case IsWeather(t):
			c.Kind = "weather"
		default:
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

func missingBands(nodes []int, bands [3][]int) []int {
	out := []int{}
	for i, b := range bands {
		if !slices.ContainsFunc(b, func(n int) bool { return slices.Contains(nodes, n) }) {
			out = append(out, i+1)
		}
	}
	return out
}

// NoNode is a soil device without a node in a band.
type NoNode struct {
	ID    int64  `json:"id"`
	SN    string `json:"sn"`
	Name  string `json:"name"`
	Nodes []int  `json:"nodes"`
	Bands []int  `json:"bands"` // the bands (1–3) it lacks
}

// NoNodeDevices lists, among ids (all of viewer's soil devices when empty),
// the soil devices that lack a node of any band given by the band nodes
// (DefaultBandNodes where a band is empty). Devices viewer cannot see are
// EINVALID briefing.devices.unknown, like ones that do not exist.
func (s *Service) NoNodeDevices(ctx context.Context, viewer int64, ids []int64, bands [3][]int) ([]NoNode, error) {
	for i := range bands {
		if len(bands[i]) == 0 {
			bands[i] = DefaultBandNodes[i]
		}
	}
	var list []*devices.Device
	if len(ids) == 0 {
		all, err := s.Devices.All(ctx, viewer)
		if err != nil {
			return nil, err
		}
		list = all
	} else {
		for _, id := range ids {
			d, _, err := s.Devices.Get(ctx, viewer, id)
			if errs.KindOf(err) == errs.ENotFound {
				return nil, errs.Invalid("deviceIds", "briefing.devices.unknown")
			} else if err != nil {
				return nil, err
			}
			list = append(list, d)
		}
	}
	out := []NoNode{}
	for _, d := range list {
		t, _ := devices.TypeByID(d.TypeID)
		if !IsSoil(t) {
			continue
		}
		if miss := missingBands(t.Nodes, bands); len(miss) > 0 {
			out = append(out, NoNode{ID: d.ID, SN: d.SN, Name: d.Name, Nodes: slices.Clone(t.Nodes), Bands: miss})
		}
	}
	return out, nil
}
