package weather

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/capfeed"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

var cst = time.FixedZone("CST", 8*3600)

// memStore keeps hand-written node-0 readings and rolls them up by local
// day as the store does.
type memStore struct{ rs map[string][]agro.Reading }

func (m *memStore) add(param string, at time.Time, v float64) {
	if m.rs == nil {
		m.rs = map[string][]agro.Reading{}
	}
	m.rs[param] = append(m.rs[param], agro.Reading{Time: at, Value: v})
}

func (m *memStore) sorted(q telemetry.Query) []string {
	var ps []string
	for p := range m.rs {
		if len(q.Params) == 0 || slices.Contains(q.Params, p) {
			ps = append(ps, p)
		}
	}
	sort.Strings(ps)
	return ps
}

func (m *memStore) Series(_ context.Context, q telemetry.Query) ([]telemetry.Series, error) {
	var out []telemetry.Series
	for _, p := range m.sorted(q) {
		rs := slices.Clone(m.rs[p])
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].Time.Before(rs[j].Time) })
		s := telemetry.Series{Param: p}
		for _, r := range rs {
			if !r.Time.Before(q.Begin) && r.Time.Before(q.End) {
				s.TS, s.V = append(s.TS, r.Time.UnixMilli()), append(s.V, r.Value)
			}
		}
		out = append(out, s)
	}
	return out, nil
}

func (m *memStore) Days(_ context.Context, q telemetry.Query) ([]telemetry.Day, error) {
	var out []telemetry.Day
	for _, p := range m.sorted(q) {
		days := map[time.Time]*telemetry.Day{}
		for _, r := range m.rs[p] {
			if r.Time.Before(q.Begin) || !r.Time.Before(q.End) {
				continue
			}
			lt := r.Time.In(cst)
			mid := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, cst)
			d := days[mid]
			if d == nil {
				d = &telemetry.Day{Param: p, Day: mid, Min: r.Value, Max: r.Value}
				days[mid] = d
			}
			d.Min, d.Max, d.Sum, d.Count, d.Last = math.Min(d.Min, r.Value), math.Max(d.Max, r.Value), d.Sum+r.Value, d.Count+1, r.Value
		}
		var keys []time.Time
		for k := range days {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i].Before(keys[j]) })
		for _, k := range keys {
			out = append(out, *days[k])
		}
	}
	return out, nil
}

func (m *memStore) Latest(context.Context, int64) ([]telemetry.Reading, error) { return nil, nil }

// now is 09:00 on 20 January 2026, Beijing time.
var now = time.Date(2026, 1, 20, 9, 0, 0, 0, cst)

func station(typeID int) *devices.Device {
	lat, lng := 39.9, 116.4
	return &devices.Device{ID: 1, TypeID: typeID, Lat: &lat, Lng: &lng}
}

