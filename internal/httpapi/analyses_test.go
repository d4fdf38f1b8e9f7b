package httpapi_test

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/advice"
	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/httpapi"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/rain"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/soil"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
	"github.com/fieldwatch/fieldwatch/internal/tilt"
	"github.com/fieldwatch/fieldwatch/internal/weather"
)

var shanghai = func() *time.Location {
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		panic(err)
	}
	return loc
}()

// analysisServer is the API with the analyses. It is the one place that
// knows how the analyses are wired into the server.
func analysisServer(o httpapi.Options, db *store.DB, fc weather.Forecaster, feed weather.WarningFeed, rd *readings.Reader) http.Handler {
	log := slog.New(slog.DiscardHandler)
	o.Soil = soil.New(soil.Options{Readings: rd, Store: db, Forecast: fc, Log: log})
	o.Weather = weather.New(weather.Options{Readings: rd, Forecast: fc, Crops: o.Soil, Feed: feed, Log: log})
	o.Rain, o.Tilt = rain.New(rd), tilt.New(rd)
	ao := advice.Options{Readings: rd, Soil: o.Soil, Settings: db, Forecast: fc, Store: db, Log: log}
	if o.Rules != nil {
		ao.Events = o.Rules
	}
	o.Advice = advice.New(ao)
	return httpapi.New(o)
}

// analysisEnv is the API with the analyses, accounts farmer01 and farmer02,
// and forecasts from forecastURL ("" for none).
func analysisEnv(t *testing.T, db *store.DB, forecastURL string) *env {
	t.Helper()
	fc := forecast.New(forecast.Config{BaseURL: forecastURL, TTL: time.Hour, Location: shanghai})
	return analysisEnvWith(t, db, fc, time.Now)
}

// goldenEnv is analysisEnv with a fixed clock and forecast.
func goldenEnv(t *testing.T, db *store.DB) *env {
	t.Helper()
	return analysisEnvWith(t, db, fixedForecast{}, func() time.Time { return goldenNow })
}

func analysisEnvWith(t *testing.T, db *store.DB, fc weather.Forecaster, now func() time.Time) *env {
	t.Helper()
	return analysisEnvFeed(t, db, fc, nil, now)
}

// analysisEnvFeed is analysisEnvWith with a warning feed (nil: none).
func analysisEnvFeed(t *testing.T, db *store.DB, fc weather.Forecaster, feed weather.WarningFeed, now func() time.Time) *env {
	t.Helper()
	ctx := context.Background()
	svc := accounts.New(accounts.Options{Store: db})
	for _, a := range [][3]string{{"farmer01", "secret1", "东坡农场"}, {"farmer02", "secret2", "西岭农场"}} {
		if _, err := svc.Create(ctx, a[0], a[1], a[2]); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		t.Fatal(err)
	}
	dev := devices.New(devices.Options{Store: db, Keys: keys})
	srv := httptest.NewServer(analysisServer(httpapi.Options{Accounts: svc, Devices: dev, History: telemetry.NewHistory(telemetry.HistoryOptions{Store: db, Location: shanghai}), Images: db,
		Location: shanghai, Metrics: metrics.New(), Ping: db.Ping, App: fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}},
		Log: slog.New(slog.DiscardHandler)}, db, fc, feed, readings.New(telemetry.NewHistory(telemetry.HistoryOptions{Store: db, Location: shanghai}), now)))
	t.Cleanup(srv.Close)
	return &env{t: t, url: srv.URL, svc: svc, db: db, devices: dev}
}

// writeAll stores reports in one transaction.
func (e *env) writeAll(reports []*telemetry.Report) {
	e.t.Helper()
	if _, err := e.db.WriteReports(context.Background(), reports, shanghai); err != nil {
		e.t.Fatal(err)
	}
}

func report(d *devices.Device, at time.Time, pts ...telemetry.Point) *telemetry.Report {
	return &telemetry.Report{DeviceID: d.ID, Time: at, Points: pts, OfflineAt: at.Add(time.Hour)}
}

