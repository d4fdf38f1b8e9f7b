package weather

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Week is the weather observed over the last 7 days and today so far at a
// device's station.
type Week struct {
	Station *readings.Station // nil when none
	Days    []Day
}

// Week returns last week's weather at a device, from its own readings, the
// station st.ID names, or the nearest visible one within 30 km. Returns
// EINVALID.
func (s *Service) Week(ctx context.Context, d *devices.Device, st readings.Stations) (*Week, error) {
	if _, err := readings.Measures(d); err != nil {
		return nil, err
	}
	return s.observedWeek(ctx, d, st)
}

func (s *Service) observedWeek(ctx context.Context, d *devices.Device, st readings.Stations) (*Week, error) {
	src, err := st.Pick(ctx, d, "airTemp")
	if err != nil || src == nil {
		return &Week{Days: []Day{}}, err
	}
	today := s.rd.Midnight(s.rd.Now())
	days, err := s.days(ctx, src.Device, today.AddDate(0, 0, -7), s.rd.Now())
	return &Week{Station: src, Days: days}, err
}

// WeekWeather is the 7-day forecast at a device and the weather observed
// over the last 7 days.
type WeekWeather struct {
	Week
	Forecast *Forecast // nil when unavailable
}

// WeekWeather returns a device's forecast, with its crop's Kc, and last
// week's weather. Returns EINVALID.
func (s *Service) WeekWeather(ctx context.Context, d *devices.Device, st readings.Stations) (*WeekWeather, error) {
	if _, err := readings.Measures(d); err != nil {
		return nil, err
	}
	var crop Crop
	if s.crops != nil {
		var err error
		if crop, err = s.crops.CropOf(ctx, d); err != nil {
			return nil, err
		}
	}
	w, err := s.observedWeek(ctx, d, st)
	if err != nil {
		return nil, err
	}
	return &WeekWeather{Week: *w, Forecast: s.forecasts.At(ctx, d, crop)}, nil
}

// DayAmount is one day's amount, mm.
type DayAmount struct {
	Day   time.Time // local midnight
	MM    *float64
	Class string // rain: the 24 h class
}

// WeekAmounts are the last 7 days observed and the 7-day forecast, each
// with its total (SPEC §9: "Forecast: 7-day ET0 and rainfall totals").
type WeekAmounts struct {
	Station       *readings.Station // nil when none
	Observed      []DayAmount
	ObservedTotal float64
	Forecast      []DayAmount // nil when unavailable
	ForecastTotal *float64
	Provider      string
}

// WeekRain returns the rain of the last 7 days at a device (its own gauge,
// or a station's) and the forecast rain. Returns EINVALID.
func (s *Service) WeekRain(ctx context.Context, d *devices.Device, st readings.Stations) (*WeekAmounts, error) {
	if _, err := readings.Measures(d); err != nil {
		return nil, err
	}
	out := &WeekAmounts{Observed: []DayAmount{}}
	src, err := st.Pick(ctx, d, "rainfall")
	if err != nil {
		return nil, err
	}
	out.Station = src
	if src != nil {
		now := s.rd.Now()
		today := s.rd.Midnight(now)
		dt, err := s.rd.Days(ctx, src.Device.ID, []string{"rainfall"}, []int{0}, today.AddDate(0, 0, -7), now)
		if err != nil {
			return nil, err
		}
		s.rd.EachDay(today.AddDate(0, 0, -7), now, func(mid time.Time) {
			a := DayAmount{Day: mid}
			if r, ok := dt.Get(mid.UnixMilli(), "rainfall", 0); ok {
				a.MM = readings.Ptr(readings.Round(r.Sum, 2))
				out.ObservedTotal += r.Sum
				if c, err := agro.RainClassOf(r.Sum, 24); err == nil {
					a.Class = c.String()
				}
			}
			out.Observed = append(out.Observed, a)
		})
		out.ObservedTotal = readings.Round(out.ObservedTotal, 2)
	}
	if f := s.forecasts.At(ctx, d, nil); f != nil {
		out.Provider, out.ForecastTotal = f.Provider, readings.Ptr(f.RainTotal)
		out.Forecast = []DayAmount{}
		for _, fd := range f.Days {
			out.Forecast = append(out.Forecast, DayAmount{Day: fd.Day, MM: fd.Rain, Class: fd.RainClass})
		}
	}
	return out, nil
}

// WeekET0 returns the ET0 of the last 7 complete days at a device's station
// and the forecast ET0. Returns EINVALID.
func (s *Service) WeekET0(ctx context.Context, d *devices.Device, st readings.Stations) (*WeekAmounts, error) {
	if _, err := readings.Measures(d); err != nil {
		return nil, err
	}
	out := &WeekAmounts{Observed: []DayAmount{}}
	src, err := st.Pick(ctx, d, "airTemp")
	if err != nil {
		return nil, err
	}
	out.Station = src
	if src != nil {
		today := s.rd.Midnight(s.rd.Now())
		days, err := ObservedET0(ctx, s.rd, src.Device, today.AddDate(0, 0, -7), today)
		if err != nil {
			return nil, err
		}
		for _, e := range days {
			out.Observed = append(out.Observed, DayAmount{Day: e.Day, MM: readings.Ptr(e.ET0)})
			out.ObservedTotal += e.ET0
		}
		out.ObservedTotal = readings.Round(out.ObservedTotal, 2)
	}
	if f := s.forecasts.At(ctx, d, nil); f != nil {
		out.Provider, out.ForecastTotal = f.Provider, readings.Ptr(f.ET0Total)
		out.Forecast = []DayAmount{}
		for _, fd := range f.Days {
			out.Forecast = append(out.Forecast, DayAmount{Day: fd.Day, MM: fd.ET0})
		}
	}
	return out, nil
}
