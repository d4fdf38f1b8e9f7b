package soil

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Config is a device's settings as the settings form shows them: every node
// of its type with its soil and what follows from it.
type Config struct {
	Configured bool // every node has its soil set
	Nodes      []Node
	Settings   *Settings // nil when the device has none
}

// Node is one node's soil, with what follows from it.
type Node struct {
	Depth         int
	Thickness     float64  // cm of soil the node stands for
	FieldCapacity *float64 // vol %; nil when not set
	UnitWeight    *float64 // g/cm³
	Saturation    *float64 // vol %, the waterlogging threshold
}

func config(st *Settings, t *devices.Type) *Config {
	c := &Config{Configured: st.configured(t.Nodes), Nodes: []Node{}, Settings: st}
	thick := agro.LayerThickness(floats(t.Nodes))
	for i, d := range t.Nodes {
		n := Node{Depth: d, Thickness: thick[i]}
		if nc, ok := st.node(d); ok {
			n.FieldCapacity, n.UnitWeight = readings.Ptr(nc.FieldCapacity), readings.Ptr(nc.UnitWeight)
			n.Saturation = readings.Ptr(readings.Round(nc.Saturation(), 1))
		}
		c.Nodes = append(c.Nodes, n)
	}
	return c
}

// Settings returns a soil device's settings (GET /apis/poi/shang/config).
// Returns EINVALID (not a soil device).
func (s *Service) Settings(ctx context.Context, d *devices.Device) (*Config, error) {
	t, st, err := s.probeSettings(ctx, d)
	if err != nil {
		return nil, err
	}
	return config(st, t), nil
}

// SettingsInput is a replacement of the settings.
type SettingsInput struct {
	Nodes            []NodeConfig
	CropType         string
	CropVariety      string
	IrrigationMethod string
	PlantingTime     *time.Time
	AreaMu           *float64
	EnableTime       *time.Time
	Upload           bool
}

// SaveSettings replaces a soil device's settings (PUT
// /apis/poi/shang/config); the caller holds the settings right on d.
// Returns EINVALID.
func (s *Service) SaveSettings(ctx context.Context, d *devices.Device, in SettingsInput) (*Config, error) {
	t, err := probe(d)
	if err != nil {
		return nil, err
	}
	st := &Settings{DeviceID: d.ID, Nodes: in.Nodes, CropType: in.CropType, CropVariety: in.CropVariety,
		IrrigationMethod: in.IrrigationMethod, PlantingTime: in.PlantingTime, AreaMu: in.AreaMu, EnableTime: in.EnableTime,
		Upload: in.Upload, UpdatedAt: s.rd.Now()}
	if err := st.Validate(t.Nodes); err != nil {
		return nil, err
	}
	if err := s.store.SaveSoilSettings(ctx, st); err != nil {
		return nil, err
	}
	return config(st, t), nil
}

// CropInput is the crop of POST/PUT /apis/poi/crop/update (SPEC §3 "Crop
// info: sowTime, cropName, area"): CropName is a crop type id of Crops.
// Nil fields keep their value.
type CropInput struct {
	SowTime     *time.Time
	CropName    *string
	CropVariety *string
	Area        *float64 // mu
}

// UpdateCrop changes the crop of a soil device's settings, keeping the
// soil; the caller holds the settings right on d. Errors name the fields of
// CropInput (cropName, area). Returns EINVALID.
func (s *Service) UpdateCrop(ctx context.Context, d *devices.Device, in CropInput) (*Config, error) {
	t, st, err := s.probeSettings(ctx, d)
	if err != nil {
		return nil, err
	}
	if st == nil {
		st = &Settings{DeviceID: d.ID}
	}
	if in.SowTime != nil {
		st.PlantingTime = in.SowTime
	}
	if in.CropName != nil {
		st.CropType = *in.CropName
	}
	if in.CropVariety != nil {
		st.CropVariety = *in.CropVariety
	}
	if in.Area != nil {
		st.AreaMu = in.Area
	}
	if err := st.validateCrop(); err != nil {
		if e := errs.As(err); e != nil && e.Field == "cropType" {
			return nil, errs.Invalid("cropName", e.Code)
		}
		if e := errs.As(err); e != nil && e.Field == "areaMu" {
			return nil, errs.Invalid("area", e.Code).With(e.Params)
		}
		return nil, err
	}
	st.UpdatedAt = s.rd.Now()
	if err := s.store.SaveSoilSettings(ctx, st); err != nil {
		return nil, err
	}
	return config(st, t), nil
}
