package weather

import (
	"context"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/rain"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Alert is a weather warning signal the station's own readings call for.
type Alert struct {
	Type  string // rainstorm, gale, highTemperature, frost, forestFire
	Level agro.WarningLevel
	Value float64 // the reading that decided it
	Unit  string
	Basis string // which reading: rain3h, rain6h, rain12h, wind24h, wind12h, wind6h, tempMax3d, tempMax24h, tempMin24h, fwi
}

// Alerts are the signals a station's readings call for now.
type Alerts struct {
	Time time.Time
	// Alerts are the signals in force, highest level first.
	Alerts []Alert
	// Checked lists the warning types the station's sensors let it check.
	Checked []string
}

// Gale levels of the China Meteorological Administration's signals (Order
// No. 16, 2007): blue when the mean wind reaches level 6 within 24 h, yellow
// level 8 within 12 h, orange level 10 within 6 h, red level 12 within 6 h.
// The station's readings are 10-minute means; it has no gust sensor, so the
// gust criteria are not checked.
var galeRules = []struct {
	level agro.WarningLevel
	hours int
	wind  int // wind level
}{{agro.WarningRed, 6, 12}, {agro.WarningOrange, 6, 10}, {agro.WarningYellow, 12, 8}, {agro.WarningBlue, 24, 6}}

// Alerts checks the warning criteria a station's readings can decide:
// rainstorm (rain of the last 3/6/12 h, agro.RainstormWarning), gale (above),
// high temperature (CMA: yellow when the daily maximum reached 35 °C on 3
// days running, orange when the last 24 h reached 37 °C, red 40 °C), frost
// (the CMA's ground-minimum criteria, blue 0 °C, yellow −3 °C, orange −5 °C,
// applied to the last 24 h's air minimum, which is milder than the ground's
// on a clear night) and forest fire (today's FWI fire level 3, 4, 5 as
// yellow, orange, red). Returns EINVALID.
func (s *Service) Alerts(ctx context.Context, d *devices.Device) (*Alerts, error) {
	t, err := readings.Measures(d, "airTemp")
	if err != nil {
		return nil, err
	}
	now := s.rd.Now()
	out := &Alerts{Time: now, Alerts: []Alert{}, Checked: []string{}}
	add := func(typ string, l agro.WarningLevel, v float64, unit, basis string) {
		if l != agro.WarningNone {
			out.Alerts = append(out.Alerts, Alert{Type: typ, Level: l, Value: readings.Round(v, 2), Unit: unit, Basis: basis})
		}
	}
	if readings.Has(t, "rainfall") {
		out.Checked = append(out.Checked, "rainstorm")
		amounts, err := s.rd.RainAmounts(ctx, d.ID, now.Add(-12*time.Hour), now.Add(time.Millisecond))
		if err != nil {
			return nil, err
		}
		lvl, sums := rain.NewRecord(amounts).WarningAt(now)
		basis, v := "rain12h", sums[2]
		switch lvl {
		case agro.WarningRed, agro.WarningOrange:
			basis, v = "rain3h", sums[0]
		case agro.WarningYellow:
			basis, v = "rain6h", sums[1]
		}
		add("rainstorm", lvl, v, "mm", basis)
	}
	if readings.Has(t, "windSpeed") {
		out.Checked = append(out.Checked, "gale")
		wind, err := s.rd.Readings(ctx, d.ID, "windSpeed", now.Add(-readings.Day), now.Add(time.Millisecond))
		if err != nil {
			return nil, err
		}
		for _, g := range galeRules {
			peak := maxSince(wind, now.Add(-time.Duration(g.hours)*time.Hour))
			if lo, _ := agro.WindLevelRange(g.wind); peak >= lo {
				add("gale", g.level, peak, "m/s", "wind"+strconv.Itoa(g.hours)+"h")
				break
			}
		}
	}
	temps, err := s.rd.Readings(ctx, d.ID, "airTemp", now.Add(-readings.Day), now.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	out.Checked = append(out.Checked, "highTemperature", "frost")
	if peak := maxSince(temps, now.Add(-readings.Day)); peak >= 40 {
		add("highTemperature", agro.WarningRed, peak, "°C", "tempMax24h")
	} else if peak >= 37 {
		add("highTemperature", agro.WarningOrange, peak, "°C", "tempMax24h")
	} else if hot, lowest, err := s.hotDays(ctx, d, now); err != nil {
		return nil, err
	} else if hot {
		add("highTemperature", agro.WarningYellow, lowest, "°C", "tempMax3d")
	}
	if len(temps) > 0 {
		low := math.Inf(1)
		for _, r := range temps {
			low = math.Min(low, r.Value)
		}
		switch {
		case low <= -5:
			add("frost", agro.WarningOrange, low, "°C", "tempMin24h")
		case low <= -3:
			add("frost", agro.WarningYellow, low, "°C", "tempMin24h")
		case low <= 0:
			add("frost", agro.WarningBlue, low, "°C", "tempMin24h")
		}
	}
	if len(readings.Missing(t, fwiParams...)) == 0 {
		out.Checked = append(out.Checked, "forestFire")
		days, err := s.fwiDays(ctx, d, s.rd.Midnight(now).AddDate(0, 0, -1), now)
		if err != nil {
			return nil, err
		}
		for i := len(days) - 1; i >= 0; i-- {
			if fd := days[i]; fd.Level != nil {
				if *fd.Level >= int(agro.FireHigh) {
					add("forestFire", agro.WarningLevel(*fd.Level-1), *fd.FWI, "", "fwi")
				}
				break
			}
		}
	}
	sort.SliceStable(out.Alerts, func(i, j int) bool { return out.Alerts[i].Level > out.Alerts[j].Level })
	return out, nil
}

// hotDays reports whether the daily maximum reached 35 °C on each of the
// last 3 local days (today included), and the lowest of those maxima.
func (s *Service) hotDays(ctx context.Context, d *devices.Device, now time.Time) (bool, float64, error) {
	from := s.rd.Midnight(now).AddDate(0, 0, -2)
	dt, err := s.rd.Days(ctx, d.ID, []string{"airTemp"}, []int{0}, from, now.Add(time.Millisecond))
	if err != nil {
		return false, 0, err
	}
	lowest := math.Inf(1)
	for i := 0; i < 3; i++ {
		day, ok := dt.Get(from.AddDate(0, 0, i).UnixMilli(), "airTemp", 0)
		if !ok || day.Max < 35 {
			return false, 0, nil
		}
		lowest = math.Min(lowest, day.Max)
	}
	return true, lowest, nil
}

func maxSince(rs []agro.Reading, since time.Time) float64 {
	m := math.Inf(-1)
	for _, r := range rs {
		if r.Time.After(since) {
			m = math.Max(m, r.Value)
		}
	}
	return m
}
