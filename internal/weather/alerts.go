package weather

import (
	"context"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/capfeed"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/rain"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Alert is a weather warning signal the station's own readings, the
// forecast at its position or the upstream warning feed call for.
type Alert struct {
	Type  string // one of capfeed.Types
	Level agro.WarningLevel
	Value float64 // the reading that decided it (0 for the feed's)
	Unit  string
	// Basis names the reading: rain3h, rain6h, rain12h, wind24h, wind12h,
	// wind6h, tempMax3d, tempMax24h, tempMin24h, fwi, tempDrop24h,
	// tempDrop48h, snow6h, snow12h, mi30; forecastRain24h,
	// forecastSnow24h, forecastTempMax, forecastTempMax3d,
	// forecastTempMin, forecastTempDrop24h, forecastTempDrop48h,
	// forecastWind; feed.
	Basis  string
	Source string // SourceStation, SourceForecast or SourceFeed
	// Day is the forecast day that decided a forecast-based signal.
	Day time.Time
	// Of a feed's alert: its headline, area, sender and expiry (zero: none).
	Headline, Area, Sender string
	Expires                time.Time
}

// Sources of a signal.
const (
	SourceStation  = "station"
	SourceForecast = "forecast"
	SourceFeed     = "feed"
)

// Check is a warning type and the sources that checked it.
type Check struct {
	Type string
	By   []string // of the Source constants; empty: none could
}

// Feed states.
const (
	FeedNone        = "none"        // no --warning-feed
	FeedOK          = "ok"          // read
	FeedUnavailable = "unavailable" // configured, but unreadable now or the station has no position
)

// Alerts are the signals in force for a station now.
type Alerts struct {
	Time time.Time
	// Alerts are the signals in force, highest level first.
	Alerts []Alert
	// Checked lists the warning types the station's sensors let it check.
	Checked []string
	// Checks are all 16 types with the sources that checked each.
	Checks []Check
	// Forecast reports whether the forecast was read.
	Forecast bool
	// Feed is the warning feed's state (FeedNone, FeedOK, FeedUnavailable).
	Feed string
	// NeedFeed are the types neither the station nor the forecast can
	// decide: only a warning feed tells them.
	NeedFeed []string
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
			out.Alerts = append(out.Alerts, Alert{Type: typ, Level: l, Value: readings.Round(v, 2), Unit: unit, Basis: basis, Source: SourceStation})
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
	if err := s.coldWave(ctx, d, t, now, add); err != nil {
		return nil, err
	}
	out.Checked = append(out.Checked, "coldWave")
	if readings.Has(t, "rainfall") {
		if err := s.blizzard(ctx, d, now, temps, add); err != nil {
			return nil, err
		}
		out.Checked = append(out.Checked, "blizzard")
		if d.Lat != nil {
			decided, err := s.drought(ctx, d, now, add)
			if err != nil {
				return nil, err
			}
			if decided {
				out.Checked = append(out.Checked, "drought")
			}
		}
	}
	forecastChecked := []string{}
	if f := s.forecasts.At(ctx, d, nil); f != nil {
		out.Forecast = true
		forecastChecked = forecastAlerts(f.Days, s.rd.Midnight(now), func(a Alert) { out.Alerts = append(out.Alerts, a) })
	}
	out.Feed = FeedNone
	if s.feed != nil && s.feed.Enabled() {
		out.Feed = FeedUnavailable
		if d.Lat != nil && d.Lng != nil {
			fa, err := s.feed.At(ctx, *d.Lat, *d.Lng)
			if err != nil {
				if s.log != nil {
					s.log.WarnContext(ctx, "warning feed unavailable", "device", d.ID, "err", err)
				}
			} else {
				out.Feed = FeedOK
				for _, a := range fa {
					out.Alerts = append(out.Alerts, Alert{Type: a.Type, Level: agro.WarningLevel(a.Level), Basis: "feed", Source: SourceFeed,
						Headline: a.Headline, Area: a.AreaDesc, Sender: a.Sender, Expires: a.Expires})
				}
			}
		}
	}
	out.Checks, out.NeedFeed = checks(out.Checked, forecastChecked, out.Feed == FeedOK)
	sort.SliceStable(out.Alerts, func(i, j int) bool { return out.Alerts[i].Level > out.Alerts[j].Level })
	return out, nil
}

// checks lists every type with the sources that checked it, and the types
// that only a feed can tell.
func checks(station, forecast []string, feed bool) ([]Check, []string) {
	out, need := make([]Check, 0, len(capfeed.Types)), []string{}
	for _, typ := range capfeed.Types {
		c := Check{Type: typ, By: []string{}}
		if slices.Contains(station, typ) {
			c.By = append(c.By, SourceStation)
		}
		if slices.Contains(forecast, typ) {
			c.By = append(c.By, SourceForecast)
		}
		if len(c.By) == 0 {
			need = append(need, typ)
		}
		if feed {
			c.By = append(c.By, SourceFeed)
		}
		out = append(out, c)
	}
	return out, need
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