// localMidnight is the Shanghai midnight daysAgo days before today's.
func localMidnight(daysAgo int) time.Time {
	y, m, d := time.Now().In(shanghai).Date()
	return time.Date(y, m, d-daysAgo, 0, 0, 0, 0, shanghai)
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// analysisRoutes are every analysis call, {id} standing for the device.
var analysisRoutes = []struct{ method, path string }{
	{"GET", "/apis/poi/analysis/moisture?id={id}"},
	{"GET", "/apis/poi/analysis/et_root?id={id}"},
	{"GET", "/apis/poi/et0_kc?id={id}"},
	{"GET", "/apis/poi/data/sqy/query?id={id}"},
	{"GET", "/apis/poi/param/list?id={id}"},
	{"GET", "/apis/poi/data/query?id={id}"},
	{"GET", "/apis/poi/week/weather?id={id}"},
	{"GET", "/apis/poi/rainfall?id={id}"},
	{"GET", "/apis/poi/et0?id={id}"},
	{"PUT", "/apis/poi/crop/update?id={id}"},
	{"POST", "/apis/poi/crop/update?id={id}"},
	{"GET", "/apis/poi/tilt/yaw?id={id}"},
	{"GET", "/apis/poi/seven/mete?id={id}"},
	{"GET", "/apis/poi/shang/status?id={id}"},
	{"GET", "/apis/poi/shang/irriRecognition?id={id}"},
	{"GET", "/apis/poi/shang/infiltration?id={id}"},
	{"GET", "/apis/poi/shang/waterlogging?id={id}"},
	{"GET", "/apis/poi/shang/freezeThaw?id={id}"},
	{"GET", "/apis/poi/shang/rootdepth?id={id}"},
	{"GET", "/apis/poi/shang/detail?id={id}"},
	{"GET", "/apis/poi/shang/nodes?id={id}"},
	{"GET", "/apis/poi/shang/config?id={id}"},
	{"PUT", "/apis/poi/shang/config?id={id}"},
	{"GET", "/apis/poi/shang/etc_et0_kc?id={id}"},
	{"GET", "/apis/poi/shan/trend?id={id}"},
	{"GET", "/apis/poi/{id}/pluviometer/early-warning"},
	{"GET", "/apis/poi/{id}/pluviometer/latest"},
	{"GET", "/apis/poi/{id}/pluviometer/i-d"},
	{"GET", "/apis/poi/{id}/pluviometer/i-d/range"},
	{"GET", "/apis/poi/{id}/pluviometer/realtime"},
	{"GET", "/apis/poi/{id}/pluviometer/stats"},
	{"GET", "/apis/poi/{id}/pluviometer/stats_data"},
	{"GET", "/apis/poi/{id}/pluviometer/installing"},
	{"GET", "/apis/qi/{id}/data/realtime"},
	{"GET", "/apis/qi/weather/alert?id={id}"},
	{"GET", "/apis/qi/fwi/statistics?id={id}"},
	{"GET", "/apis/qi/fwi/history?id={id}"},
	{"GET", "/apis/qi/data/history?id={id}"},
}

// Every analysis of another account's device answers exactly as one of a
// device that does not exist, whatever the device's type; and a crop or
// settings body naming it by id changes nothing.
func TestAnalyses_OthersLookLikeMissing(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := analysisEnv(t, db, "")
		theirs := []*devices.Device{e.register("ZS0000000021", 21, "farmer02"), e.register("RG0000000009", 9, "farmer02"),
			e.register("TQ0000000005", 5, "farmer02"), e.register("SJ0000000008", 8, "farmer02")}
		for _, d := range theirs {
			e.write(d, time.Now().Add(-time.Minute), telemetry.Point{Param: "battery", Value: 3.9})
		}
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		body := map[string]any{"cropName": "maize", "sowTime": 1772323200000,
			"nodes": []map[string]any{{"depth": 10, "fieldCapacity": 30, "unitWeight": 1.3}}}
		if len(analysisRoutes) != 38 {
			t.Fatalf("%d routes listed", len(analysisRoutes))
		}
		for _, rt := range analysisRoutes {
			missing := u.do(rt.method, strings.ReplaceAll(rt.path, "{id}", "987654321"), body)
			for _, d := range theirs {
				other := u.do(rt.method, strings.ReplaceAll(rt.path, "{id}", fmt.Sprint(d.ID)), body)
				if other.status != 404 || other.status != missing.status || other.Code != missing.Code ||
					other.Message != missing.Message || fmt.Sprint(other.Error) != fmt.Sprint(missing.Error) {
					t.Errorf("%s %s (type %d): another's device answers %d %d %q, a missing one %d %d %q", rt.method, rt.path,
						d.TypeID, other.status, other.Code, other.Message, missing.status, missing.Code, missing.Message)
				}
			}
		}
		// The id in a body is checked the same way.
		r := u.do("PUT", "/apis/poi/crop/update", map[string]any{"id": theirs[0].ID, "cropName": "maize"})
		r.want(t, 404, 1404)
		if _, err := db.SoilSettings(context.Background(), theirs[0].ID); err == nil {
			t.Fatal("settings written on another account's device")
		}
		// Without ?id= the call names the missing field.
		r = u.do("GET", "/apis/poi/shang/status", nil)
		r.want(t, 400, 1400)
		if r.Error.Field != "id" {
			t.Errorf("field %q", r.Error.Field)
		}
	})
}

// A device of the wrong kind for an analysis is told so, naming what it
// lacks, and a parameter out of range names itself.
func TestAnalyses_BadRequests(t *testing.T) {
	e := analysisEnv(t, storetest.OpenSQLite(t), "")
	rain := e.register("RG0000000009", 9, "farmer01")
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	r := u.do("GET", fmt.Sprintf("/apis/poi/shang/status?id=%d", rain.ID), nil)
	r.want(t, 400, 1400)
	if r.Message != "This device does not measure what this analysis needs (soilMoisture)" || r.Error.Field != "id" {
		t.Errorf("message %q field %q", r.Message, r.Error.Field)
	}
	r = u.do("GET", fmt.Sprintf("/apis/qi/fwi/history?id=%d", rain.ID), nil)
	r.want(t, 400, 1400)
	if !strings.Contains(r.Message, "airTemp, airHumidity, windSpeed") {
		t.Errorf("message %q", r.Message)
	}
	// Parameters out of range name themselves.
	soil := e.register("ZS0000000002", 2, "farmer01")
	for _, c := range []struct{ path, field, msg string }{
		{"/apis/poi/shang/irriRecognition?id=%d&minAmount=0", "minAmount", "Minimum amount must be a number from 0.1 to 500"},
		{"/apis/poi/shang/waterlogging?id=%d&minHours=0", "minHours", "Minimum duration must be a whole number from 1 to 720"},
		{"/apis/poi/et0?id=%d&stationId=x", "stationId", "Choose a weather station of yours that measures what this analysis needs"},
		{"/apis/poi/et0?id=%d&stationId=" + fmt.Sprint(rain.ID), "stationId", "Choose a weather station of yours that measures what this analysis needs"},
		{"/apis/poi/analysis/moisture?id=%d&begin=2020-01-01", "begin", "The range may span at most 366 days"},
		{"/apis/poi/data/sqy/query?id=%d&dim=weekly", "dim", "Dimension has an invalid value"},
	} {
		r := u.do("GET", fmt.Sprintf(c.path, soil.ID), nil)
		r.want(t, 400, 1400)
		if r.Error.Field != c.field || r.Message != c.msg {
			t.Errorf("%s: %q %q", c.path, r.Error.Field, r.Message)
		}
	}
}

// rainStorm writes a 5-minute rain record: dry for 3 h, then 1.0 mm every
// 5 minutes for 55 readings, the last at end. 55 mm in 4.5 hours: 6 h
// reaches 50 mm, 3 h (36 mm) does not, so the signal is 02 yellow.
func rainStorm(e *env, d *devices.Device, end time.Time) {
	var reports []*telemetry.Report
	for k := 90; k >= 0; k-- {
		at := end.Add(-time.Duration(k) * 5 * time.Minute)
		mm := 0.0
		if k < 55 {
			mm = 1
		}
		reports = append(reports, report(d, at, telemetry.Point{Param: "rainfall", Value: mm}))
	}
	e.writeAll(reports)
}

