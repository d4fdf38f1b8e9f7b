// Package weather analyses what a weather station measures: its state now
// with wind level, rain and air quality, the warning signals its readings
// call for, the Fire Weather Index, its daily weather, and the reference
// evapotranspiration ET0 of each day (FAO-56 Penman-Monteith). ET0 is the
// weather's demand for water, the same for every crop, so it lives here;
// the crop's share of it (Kc, ETc) belongs to the crop on a plot, which
// package soil keeps with the plot's settings. The 7-day forecast is here
// too, with each day's Kc when a crop is given. The science is
// internal/agro.
package weather

import (
	"context"
	"log/slog"

	"github.com/fieldwatch/fieldwatch/internal/capfeed"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Crops finds the crop on a device's plot (package soil).
type Crops interface {
	// CropOf returns the crop calendar of d's plot; one without a crop
	// gives no coefficient.
	CropOf(ctx context.Context, d *devices.Device) (Crop, error)
}

// Options configure a Service.
type Options struct {
	Readings *readings.Reader
	// Forecast gives forecasts; nil or one without a provider makes every
	// view say the forecast is unavailable.
	Forecast Forecaster
	// Crops gives the Kc of the forecast days of WeekWeather; nil: none.
	Crops Crops
	// Feed is the upstream warning feed (package capfeed); nil or one not
	// enabled: the types only a feed tells are listed as needing one.
	Feed WarningFeed
	Log  *slog.Logger
}

// WarningFeed gives the warnings in force at a place (package capfeed).
type WarningFeed interface {
	Enabled() bool
	At(ctx context.Context, lat, lng float64) ([]capfeed.Alert, error)
}

// Service computes the weather analyses of a device the caller was
// authorized for.
// Its methods answer ENOTFOUND for a device of no known type, as for one
// that does not exist, besides the errors each lists.
type Service struct {
	rd        *readings.Reader
	forecasts Forecasts
	crops     Crops
	feed      WarningFeed
	log       *slog.Logger
}

// New returns the weather analyses.
func New(o Options) *Service {
	return &Service{rd: o.Readings, forecasts: Forecasts{Source: o.Forecast, Log: o.Log}, crops: o.Crops, feed: o.Feed, log: o.Log}
}
