package soil

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/weather"
)

// ET is the ET analysis of a device: daily ET0 observed at its weather
// station, with Kc and ETc when a crop and planting time are set, and the
// forecast.
type ET struct {
	Begin, End time.Time
	Station    *readings.Station // whose readings gave ET0; nil when none
	Crop       *CropToday        // nil without a crop with a Kc curve and a planting time
	Days       []ETDay
	// ET0Total and ETcTotal sum the observed days (ETc over days with a Kc).
	ET0Total float64
	ETcTotal *float64
	// ObservedUnavailable says why there are no observed days: "noStation"
	// (no weather readings here or within 30 km), "noLocation" (the station
	// has no coordinates for its latitude), or "".
	ObservedUnavailable string
	Forecast            *weather.Forecast // nil when unavailable
}

// ETDay is one day of the ET analysis.
type ETDay struct {
	Day time.Time // local midnight
	ET0 float64   // mm
	weather.CropDay
	ETc *float64 // mm, Kc × ET0
}

// ET returns the ET analysis of a device over r (default the last 30 days,
// at most 3 years), its weather from the device itself, the named station,
// or the nearest visible one within 30 km. Returns EINVALID.
func (s *Service) ET(ctx context.Context, d *devices.Device, stations readings.Stations, r readings.Range) (*ET, error) {
	if _, err := readings.Measures(d); err != nil {
		return nil, err
	}
	begin, end, err := s.rd.Span(r, 30*readings.Day, readings.LongestDaily)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	cal := s.calendar(st)
	out := &ET{Begin: begin, End: end, Days: []ETDay{}, Crop: s.cropToday(st)}
	src, err := stations.Pick(ctx, d, "airTemp")
	if err != nil {
		return nil, err
	}
	out.Station = src
	switch {
	case src == nil:
		out.ObservedUnavailable = "noStation"
	case src.Device.Lat == nil:
		out.ObservedUnavailable = "noLocation"
	default:
		days, err := weather.ObservedET0(ctx, s.rd, src.Device, begin, end)
		if err != nil {
			return nil, err
		}
		var etc float64
		withETc := false
		for _, e := range days {
			day := ETDay{Day: e.Day, ET0: e.ET0, CropDay: cal.On(e.Day)}
			out.ET0Total += e.ET0
			if day.Kc != nil {
				day.ETc = readings.Ptr(readings.Round(agro.ETc(*day.Kc, e.ET0), 3))
				etc += *day.ETc
				withETc = true
			}
			out.Days = append(out.Days, day)
		}
		out.ET0Total = readings.Round(out.ET0Total, 2)
		if withETc {
			out.ETcTotal = readings.Ptr(readings.Round(etc, 2))
		}
	}
	out.Forecast = s.forecasts.At(ctx, d, cal)
	return out, nil
}