func TestAnalyses_RainGauge(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := analysisEnv(t, db, "")
		gauge := e.register("RG0000000009", 9, "farmer01")
		end := time.Now().Add(-30 * time.Second)
		rainStorm(e, gauge, end)
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		path := func(p string) string { return fmt.Sprintf("/apis/poi/%d/pluviometer/%s", gauge.ID, p) }

		r := u.do("GET", path("early-warning"), nil)
		r.want(t, 200, 0)
		w := decodeData[httpapi.RainWarning](t, r)
		if w.Current.Code != "02" || w.Current.Color != "yellow" || w.Current.Level != 2 {
			t.Errorf("current signal %+v", w.Current)
		}
		if w.Rain3h != 36 || w.Rain6h != 55 || w.Rain12h != 55 || w.Rain1h != 12 {
			t.Errorf("sums 1h %v 3h %v 6h %v 12h %v", w.Rain1h, w.Rain3h, w.Rain6h, w.Rain12h)
		}
		if len(w.Episodes) != 1 || !w.Episodes[0].Ongoing || w.Episodes[0].Code != "02" || w.Highest.Code != "02" {
			t.Errorf("episodes %+v highest %+v", w.Episodes, w.Highest)
		}
		// The yellow signal starts with the reading that brought 6 h to 50 mm.
		if got, want := w.Episodes[0].Start, end.Add(-5*5*time.Minute).UnixMilli(); got != want {
			t.Errorf("episode starts %s, want %s", time.UnixMilli(got), time.UnixMilli(want))
		}

		latest := decodeData[httpapi.RainLatest](t, u.do("GET", path("latest"), nil))
		if latest.Rain1h != 12 || latest.Rain24h != 55 || latest.Class1h != "heavy" || latest.Class24h != "storm" ||
			latest.Warning.Code != "02" || *latest.Rainfall != 1 || *latest.LastRain != end.UnixMilli() {
			t.Errorf("latest %+v", latest)
		}

		id := decodeData[httpapi.IDAnalysis](t, u.do("GET", path("i-d"), nil))
		if id.Event == nil {
			t.Fatal("no rain event")
		}
		hours := 55 * 5.0 / 60
		if !near(id.Event.Hours, hours, 1e-3) || id.Event.MM != 55 || !id.Event.Ongoing || !id.Event.Exceeded ||
			!near(id.Event.Ratio, agro.CaineThreshold.Ratio(55, hours), 1e-3) || len(id.Curve) != 25 || id.Threshold != agro.CaineThreshold {
			t.Errorf("i-d %+v", id.Event)
		}
		// A threshold this storm does not reach.
		strict := decodeData[httpapi.IDAnalysis](t, u.do("GET", path("i-d/range")+"?alpha=40&beta=0.2", nil))
		if len(strict.Events) != 1 || strict.Events[0].Exceeded || strict.Threshold.Alpha != 40 {
			t.Errorf("i-d/range %+v", strict.Events)
		}
		r = u.do("GET", path("i-d")+"?beta=7", nil)
		r.want(t, 400, 1400)
		if r.Error.Field != "beta" {
			t.Errorf("bad beta: field %q", r.Error.Field)
		}

		rt := decodeData[httpapi.RainRealtime](t, u.do("GET", path("realtime")+"?hours=12", nil))
		if rt.Total != 55 || len(rt.Points) != 91 || rt.Cumulative[len(rt.Cumulative)-1][1] != 55 || len(rt.Hourly) < 12 {
			t.Errorf("realtime total %v, %d points, %d hours", rt.Total, len(rt.Points), len(rt.Hourly))
		}

		hourly := decodeData[httpapi.RainSeries](t, u.do("GET", path("stats_data")+"?dim=hour", nil))
		var sum float64
		for _, b := range hourly.Buckets {
			if b.MM != nil {
				sum += *b.MM
			}
		}
		if hourly.Total != 55 || sum != 55 || len(hourly.Buckets) < 24 {
			t.Errorf("hourly total %v sum %v buckets %d", hourly.Total, sum, len(hourly.Buckets))
		}
		daily := decodeData[httpapi.RainSeries](t, u.do("GET", path("stats_data")+"?dim=day&begin="+
			url.QueryEscape(localMidnight(1).Format(time.RFC3339)), nil))
		if daily.Total != 55 || len(daily.Buckets) != 2 {
			t.Errorf("daily %+v", daily)
		}
		monthly := decodeData[httpapi.RainSeries](t, u.do("GET", path("stats_data")+"?dim=month", nil))
		if monthly.Total != 55 || len(monthly.Buckets) < 12 {
			t.Errorf("monthly total %v, %d months", monthly.Total, len(monthly.Buckets))
		}
		u.do("GET", path("stats_data")+"?dim=week", nil).want(t, 400, 1400)

		st := decodeData[httpapi.RainStats](t, u.do("GET", path("stats"), nil))
		if st.Rain24h != 55 || st.Today+st.Yesterday != 55 || st.Week != 55 || st.Year < st.Month || st.MaxDay == nil {
			t.Errorf("stats %+v", st)
		}

		inst := decodeData[httpapi.Installation](t, u.do("GET", path("installing"), nil))
		if inst.SN != "RG0000000009" || inst.IntervalMinutes != 5 || inst.DaysInstalled == nil || *inst.DaysInstalled != 1 || len(inst.Criteria) != 4 {
			t.Errorf("installing %+v", inst)
		}

		// A weather station with the same rain raises the same signal among its alerts.
		station := e.register("TQ0000000005", 5, "farmer01")
		rainStorm(e, station, end)
		al := decodeData[httpapi.WeatherAlerts](t, u.do("GET", fmt.Sprintf("/apis/qi/weather/alert?id=%d", station.ID), nil))
		if len(al.Alerts) != 1 || al.Alerts[0].Type != "rainstorm" || al.Alerts[0].Code != "02" || al.Alerts[0].Basis != "rain6h" ||
			al.Alerts[0].Value != 55 {
			t.Errorf("alerts %+v", al.Alerts)
		}
	})
}

// soilNodes are the ZSQ006's depths; baseline is each one's steady moisture.
var (
	soilNodes = []int{10, 20, 30, 40, 50, 60}
	baseline  = map[int]float64{10: 25, 20: 26, 30: 27, 40: 28, 50: 29, 60: 30}
)

