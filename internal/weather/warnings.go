package weather

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/rain"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// The warning types a station's sensors can decide (with the sensors each
// needs, docs/analyses.md) and those the forecast can. Fog, haze and road
// icing need visibility or a road-surface temperature, which no station
// type measures; typhoon, sandstorm, thunder, hail and thunderstorm gale
// are not measurable at one point: only a warning feed tells them.
var (
	// The station: rainstorm, gale, highTemperature, frost, forestFire,
	// coldWave, blizzard, drought (Alerts).
	forecastTypes = []string{"rainstorm", "blizzard", "coldWave", "gale", "highTemperature", "frost"}
)

type addFunc func(typ string, l agro.WarningLevel, v float64, unit, basis string)

// coldWaveRules are the CMA's cold-wave signals (Order No. 16, 2007,
// annex): the daily minimum falls by at least Drop °C within Hours and
// reaches at most Low °C, with the mean wind at least level Wind.
var coldWaveRules = []struct {
	level     agro.WarningLevel
	hours     int
	drop, low float64
	wind      int
}{
	{agro.WarningRed, 24, 16, 0, 6},
	{agro.WarningOrange, 24, 12, 0, 6},
	{agro.WarningYellow, 24, 10, 4, 6},
	{agro.WarningBlue, 48, 8, 4, 5},
}

// coldWave decides the cold-wave signal from the daily minima of today (so
// far), yesterday and the day before: the 24 h drop is yesterday's minimum
// less today's, the 48 h drop the larger of that and the drop from the day
// before yesterday. The wind criterion applies when the station has a wind
// sensor: the highest 10-minute mean of the last 24 h (48 h for blue).
func (s *Service) coldWave(ctx context.Context, d *devices.Device, t *devices.Type, now time.Time, add addFunc) error {
	today := s.rd.Midnight(now)
	dt, err := s.rd.Days(ctx, d.ID, []string{"airTemp"}, []int{0}, today.AddDate(0, 0, -2), now.Add(time.Millisecond))
	if err != nil {
		return err
	}
	tmin := func(day time.Time) (float64, bool) {
		r, ok := dt.Get(day.UnixMilli(), "airTemp", 0)
		return r.Min, ok
	}
	low, ok := tmin(today)
	if !ok {
		return nil
	}
	drop := map[int]float64{24: math.Inf(-1), 48: math.Inf(-1)}
	if y, ok := tmin(today.AddDate(0, 0, -1)); ok {
		drop[24], drop[48] = y-low, y-low
	}
	if y2, ok := tmin(today.AddDate(0, 0, -2)); ok {
		drop[48] = math.Max(drop[48], y2-low)
	}
	windOK := func(int, int) bool { return true }
	if readings.Has(t, "windSpeed") {
		wind, err := s.rd.Readings(ctx, d.ID, "windSpeed", now.Add(-2*readings.Day), now.Add(time.Millisecond))
		if err != nil {
			return err
		}
		windOK = func(hours, level int) bool {
			peak := maxSince(wind, now.Add(-time.Duration(hours)*time.Hour))
			lo, _ := agro.WindLevelRange(level)
			return peak >= lo
		}
	}
	for _, r := range coldWaveRules {
		if drop[r.hours] >= r.drop && low <= r.low && windOK(r.hours, r.wind) {
			add("coldWave", r.level, drop[r.hours], "°C", "tempDrop"+itoa(r.hours)+"h")
			return nil
		}
	}
	return nil
}

// blizzardRules are the CMA's blizzard signals: snowfall (water
// equivalent) of at least MM within Hours.
var blizzardRules = []struct {
	level agro.WarningLevel
	hours int
	mm    float64
}{{agro.WarningRed, 6, 15}, {agro.WarningOrange, 6, 10}, {agro.WarningYellow, 12, 6}, {agro.WarningBlue, 12, 4}}

// snowWithin is how near an air temperature reading must be to a rain
// reading to tell whether that precipitation fell as snow.
const snowWithin = 30 * time.Minute