func alertsOf(t *testing.T, st *memStore, d *devices.Device, o Options) *Alerts {
	t.Helper()
	o.Readings = readings.New(telemetry.NewHistory(telemetry.HistoryOptions{Store: st, Location: cst}), func() time.Time { return now })
	a, err := New(o).Alerts(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func find(a *Alerts, typ string) *Alert {
	for i := range a.Alerts {
		if a.Alerts[i].Type == typ {
			return &a.Alerts[i]
		}
	}
	return nil
}

type want struct {
	level agro.WarningLevel
	value float64
	basis string
}

func check(t *testing.T, name string, got *Alert, w want) {
	t.Helper()
	if w.level == agro.WarningNone {
		if got != nil {
			t.Errorf("%s: %+v, want none", name, got)
		}
		return
	}
	if got == nil || got.Level != w.level || got.Value != w.value || got.Basis != w.basis || got.Source != SourceStation {
		t.Errorf("%s: %+v, want %+v", name, got, w)
	}
}

// The cold-wave signal: the daily minimum of today (05:00) against
// yesterday's and the day before's, the wind peak of the last hours.
func TestAlerts_ColdWave(t *testing.T) {
	day := func(n int, h int) time.Time { return time.Date(2026, 1, 20+n, h, 0, 0, 0, cst) }
	for _, c := range []struct {
		name             string
		typeID           int
		min2, min1, min0 float64 // daily minima of the day before yesterday, yesterday, today
		wind24, wind48   float64 // peak 10-minute wind in the last 24 h, and 24–48 h ago
		want             want
	}{
		{"red at 16 °C to 0 °C with level 6", 5, 16, 16, 0, 10.8, 0, want{agro.WarningRed, 16, "tempDrop24h"}},
		{"orange just under 16 °C", 5, 15.9, 15.9, 0, 10.8, 0, want{agro.WarningOrange, 15.9, "tempDrop24h"}},
		{"orange at 12 °C", 5, 12, 12, 0, 10.8, 0, want{agro.WarningOrange, 12, "tempDrop24h"}},
		{"yellow: minimum 0.1 °C is above orange's 0 °C", 5, 16.1, 16.1, 0.1, 10.8, 0, want{agro.WarningYellow, 16, "tempDrop24h"}},
		{"yellow at 10 °C to 4 °C", 5, 14, 14, 4, 10.8, 0, want{agro.WarningYellow, 10, "tempDrop24h"}},
		{"yellow's wind is level 6: level 5 gives blue", 5, 14, 14, 4, 10.7, 0, want{agro.WarningBlue, 10, "tempDrop48h"}},
		{"yellow needs 10 °C: 9.9 gives blue", 5, 13.9, 13.9, 4, 10.8, 0, want{agro.WarningBlue, 9.9, "tempDrop48h"}},
		{"blue over 48 h: 12 → 6 → 4", 5, 12, 6, 4, 8.0, 0, want{agro.WarningBlue, 8, "tempDrop48h"}},
		{"blue's wind may be 24–48 h ago", 5, 12, 6, 4, 0, 8.0, want{agro.WarningBlue, 8, "tempDrop48h"}},
		{"none: wind level 4", 5, 12, 6, 4, 7.9, 7.9, want{}},
		{"none: 7.9 °C over 48 h", 5, 11.9, 6, 4, 10.8, 0, want{}},
		{"none: minimum 4.1 °C", 5, 14.1, 14.1, 4.1, 10.8, 0, want{}},
		{"no wind sensor: temperature alone, yellow", 21, 14, 14, 4, 0, 0, want{agro.WarningYellow, 10, "tempDrop24h"}},
		{"no wind sensor: 9.9 °C gives blue", 21, 13.9, 13.9, 4, 0, 0, want{agro.WarningBlue, 9.9, "tempDrop48h"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &memStore{}
			for n, low := range []float64{c.min2, c.min1, c.min0} {
				st.add("airTemp", day(n-2, 5), low)
				if n < 2 {
					st.add("airTemp", day(n-2, 14), low+8)
				}
			}
			st.add("airTemp", day(0, 8), c.min0+1)
			st.add("windSpeed", now.Add(-2*time.Hour), c.wind24)
			st.add("windSpeed", now.Add(-30*time.Hour), c.wind48)
			check(t, c.name, find(alertsOf(t, st, station(c.typeID), Options{}), "coldWave"), c.want)
		})
	}
}

// The blizzard signal: precipitation of the last 6 and 12 h that fell at
// or below 0 °C.
func TestAlerts_Blizzard(t *testing.T) {
	for _, c := range []struct {
		name string
		rain map[float64]float64 // hours before now → mm
		temp float64             // air temperature of every reading
		want want
	}{
		{"red at 15 mm in 6 h", map[float64]float64{1: 10, 5.5: 5}, -1, want{agro.WarningRed, 15, "snow6h"}},
		{"orange at 14.9 mm", map[float64]float64{1: 9.9, 5.5: 5}, -1, want{agro.WarningOrange, 14.9, "snow6h"}},
		{"orange at 10 mm", map[float64]float64{1: 10}, 0, want{agro.WarningOrange, 10, "snow6h"}},
		{"yellow: 9.9 mm in 6 h", map[float64]float64{1: 9.9}, -1, want{agro.WarningYellow, 9.9, "snow12h"}},
		{"yellow: 6 mm, 11 h ago", map[float64]float64{11: 6}, -1, want{agro.WarningYellow, 6, "snow12h"}},
		{"blue at 5.9 mm", map[float64]float64{11: 5.9}, -1, want{agro.WarningBlue, 5.9, "snow12h"}},
		{"blue at 4 mm", map[float64]float64{2: 2, 11: 2}, -1, want{agro.WarningBlue, 4, "snow12h"}},
		{"none at 3.9 mm", map[float64]float64{2: 3.9}, -1, want{}},
		{"none: 13 h ago", map[float64]float64{13: 20}, -1, want{}},
		{"none: rain at 0.1 °C", map[float64]float64{1: 20}, 0.1, want{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &memStore{}
			for h, mm := range c.rain {
				at := now.Add(-time.Duration(h * float64(time.Hour)))
				st.add("rainfall", at, mm)
				st.add("airTemp", at.Add(10*time.Minute), c.temp)
			}
			check(t, c.name, find(alertsOf(t, st, station(5), Options{}), "blizzard"), c.want)
		})
	}
	// The nearest temperature is 40 minutes away: not known to be snow.
	st := &memStore{}
	st.add("rainfall", now.Add(-time.Hour), 20)
	st.add("airTemp", now.Add(-time.Hour-40*time.Minute), -5)
	check(t, "temperature 40 min away", find(alertsOf(t, st, station(5), Options{}), "blizzard"), want{})
}

// The drought signal on the 30-day relative moisture index: the weather of
// every day is the same, so each day's ET0 is the same and the rain is set
// against their sum to give the MI wanted.
func TestAlerts_Drought(t *testing.T) {
	today := time.Date(2026, 1, 20, 0, 0, 0, 0, cst)
	weatherOnly := func() *memStore {
		st := &memStore{}
		for at := today.AddDate(0, 0, -31); at.Before(now); at = at.Add(10 * time.Minute) {
			h := float64(at.In(cst).Hour()) + float64(at.In(cst).Minute())/60
			st.add("airTemp", at, 10+8*math.Sin((h-9)*math.Pi/12))
			st.add("airHumidity", at, 50-20*math.Sin((h-9)*math.Pi/12))
			st.add("windSpeed", at, 3)
			st.add("solarRadiation", at, math.Max(0, 500*math.Sin((h-6)*math.Pi/12)))
		}
		return st
	}
	st := weatherOnly()
	rd := readings.New(telemetry.NewHistory(telemetry.HistoryOptions{Store: st, Location: cst}), func() time.Time { return now })
	et, err := ObservedET0(context.Background(), rd, station(5), today.AddDate(0, 0, -30), today)
	if err != nil || len(et) != 30 {
		t.Fatalf("ET0 of %d days: %v", len(et), err)
	}
	var pet float64
	for _, e := range et {
		pet += e.ET0
	}
	if pet < 30 {
		t.Fatalf("30-day ET0 %.2f mm: too little to test on", pet)
	}
	for _, c := range []struct {
		name string
		mi   float64
		skip int // a day (1–30) without rain readings; 0: none
		want want
	}{
		{"red at MI −0.951", -0.951, 0, want{agro.WarningRed, -0.95, "mi30"}},
		{"orange at MI −0.949", -0.949, 0, want{agro.WarningOrange, -0.95, "mi30"}},
		{"orange at MI −0.801", -0.801, 0, want{agro.WarningOrange, -0.8, "mi30"}},
		{"none at MI −0.799", -0.799, 0, want{}},
		{"none: a day without a rain record", -1, 12, want{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := weatherOnly()
			p := pet * (1 + c.mi)
			for n := 1; n <= 30; n++ {
				if n == c.skip {
					continue
				}
				for at := today.AddDate(0, 0, -n); at.Before(today.AddDate(0, 0, -n+1)); at = at.Add(10 * time.Minute) {
					mm := 0.0
					if at.In(cst).Hour() == 12 && at.In(cst).Minute() == 0 {
						mm = p / 30
					}
					st.add("rainfall", at, mm)
				}
			}
			a := alertsOf(t, st, station(5), Options{})
			check(t, c.name, find(a, "drought"), c.want)
			if slices.Contains(a.Checked, "drought") == (c.skip > 0) {
				t.Errorf("drought checked %v with day %d missing", a.Checked, c.skip)
			}
		})
	}
}

// The five first signals keep their criteria: a hand-made day raises each.
func TestAlerts_FirstFive(t *testing.T) {
	st := &memStore{}
	st.add("rainfall", now.Add(-2*time.Hour), 50)     // 50 mm in 3 h: orange
	st.add("windSpeed", now.Add(-20*time.Hour), 13.9) // level 7 within 24 h: blue
	st.add("airTemp", now.Add(-5*time.Hour), -3)      // frost yellow
	st.add("airTemp", now.Add(-1*time.Hour), 37)      // 37 °C within 24 h: orange
	a := alertsOf(t, st, station(5), Options{})
	check(t, "rainstorm", find(a, "rainstorm"), want{agro.WarningOrange, 50, "rain3h"})
	check(t, "gale", find(a, "gale"), want{agro.WarningBlue, 13.9, "wind24h"})
	check(t, "frost", find(a, "frost"), want{agro.WarningYellow, -3, "tempMin24h"})
	check(t, "highTemperature", find(a, "highTemperature"), want{agro.WarningOrange, 37, "tempMax24h"})
	if a.Alerts[0].Level < a.Alerts[len(a.Alerts)-1].Level {
		t.Errorf("not highest first: %+v", a.Alerts)
	}
}

func fday(n int, tmax, tmin, rain, wind *float64) ForecastDay {
	d := ForecastDay{Day: time.Date(2026, 1, 20+n, 0, 0, 0, 0, cst), TempMax: tmax, TempMin: tmin, Rain: rain, WindMax: wind}
	if wind != nil {
		l := agro.WindLevel(*wind)
		d.WindLevel = &l
	}
	return d
}

func TestForecastAlerts(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	mild := func(n int) ForecastDay { return fday(n, v(20), v(10), v(0), v(3)) }
	week := func(change map[int]ForecastDay) []ForecastDay {
		var out []ForecastDay
		for n := -1; n < 7; n++ { // the provider's yesterday is ignored
			d, ok := change[n]
			if !ok {
				d = mild(n)
			}
			out = append(out, d)
		}
		return out
	}
	type fw struct {
		typ   string
		level agro.WarningLevel
		value float64
		basis string
		day   int
	}
	for _, c := range []struct {
		name string
		days map[int]ForecastDay
		want []fw
	}{
		{"nothing in mild weather", nil, nil},
		{"yesterday's heat is past", map[int]ForecastDay{-1: fday(-1, v(41), v(25), v(0), v(3))}, nil},
		{"rainstorm at 50 mm tomorrow", map[int]ForecastDay{1: fday(1, v(25), v(18), v(50), v(3))}, []fw{{"rainstorm", agro.WarningBlue, 50, "forecastRain24h", 1}}},
		{"no rainstorm at 49.9 mm", map[int]ForecastDay{1: fday(1, v(25), v(18), v(49.9), v(3))}, nil},
		{"no rainstorm the day after tomorrow", map[int]ForecastDay{2: fday(2, v(25), v(18), v(80), v(3))}, nil},
		{"blizzard at 4 mm with a maximum of 0 °C", map[int]ForecastDay{0: fday(0, v(0), v(-6), v(4), v(3)), 1: fday(1, v(2), v(-4), v(0), v(3))},
			[]fw{{"blizzard", agro.WarningBlue, 4, "forecastSnow24h", 0}, {"frost", agro.WarningOrange, -6, "forecastTempMin", 0}}},
		{"no blizzard at 3.9 mm", map[int]ForecastDay{0: fday(0, v(0), v(1), v(3.9), v(3))}, nil},
		{"heat red at 40 °C", map[int]ForecastDay{1: fday(1, v(40), v(25), v(0), v(3))}, []fw{{"highTemperature", agro.WarningRed, 40, "forecastTempMax", 1}}},
		{"heat orange at 37 °C", map[int]ForecastDay{0: fday(0, v(39.9), v(25), v(0), v(3)), 1: fday(1, v(37), v(25), v(0), v(3))},
			[]fw{{"highTemperature", agro.WarningOrange, 39.9, "forecastTempMax", 0}}},
		{"heat yellow: 35 °C three days running", map[int]ForecastDay{2: fday(2, v(35), v(22), v(0), v(3)), 3: fday(3, v(36), v(22), v(0), v(3)), 4: fday(4, v(35.5), v(22), v(0), v(3))},
			[]fw{{"highTemperature", agro.WarningYellow, 35, "forecastTempMax3d", 4}}},
		{"no heat: 35, 34.9, 35", map[int]ForecastDay{2: fday(2, v(35), v(22), v(0), v(3)), 3: fday(3, v(34.9), v(22), v(0), v(3)), 4: fday(4, v(35), v(22), v(0), v(3))}, nil},
		{"frost yellow at −3 °C tomorrow", map[int]ForecastDay{1: fday(1, v(8), v(-3), v(0), v(3))}, []fw{{"frost", agro.WarningYellow, -3, "forecastTempMin", 1}}},
		{"frost blue at 0 °C in 48 h", map[int]ForecastDay{2: fday(2, v(8), v(0), v(0), v(3))}, []fw{{"frost", agro.WarningBlue, 0, "forecastTempMin", 2}}},
		{"no frost at 0.1 °C", map[int]ForecastDay{1: fday(1, v(8), v(0.1), v(0), v(3))}, nil},
		{"cold wave red: 16 °C to 0 °C, level 6", map[int]ForecastDay{0: fday(0, v(20), v(16), v(0), v(5)), 1: fday(1, v(5), v(0), v(0), v(10.8))},
			[]fw{{"frost", agro.WarningBlue, 0, "forecastTempMin", 1}, {"coldWave", agro.WarningRed, 16, "forecastTempDrop24h", 1}, {"gale", agro.WarningBlue, 10.8, "forecastWind", 1}}},
		{"cold wave yellow: 10 °C to 4 °C", map[int]ForecastDay{0: fday(0, v(20), v(14), v(0), v(10.8)), 1: fday(1, v(10), v(4), v(0), v(5))},
			[]fw{{"coldWave", agro.WarningYellow, 10, "forecastTempDrop24h", 1}, {"gale", agro.WarningBlue, 10.8, "forecastWind", 0}}},
		{"cold wave blue over 48 h with level 5", map[int]ForecastDay{0: fday(0, v(20), v(12), v(0), v(3)), 1: fday(1, v(15), v(8), v(0), v(3)), 2: fday(2, v(10), v(4), v(0), v(8))},
			[]fw{{"coldWave", agro.WarningBlue, 8, "forecastTempDrop48h", 2}}},
		{"no cold wave with level 4", map[int]ForecastDay{0: fday(0, v(20), v(12), v(0), v(3)), 1: fday(1, v(15), v(8), v(0), v(3)), 2: fday(2, v(10), v(4), v(0), v(7.9))}, nil},
		{"gale red at level 12", map[int]ForecastDay{0: fday(0, v(20), v(10), v(0), v(32.7))}, []fw{{"gale", agro.WarningRed, 32.7, "forecastWind", 0}}},
		{"gale yellow at level 8", map[int]ForecastDay{1: fday(1, v(20), v(10), v(0), v(17.2))}, []fw{{"gale", agro.WarningYellow, 17.2, "forecastWind", 1}}},
		{"no gale at level 5", map[int]ForecastDay{1: fday(1, v(20), v(10), v(0), v(10.7))}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []Alert
			types := forecastAlerts(week(c.days), time.Date(2026, 1, 20, 0, 0, 0, 0, cst), func(a Alert) { got = append(got, a) })
			if len(types) != 6 {
				t.Errorf("checked %v", types)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i, w := range c.want {
				g := got[i]
				if g.Type != w.typ || g.Level != w.level || g.Value != w.value || g.Basis != w.basis || g.Source != SourceForecast ||
					!g.Day.Equal(time.Date(2026, 1, 20+w.day, 0, 0, 0, 0, cst)) {
					t.Errorf("alert %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// What checked each type, with and without the forecast and the feed.
func TestAlerts_ChecksAndFeed(t *testing.T) {
	st := &memStore{}
	st.add("airTemp", now.Add(-time.Hour), 5)
	a := alertsOf(t, st, station(4), Options{}) // no rain gauge, no forecast, no feed
	by := map[string][]string{}
	for _, c := range a.Checks {
		by[c.Type] = c.By
	}
	if len(a.Checks) != 16 || !slices.Equal(by["gale"], []string{SourceStation}) || len(by["rainstorm"]) != 0 || len(by["drought"]) != 0 ||
		a.Feed != FeedNone || a.Forecast {
		t.Errorf("checks %+v feed %q forecast %v", a.Checks, a.Feed, a.Forecast)
	}
	wantNeed := []string{"typhoon", "rainstorm", "blizzard", "sandstorm", "drought", "thunder", "hail", "fog", "haze", "roadIcing", "forestFire", "thunderstormGale"}
	if !slices.Equal(a.NeedFeed, wantNeed) {
		t.Errorf("need a feed: %v", a.NeedFeed)
	}

	cap := `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
  <identifier>hail-7</identifier><sender>beijing@12379.cn</sender><sent>2026-01-20T08:30:00+08:00</sent>
  <status>Actual</status><msgType>Alert</msgType><scope>Public</scope>
  <info><category>Met</category><event>冰雹</event><urgency>Immediate</urgency><severity>Severe</severity><certainty>Likely</certainty>
    <expires>2026-01-20T12:00:00+08:00</expires><headline>北京市气象台发布冰雹橙色预警信号</headline>
    <area><areaDesc>北京市</areaDesc><circle>39.9,116.4 30</circle></area></info>
</alert>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/cap+xml")
		_, _ = w.Write([]byte(cap))
	}))
	defer srv.Close()
	lo := func(x float64) *float64 { return &x }
	fc := source{f: &forecast.Forecast{Provider: "p", Days: []forecast.Day{
		{Date: time.Date(2026, 1, 20, 0, 0, 0, 0, cst), TempMin: lo(-8)}, {Date: time.Date(2026, 1, 21, 0, 0, 0, 0, cst), TempMin: lo(-9)}}}}
	a = alertsOf(t, st, station(4), Options{Forecast: fc, Feed: capfeed.New(capfeed.Config{URL: srv.URL, Now: func() time.Time { return now }})})
	by = map[string][]string{}
	for _, c := range a.Checks {
		by[c.Type] = c.By
	}
	if a.Feed != FeedOK || !a.Forecast || !slices.Equal(by["gale"], []string{SourceStation, SourceForecast, SourceFeed}) ||
		!slices.Equal(by["hail"], []string{SourceFeed}) || !slices.Equal(a.NeedFeed, []string{"typhoon", "sandstorm", "drought", "thunder", "hail", "fog", "haze", "roadIcing", "forestFire", "thunderstormGale"}) {
		t.Errorf("checks %+v need %v", a.Checks, a.NeedFeed)
	}
	hail, frost := find(a, "hail"), find(a, "frost")
	if hail == nil || hail.Source != SourceFeed || hail.Level != agro.WarningOrange || hail.Area != "北京市" ||
		hail.Headline != "北京市气象台发布冰雹橙色预警信号" || !hail.Expires.Equal(time.Date(2026, 1, 20, 12, 0, 0, 0, cst)) {
		t.Errorf("hail %+v", hail)
	}
	if frost == nil || frost.Source != SourceForecast || frost.Level != agro.WarningOrange || frost.Value != -8 {
		t.Errorf("frost %+v", frost)
	}
	if a.Alerts[0].Level != agro.WarningOrange {
		t.Errorf("not highest first: %+v", a.Alerts)
	}

	// A feed that fails leaves the station's and forecast's signals.
	down := capfeed.New(capfeed.Config{URL: srv.URL + "/missing\x7f", Now: func() time.Time { return now }})
	a = alertsOf(t, st, station(4), Options{Forecast: fc, Feed: down})
	if a.Feed != FeedUnavailable || find(a, "frost") == nil || find(a, "hail") != nil {
		t.Errorf("feed down: %q %+v", a.Feed, a.Alerts)
	}
}