// soilRecord writes hourly readings of a ZSQ006 over the last 4 days:
// steady moisture except an irrigation on the day two days ago (10 cm rises
// 8 points at 09:00, 20 cm 6 at 11:00, 30 cm 4 at 14:00) and a storm
// yesterday (4 mm an hour from 13:00 to 17:00; 10 cm rises 5 points at
// 14:00, 20 cm 3 at 16:00), and a frost night at 10 cm from 20:00–21:00
// three days ago to 09:00–10:00 the next morning.
func soilRecord(e *env, d *devices.Device) (irrigationDay, frostDay time.Time) {
	irrigationDay, frostDay = localMidnight(2), localMidnight(3)
	storm := localMidnight(1)
	type rise struct {
		at   time.Time
		rise float64
	}
	rises := map[int][]rise{
		10: {{irrigationDay.Add(9 * time.Hour), 8}, {storm.Add(14 * time.Hour), 5}},
		20: {{irrigationDay.Add(11 * time.Hour), 6}, {storm.Add(16 * time.Hour), 3}},
		30: {{irrigationDay.Add(14 * time.Hour), 4}},
	}
	freeze, thaw := frostDay.Add(21*time.Hour), frostDay.Add(34*time.Hour) // the first readings at −2 °C and back at +2 °C
	var reports []*telemetry.Report
	for at := localMidnight(4); at.Before(time.Now()); at = at.Add(time.Hour) {
		rain := 0.0
		if !at.Before(storm.Add(13*time.Hour)) && !at.After(storm.Add(17*time.Hour)) {
			rain = 4
		}
		pts := []telemetry.Point{{Param: "rainfall", Value: rain}, {Param: "airTemp", Value: 12}}
		for _, n := range soilNodes {
			m := baseline[n]
			for _, r := range rises[n] {
				if !at.Before(r.at) {
					m += r.rise
				}
			}
			temp := 3.0
			if n == 10 {
				temp = 2
				if !at.Before(freeze) && at.Before(thaw) {
					temp = -2
				}
			}
			pts = append(pts, telemetry.Point{Param: "soilMoisture", Node: n, Value: m}, telemetry.Point{Param: "soilTemp", Node: n, Value: temp})
		}
		reports = append(reports, report(d, at, pts...))
	}
	e.writeAll(reports)
	return irrigationDay, frostDay
}

