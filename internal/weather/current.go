package weather

import (
	"context"
	"math"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/rain"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Value is one parameter's newest reading.
type Value struct {
	Param *devices.Param
	Value float64
	Time  time.Time
}

// Wind is a wind reading with its level and sector.
type Wind struct {
	Speed     float64 // m/s
	Level     int     // 0–17, SPEC §9
	LevelMin  float64
	LevelMax  *float64 // nil for level 17
	Direction *float64
	Sector    string // N, NE, … NW
}

func windOf(speed float64, dir *float64) *Wind {
	lvl := agro.WindLevel(speed)
	lo, hi := agro.WindLevelRange(lvl)
	w := &Wind{Speed: speed, Level: lvl, LevelMin: lo, Direction: dir}
	if !math.IsInf(hi, 1) {
		w.LevelMax = readings.Ptr(hi)
	}
	if dir != nil {
		w.Sector = agro.WindSector(*dir)
	}
	return w
}

// Current is a station's newest readings with wind level and sector, rain
// classes and warning, and air quality.
type Current struct {
	Time       time.Time // the newest reading; zero without one
	Values     []Value
	Wind       *Wind
	Rain       *rain.Around
	AirQuality *agro.AirQuality
}

// Current returns a weather station's state now. Returns EINVALID.
func (s *Service) Current(ctx context.Context, d *devices.Device) (*Current, error) {
	t, err := readings.Measures(d, "airTemp")
	if err != nil {
		return nil, err
	}
	lt, err := s.rd.Latest(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	out := &Current{Values: []Value{}}
	for i := range t.Params {
		p := &t.Params[i]
		if p.PerNode {
			continue
		}
		r, ok := lt[readings.Key{Param: p.ID}]
		if !ok {
			continue
		}
		if r.Time.After(out.Time) {
			out.Time = r.Time
		}
		out.Values = append(out.Values, Value{Param: p, Value: r.Value, Time: r.Time})
	}
	if w, ok := lt[readings.Key{Param: "windSpeed"}]; ok {
		var dir *float64
		if d, ok := lt[readings.Key{Param: "windDirection"}]; ok {
			dir = readings.Ptr(d.Value)
		}
		out.Wind = windOf(w.Value, dir)
	}
	if readings.Has(t, "rainfall") {
		now := s.rd.Now()
		amounts, err := s.rd.RainAmounts(ctx, d.ID, now.Add(-readings.Day), now.Add(time.Millisecond))
		if err != nil {
			return nil, err
		}
		rn := rain.Now(rain.NewRecord(amounts), now, s.rd.Midnight(now))
		out.Rain = &rn
	}
	pm25, ok25 := lt[readings.Key{Param: "pm25"}]
	pm10, ok10 := lt[readings.Key{Param: "pm10"}]
	if ok25 && ok10 {
		var tvoc *float64
		if tv, ok := lt[readings.Key{Param: "tvoc"}]; ok {
			tvoc = readings.Ptr(tv.Value)
		}
		if q, err := agro.AirQualityOf(pm25.Value, pm10.Value, tvoc); err == nil {
			out.AirQuality = &q
		}
	}
	return out, nil
}
