package analysis

import (
	"context"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// ValueView is one parameter's newest reading.
type ValueView struct {
	Param     string  `json:"param"`
	Name      string  `json:"name"`
	Unit      string  `json:"unit"`
	Precision int     `json:"precision"`
	Value     float64 `json:"value"`
	Time      int64   `json:"time"`
}

// WindView is a wind reading with its level and sector.
type WindView struct {
	Speed     float64  `json:"speed"` // m/s
	Level     int      `json:"level"` // 0–17, SPEC §9
	LevelMin  float64  `json:"levelMin"`
	LevelMax  *float64 `json:"levelMax"` // null for level 17
	Direction *float64 `json:"direction"`
	Sector    string   `json:"sector,omitempty"` // N, NE, … NW
}

func windView(speed float64, dir *float64) *WindView {
	lvl := agro.WindLevel(speed)
	lo, hi := agro.WindLevelRange(lvl)
	w := &WindView{Speed: speed, Level: lvl, LevelMin: lo, Direction: dir}
	if !math.IsInf(hi, 1) {
		w.LevelMax = ptr(hi)
	}
	if dir != nil {
		w.Sector = agro.WindSector(*dir)
	}
	return w
}

// RainNow is the rain around now.
type RainNow struct {
	Rain1h   float64 `json:"rain1h"`
	Rain24h  float64 `json:"rain24h"`
	Today    float64 `json:"today"`
	Class1h  string  `json:"class1h"`
	Class24h string  `json:"class24h"`
	Warning  Warning `json:"warning"`
}

// WeatherNow is GET /apis/qi/{id}/data/realtime: a station's newest readings
// with wind level and sector, rain classes and warning, and air quality.
type WeatherNow struct {
	Time       *int64           `json:"time"`
	Values     []ValueView      `json:"values"`
	Wind       *WindView        `json:"wind"`
	Rain       *RainNow         `json:"rain"`
	AirQuality *agro.AirQuality `json:"airQuality"`
}

// WeatherNow returns a weather station's state now. Returns ENOTFOUND, EINVALID.
func (s *Service) WeatherNow(ctx context.Context, viewer, id int64, lang i18n.Lang) (*WeatherNow, error) {
	d, t, _, err := s.device(ctx, viewer, id, "airTemp")
	if err != nil {
		return nil, err
	}
	lt, err := s.latest(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	out := &WeatherNow{Values: []ValueView{}}
	var newest time.Time
	for _, p := range t.Params {
		if p.PerNode {
			continue
		}
		r, ok := lt[seriesKey{p.ID, 0}]
		if !ok {
			continue
		}
		if r.Time.After(newest) {
			newest = r.Time
		}
		out.Values = append(out.Values, ValueView{Param: p.ID, Name: p.Name(lang), Unit: p.Unit, Precision: p.Precision, Value: r.Value, Time: ms(r.Time)})
	}
	out.Time = msPtr(newest)
	if w, ok := lt[seriesKey{"windSpeed", 0}]; ok {
		var dir *float64
		if d, ok := lt[seriesKey{"windDirection", 0}]; ok {
			dir = ptr(d.Value)
		}
		out.Wind = windView(w.Value, dir)
	}
	if has(t, "rainfall") {
		now := s.now()
		amounts, err := s.rainAmounts(ctx, d.ID, now.Add(-day), now.Add(time.Millisecond))
		if err != nil {
			return nil, err
		}
		rec := newRainRecord(amounts)
		lvl, _ := rec.warningAt(now)
		rn := &RainNow{Rain1h: round(rec.sum(now, time.Hour), 2), Rain24h: round(rec.sum(now, day), 2),
			Today: round(rec.sum(now, now.Sub(s.midnight(now))+time.Nanosecond), 2), Warning: warningOf(lvl)}
		rn.Class1h, rn.Class24h = rainClass(rn.Rain1h, 1), rainClass(rn.Rain24h, 24)
		out.Rain = rn
	}
	pm25, ok25 := lt[seriesKey{"pm25", 0}]
	pm10, ok10 := lt[seriesKey{"pm10", 0}]
	if ok25 && ok10 {
		var tvoc *float64
		if tv, ok := lt[seriesKey{"tvoc", 0}]; ok {
			tvoc = ptr(tv.Value)
		}
		if q, err := agro.AirQualityOf(pm25.Value, pm10.Value, tvoc); err == nil {
			out.AirQuality = &q
		}
	}
	return out, nil
}

// Alert is a weather warning signal the station's own readings call for.
type Alert struct {
	Type string `json:"type"` // rainstorm, gale, highTemperature, frost, forestFire
	Warning
	Value float64 `json:"value"` // the reading that decided it
	Unit  string  `json:"unit"`
	Basis string  `json:"basis"` // which reading: rain3h, rain6h, rain12h, wind24h, wind12h, wind6h, tempMax3d, tempMax24h, tempMin24h, fwi
}

// WeatherAlerts is GET /apis/qi/weather/alert.
type WeatherAlerts struct {
	Time int64 `json:"time"`
	// Alerts are the signals in force, highest level first.
	Alerts []Alert `json:"alerts"`
	// Checked lists the warning types the station's sensors let it check.
	Checked []string `json:"checked"`
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

// WeatherAlerts checks the warning criteria a station's readings can decide:
// rainstorm (rain of the last 3/6/12 h, agro.RainstormWarning), gale (above),
// high temperature (CMA: yellow when the daily maximum reached 35 °C on 3
// days running, orange when the last 24 h reached 37 °C, red 40 °C), frost
// (the CMA's ground-minimum criteria, blue 0 °C, yellow −3 °C, orange −5 °C,
// applied to the last 24 h's air minimum, which is milder than the ground's
// on a clear night) and forest fire (today's FWI fire level 3, 4, 5 as
// yellow, orange, red). Returns ENOTFOUND, EINVALID.
func (s *Service) WeatherAlerts(ctx context.Context, viewer, id int64) (*WeatherAlerts, error) {
	d, t, _, err := s.device(ctx, viewer, id, "airTemp")
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := &WeatherAlerts{Time: ms(now), Alerts: []Alert{}, Checked: []string{}}
	add := func(typ string, l agro.WarningLevel, v float64, unit, basis string) {
		if l != agro.WarningNone {
			out.Alerts = append(out.Alerts, Alert{Type: typ, Warning: warningOf(l), Value: round(v, 2), Unit: unit, Basis: basis})
		}
	}
	if has(t, "rainfall") {
		out.Checked = append(out.Checked, "rainstorm")
		amounts, err := s.rainAmounts(ctx, d.ID, now.Add(-12*time.Hour), now.Add(time.Millisecond))
		if err != nil {
			return nil, err
		}
		lvl, sums := newRainRecord(amounts).warningAt(now)
		basis, v := "rain12h", sums[2]
		switch lvl {
		case agro.WarningRed, agro.WarningOrange:
			basis, v = "rain3h", sums[0]
		case agro.WarningYellow:
			basis, v = "rain6h", sums[1]
		}
		add("rainstorm", lvl, v, "mm", basis)
	}
	if has(t, "windSpeed") {
		out.Checked = append(out.Checked, "gale")
		wind, err := s.readings(ctx, d.ID, "windSpeed", now.Add(-day), now.Add(time.Millisecond))
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
	temps, err := s.readings(ctx, d.ID, "airTemp", now.Add(-day), now.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	out.Checked = append(out.Checked, "highTemperature", "frost")
	if peak := maxSince(temps, now.Add(-day)); peak >= 40 {
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
	if len(missingParams(t, fwiParams...)) == 0 {
		out.Checked = append(out.Checked, "forestFire")
		days, err := s.fwiDays(ctx, d, s.midnight(now).AddDate(0, 0, -1), now)
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
	from := s.midnight(now).AddDate(0, 0, -2)
	dt, err := s.days(ctx, d.ID, []string{"airTemp"}, []int{0}, from, now.Add(time.Millisecond))
	if err != nil {
		return false, 0, err
	}
	lowest := math.Inf(1)
	for i := 0; i < 3; i++ {
		day, ok := dt.get(ms(from.AddDate(0, 0, i)), "airTemp", 0)
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

// fwiParams are the readings the FWI System needs.
var fwiParams = []string{"airTemp", "airHumidity", "windSpeed", "rainfall"}

// FWI inputs from station readings.
const (
	// noonWindow is how far from 12:00 local standard time the reading
	// standing for the noon observation may be.
	noonWindow = 90 * time.Minute
	// fwiSpinUp is how many days before the first day shown the codes start
	// at the standard start-up values, so the slow codes (DMC, DC) carry
	// the weather of the weeks before.
	fwiSpinUp = 30
)

// FWIDayView is one day of the Fire Weather Index System.
type FWIDayView struct {
	Time int64  `json:"time"`
	Date string `json:"date"`
	// Missing: no reading near noon for temperature, humidity or wind; the
	// codes carry over unchanged.
	Missing   bool     `json:"missing"`
	Temp      *float64 `json:"temp"`
	RH        *float64 `json:"rh"`
	Wind      *float64 `json:"wind"` // km/h at 10 m
	Rain      *float64 `json:"rain"` // mm in the 24 h to noon
	FFMC      *float64 `json:"ffmc"`
	DMC       *float64 `json:"dmc"`
	DC        *float64 `json:"dc"`
	ISI       *float64 `json:"isi"`
	BUI       *float64 `json:"bui"`
	FWI       *float64 `json:"fwi"`
	Level     *int     `json:"level"` // SPEC §4: 0 normal, 1–5
	LevelName string   `json:"levelName,omitempty"`
}

// nearest is the reading closest to t within noonWindow.
func nearest(rs []agro.Reading, t time.Time) (float64, bool) {
	i := sort.Search(len(rs), func(i int) bool { return !rs[i].Time.Before(t) })
	best, ok := 0.0, false
	bestGap := noonWindow + 1
	for _, j := range []int{i - 1, i} {
		if j < 0 || j >= len(rs) {
			continue
		}
		if gap := absDuration(rs[j].Time.Sub(t)); gap <= noonWindow && gap < bestGap {
			best, bestGap, ok = rs[j].Value, gap, true
		}
	}
	return best, ok
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// fwiDays runs the FWI System over the local days of [begin, end) whose
// noon has passed: noon (12:00 local standard time) temperature, RH and
// wind, and the rain of the 24 h to noon. The station's wind, measured at
// 2 m, is raised to the 10 m the system expects by FAO-56 eq. 47.
func (s *Service) fwiDays(ctx context.Context, d *devices.Device, begin, end time.Time) ([]FWIDayView, error) {
	first := s.midnight(begin)
	start := first.AddDate(0, 0, -fwiSpinUp)
	now := s.now()
	if end.After(now) {
		end = now
	}
	read := map[string][]agro.Reading{}
	for _, p := range []string{"airTemp", "airHumidity", "windSpeed"} {
		rs, err := s.readings(ctx, d.ID, p, start, end.Add(time.Millisecond))
		if err != nil {
			return nil, err
		}
		read[p] = rs
	}
	amounts, err := s.rainAmounts(ctx, d.ID, start.Add(-day), end.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	rain := newRainRecord(amounts)
	to10m := 1 / agro.WindAt2m(1, 10)
	codes := agro.FWIStartup
	out := []FWIDayView{}
	s.eachDay(start, end, func(mid time.Time) {
		noon := mid.Add(12 * time.Hour)
		if noon.After(end) {
			return
		}
		v := FWIDayView{Time: ms(mid), Date: mid.Format(time.DateOnly)}
		temp, ok1 := nearest(read["airTemp"], noon)
		rh, ok2 := nearest(read["airHumidity"], noon)
		wind, ok3 := nearest(read["windSpeed"], noon)
		w := agro.FireWeather{Month: int(mid.Month()), Temp: temp, RH: rh, Wind: wind * to10m * 3.6, Rain: rain.sum(noon, day)}
		fd, err := codes.Next(w)
		if !ok1 || !ok2 || !ok3 || err != nil {
			v.Missing = true
		} else {
			codes = fd.Codes()
			lvl := agro.FireLevelOf(fd.FWI)
			l := int(lvl)
			v.Temp, v.RH, v.Wind, v.Rain = ptr(temp), ptr(rh), ptr(round(w.Wind, 2)), ptr(round(w.Rain, 2))
			v.FFMC, v.DMC, v.DC = ptr(round(fd.FFMC, 2)), ptr(round(fd.DMC, 2)), ptr(round(fd.DC, 2))
			v.ISI, v.BUI, v.FWI = ptr(round(fd.ISI, 2)), ptr(round(fd.BUI, 2)), ptr(round(fd.FWI, 2))
			v.Level, v.LevelName = &l, lvl.String()
		}
		if !mid.Before(first) {
			out = append(out, v)
		}
	})
	return out, nil
}

// FWIHistory is GET /apis/qi/fwi/history.
type FWIHistory struct {
	Begin int64        `json:"begin"`
	End   int64        `json:"end"`
	Days  []FWIDayView `json:"days"`
}

// FWIHistory returns a station's daily FWI over r (default the last 30
// days, at most 366). Returns ENOTFOUND, EINVALID.
func (s *Service) FWIHistory(ctx context.Context, viewer, id int64, r Range) (*FWIHistory, error) {
	d, _, _, err := s.device(ctx, viewer, id, fwiParams...)
	if err != nil {
		return nil, err
	}
	begin, end, err := s.span(r, 30*day, 366*day)
	if err != nil {
		return nil, err
	}
	days, err := s.fwiDays(ctx, d, begin, end)
	if err != nil {
		return nil, err
	}
	return &FWIHistory{Begin: ms(begin), End: ms(end), Days: days}, nil
}

// FWIStatistics is GET /apis/qi/fwi/statistics.
type FWIStatistics struct {
	Begin int64 `json:"begin"`
	End   int64 `json:"end"`
	// Days counts the days with an FWI; Missing those without.
	Days    int          `json:"days"`
	Missing int          `json:"missing"`
	Levels  []LevelCount `json:"levels"`
	Latest  *FWIDayView  `json:"latest"`
	Max     *FWIDayView  `json:"max"`
	Mean    *float64     `json:"mean"`
}

// LevelCount is how many days had a fire level.
type LevelCount struct {
	Level int    `json:"level"`
	Name  string `json:"name"`
	Days  int    `json:"days"`
}

// FWIStatistics counts a station's days per fire level over r (default the
// last 30 days, at most 366). Returns ENOTFOUND, EINVALID.
func (s *Service) FWIStatistics(ctx context.Context, viewer, id int64, r Range) (*FWIStatistics, error) {
	h, err := s.FWIHistory(ctx, viewer, id, r)
	if err != nil {
		return nil, err
	}
	out := &FWIStatistics{Begin: h.Begin, End: h.End}
	for l := agro.FireNormal; l <= agro.FireExtreme; l++ {
		out.Levels = append(out.Levels, LevelCount{Level: int(l), Name: l.String()})
	}
	var sum float64
	for i := range h.Days {
		fd := &h.Days[i]
		if fd.Level == nil {
			out.Missing++
			continue
		}
		out.Days++
		out.Levels[*fd.Level].Days++
		sum += *fd.FWI
		out.Latest = fd
		if out.Max == nil || *fd.FWI > *out.Max.FWI {
			out.Max = fd
		}
	}
	if out.Days > 0 {
		out.Mean = ptr(round(sum/float64(out.Days), 2))
	}
	return out, nil
}

// WeatherHistory is GET /apis/qi/data/history.
type WeatherHistory struct {
	Begin int64        `json:"begin"`
	End   int64        `json:"end"`
	Days  []WeatherDay `json:"days"`
}

// WeatherHistory returns a station's daily weather over r (default the last
// 30 days, at most 3 years), each day with its ET0. Returns ENOTFOUND, EINVALID.
func (s *Service) WeatherHistory(ctx context.Context, viewer, id int64, r Range) (*WeatherHistory, error) {
	d, _, _, err := s.device(ctx, viewer, id, "airTemp")
	if err != nil {
		return nil, err
	}
	begin, end, err := s.span(r, 30*day, maxETRange)
	if err != nil {
		return nil, err
	}
	days, err := s.weatherDays(ctx, d, begin, end)
	if err != nil {
		return nil, err
	}
	return &WeatherHistory{Begin: ms(begin), End: ms(end), Days: days}, nil
}