func TestAnalyses_Soil(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := analysisEnv(t, db, "")
		soil := e.register("ZQ0000000021", 21, "farmer01")
		irrigationDay, frostDay := soilRecord(e, soil)
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		q := fmt.Sprintf("?id=%d", soil.ID)

		// Irrigation recognition: the pulse on the right day with the right amount,
		// Σ rise × layer thickness = 8×15 + 6×10 + 4×10 (vol % × cm) / 10 = 22 mm;
		// the storm's 10.5 mm (5×15 + 3×10) is rain: 8 mm fell from 12 h before it began until the top
		// layer peaked at 14:00 (at least half its amount).
		rec := decodeData[httpapi.Irrigations](t, u.do("GET", "/apis/poi/shang/irriRecognition"+q, nil))
		if len(rec.Pulses) != 2 {
			t.Fatalf("pulses %+v", rec.Pulses)
		}
		if r := rec.Pulses[1]; r.Source != "rain" || r.AmountMM != 10.5 || *r.RainMM != 8 || r.Date != localMidnight(1).Format(time.DateOnly) {
			t.Errorf("storm pulse %+v", r)
		}
		p := rec.Pulses[0]
		if p.Date != irrigationDay.Format(time.DateOnly) || p.Source != "irrigation" || p.AmountMM != 22 || p.FrontDepth != 30 ||
			len(p.Layers) != 3 || p.Start != irrigationDay.Add(9*time.Hour).UnixMilli() || p.RainMM == nil || *p.RainMM != 0 {
			t.Errorf("pulse %+v", p)
		}
		if rec.RainStation == nil || !rec.RainStation.Own || rec.IrrigationMM != 22 || rec.RainMM != 10.5 || rec.Count != 1 {
			t.Errorf("record %+v", rec)
		}
		// Its front moved 20 cm in 5 hours.
		if p.FrontSpeed != 4 {
			t.Errorf("front speed %v", p.FrontSpeed)
		}
		// Asking for bigger pulses only leaves the irrigation.
		rec = decodeData[httpapi.Irrigations](t, u.do("GET", "/apis/poi/shang/irriRecognition"+q+"&minAmount=15", nil))
		if len(rec.Pulses) != 1 || rec.Pulses[0].AmountMM != 22 || rec.MinAmountMM != 15 {
			t.Errorf("pulses of 15 mm or more %+v", rec.Pulses)
		}

		// Freeze–thaw: 10 cm crossed 0 °C at 20:30 and back at 09:30 next morning.
		ft := decodeData[httpapi.FreezeThaw](t, u.do("GET", "/apis/poi/shang/freezeThaw"+q, nil))
		want := []string{frostDay.Format(time.DateOnly), frostDay.AddDate(0, 0, 1).Format(time.DateOnly)}
		if fmt.Sprint(ft.Dates) != fmt.Sprint(want) || len(ft.Layers) != 6 || len(ft.Layers[0].Events) != 2 ||
			ft.Layers[0].Cycles != 1 || ft.Layers[0].FrozenHours != 13 || len(ft.Layers[1].Events) != 0 || len(ft.FrozenNow) != 0 {
			t.Errorf("freeze-thaw dates %v, layers %+v", ft.Dates, ft.Layers)
		}
		if got := ft.Layers[0].Events[0].Time.In(shanghai); !got.Equal(frostDay.Add(20*time.Hour + 30*time.Minute)) {
			t.Errorf("freeze at %s", got)
		}

		// Settings turn moisture into relative moisture and drought grades.
		cfg := map[string]any{"cropType": "maize", "cropVariety": "郑单958", "irrigationMethod": "drip", "areaMu": 3,
			"plantingTime": localMidnight(40).UnixMilli(), "upload": true}
		var nodes []map[string]any
		for i, n := range soilNodes {
			nodes = append(nodes, map[string]any{"depth": n, "fieldCapacity": 30 + float64(i), "unitWeight": 1.35})
		}
		cfg["nodes"] = nodes
		r := u.do("PUT", "/apis/poi/shang/config"+q, cfg)
		r.want(t, 200, 0)
		view := decodeData[httpapi.SettingsView](t, u.do("GET", "/apis/poi/shang/config"+q, nil))
		if !view.Configured || view.CropName != "Maize" || *view.Nodes[0].FieldCapacity != 30 || view.Nodes[0].Thickness != 15 ||
			*view.Nodes[0].Saturation != 44.2 || !view.CanEdit || view.PlantingTime == nil {
			t.Errorf("settings %+v", view)
		}
		m := decodeData[httpapi.MoistureAnalysis](t, u.do("GET", "/apis/poi/analysis/moisture"+q, nil))
		top := m.Latest.Layers[0]
		if !m.Configured || *top.Moisture != 38 || *top.Relative != 126.7 || top.Drought != "none" || m.Latest.StorageMM == nil || len(m.Days) < 5 {
			t.Errorf("moisture latest %+v, %d days", m.Latest, len(m.Days))
		}
		// 40 cm: 28 of 33 is 84.8 %.
		if l := m.Latest.Layers[3]; *l.Relative != 84.8 {
			t.Errorf("40 cm relative %v", *l.Relative)
		}
		// No diurnal drawdown in these readings: the root zone falls back to
		// 0–40 cm, the layers 10–40 cm standing for 0–45 cm.
		er := decodeData[httpapi.ETRoot](t, u.do("GET", "/apis/poi/analysis/et_root"+q, nil))
		if er.RootDepth == nil || er.RootDepth.RootDepth != 0 || er.Zone == nil || er.Zone.RootDepthFound || er.Zone.Depth != 45 ||
			er.Zone.FieldCapacity != 31.33 || er.Zone.Moisture != 33.56 || er.Zone.DeficitMM != 0 || er.Zone.RAWMM != 56.4 {
			t.Errorf("et_root %+v zone %+v", er, er.Zone)
		}
		if er.ET == nil || er.ET.Source != "observed" || er.ET.Stage != "development" || *er.ET.Kc != 0.84 {
			t.Errorf("et_root et %+v", er.ET)
		}
		// With the area set the pulse has a volume: 22 mm over 3 mu.
		rec = decodeData[httpapi.Irrigations](t, u.do("GET", "/apis/poi/shang/irriRecognition"+q, nil))
		if v := rec.Pulses[0].VolumeM3; v == nil || !near(*v, 22.0/1000*3*10000/15, 0.01) {
			t.Errorf("volume %v", v)
		}
		status := decodeData[httpapi.SoilStatus](t, u.do("GET", "/apis/poi/shang/status"+q, nil))
		if status.LastPulse == nil || status.LastPulse.Source != "rain" || status.Frozen || status.Saturated || !status.Configured {
			t.Errorf("status %+v", status)
		}
		// The newest pulse's infiltration profile, and the irrigation's by its times.
		inf := decodeData[httpapi.Infiltration](t, u.do("GET", "/apis/poi/shang/infiltration"+q, nil))
		if inf.Pulse == nil || inf.TotalMM != 10.5 || len(inf.Layers) != 6 || inf.Layers[0].Change != 5 || inf.Layers[2].Change != 0 {
			t.Errorf("infiltration %+v", inf)
		}
		inf = decodeData[httpapi.Infiltration](t, u.do("GET", "/apis/poi/shang/infiltration"+q+"&begin="+
			url.QueryEscape(irrigationDay.Add(8*time.Hour).Format(time.RFC3339))+"&end="+url.QueryEscape(irrigationDay.Add(15*time.Hour).Format(time.RFC3339)), nil))
		if inf.Pulse != nil || inf.TotalMM != 22 || inf.Layers[0].Before != 25 || inf.Layers[0].After != 33 {
			t.Errorf("irrigation infiltration %+v", inf)
		}
		// Waterlogging at the settings' saturation: none; at a threshold of 32 %, 10 cm since 09:00.
		wl := decodeData[httpapi.Waterlogging](t, u.do("GET", "/apis/poi/shang/waterlogging"+q, nil))
		if wl.ThresholdSource != "settings" || wl.Hours != 0 || len(wl.Layers) != 6 {
			t.Errorf("waterlogging %+v", wl)
		}
		wl = decodeData[httpapi.Waterlogging](t, u.do("GET", "/apis/poi/shang/waterlogging"+q+"&threshold=32", nil))
		if l := wl.Layers[0]; len(l.Periods) != 1 || !l.Periods[0].Ongoing || !l.Periods[0].Start.Equal(irrigationDay.Add(9*time.Hour)) {
			t.Errorf("waterlogging at 32 %%: %+v", wl.Layers[0])
		}
		detail := decodeData[httpapi.SoilDetail](t, u.do("GET", "/apis/poi/shang/detail"+q, nil))
		if detail.Crop == nil || detail.Crop.DayOfSeason != 41 || detail.Crop.Stage != "development" || *detail.Crop.Kc != 0.84 ||
			detail.IrrigationMethodName != "Drip" || *detail.AreaM2 != 2000 {
			t.Errorf("detail %+v crop %+v", detail, detail.Crop)
		}
		nodesView := decodeData[httpapi.NodesView](t, u.do("GET", "/apis/poi/shang/nodes"+q, nil))
		if len(nodesView.Nodes) != 6 || *nodesView.Nodes[1].Moisture != 35 || *nodesView.Nodes[1].Temp != 3 {
			t.Errorf("nodes %+v", nodesView.Nodes)
		}
		sqy := decodeData[httpapi.MoistureSeries](t, u.do("GET", "/apis/poi/data/sqy/query"+q+"&dim=raw", nil))
		// Hourly since midnight four days ago: at least 4 × 24 points, at any hour.
		if len(sqy.Nodes) != 6 || len(sqy.Nodes[0].Points) < 4*24 || *sqy.Nodes[0].Points[0].Relative != round1(25.0/30*100) {
			t.Errorf("sqy %d nodes, %d points", len(sqy.Nodes), len(sqy.Nodes[0].Points))
		}
		params := decodeData[httpapi.ParamList](t, u.do("GET", "/apis/poi/param/list"+q, nil))
		avail := map[string]bool{}
		for _, p := range params.Params {
			avail[p.ID] = p.Available
		}
		if !avail["relativeMoisture"] || !avail["waterStorage"] || !avail["et0"] || !avail["etc"] {
			t.Errorf("params %+v", params.Params)
		}
		data := decodeData[httpapi.DataQuery](t, u.do("GET", "/apis/poi/data/query"+q+"&params=soilMoisture,relativeMoisture&dim=daily", nil))
		if len(data.Series) != 12 || data.Series[6].Param != "relativeMoisture" || data.Series[0].Agg != "avg" {
			t.Errorf("data %d series", len(data.Series))
		}
		u.do("GET", "/apis/poi/data/query"+q+"&params=nope", nil).want(t, 400, 1400)

		// The crop call changes the crop and keeps the soil.
		r = u.do("POST", "/apis/poi/crop/update", map[string]any{"id": soil.ID, "cropName": "wheat", "area": 5})
		r.want(t, 200, 0)
		view = decodeData[httpapi.SettingsView](t, r)
		if view.CropType != "wheat" || *view.AreaMu != 5 || !view.Configured || view.CropVariety != "郑单958" {
			t.Errorf("after crop update %+v", view)
		}
		r = u.do("PUT", "/apis/poi/crop/update"+q, map[string]any{"cropName": "durian"})
		r.want(t, 400, 1400)
		if r.Error.Field != "cropName" || r.Message != "Unknown crop type" {
			t.Errorf("unknown crop: %q %q", r.Error.Field, r.Message)
		}
	})
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// TestAnalyses_SoilConfigMessages checks the soil settings rules of SPEC §5
// over HTTP, each message in every language and the field it names.
func TestAnalyses_SoilConfigMessages(t *testing.T) {
	e := analysisEnv(t, storetest.OpenSQLite(t), "")
	soil := e.register("ZS0000000002", 2, "farmer01")
	good := func() []map[string]any {
		var ns []map[string]any
		for i, n := range soilNodes {
			ns = append(ns, map[string]any{"depth": n, "fieldCapacity": 28 + 1.5*float64(i), "unitWeight": 1.4})
		}
		return ns
	}
	type msgs struct{ zhCN, zhTW, enUS string }
	cases := []struct {
		name  string
		edit  func(ns []map[string]any) []map[string]any
		field string
		want  msgs
	}{
		{"FieldCapacityRequired", func(ns []map[string]any) []map[string]any { return ns[:5] }, "nodes[5].fieldCapacity",
			msgs{"请输入 60 厘米的田间持水量", "請輸入 60 公分的田間持水量", "Please enter the field capacity at 60 cm"}},
		{"FieldCapacityZero", func(ns []map[string]any) []map[string]any { ns[2]["fieldCapacity"] = 0; return ns }, "nodes[2].fieldCapacity",
			msgs{"请输入 30 厘米的田间持水量", "請輸入 30 公分的田間持水量", "Please enter the field capacity at 30 cm"}},
		{"FieldCapacityNegative", func(ns []map[string]any) []map[string]any { ns[0]["fieldCapacity"] = -3; return ns }, "nodes[0].fieldCapacity",
			msgs{"10 厘米的田间持水量须大于 0", "10 公分的田間持水量須大於 0", "The field capacity at 10 cm must be greater than 0"}},
		{"UnitWeightRequired", func(ns []map[string]any) []map[string]any { delete(ns[1], "unitWeight"); return ns }, "nodes[1].unitWeight",
			msgs{"请输入 20 厘米的容重", "請輸入 20 公分的容重", "Please enter the unit weight at 20 cm"}},
		{"UnitWeightNegative", func(ns []map[string]any) []map[string]any { ns[4]["unitWeight"] = -1.2; return ns }, "nodes[4].unitWeight",
			msgs{"50 厘米的容重须大于 0", "50 公分的容重須大於 0", "The unit weight at 50 cm must be greater than 0"}},
		{"LayerDifference", func(ns []map[string]any) []map[string]any { ns[1]["fieldCapacity"] = 34.5; return ns }, "nodes[1].fieldCapacity",
			msgs{"10 厘米与 20 厘米的田间持水量相差 6.5%，相邻土层相差不应超过 4%", "10 公分與 20 公分的田間持水量相差 6.5%，相鄰土層相差不應超過 4%",
				"The field capacities at 10 cm and 20 cm differ by 6.5%; adjacent layers may differ by at most 4%"}},
		{"UnknownDepth", func(ns []map[string]any) []map[string]any { ns[3]["depth"] = 45; return ns }, "nodes[3].depth",
			msgs{"该设备没有 45 厘米深度的节点", "該設備沒有 45 公分深度的節點", "This device has no node at 45 cm"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for lang, want := range map[string]string{"zh_CN": c.want.zhCN, "zh_TW": c.want.zhTW, "en_US": c.want.enUS} {
				u := e.user(lang)
				u.login("farmer01", "secret1").want(t, 200, 0)
				r := u.do("PUT", fmt.Sprintf("/apis/poi/shang/config?id=%d", soil.ID), map[string]any{"nodes": c.edit(good())})
				r.want(t, 400, 1400)
				if r.Message != want || r.Error.Field != c.field {
					t.Errorf("%s: %q (field %q), want %q (field %q)", lang, r.Message, r.Error.Field, want, c.field)
				}
			}
		})
	}
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	// Exactly 4 points apart is allowed.
	ns := good()
	ns[1]["fieldCapacity"] = 32.0
	ns[2]["fieldCapacity"] = 31.0
	r := u.do("PUT", fmt.Sprintf("/apis/poi/shang/config?id=%d", soil.ID), map[string]any{"nodes": ns, "cropType": "rice"})
	r.want(t, 200, 0)
	for _, bad := range []struct {
		body  map[string]any
		field string
		msg   string
	}{
		{map[string]any{"nodes": good(), "cropType": "durian"}, "cropType", "Unknown crop type"},
		{map[string]any{"nodes": good(), "irrigationMethod": "buckets"}, "irrigationMethod", "Unknown irrigation method"},
		{map[string]any{"nodes": good(), "areaMu": 0}, "areaMu", "The planting area must be greater than 0 and at most 1000000 mu"},
		{map[string]any{"nodes": good(), "cropVariety": strings.Repeat("麦", 33)}, "cropVariety", "The crop variety may be at most 32 characters"},
	} {
		r := u.do("PUT", fmt.Sprintf("/apis/poi/shang/config?id=%d", soil.ID), bad.body)
		r.want(t, 400, 1400)
		if r.Error.Field != bad.field || r.Message != bad.msg {
			t.Errorf("%s: %q %q", bad.field, r.Error.Field, r.Message)
		}
	}
	view := decodeData[httpapi.SettingsView](t, u.do("GET", fmt.Sprintf("/apis/poi/shang/config?id=%d", soil.ID), nil))
	if view.CropType != "rice" || *view.Nodes[1].FieldCapacity != 32 {
		t.Errorf("a refused PUT changed the settings: %+v", view)
	}
}