// blizzard decides the blizzard signal from the precipitation of the last
// 12 and 6 hours that fell while the air was at or below 0 °C (the air
// temperature reading nearest each rain reading, within 30 minutes). An
// unheated tipping-bucket gauge records snow only as it melts, so it
// under-reads a snowfall and the signal can come late, never falsely.
func (s *Service) blizzard(ctx context.Context, d *devices.Device, now time.Time, temps []agro.Reading, add addFunc) error {
	amounts, err := s.rd.RainAmounts(ctx, d.ID, now.Add(-12*time.Hour), now.Add(time.Millisecond))
	if err != nil {
		return err
	}
	snow := []agro.RainAmount{}
	for _, a := range amounts {
		if a.MM > 0 && frozenAt(temps, a.Time) {
			snow = append(snow, a)
		}
	}
	rec := rain.NewRecord(snow)
	for _, r := range blizzardRules {
		if v := rec.Sum(now, time.Duration(r.hours)*time.Hour); v >= r.mm {
			add("blizzard", r.level, v, "mm", "snow"+itoa(r.hours)+"h")
			return nil
		}
	}
	return nil
}

// frozenAt reports whether the air temperature reading nearest t (within
// snowWithin) is at or below 0 °C.
func frozenAt(temps []agro.Reading, t time.Time) bool {
	best, found := snowWithin+1, false
	var v float64
	for _, r := range temps {
		dd := r.Time.Sub(t)
		if dd < 0 {
			dd = -dd
		}
		if dd <= snowWithin && dd < best {
			best, v, found = dd, r.Value, true
		}
	}
	return found && v <= 0
}

// Drought grades of the relative moisture index MI = (P − PET) / PET of
// GB/T 20481-2017 (气象干旱等级), PET the FAO-56 Penman-Monteith reference
// evapotranspiration: severe (重旱) −0.95 < MI ≤ −0.80, extreme (特旱)
// MI ≤ −0.95. The CMA's drought signal has two levels: orange for severe
// drought, red for extreme.
const (
	miSevere  = -0.80
	miExtreme = -0.95
	miDays    = 30
)

// drought decides the drought signal from the relative moisture index of
// the last 30 complete days: the station's rain and its FAO-56 ET0. The
// signal's own criterion is the composite index MCI, whose SPI parts need
// a 30-year precipitation climatology a station does not have; MI30 is the
// standard's index from what a station measures. Every one of the 30 days
// needs its ET0 and a complete rain record, else drought is not decided
// (false): a station with less than 30 days of data does not check it.
func (s *Service) drought(ctx context.Context, d *devices.Device, now time.Time, add addFunc) (bool, error) {
	today := s.rd.Midnight(now)
	begin := today.AddDate(0, 0, -miDays)
	et, err := ObservedET0(ctx, s.rd, d, begin, today)
	if err != nil || len(et) < miDays {
		return false, err
	}
	dt, err := s.rd.Days(ctx, d.ID, []string{"rainfall"}, []int{0}, begin, today)
	if err != nil {
		return false, err
	}
	var p, pet float64
	for _, e := range et {
		r, ok := dt.Get(e.Day.UnixMilli(), "rainfall", 0)
		if !ok || !readings.Complete(r, d) {
			return false, nil
		}
		p += r.Sum
		pet += e.ET0
	}
	if pet <= 0 {
		return false, nil
	}
	mi := (p - pet) / pet
	switch {
	case mi <= miExtreme:
		add("drought", agro.WarningRed, mi, "", "mi30")
	case mi <= miSevere:
		add("drought", agro.WarningOrange, mi, "", "mi30")
	}
	return true, nil
}

