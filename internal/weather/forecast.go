package weather

import (
	"context"
	"log/slog"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Forecaster gives the 7-day forecast at a place (package forecast).
type Forecaster interface {
	Enabled() bool
	Daily(ctx context.Context, lat, lng float64) (*forecast.Forecast, error)
}

// CropDay is a crop's coefficient on a day: Kc (nil outside the season or
// without a crop) and the growth stage.
type CropDay struct {
	Kc    *float64
	Stage string
}

// Crop gives a crop's coefficient on a day.
type Crop interface {
	On(day time.Time) CropDay
}

// Forecast is the 7-day forecast at a device's position.
type Forecast struct {
	Provider            string
	FetchedAt           time.Time
	Latitude, Longitude float64
	Days                []ForecastDay
	RainTotal           float64  // mm over the days
	ET0Total            float64  // mm over the days
	ETcTotal            *float64 // mm, when a crop is set
}

// ForecastDay is one forecast day.
type ForecastDay struct {
	Day              time.Time // local midnight
	TempMax, TempMin *float64
	Rain             *float64
	RainClass        string // GB/T 28592-2012 24 h class of the day's rain
	ET0              *float64
	CropDay
	ETc       *float64
	WindMax   *float64 // m/s at 10 m
	WindLevel *int     // of WindMax
}

// Forecasts fetches forecasts for devices.
type Forecasts struct {
	Source Forecaster // nil: none
	Log    *slog.Logger
}

// At fetches the forecast at d's position, with Kc and ETc from crop (nil:
// none). It answers nil when there is no provider, d has no position or
// the provider failed (logged): the views then show observations only.
func (fs Forecasts) At(ctx context.Context, d *devices.Device, crop Crop) *Forecast {
	if fs.Source == nil || !fs.Source.Enabled() || d.Lat == nil || d.Lng == nil {
		return nil
	}
	f, err := fs.Source.Daily(ctx, *d.Lat, *d.Lng)
	if err != nil {
		if fs.Log != nil {
			fs.Log.WarnContext(ctx, "forecast unavailable", "device", d.ID, "err", err)
		}
		return nil
	}
	return forecastOf(f, crop)
}

func forecastOf(f *forecast.Forecast, crop Crop) *Forecast {
	round := readings.Round
	v := &Forecast{Provider: f.Provider, FetchedAt: f.FetchedAt, Latitude: f.Latitude, Longitude: f.Longitude, Days: []ForecastDay{}}
	v.RainTotal, v.ET0Total = f.Totals()
	v.RainTotal, v.ET0Total = round(v.RainTotal, 2), round(v.ET0Total, 2)
	var etcTotal float64
	withETc := false
	for _, d := range f.Days {
		fd := ForecastDay{Day: d.Date, TempMax: d.TempMax, TempMin: d.TempMin, Rain: d.Rain, ET0: d.ET0, WindMax: readings.RoundPtr(d.WindMax, 2)}
		if d.Rain != nil {
			if c, err := agro.RainClassOf(*d.Rain, 24); err == nil {
				fd.RainClass = c.String()
			}
		}
		if d.WindMax != nil {
			lvl := agro.WindLevel(*d.WindMax)
			fd.WindLevel = &lvl
		}
		if crop != nil {
			fd.CropDay = crop.On(d.Date)
		}
		if fd.Kc != nil && d.ET0 != nil {
			fd.ETc = readings.Ptr(round(agro.ETc(*fd.Kc, *d.ET0), 3))
			etcTotal += *fd.ETc
			withETc = true
		}
		v.Days = append(v.Days, fd)
	}
	if withETc {
		v.ETcTotal = readings.Ptr(round(etcTotal, 2))
	}
	return v
}
