package briefing_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/briefing"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/soil"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

var cst = time.FixedZone("CST", 8*3600)

// farm is a store with an owner, a stranger and their devices.
type farm struct {
	t     testing.TB
	db    *store.DB
	owner int64
	other int64
	n     int
}

func newFarm(t testing.TB, db *store.DB) *farm {
	f := &farm{t: t, db: db}
	f.owner = f.account("bureau01")
	f.other = f.account("other001")
	return f
}

func (f *farm) account(number string) int64 {
	a := &accounts.Account{AccountNumber: number, Name: number, PasswordHash: "h", CreatedAt: time.UnixMilli(1_700_000_000_000)}
	if err := f.db.CreateAccount(context.Background(), a); err != nil {
		f.t.Fatal(err)
	}
	return a.ID
}

func (f *farm) device(typeID int, owner int64, lat, lng float64) *devices.Device {
	f.n++
	d := &devices.Device{HashID: fmt.Sprintf("h%d", f.n), SN: fmt.Sprintf("SN%08d", f.n), TypeID: typeID, OwnerID: owner,
		Name: fmt.Sprintf("D%02d", f.n), State: devices.StateUsed, Lat: &lat, Lng: &lng, CreatedAt: time.UnixMilli(1_700_000_000_000)}
	if err := f.db.CreateDevice(context.Background(), d, "sealed"); err != nil {
		f.t.Fatal(err)
	}
	return d
}

func (f *farm) settings(id int64, fc float64, depths ...int) {
	st := &soil.Settings{DeviceID: id, UpdatedAt: time.UnixMilli(1_772_400_000_000)}
	for _, d := range depths {
		st.Nodes = append(st.Nodes, soil.NodeConfig{Depth: d, FieldCapacity: fc, UnitWeight: 1.35})
	}
	if err := f.db.SaveSoilSettings(context.Background(), st); err != nil {
		f.t.Fatal(err)
	}
}

// moisture stores, for every day in [from, to), readings every interval
// at each node of theta(node) ∓ 0.5 alternately, so each day's mean is
// theta(node) exactly and no node reads one constant value.
func (f *farm) moisture(id int64, from, to time.Time, interval time.Duration, theta func(node int) float64, nodes ...int) {
	var reps []*telemetry.Report
	i := 0
	for at := from; at.Before(to); at = at.Add(interval) {
		r := &telemetry.Report{DeviceID: id, Time: at, OfflineAt: at.Add(time.Hour)}
		off := -0.5
		if i%2 == 1 {
			off = 0.5
		}
		i++
		for _, n := range nodes {
			r.Points = append(r.Points, telemetry.Point{Param: "soilMoisture", Node: n, Value: theta(n) + off})
		}
		reps = append(reps, r)
	}
	f.write(reps)
}

func (f *farm) write(reps []*telemetry.Report) {
	for len(reps) > 0 {
		n := min(len(reps), 5000)
		if _, err := f.db.WriteReports(context.Background(), reps[:n], cst); err != nil {
			f.t.Fatal(err)
		}
		reps = reps[n:]
	}
}