// forecastAlerts raises the signals the forecast days from today on call
// for, by the CMA criteria read on daily values, and returns the types it
// checked. Daily totals cannot tell the 3 and 6 h intensities of the higher
// rainstorm and blizzard levels, so those two are raised at blue only.
func forecastAlerts(days []ForecastDay, today time.Time, emit func(Alert)) []string {
	var fd []ForecastDay
	for _, d := range days {
		if !d.Day.Before(today) {
			fd = append(fd, d)
		}
	}
	if len(fd) == 0 {
		return []string{}
	}
	add := func(typ string, l agro.WarningLevel, v float64, unit, basis string, day time.Time) {
		emit(Alert{Type: typ, Level: l, Value: readings.Round(v, 2), Unit: unit, Basis: basis, Source: SourceForecast, Day: day})
	}
	within := func(n int) []ForecastDay { return fd[:min(n, len(fd))] }
	// Rainstorm: 50 mm in a day (GB/T 28592-2012 暴雨) today or tomorrow.
	for _, d := range within(2) {
		if d.Rain != nil && *d.Rain >= 50 && (d.TempMax == nil || *d.TempMax > 0) {
			add("rainstorm", agro.WarningBlue, *d.Rain, "mm", "forecastRain24h", d.Day)
			break
		}
	}
	// Blizzard: 4 mm of precipitation on a day whose maximum is ≤ 0 °C.
	for _, d := range within(2) {
		if d.Rain != nil && d.TempMax != nil && *d.Rain >= 4 && *d.TempMax <= 0 {
			add("blizzard", agro.WarningBlue, *d.Rain, "mm", "forecastSnow24h", d.Day)
			break
		}
	}
	// High temperature: red 40 °C, orange 37 °C within 24 h (today or
	// tomorrow); yellow 35 °C on three days running.
	hot := func() bool {
		for _, d := range within(2) {
			if d.TempMax != nil && *d.TempMax >= 40 {
				add("highTemperature", agro.WarningRed, *d.TempMax, "°C", "forecastTempMax", d.Day)
				return true
			}
		}
		for _, d := range within(2) {
			if d.TempMax != nil && *d.TempMax >= 37 {
				add("highTemperature", agro.WarningOrange, *d.TempMax, "°C", "forecastTempMax", d.Day)
				return true
			}
		}
		return false
	}()
	if !hot {
		run, lowest := 0, math.Inf(1)
		for _, d := range fd {
			if d.TempMax == nil || *d.TempMax < 35 {
				run, lowest = 0, math.Inf(1)
				continue
			}
			run, lowest = run+1, math.Min(lowest, *d.TempMax)
			if run == 3 {
				add("highTemperature", agro.WarningYellow, lowest, "°C", "forecastTempMax3d", d.Day)
				break
			}
		}
	}
	// Frost, on the forecast air minimum: orange −5 °C, yellow −3 °C
	// within 24 h; blue 0 °C within 48 h.
	frost := func() {
		for _, r := range []struct {
			l    agro.WarningLevel
			low  float64
			days int
		}{{agro.WarningOrange, -5, 2}, {agro.WarningYellow, -3, 2}, {agro.WarningBlue, 0, 3}} {
			for _, d := range within(r.days) {
				if d.TempMin != nil && *d.TempMin <= r.low {
					add("frost", r.l, *d.TempMin, "°C", "forecastTempMin", d.Day)
					return
				}
			}
		}
	}
	frost()
	// Cold wave: tomorrow's minimum against today's (24 h), the larger drop
	// of tomorrow's and the day after's (48 h); wind the forecast maximum
	// wind level of those days.
	if len(fd) >= 2 && fd[0].TempMin != nil {
		base := *fd[0].TempMin
		type cand struct {
			day       ForecastDay
			drop, low float64
			wind      int
		}
		windOf := func(ds []ForecastDay) int {
			w := -1
			for _, d := range ds {
				if d.WindLevel != nil {
					w = max(w, *d.WindLevel)
				}
			}
			return w
		}
		var c24, c48 *cand
		if d := fd[1]; d.TempMin != nil {
			c24 = &cand{d, base - *d.TempMin, *d.TempMin, windOf(fd[:2])}
			c48 = c24
		}
		if len(fd) >= 3 && fd[2].TempMin != nil {
			if d := fd[2]; c48 == nil || base-*d.TempMin > c48.drop {
				c48 = &cand{d, base - *d.TempMin, *d.TempMin, windOf(fd[:3])}
			}
		}
		for _, r := range coldWaveRules {
			c := c24
			if r.hours == 48 {
				c = c48
			}
			if c != nil && c.drop >= r.drop && c.low <= r.low && c.wind >= r.wind {
				add("coldWave", r.level, c.drop, "°C", "forecastTempDrop"+itoa(r.hours)+"h", c.day.Day)
				break
			}
		}
	}
	// Gale: the forecast maximum wind level today or tomorrow.
	var gd *ForecastDay
	for i, d := range within(2) {
		if d.WindLevel != nil && (gd == nil || *d.WindLevel > *gd.WindLevel) {
			gd = &within(2)[i]
		}
	}
	if gd != nil {
		for _, g := range galeRules {
			if *gd.WindLevel >= g.wind {
				add("gale", g.level, *gd.WindMax, "m/s", "forecastWind", gd.Day)
				break
			}
		}
	}
	return forecastTypes
}

func itoa(n int) string { return strconv.Itoa(n) }
