package weather

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Day is one day of observed weather at a station.
type Day struct {
	Day                                   time.Time // local midnight
	Complete                              bool      // the day is over and has most of its readings
	TempMax, TempMin, TempAvg             *float64
	HumidityAvg, HumidityMin, HumidityMax *float64
	Rain                                  *float64
	RainClass                             string
	WindAvg, WindMax                      *float64
	WindLevel                             *int // of WindMax
	Direction                             *float64
	Sector                                string
	PressureAvg                           *float64
	Radiation                             *float64 // mean W/m²
	PM25Avg, PM10Avg, TVOCAvg             *float64
	AirQuality                            *int // SPEC §9 grade 1–6 of the day's means
	ET0                                   *float64
	ET0Methods                            *Methods // where ET0's inputs came from
}

var dayParams = []string{"airTemp", "airHumidity", "rainfall", "windSpeed", "windDirection", "pressure", "solarRadiation", "pm25", "pm10", "tvoc"}

// days summarizes a station's weather per local day of [begin, end).
func (s *Service) days(ctx context.Context, st *devices.Device, begin, end time.Time) ([]Day, error) {
	dt, err := s.rd.Days(ctx, st.ID, dayParams, []int{0}, begin, end)
	if err != nil {
		return nil, err
	}
	et0, err := ObservedET0(ctx, s.rd, st, begin, end)
	if err != nil {
		return nil, err
	}
	et0By := map[int64]ET0Day{}
	for _, e := range et0 {
		et0By[e.Day.UnixMilli()] = e
	}
	round, ptr := readings.Round, readings.Ptr
	today := s.rd.Midnight(s.rd.Now())
	out := []Day{}
	s.rd.EachDay(begin, end, func(mid time.Time) {
		k := mid.UnixMilli()
		if len(dt[k]) == 0 {
			return
		}
		w := Day{Day: mid}
		if t, ok := dt.Get(k, "airTemp", 0); ok {
			w.TempMax, w.TempMin, w.TempAvg = ptr(t.Max), ptr(t.Min), ptr(round(t.Avg(), 2))
			w.Complete = mid.Before(today) && readings.Complete(t, st)
		}
		if h, ok := dt.Get(k, "airHumidity", 0); ok {
			w.HumidityAvg, w.HumidityMin, w.HumidityMax = ptr(round(h.Avg(), 1)), ptr(h.Min), ptr(h.Max)
		}
		if r, ok := dt.Get(k, "rainfall", 0); ok {
			w.Rain = ptr(round(r.Sum, 2))
			if c, err := agro.RainClassOf(r.Sum, 24); err == nil {
				w.RainClass = c.String()
			}
		}
		if ws, ok := dt.Get(k, "windSpeed", 0); ok {
			w.WindAvg, w.WindMax = ptr(round(ws.Avg(), 2)), ptr(ws.Max)
			lvl := agro.WindLevel(ws.Max)
			w.WindLevel = &lvl
		}
		if wd, ok := dt.Get(k, "windDirection", 0); ok {
			w.Direction, w.Sector = ptr(wd.Last), agro.WindSector(wd.Last)
		}
		if p, ok := dt.Get(k, "pressure", 0); ok {
			w.PressureAvg = ptr(round(p.Avg(), 1))
		}
		if rs, ok := dt.Get(k, "solarRadiation", 0); ok {
			w.Radiation = ptr(round(rs.Avg(), 1))
		}
		pm25, ok25 := dt.Get(k, "pm25", 0)
		pm10, ok10 := dt.Get(k, "pm10", 0)
		if ok25 && ok10 {
			w.PM25Avg, w.PM10Avg = ptr(round(pm25.Avg(), 1)), ptr(round(pm10.Avg(), 1))
			var tvoc *float64
			if tv, ok := dt.Get(k, "tvoc", 0); ok {
				tvoc = ptr(tv.Avg())
				w.TVOCAvg = ptr(round(tv.Avg(), 1))
			}
			if q, err := agro.AirQualityOf(pm25.Avg(), pm10.Avg(), tvoc); err == nil {
				g := int(q.Grade)
				w.AirQuality = &g
			}
		}
		if e, ok := et0By[k]; ok {
			w.ET0, w.ET0Methods = ptr(e.ET0), &e.Methods
		}
		out = append(out, w)
	})
	return out, nil
}

// History is a station's daily weather over a range.
type History struct {
	Begin, End time.Time
	Days       []Day
}

// History returns a station's daily weather over r (default the last 30
// days, at most 3 years), each day with its ET0. Returns EINVALID.
func (s *Service) History(ctx context.Context, d *devices.Device, r readings.Range) (*History, error) {
	if _, err := readings.Measures(d, "airTemp"); err != nil {
		return nil, err
	}
	begin, end, err := s.rd.Span(r, 30*readings.Day, readings.LongestDaily)
	if err != nil {
		return nil, err
	}
	days, err := s.days(ctx, d, begin, end)
	if err != nil {
		return nil, err
	}
	return &History{Begin: begin, End: end, Days: days}, nil
}