// openMeteo answers the forecast client as Open-Meteo does: 7 days from
// start with the given rain and ET0 every day.
func openMeteo(t testing.TB, start time.Time, rain, et0 float64) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/forecast" {
			http.NotFound(w, r)
			return
		}
		days, rains, et0s, tmax := "", "", "", ""
		for i := range 7 {
			sep := ","
			if i == 0 {
				sep = ""
			}
			days += sep + `"` + start.AddDate(0, 0, i).Format(time.DateOnly) + `"`
			rains += sep + fmt.Sprint(rain)
			et0s += sep + fmt.Sprint(et0)
			tmax += sep + "20"
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"latitude":34.7,"longitude":114.0,"elevation":90,"daily_units":{"time":"iso8601","precipitation_sum":"mm","et0_fao_evapotranspiration":"mm","wind_speed_10m_max":"m/s"},
"daily":{"time":[%s],"temperature_2m_max":[%s],"temperature_2m_min":[%s],"precipitation_sum":[%s],"et0_fao_evapotranspiration":[%s],"wind_speed_10m_max":[%s]}}`,
			days, tmax, tmax, rains, et0s, tmax)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func near(got *float64, want float64) bool { return got != nil && math.Abs(*got-want) < 1e-6 }

func show(v *float64) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprint(*v)
}

// county is the by-hand county of TestCompute_CountyByHand.
type county struct {
	svc                               *briefing.Service
	hist                              *telemetry.History
	p                                 *briefing.Preset
	end, begin                        time.Time
	s1, s2, s3, s4, s5, s6, s7, gauge *devices.Device
}

func countyFarm(t testing.TB, db *store.DB) *county {
	f := newFarm(t, db)
	end := time.Date(2026, 11, 23, 0, 0, 0, 0, cst)
	begin, prev := end.AddDate(0, 0, -7), end.AddDate(0, 0, -14)
	std := []int{10, 20, 30, 40, 50, 60}
	s1 := f.device(2, f.owner, 34.70, 114.00)
	f.settings(s1.ID, 30, std...)
	f.moisture(s1.ID, prev, begin, time.Hour, func(n int) float64 { return map[int]float64{10: 21, 20: 21, 30: 21, 40: 21, 50: 24, 60: 24}[n] }, std...)
	f.moisture(s1.ID, begin, end, time.Hour, func(n int) float64 { return map[int]float64{10: 18, 20: 18, 30: 21, 40: 21, 50: 24, 60: 24}[n] }, std...)
	s2 := f.device(2, f.owner, 34.72, 114.02)
	f.settings(s2.ID, 25, std...) // overridden by the preset's 32
	f.moisture(s2.ID, prev, end, time.Hour, func(n int) float64 {
		return map[int]float64{10: 16, 20: 16, 30: 24, 40: 24, 50: 28.8, 60: 28.8}[n]
	}, std...)
	s3 := f.device(1, f.owner, 34.80, 114.10)
	f.settings(s3.ID, 25, 10, 20, 30)
	f.moisture(s3.ID, begin, end, time.Hour, func(int) float64 { return 20 }, 10, 20, 30)
	s4 := f.device(2, f.owner, 34.71, 114.01)
	f.settings(s4.ID, 30, std...)
	f.moisture(s4.ID, begin.AddDate(0, 0, 4), end, time.Hour, func(int) float64 { return 5 }, std...)
	s5 := f.device(2, f.owner, 34.71, 114.01)
	f.settings(s5.ID, 30, std...)
	var stuck []*telemetry.Report
	for at := begin; at.Before(end); at = at.Add(time.Hour) {
		r := &telemetry.Report{DeviceID: s5.ID, Time: at, OfflineAt: at.Add(time.Hour)}
		for _, n := range std {
			r.Points = append(r.Points, telemetry.Point{Param: "soilMoisture", Node: n, Value: 20})
		}
		stuck = append(stuck, r)
	}
	f.write(stuck)
	s6 := f.device(2, f.other, 34.71, 114.01)
	f.settings(s6.ID, 30, std...)
	f.moisture(s6.ID, begin, end, time.Hour, func(int) float64 { return 1 }, std...)
	s7 := f.device(2, f.owner, 34.71, 114.01)
	f.moisture(s7.ID, begin, end, time.Hour, func(int) float64 { return 2 }, std...)
	gauge := f.device(6, f.owner, 34.71, 114.01)
	var rain []*telemetry.Report
	for i, at := 0, begin; at.Before(end); i, at = i+1, at.Add(3*time.Hour) {
		mm := map[int]float64{3: 2.5, 20: 4, 41: 6}[i]
		rain = append(rain, &telemetry.Report{DeviceID: gauge.ID, Time: at, OfflineAt: at.Add(time.Hour),
			Points: []telemetry.Point{{Param: "rainfall", Value: mm}}})
	}
	f.write(rain)

	fc := 32.0
	p := &briefing.Preset{ID: 7, OwnerID: f.owner, Name: "周报", TemplateID: briefing.TemplateCounty, UnitName: "县农业农村局",
		Lang: i18n.ZhCN, Stage: agro.DroughtCritical,
		Regions: []briefing.Region{{Name: "城关镇", DeviceIDs: []int64{s1.ID, s2.ID, s4.ID, s5.ID, s6.ID, s7.ID}}, {Name: "官渡镇", DeviceIDs: []int64{s3.ID}}},
		SoilDevices: []briefing.SoilDevice{{DeviceID: s1.ID}, {DeviceID: s2.ID, FieldCapacity: &fc}, {DeviceID: s3.ID},
			{DeviceID: s4.ID}, {DeviceID: s5.ID}, {DeviceID: s6.ID}, {DeviceID: s7.ID}},
		WeatherIDs: []int64{gauge.ID}}
	p.Normalize()
	devs := devices.New(devices.Options{Store: db})
	svc := briefing.New(briefing.Options{Store: db, Devices: devs, Now: func() time.Time { return end.Add(9 * time.Hour) }})
	hist := telemetry.NewHistory(telemetry.HistoryOptions{Store: db, Location: cst})
	return &county{svc: svc, hist: hist, p: p, end: end, begin: begin, s1: s1, s2: s2, s3: s3, s4: s4, s5: s5, s6: s6, s7: s7, gauge: gauge}
}

// A county report worked by hand. The week is 16–22 November 2026
// (Asia/Shanghai), the previous week 9–15 November; stage critical (a 0.9).
//
//	S1 (fc 30 from settings)  θ 0–20 18 → R 60 (prev 21 → 70), 20–40 21 → 70, 40–60 24 → 80
//	S2 (fc 32 override)       θ 0–20 16 → R 50 (prev 16 → 50), 20–40 24 → 75, 40–60 28.8 → 90
//	S3 (type 1, fc 25)        θ 20 at 10, 20, 30 cm → R 80; no 40–60 node
//	S4                        readings on 3 days of 7: incomplete
//	S5                        20.0 all week: a stuck sensor
//	S6                        the stranger's: unavailable
//	S7                        no settings, no override: no field capacity
//
// Region 城关镇 = S1, S2, S4, S5, S6, S7: only S1 and S2 are averaged.
//
//	0–20: θ (18+16)/2 = 17.0, R (60+50)/2 = 55.0, index 0.9×55 = 49.5 → moderate;
//	      previous (70+50)/2 = 60.0, change −5.0
//	20–40: θ 22.5, R 72.5, index 65.25 → none; 40–60: θ 26.4, R 85.0 → none, not waterlogged (≤ 90)
//	advice: irrigate (0–20 cm in drought): (31 − 17)/100 × 200 mm = 28.0 mm, fc the mean of 30 and 32
//
// Region 官渡镇 = S3: 0–20 θ 20.0, R 80.0, index 72.0 → none; no previous week.
// Forecast: ET0 5 mm/day, no rain. The balance of 0–20 cm from θ 20 (fc 25):
// Dr0 = (25−20)×2 = 10 mm; refill at 60/0.9 = 66.7 % → RAW = (25 − 16.67)×2 = 16.67 mm;
// day 1 Dr 15, day 2 Dr 20 ≥ RAW → irrigate by 24 November, 20.0 mm.
// Rain: the gauge's 2.5 + 4 + 6 = 12.5 mm.
func TestCompute_CountyByHand(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := countyFarm(t, db)
		svc, hist, p, end, begin := c.svc, c.hist, c.p, c.end, c.begin
		s1, s2, s3, s4, s5, s6, s7 := c.s1, c.s2, c.s3, c.s4, c.s5, c.s6, c.s7
		srv := openMeteo(t, end, 0, 5)
		fcClient := forecast.New(forecast.Config{BaseURL: srv.URL, Location: cst})
		var last float64
		r, err := svc.Compute(ctx, briefing.ReportOptions{Readings: readings.New(hist, nil), Settings: db, Forecast: fcClient}, p, time.Time{},
			func(v float64) {
				if v < last {
					t.Errorf("progress went back from %v to %v", last, v)
				}
				last = v
			})
		if err != nil {
			t.Fatal(err)
		}
		if last != 1 {
			t.Errorf("progress ended at %v", last)
		}
		if !r.Begin.Equal(begin) || !r.End.Equal(end) || len(r.Days) != 7 || r.Coefficient != 0.9 {
			t.Fatalf("period %v–%v, %d days, a %v", r.Begin, r.End, len(r.Days), r.Coefficient)
		}
		issues := map[int64]string{}
		for _, d := range r.Devices {
			issues[d.ID] = d.Issue
		}
		for id, want := range map[int64]string{s1.ID: "", s2.ID: "", s3.ID: "", s4.ID: briefing.IssueIncomplete,
			s5.ID: briefing.IssueConstant, s6.ID: briefing.IssueUnavailable, s7.ID: briefing.IssueNoFieldCapacity} {
			if issues[id] != want {
				t.Errorf("device %d: issue %q, want %q", id, issues[id], want)
			}
		}
		for _, d := range r.Devices {
			if d.ID == s6.ID && (d.SN != "" || d.Name != "" || d.Bands[0].Theta != nil) {
				t.Errorf("the stranger's device shows: %+v", d)
			}
		}
		a, b := r.Regions[0], r.Regions[1]
		if a.Name != "城关镇" || a.Devices != 6 || a.Used != 2 {
			t.Fatalf("region A: %+v", a)
		}
		check := func(name string, got *float64, want float64) {
			t.Helper()
			if !near(got, want) {
				t.Errorf("%s = %s, want %v", name, show(got), want)
			}
		}
		b1, b2, b3 := a.Bands[0], a.Bands[1], a.Bands[2]
		check("A 0–20 θ", b1.Theta, 17)
		check("A 0–20 R", b1.Relative, 55)
		check("A 0–20 index", b1.Index, 49.5)
		check("A 0–20 previous", b1.PrevRelative, 60)
		check("A 0–20 change", b1.Change, -5)
		check("A 20–40 θ", b2.Theta, 22.5)
		check("A 20–40 R", b2.Relative, 72.5)
		check("A 40–60 θ", b3.Theta, 26.4)
		check("A 40–60 R", b3.Relative, 85)
		if b1.Grade != "moderate" || b2.Grade != "none" || b3.Grade != "none" || b3.Waterlogged || a.Grade != "moderate" {
			t.Errorf("A grades %s %s %s (waterlogged %v), region %s", b1.Grade, b2.Grade, b3.Grade, b3.Waterlogged, a.Grade)
		}
		if a.Advice.Action != briefing.ActionIrrigate || !near(a.Advice.DepthMM, 28) {
			t.Errorf("A advice %+v (depth %s), want irrigate 28.0 mm", a.Advice, show(a.Advice.DepthMM))
		}
		for i, v := range b1.Daily {
			if !near(v, 55) {
				t.Errorf("A 0–20 day %d: %s, want 55", i, show(v))
			}
		}
		if b.Used != 1 || !near(b.Bands[0].Theta, 20) || !near(b.Bands[0].Relative, 80) || !near(b.Bands[0].Index, 72) ||
			b.Bands[0].Grade != "none" || b.Bands[0].Change != nil || b.Bands[2].Theta != nil || b.Bands[2].Grade != "" {
			t.Errorf("region B: %+v", b.Bands)
		}
		wantBy := end.AddDate(0, 0, 1)
		if b.Advice.Action != briefing.ActionIrrigate || !near(b.Advice.DepthMM, 20) || b.Advice.By == nil || !b.Advice.By.Equal(wantBy) {
			t.Errorf("B advice %+v (depth %s), want irrigate 20.0 mm by %v", b.Advice, show(b.Advice.DepthMM), wantBy)
		}
		if !near(r.Rain, 12.5) || len(r.Weather) != 1 || !near(r.Weather[0].Rain, 12.5) || !near(a.Rain, 12.5) {
			t.Errorf("rain %s, weather %+v", show(r.Rain), r.Weather)
		}
		if r.Forecast == nil || r.Forecast.ET0 != 35 || r.Forecast.Rain != 0 || len(r.Forecast.Days) != 7 {
			t.Errorf("forecast %+v (%s)", r.Forecast, r.ForecastIssue)
		}

		// Heavy rain in the forecast: the balance never reaches the refill point: hold.
		wet := openMeteo(t, end, 10, 5)
		r, err = svc.Compute(ctx, briefing.ReportOptions{Readings: readings.New(hist, nil), Settings: db,
			Forecast: forecast.New(forecast.Config{BaseURL: wet.URL, Location: cst})}, p, end, nil)
		if err != nil {
			t.Fatal(err)
		}
		if adv := r.Regions[1].Advice; adv.Action != briefing.ActionHold || adv.Projected == nil {
			t.Errorf("B with rain: %+v", adv)
		}
		// Without a forecast the report says so and advises from the state alone.
		r, err = svc.Compute(ctx, briefing.ReportOptions{Readings: readings.New(hist, nil), Settings: db,
			Forecast: forecast.New(forecast.Config{})}, p, end, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Forecast != nil || r.ForecastIssue != "unavailable" || r.Regions[1].Advice.Action != briefing.ActionHold ||
			r.Regions[0].Advice.Action != briefing.ActionIrrigate {
			t.Errorf("no forecast: %+v %q %+v", r.Forecast, r.ForecastIssue, r.Regions)
		}
	})
}

// Waterlogging: a band above 90 % of field capacity flags the region and
// the advice is to drain.
func TestCompute_Waterlogged(t *testing.T) {
	db := storetest.OpenSQLite(t)
	f := newFarm(t, db)
	end := time.Date(2026, 11, 23, 0, 0, 0, 0, cst)
	std := []int{10, 20, 30, 40, 50, 60}
	s := f.device(2, f.owner, 34.7, 114)
	f.settings(s.ID, 30, std...)
	f.moisture(s.ID, end.AddDate(0, 0, -7), end, time.Hour, func(n int) float64 {
		if n <= 20 {
			return 28 // R 93.3
		}
		return 25
	}, std...)
	p := &briefing.Preset{OwnerID: f.owner, Name: "farm", UnitName: "farm", Regions: []briefing.Region{{Name: "farm", DeviceIDs: []int64{s.ID}}},
		SoilDevices: []briefing.SoilDevice{{DeviceID: s.ID}}}
	p.Normalize()
	svc := briefing.New(briefing.Options{Store: db, Devices: devices.New(devices.Options{Store: db})})
	hist := telemetry.NewHistory(telemetry.HistoryOptions{Store: db, Location: cst})
	r, err := svc.Compute(context.Background(), briefing.ReportOptions{Readings: readings.New(hist, nil), Settings: db}, p, end, nil)
	if err != nil {
		t.Fatal(err)
	}
	rg := r.Regions[0]
	if !rg.Bands[0].Waterlogged || !rg.Waterlogged || rg.Bands[1].Waterlogged || rg.Advice.Action != briefing.ActionDrain || rg.Grade != "none" {
		t.Errorf("waterlogged region: %+v", rg)
	}
	if r.ForecastIssue != "unavailable" {
		t.Errorf("forecast issue %q", r.ForecastIssue)
	}
}
