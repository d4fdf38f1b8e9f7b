// Package soil analyses a soil-moisture device's profile — relative
// moisture and drought grades, irrigation recognition, infiltration,
// waterlogging, freeze–thaw, the active root depth and when the root zone
// will need water — and keeps the settings those analyses need: the soil
// at each node and the crop on the plot (SPEC §3 "Soil device settings").
// The crop's water use, Kc and ETc = Kc × ET0, lives here with the crop it
// belongs to; ET0, the weather's part, comes from package weather. The
// parameter list and data query of the detail pages are here too: most of
// their derived parameters come from these settings. The science is
// internal/agro.
package soil

import (
	"context"
	"log/slog"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/weather"
)

// Store keeps the soil settings.
type Store interface {
	// SoilSettings returns a device's settings; ENOTFOUND when it has none.
	SoilSettings(ctx context.Context, deviceID int64) (*Settings, error)
	// SaveSoilSettings creates or replaces a device's settings.
	SaveSoilSettings(ctx context.Context, s *Settings) error
}

// Options configure a Service.
type Options struct {
	Readings *readings.Reader
	Store    Store
	// Forecast gives forecasts; nil or one without a provider makes every
	// view say the forecast is unavailable.
	Forecast weather.Forecaster
	Log      *slog.Logger
}

// Service computes the soil analyses of a device the caller was authorized
// for, and keeps its settings.
// Its methods answer ENOTFOUND for a device of no known type, as for one
// that does not exist, besides the errors each lists.
type Service struct {
	rd        *readings.Reader
	store     Store
	forecasts weather.Forecasts
}

// New returns the soil analyses.
func New(o Options) *Service {
	return &Service{rd: o.Readings, store: o.Store, forecasts: weather.Forecasts{Source: o.Forecast, Log: o.Log}}
}

// probe checks a device has soil-moisture nodes and measures every param
// in need, and returns its type. Returns EINVALID (analysis.unsupported).
func probe(d *devices.Device, need ...string) (*devices.Type, error) {
	t, err := readings.Measures(d, append([]string{"soilMoisture"}, need...)...)
	if err == nil && len(t.Nodes) == 0 {
		err = readings.Unsupported([]string{"soilMoisture"})
	}
	return t, err
}

// probeSettings checks d is a soil device and returns its type and its
// settings (nil when it has none). Returns EINVALID (analysis.unsupported).
func (s *Service) probeSettings(ctx context.Context, d *devices.Device) (*devices.Type, *Settings, error) {
	t, err := probe(d)
	if err != nil {
		return nil, nil, err
	}
	st, err := s.settings(ctx, d.ID)
	return t, st, err
}

// settings returns a device's settings, or nil when it has none.
func (s *Service) settings(ctx context.Context, deviceID int64) (*Settings, error) {
	st, err := s.store.SoilSettings(ctx, deviceID)
	if errs.KindOf(err) == errs.ENotFound {
		return nil, nil
	}
	return st, err
}

func floats(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}