// provider is a local server speaking Open-Meteo's forecast API.
func provider(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	days := make([]string, 7)
	for i := range days {
		days[i] = `"` + localMidnight(-i).Format(time.DateOnly) + `"`
	}
	body := `{"latitude":37.45,"longitude":116.3,"elevation":21.0,"utc_offset_seconds":28800,"timezone":"Asia/Shanghai",
"daily_units":{"time":"iso8601","temperature_2m_max":"°C","temperature_2m_min":"°C","precipitation_sum":"mm","et0_fao_evapotranspiration":"mm","wind_speed_10m_max":"m/s"},
"daily":{"time":[` + strings.Join(days, ",") + `],
"temperature_2m_max":[31.2,30.1,28.4,27.9,29.5,32.0,33.1],"temperature_2m_min":[19.0,18.2,17.5,16.9,18.8,20.1,21.0],
"precipitation_sum":[0.0,2.4,12.6,0.0,0.0,0.0,0.3],"et0_fao_evapotranspiration":[5.61,4.92,3.1,5.2,5.74,6.02,6.3],
"wind_speed_10m_max":[4.2,5.1,7.9,3.3,2.8,3.0,11.0]}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/v1/forecast" || r.URL.Query().Get("daily") == "" {
			http.Error(w, `{"error":true,"reason":"bad request"}`, 400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// stationDays writes 10-minute readings of a TQS010 for the last `days`
// local days and today so far: temperature from 15 °C at 05:00 to 27 °C at
// 15:00, RH 90 % at night and 40 % by day, wind 2 m/s, 250 W/m² all day
// (a day's mean).
func stationDays(e *env, d *devices.Device, days int) {
	var reports []*telemetry.Report
	for at := localMidnight(days); at.Before(time.Now()); at = at.Add(10 * time.Minute) {
		h := float64(at.In(shanghai).Hour()) + float64(at.In(shanghai).Minute())/60
		temp := 21 - 6*math.Cos((h-5)/24*2*math.Pi) // 15 at 05:00, 27 at 17:00
		rh := 40.0
		if h < 7 || h >= 19 {
			rh = 90
		}
		reports = append(reports, report(d, at, telemetry.Point{Param: "airTemp", Value: round1(temp)},
			telemetry.Point{Param: "airHumidity", Value: rh}, telemetry.Point{Param: "windSpeed", Value: 2},
			telemetry.Point{Param: "windDirection", Value: 50}, telemetry.Point{Param: "solarRadiation", Value: 250},
			telemetry.Point{Param: "rainfall", Value: 0}, telemetry.Point{Param: "pressure", Value: 1008}))
	}
	e.writeAll(reports)
}

func TestAnalyses_WeatherAndForecast(t *testing.T) {
	srv, calls := provider(t)
	e := analysisEnv(t, storetest.OpenSQLite(t), srv.URL)
	station := e.register("TQ0000000005", 5, "farmer01")
	stationDays(e, station, 3)
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	q := fmt.Sprintf("?id=%d", station.ID)

	// ET0 of a complete day from the station's daily rollups, as agro computes it.
	yesterday := localMidnight(1)
	want, err := agro.ET0Daily(agro.DailyInput{Tmax: 27, Tmin: 15, Humidity: agro.RHMaxMin(90, 40), Wind: 2, WindHeight: 2,
		Radiation: agro.MeasuredRs(250 * 0.0864), Lat: 37.45, DOY: yesterday.YearDay()})
	if err != nil {
		t.Fatal(err)
	}
	hist := decodeData[httpapi.WeatherHistory](t, u.do("GET", "/apis/qi/data/history"+q, nil))
	var found bool
	for _, d := range hist.Days {
		if d.Date == yesterday.Format(time.DateOnly) {
			found = true
			if !d.Complete || d.ET0 == nil || !near(*d.ET0, want.ET0, 1e-3) || *d.TempMax != 27 || *d.TempMin != 15 || *d.WindLevel != 2 || d.Sector != "NE" {
				t.Errorf("yesterday %+v, want ET0 %.3f", d, want.ET0)
			}
		}
	}
	if !found || len(hist.Days) != 4 || hist.Days[3].Complete || hist.Days[3].ET0 != nil {
		t.Errorf("history %+v", hist.Days)
	}

	// The 7-day forecast, fetched once and then served from the cache.
	ww := decodeData[httpapi.WeekWeather](t, u.do("GET", "/apis/poi/week/weather"+q, nil))
	if ww.ForecastUnavailable || ww.Forecast == nil || len(ww.Forecast.Days) != 7 || ww.Forecast.RainTotal != 15.3 ||
		ww.Forecast.ET0Total != 36.89 || *ww.Forecast.Days[6].WindLevel != 6 || ww.Forecast.Days[2].RainClass != "moderate" {
		t.Fatalf("week weather %+v", ww.Forecast)
	}
	if len(ww.Observed) != 4 || ww.Station == nil || !ww.Station.Own {
		t.Errorf("observed %d days, station %+v", len(ww.Observed), ww.Station)
	}
	et0 := decodeData[httpapi.WeekAmounts](t, u.do("GET", "/apis/poi/et0"+q, nil))
	rain := decodeData[httpapi.WeekAmounts](t, u.do("GET", "/apis/poi/rainfall"+q, nil))
	if et0.ForecastTotal == nil || *et0.ForecastTotal != 36.89 || len(et0.Observed) != 3 || !near(*et0.Observed[2].MM, want.ET0, 1e-3) ||
		rain.ForecastTotal == nil || *rain.ForecastTotal != 15.3 || rain.ObservedTotal != 0 || len(rain.Observed) != 8 {
		t.Errorf("et0 %+v rain %+v", et0, rain)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("the provider was asked %d times for one place", n)
	}

	// A soil probe 2 km away takes its ET0 from the station, with Kc and ETc
	// from its crop, and the forecast ETc.
	lat, lng := 37.468, 116.3
	probe, _, err := e.devices.Register(context.Background(), devices.Registration{SN: "ZS0000000002", TypeID: 2,
		Owner: ownerID(t, e, "farmer01"), Lat: &lat, Lng: &lng})
	if err != nil {
		t.Fatal(err)
	}
	u.do("PUT", fmt.Sprintf("/apis/poi/crop/update?id=%d", probe.ID), map[string]any{"cropName": "maize",
		"sowTime": localMidnight(10).UnixMilli()}).want(t, 200, 0)
	et := decodeData[httpapi.ETAnalysis](t, u.do("GET", fmt.Sprintf("/apis/poi/shang/etc_et0_kc?id=%d", probe.ID), nil))
	if et.Station == nil || et.Station.ID != station.ID || !near(et.Station.DistanceKm, 2.0, 0.05) || et.Crop == nil || len(et.Days) != 3 {
		t.Fatalf("et analysis %+v", et)
	}
	last := et.Days[2]
	if *last.Kc != 0.3 || last.Stage != "initial" || !near(*last.ETc, 0.3*want.ET0, 1e-3) || et.Forecast == nil || et.Forecast.ETcTotal == nil {
		t.Errorf("et day %+v forecast %+v", last, et.Forecast)
	}
	if *et.Forecast.Days[0].Kc != 0.3 || !near(*et.Forecast.Days[0].ETc, 0.3*5.61, 1e-3) {
		t.Errorf("forecast day %+v", et.Forecast.Days[0])
	}

	now := decodeData[httpapi.WeatherNow](t, u.do("GET", fmt.Sprintf("/apis/qi/%d/data/realtime", station.ID), nil))
	if now.Wind == nil || now.Wind.Level != 2 || now.Wind.Sector != "NE" || now.Rain == nil || now.Rain.Warning.Level != 0 || len(now.Values) < 7 {
		t.Errorf("realtime %+v", now)
	}

	// FWI: the first day starts from the standard codes; the second carries them on.
	fwi := decodeData[httpapi.FWIHistory](t, u.do("GET", "/apis/qi/fwi/history"+q+"&begin="+url.QueryEscape(localMidnight(3).Format(time.RFC3339)), nil))
	if len(fwi.Days) < 3 {
		t.Fatalf("fwi days %+v", fwi.Days)
	}
	day1 := fwi.Days[0]
	wind := 2 / agro.WindAt2m(1, 10) * 3.6
	noon := 21 - 6*math.Cos((12.0-5)/24*2*math.Pi)
	ref, err := agro.FWIStartup.Next(agro.FireWeather{Month: int(localMidnight(3).Month()), Temp: round1(noon), RH: 40, Wind: wind})
	if err != nil {
		t.Fatal(err)
	}
	if day1.Missing || !near(*day1.FWI, ref.FWI, 0.01) || !near(*day1.Wind, wind, 0.01) || *day1.Rain != 0 {
		t.Errorf("fwi day 1 %+v, want %+v", day1, ref)
	}
	ref2, _ := ref.Codes().Next(agro.FireWeather{Month: int(localMidnight(2).Month()), Temp: round1(noon), RH: 40, Wind: wind})
	if !near(*fwi.Days[1].DC, ref2.DC, 0.01) {
		t.Errorf("fwi day 2 DC %v, want %v", *fwi.Days[1].DC, ref2.DC)
	}
	stats := decodeData[httpapi.FWIStatistics](t, u.do("GET", "/apis/qi/fwi/statistics"+q, nil))
	if stats.Days < 3 || len(stats.Levels) != 6 || stats.Latest == nil || stats.Max == nil {
		t.Errorf("fwi statistics %+v", stats)
	}
}

func ownerID(t *testing.T, e *env, number string) int64 {
	a, err := e.db.FindAccountByNumber(context.Background(), number)
	if err != nil {
		t.Fatal(err)
	}
	return a.ID
}

// Without a provider, or with one that is down, the views carry the
// observations and say the forecast is unavailable.
func TestAnalyses_ForecastUnavailable(t *testing.T) {
	srv, _ := provider(t)
	down := srv.URL
	srv.Close()
	for name, base := range map[string]string{"NoProvider": "", "ProviderDown": down} {
		t.Run(name, func(t *testing.T) {
			e := analysisEnv(t, storetest.OpenSQLite(t), base)
			station := e.register("TQ0000000005", 5, "farmer01")
			stationDays(e, station, 1)
			u := e.user("zh_CN")
			u.login("farmer01", "secret1").want(t, 200, 0)
			q := fmt.Sprintf("?id=%d", station.ID)
			r := u.do("GET", "/apis/poi/week/weather"+q, nil)
			r.want(t, 200, 0)
			if !strings.Contains(string(r.Data), `"forecast":null,"forecastUnavailable":true`) {
				t.Errorf("week weather %s", r.Data)
			}
			if ww := decodeData[httpapi.WeekWeather](t, r); len(ww.Observed) != 2 {
				t.Errorf("observed %d days", len(ww.Observed))
			}
			for _, p := range []string{"/apis/poi/et0", "/apis/poi/rainfall"} {
				a := decodeData[httpapi.WeekAmounts](t, u.do("GET", p+q, nil))
				if !a.ForecastUnavailable || a.Forecast != nil || a.ForecastTotal != nil || len(a.Observed) == 0 {
					t.Errorf("%s: %+v", p, a)
				}
			}
			et := decodeData[httpapi.ETAnalysis](t, u.do("GET", "/apis/poi/et0_kc"+q, nil))
			if !et.ForecastUnavailable || et.Forecast != nil || len(et.Days) != 1 {
				t.Errorf("et0_kc %+v", et)
			}
		})
	}
}

func TestAnalyses_Tilt(t *testing.T) {
	e := analysisEnv(t, storetest.OpenSQLite(t), "")
	tilt := e.register("SJ0000000008", 8, "farmer01")
	start := localMidnight(5)
	slip := start.Add(60 * time.Hour)
	var reports []*telemetry.Report
	noise := rand.New(rand.NewPCG(8, 8))
	var xs []float64
	for k := 0; k < 120; k++ {
		at := start.Add(time.Duration(k) * time.Hour)
		x := 1 + 0.02*at.Sub(start).Hours()/24 + 0.005*noise.NormFloat64() // 0.02°/day of creep
		if !at.Before(slip) {
			x += 0.5
		}
		xs = append(xs, x)
		_, angle := agro.Yaw(x, 1)
		reports = append(reports, report(tilt, at, telemetry.Point{Param: "tiltX", Value: x}, telemetry.Point{Param: "tiltY", Value: 1},
			telemetry.Point{Param: "tiltAngle", Value: angle}))
	}
	e.writeAll(reports)
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	q := fmt.Sprintf("?id=%d", tilt.ID)
	tr := decodeData[httpapi.TiltTrend](t, u.do("GET", "/apis/poi/shan/trend"+q, nil))
	if len(tr.Series) != 3 || tr.Series[0].Param != "tiltX" || tr.Series[0].Trend == nil {
		t.Fatalf("trend %+v", tr.Series)
	}
	x := tr.Series[0].Trend
	if len(x.Steps) != 1 || x.Steps[0].Time != slip.UnixMilli() || !near(x.Steps[0].Change, 0.5, 0.03) || !near(x.Cumulative, xs[119]-xs[0], 1e-4) {
		t.Errorf("tiltX trend %+v", x)
	}
	if y := tr.Series[1].Trend; y.RatePerDay != 0 || len(y.Steps) != 0 {
		t.Errorf("tiltY trend %+v", y)
	}
	// A threshold above the slip finds no step.
	tr = decodeData[httpapi.TiltTrend](t, u.do("GET", "/apis/poi/shan/trend"+q+"&threshold=1", nil))
	if len(tr.Series[0].Trend.Steps) != 0 {
		t.Errorf("steps above threshold %+v", tr.Series[0].Trend.Steps)
	}
	u.do("GET", "/apis/poi/shan/trend"+q+"&threshold=-1", nil).want(t, 400, 1400)

	yaw := decodeData[httpapi.TiltYaw](t, u.do("GET", "/apis/poi/tilt/yaw"+q, nil))
	if yaw.Latest == nil || len(yaw.Points) != 120 {
		t.Fatalf("yaw %+v", yaw.Latest)
	}
	dir, angle := agro.Yaw(xs[119], 1)
	if !near(yaw.Latest.Direction, dir, 1e-3) || !near(yaw.Latest.Tilt, angle, 1e-4) || yaw.Latest.Direction >= 45 {
		t.Errorf("yaw latest %+v, want %v %v", yaw.Latest, dir, angle)
	}
}
