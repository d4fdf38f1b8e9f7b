package httpapi_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/httpapi"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// Latency benchmarks of the console's heaviest reads, through the real HTTP
// handler over a loopback connection, on SQLite and PostgreSQL:
//
//	go test -tags no_ui -run '^$' -bench 'History|DeviceList|MapAll' -benchtime 30x ./internal/httpapi/
//
// Each request's latency (request sent to body read) is recorded, and p50 and
// p99 are reported as p50-ms and p99-ms. Targets: a one-series chart over a
// year p50 ≤ 50 ms, a year of daily rollups ≤ 10 ms, a device list page
// p99 ≤ 20 ms and the whole map of 10,000 devices p99 ≤ 60 ms.
//
// Fixtures (a year of 10-minute readings of one ZS006, 10,000 devices) are
// loaded by the per-backend benchmark ("…/sqlite", "…/postgres"). Having
// sub-benchmarks, it runs once, whatever b.N its children reach, so each
// fixture is loaded once per backend and top-level benchmark (about 5 s on
// SQLite, 10 s on PostgreSQL), outside every timer; its store is dropped
// when it ends. Every request's answer is checked once before timing
// starts, so a broken endpoint cannot post a fast number. With -benchtime
// 30x, p99 is the slowest of 30 requests.

// benchBackends are the stores the benchmarks run on. open returns a
// migrated store and settle, called once its fixture is loaded: on
// PostgreSQL it runs VACUUM ANALYZE, the state autovacuum leaves a table in
// after a bulk load (without statistics the planner picks other plans, and
// autovacuum could change them in the middle of a run).
var benchBackends = []struct {
	name string
	open func(testing.TB) (db *store.DB, settle func())
}{
	{"sqlite", func(tb testing.TB) (*store.DB, func()) { return storetest.OpenSQLite(tb), func() {} }},
	{"postgres", openBenchPostgres},
}

func openBenchPostgres(tb testing.TB) (*store.DB, func()) {
	tb.Helper()
	if u, why := storetest.PostgresURL(); u == "" {
		tb.Skip(why)
	}
	dsn := storetest.DSN(tb)
	ctx := context.Background()
	db, err := store.Open(ctx, dsn, "")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(ctx); err != nil {
		tb.Fatal(err)
	}
	return db, func() {
		c, err := sql.Open("pgx", dsn)
		if err != nil {
			tb.Fatal(err)
		}
		defer c.Close()
		if _, err := c.ExecContext(ctx, `VACUUM ANALYZE`); err != nil {
			tb.Fatal(err)
		}
	}
}

// benchEnv is newEnv for a testing.TB (newEnv takes a *testing.T): the same
// handler and services, with farmer01/secret1 logged in on client.
type benchEnv struct {
	url     string
	db      *store.DB
	devices *devices.Service
	owner   int64
	client  *http.Client
	loc     *time.Location
	body    bytes.Buffer // reused: the client's garbage would collect in the server's process
}

func newBenchEnv(tb testing.TB, db *store.DB) *benchEnv {
	tb.Helper()
	ctx := context.Background()
	svc := accounts.New(accounts.Options{Store: db})
	if _, err := svc.Create(ctx, "farmer01", "secret1", "东坡农场"); err != nil {
		tb.Fatal(err)
	}
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		tb.Fatal(err)
	}
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		tb.Fatal(err)
	}
	m := metrics.New()
	dev := devices.New(devices.Options{Store: db, Keys: keys})
	w := telemetry.NewWriter(telemetry.WriterOptions{Store: db, Location: loc})
	tb.Cleanup(w.Close)
	pipe := ingest.New(ingest.Options{Devices: dev, Writer: w, Images: db, Metrics: m, Log: slog.New(slog.DiscardHandler)})
	app := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><div id=root></div>")}}
	srv := httptest.NewServer(httpapi.New(httpapi.Options{Accounts: svc, Devices: dev, History: telemetry.NewHistory(telemetry.HistoryOptions{Store: db, Location: loc}), Images: db,
		Ingest: pipe, Location: loc, Metrics: m, Ping: db.Ping, App: app, Overview: db}))
	tb.Cleanup(srv.Close)
	a, err := db.FindAccountByNumber(ctx, "farmer01")
	if err != nil {
		tb.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	// Without Accept-Encoding, as before API answers were compressed: these
	// benchmarks time the server's reads and encoding, and their targets
	// were set so. BenchmarkHistoryCompression measures what gzip adds.
	client := &http.Client{Jar: jar, Transport: &http.Transport{DisableCompression: true}}
	e := &benchEnv{url: srv.URL, db: db, devices: dev, owner: a.ID, client: client, loc: loc}
	body := strings.NewReader(`{"accountNumber":"farmer01","password":"secret1"}`)
	req, _ := http.NewRequest("POST", e.url+"/apis/account/login", body)
	req.Header.Set("Content-Type", "application/json")
	res, err := e.client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !bytes.HasPrefix(raw, []byte(`{"code":0,`)) {
		tb.Fatalf("login: HTTP %d %s", res.StatusCode, raw)
	}
	return e
}

// get sends one GET and returns the raw body after checking the envelope's
// success prefix (cheap enough to do on every timed request). The body is
// e's buffer, valid until the next get.
func (e *benchEnv) get(tb testing.TB, path string) []byte {
	req, _ := http.NewRequest("GET", e.url+path, nil)
	req.Header.Set("lang", "en_US")
	res, err := e.client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	e.body.Reset()
	_, err = e.body.ReadFrom(res.Body)
	res.Body.Close()
	if err != nil {
		tb.Fatal(err)
	}
	raw := e.body.Bytes()
	if res.StatusCode != 200 || !bytes.HasPrefix(raw, []byte(`{"code":0,`)) {
		tb.Fatalf("GET %s: HTTP %d %.300s", path, res.StatusCode, raw)
	}
	return raw
}

// getData sends one GET and decodes the envelope's data into T.
func benchGetData[T any](tb testing.TB, e *benchEnv, path string) T {
	tb.Helper()
	var env struct {
		Code int `json:"code"`
		Data T   `json:"data"`
	}
	if err := json.Unmarshal(e.get(tb, path), &env); err != nil {
		tb.Fatalf("GET %s: %v", path, err)
	}
	return env.Data
}

// benchLatency runs b.N requests of path (its value is computed once) and
// reports their p50 and p99 in milliseconds.
func benchLatency(b *testing.B, e *benchEnv, path func() string) {
	p := path()
	e.get(b, p) // warm the connection and the caches, untimed
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		e.get(b, p)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(q float64) float64 {
		i := int(math.Ceil(q*float64(len(lat)))) - 1
		return float64(lat[max(i, 0)]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// ---- History: one ZS006 with a year of 10-minute reports ----

const (
	historyReports = 365 * 24 * 6 // a year of 10-minute reports: 52,560
	historyBatch   = 1000
)

var historyNodes = []int{10, 20, 30, 40, 50, 60}

// historyPoints builds one ZS006 report's 20 readings at t: cheap sines with
// a daily and a yearly period, different per node, each rounded to its
// parameter's precision as the device reports it (0.1 % and °C, 1 µS/cm,
// 0.01 V, 1 dBm).
func historyPoints(t time.Time) []telemetry.Point {
	pts := historySines(t)
	for i := range pts {
		p := math.Pow10(map[string]int{"soilMoisture": 1, "soilTemp": 1, "ec": 0, "battery": 2, "signal": 0}[pts[i].Param])
		pts[i].Value = math.Round(pts[i].Value*p) / p
	}
	return pts
}

func historySines(t time.Time) []telemetry.Point {
	s := float64(t.Unix())
	day := 2 * math.Pi * s / 86400
	year := 2 * math.Pi * s / (365 * 86400)
	pts := make([]telemetry.Point, 0, 3*len(historyNodes)+2)
	for i, n := range historyNodes {
		f := float64(i)
		pts = append(pts,
			telemetry.Point{Param: "soilMoisture", Node: n, Value: 25 + 8*math.Sin(year+f/3) + (3-f/3)*math.Sin(day+f)},
			telemetry.Point{Param: "soilTemp", Node: n, Value: 15 + 10*math.Sin(year) + (6-f)*math.Sin(day-f/2)},
			telemetry.Point{Param: "ec", Node: n, Value: 800 + 200*math.Sin(year*2+f) + 20*math.Sin(day)})
	}
	return append(pts,
		telemetry.Point{Param: "battery", Value: 12.6 + 0.4*math.Sin(day)},
		telemetry.Point{Param: "signal", Value: -75 + 8*math.Sin(day/7)})
}

type historyFixture struct {
	env    *benchEnv
	settle func()
	dev    int64
	begin  time.Time // a year before the load: every report is after it
}

// loadHistory registers the ZS006 and writes its year, newest report at the
// last 10-minute mark before now.
func loadHistory(b *testing.B, open func(testing.TB) (*store.DB, func())) *historyFixture {
	b.Helper()
	db, settle := open(b)
	ctx := context.Background()
	e := newBenchEnv(b, db)
	d, _, err := e.devices.Register(ctx, devices.Registration{SN: "ZS0000000001", TypeID: 2, Owner: e.owner})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	last := start.Truncate(10 * time.Minute)
	first := last.Add(-(historyReports - 1) * 10 * time.Minute)
	batch := make([]*telemetry.Report, 0, historyBatch)
	stored := 0
	for i := range historyReports {
		at := first.Add(time.Duration(i) * 10 * time.Minute)
		batch = append(batch, &telemetry.Report{DeviceID: d.ID, Time: at, Points: historyPoints(at), OfflineAt: at.Add(65 * time.Minute)})
		if len(batch) == historyBatch || i == historyReports-1 {
			n, err := db.WriteReports(ctx, batch, e.loc)
			if err != nil {
				b.Fatal(err)
			}
			stored += n
			batch = batch[:0]
		}
	}
	if stored != historyReports*20 {
		b.Fatalf("stored %d readings, want %d", stored, historyReports*20)
	}
	settle()
	b.Logf("%s: loaded %d reports (%d readings) in %v", db.Dialect(), historyReports, stored, time.Since(start).Round(time.Millisecond))
	return &historyFixture{env: e, settle: settle, dev: d.ID, begin: start.AddDate(-1, 0, 0)}
}

type v3Series struct {
	Param      string    `json:"param"`
	Node       int       `json:"node"`
	Aggregated string    `json:"aggregated"`
	Agg        string    `json:"agg"`
	Total      int       `json:"total"`
	T          []int64   `json:"t"`
	V          []float64 `json:"v"`
	Min        []float64 `json:"min"`
	Max        []float64 `json:"max"`
	Sampled    bool      `json:"sampled"`
}

type v3Answer struct {
	Dim    string     `json:"dim"`
	Series []v3Series `json:"series"`
}

// historyPath is a datapoints/v3 request over the fixture's year: from a
// year before the load (so no report drops out while the benchmark runs) to
// now.
func historyPath(f *historyFixture, query string) func() string {
	return func() string {
		return fmt.Sprintf("/apis/poi/%d/datapoints/v3?begin=%d&end=%d&%s", f.dev,
			f.begin.UnixMilli(), time.Now().UnixMilli(), query)
	}
}

// BenchmarkHistoryV3 measures raw history over a year of one ZS006: a
// chart's request (one series, 1,000 points; target p50 ≤ 50 ms), the six
// nodes of one parameter averaged, and every series.
func BenchmarkHistoryV3(b *testing.B) {
	cases := []struct {
		name, query string
		check       func(testing.TB, v3Answer)
	}{
		{"chart", "params=soilMoisture&nodes=10&points=1000", func(tb testing.TB, a v3Answer) {
			checkSeries(tb, a, 1, historyReports, 1000)
			if s := a.Series[0]; s.Param != "soilMoisture" || s.Node != 10 || !s.Sampled {
				tb.Fatalf("chart series %s@%d sampled=%v", s.Param, s.Node, s.Sampled)
			}
		}},
		{"sixNodesAverage", "params=soilMoisture&nodes=10,20,30,40,50,60&aggregated=average&points=1000", func(tb testing.TB, a v3Answer) {
			checkSeries(tb, a, 1, historyReports, 1000)
			if s := a.Series[0]; s.Param != "soilMoisture" || s.Aggregated != "average" {
				tb.Fatalf("average series %s aggregated=%q", s.Param, s.Aggregated)
			}
		}},
		{"allParams", "points=1000", func(tb testing.TB, a v3Answer) {
			checkSeries(tb, a, 3*len(historyNodes)+2, historyReports, 1000)
		}},
	}
	for _, be := range benchBackends {
		b.Run(be.name, func(b *testing.B) {
			f := loadHistory(b, be.open)
			// First as rows, then with all but the last two days in chunks.
			for _, stage := range []string{"rows", "chunks"} {
				if stage == "chunks" {
					compactHistory(b, f)
				}
				for _, c := range cases {
					path := historyPath(f, c.query)
					c.check(b, benchGetData[v3Answer](b, f.env, path()))
					b.Run(stage+"/"+c.name, func(b *testing.B) { benchLatency(b, f.env, path) })
				}
			}
		})
	}
}

// compactHistory moves the fixture's readings before yesterday into
// chunks and logs the rate and the bytes a reading before and after.
func compactHistory(b *testing.B, f *historyFixture) {
	b.Helper()
	ctx := context.Background()
	db := f.env.db
	before, err := db.StorageStats(ctx)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	res, err := db.CompactReadings(ctx, start, nil)
	if err != nil {
		b.Fatal(err)
	}
	took := time.Since(start)
	if res.Readings < historyReports*20*363/365 {
		b.Fatalf("compacted %d readings, want about %d", res.Readings, historyReports*20*363/365)
	}
	f.settle()
	after, err := db.StorageStats(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: compacted %d readings into %d chunks in %v (%.0f readings/s); rows %d B for %d readings (%.2f B a reading); "+
		"chunks %d B for %d readings (%.2f B a reading), %d readings left as rows",
		db.Dialect(), res.Readings, res.Chunks, took.Round(time.Millisecond), float64(res.Readings)/took.Seconds(),
		before[0].Bytes, before[0].Readings, before[0].BytesPerReading(), after[1].Bytes, after[1].Readings, after[1].BytesPerReading(),
		after[0].Readings)
}

// checkSeries checks an answer has n series of total points each, reduced
// to at most points.
func checkSeries(tb testing.TB, a v3Answer, n, total, points int) {
	tb.Helper()
	if len(a.Series) != n {
		tb.Fatalf("%d series, want %d", len(a.Series), n)
	}
	for _, s := range a.Series {
		if s.Total != total || len(s.T) == 0 || len(s.T) > points || len(s.T) != len(s.V) {
			tb.Fatalf("series %s@%d: total %d (want %d), %d times, %d values (at most %d)",
				s.Param, s.Node, s.Total, total, len(s.T), len(s.V), points)
		}
	}
}

// BenchmarkHistoryDaily measures a year of daily rollups of every series of
// one ZS006 (target ≤ 10 ms).
func BenchmarkHistoryDaily(b *testing.B) {
	for _, be := range benchBackends {
		b.Run(be.name, func(b *testing.B) {
			f := loadHistory(b, be.open)
			path := historyPath(f, "dim=daily")
			a := benchGetData[v3Answer](b, f.env, path())
			if a.Dim != "daily" || len(a.Series) != 3*len(historyNodes)+2 {
				b.Fatalf("daily: dim %q, %d series", a.Dim, len(a.Series))
			}
			for _, s := range a.Series {
				// 365 days of data fall on 365 or 366 local days.
				if s.Total < 365 || s.Total > 366 || len(s.T) != s.Total || len(s.Min) != s.Total {
					b.Fatalf("daily %s@%d: total %d, %d days", s.Param, s.Node, s.Total, len(s.T))
				}
			}
			b.Run("year", func(b *testing.B) { benchLatency(b, f.env, path) })
		})
	}
}

// ---- Device list and map: 10,000 devices of farmer01 ----

const fleetSize = 10000

// fleetTypes are the types the fleet cycles through (every host type).
var fleetTypes = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14, 17, 19, 20, 21, 22}

// fleetDevice is what the fleet generator decided for device i.
type fleetDevice struct {
	sn       string
	typeID   int
	state    devices.State
	report   bool // has a report
	online   bool // its report says online until after now
	lowPower bool
	fault    bool
	located  bool
}

// fleetSearch matches the 100 devices 4200..4299: their SNs end in 00042
// (and their default names carry it), with every status among them.
const fleetSearch = "00042"

func fleetPlan(i int) fleetDevice {
	f := fleetDevice{
		// The last five digits (the label's) are shared by runs of 100.
		sn:      fmt.Sprintf("FW%05d%05d", i, (i/100)%100),
		typeID:  fleetTypes[i%len(fleetTypes)],
		state:   devices.StateUsed,
		located: i%17 != 0,
	}
	switch i % 10 {
	case 0:
		f.state = devices.StateIdle
	case 1:
		if i%20 == 1 {
			f.state = devices.StateRepair
		}
		// else: in use, never reported: offline
	case 2, 3, 4, 5, 6:
		f.report, f.online = true, true
		f.fault = i%50 == 2
	case 7, 8:
		f.report = true // reported long ago: offline
	case 9:
		f.report, f.online, f.lowPower = true, true, true
	}
	return f
}

// status is devices.Device.StatusAt for the plan.
func (f fleetDevice) status() devices.Status {
	switch {
	case f.state != devices.StateUsed:
		return devices.Status(f.state)
	case f.fault:
		return devices.StatusFault
	case !f.online:
		return devices.StatusOffline
	case f.lowPower:
		return devices.StatusLowpower
	}
	return devices.StatusOnline
}

type fleetFixture struct {
	env  *benchEnv
	plan []fleetDevice
}

// loadFleet registers the fleet (one autocommit insert each, as the
// service does) and gives it reports and health.
func loadFleet(b *testing.B, open func(testing.TB) (*store.DB, func())) *fleetFixture {
	b.Helper()
	db, settle := open(b)
	ctx := context.Background()
	e := newBenchEnv(b, db)
	start := time.Now()
	now := time.Now()
	plan := make([]fleetDevice, fleetSize)
	ids := make([]int64, fleetSize)
	var reports []*telemetry.Report
	write := func() {
		if _, err := db.WriteReports(ctx, reports, e.loc); err != nil {
			b.Fatal(err)
		}
		reports = reports[:0]
	}
	for i := range fleetSize {
		p := fleetPlan(i)
		plan[i] = p
		n := devices.Registration{SN: p.sn, TypeID: p.typeID, Owner: e.owner, State: p.state}
		if p.located {
			lat, lng := 30+float64(i%1000)/100, 110+float64(i/1000)
			n.Lat, n.Lng = &lat, &lng
		}
		d, _, err := e.devices.Register(ctx, n)
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = d.ID
		if !p.report {
			continue
		}
		at := now.Add(-time.Duration(i%30) * time.Minute)
		off := at.Add(time.Hour)
		if !p.online {
			at = now.Add(-time.Duration(2+i%200) * 24 * time.Hour)
			off = at.Add(time.Hour)
		}
		reports = append(reports, &telemetry.Report{DeviceID: d.ID, Time: at, OfflineAt: off,
			Points: []telemetry.Point{{Param: "battery", Value: 3.6}, {Param: "signal", Value: -80}}})
		if len(reports) == 1000 {
			write()
		}
	}
	write()
	for i, p := range plan {
		if !p.lowPower && !p.fault && !p.report {
			continue
		}
		bat := 3.7
		if p.lowPower {
			bat = 3.0
		}
		h := devices.Health{At: now, Battery: &bat}
		if p.fault {
			h.Faults = []int{3}
		}
		if err := e.devices.RecordHealth(ctx, ids[i], h); err != nil {
			b.Fatal(err)
		}
	}
	settle()
	b.Logf("%s: loaded %d devices in %v", db.Dialect(), fleetSize, time.Since(start).Round(time.Millisecond))
	return &fleetFixture{env: e, plan: plan}
}

type listAnswer struct {
	Total int `json:"total"`
	List  []struct {
		SN             string `json:"sn"`
		Status         string `json:"status"`
		LastReportTime *int64 `json:"lastReportTime"`
	} `json:"list"`
}

// BenchmarkDeviceList measures a device list page of a 10,000-device
// account: the first page, and a label search of online devices sorted by
// last report (target p99 ≤ 20 ms).
func BenchmarkDeviceList(b *testing.B) {
	for _, be := range benchBackends {
		b.Run(be.name, func(b *testing.B) {
			f := loadFleet(b, be.open)

			first := "/apis/devices?page=1&size=20"
			a := benchGetData[listAnswer](b, f.env, first)
			if a.Total != fleetSize || len(a.List) != 20 || a.List[0].SN != f.plan[0].sn {
				b.Fatalf("first page: total %d, %d devices", a.Total, len(a.List))
			}
			for i, d := range a.List {
				if d.SN != f.plan[i].sn || d.Status != string(f.plan[i].status()) {
					b.Fatalf("first page #%d: %s %s, want %s %s", i, d.SN, d.Status, f.plan[i].sn, f.plan[i].status())
				}
			}
			b.Run("firstPage", func(b *testing.B) { benchLatency(b, f.env, func() string { return first }) })

			search := "/apis/devices?page=1&size=20&nameOrSn=" + fleetSearch + "&status=online&sort=lastReport&order=desc"
			want := 0
			for i, p := range f.plan {
				if (i/100)%100 == 42 && p.status() == devices.StatusOnline {
					want++
				}
			}
			a = benchGetData[listAnswer](b, f.env, search)
			if want == 0 || a.Total != want || len(a.List) != min(want, 20) {
				b.Fatalf("search: total %d, %d devices, want %d", a.Total, len(a.List), want)
			}
			for i, d := range a.List {
				if !strings.HasSuffix(d.SN, fleetSearch) || d.Status != "online" || d.LastReportTime == nil ||
					i > 0 && *d.LastReportTime > *a.List[i-1].LastReportTime {
					b.Fatalf("search #%d: %+v", i, d)
				}
			}
			b.Run("searchOnlineByLastReport", func(b *testing.B) { benchLatency(b, f.env, func() string { return search }) })

			sorted := "/apis/devices?page=1&size=20&sort=lastReport&order=desc"
			a = benchGetData[listAnswer](b, f.env, sorted)
			if a.Total != fleetSize || len(a.List) != 20 || a.List[0].LastReportTime == nil {
				b.Fatalf("sorted: total %d, %d devices", a.Total, len(a.List))
			}
			b.Run("sortLastReport", func(b *testing.B) { benchLatency(b, f.env, func() string { return sorted }) })
		})
	}
}

// BenchmarkMapAll measures the map of a 10,000-device account (target
// p99 ≤ 60 ms).
func BenchmarkMapAll(b *testing.B) {
	for _, be := range benchBackends {
		b.Run(be.name, func(b *testing.B) {
			f := loadFleet(b, be.open)
			a := benchGetData[struct {
				List []struct {
					SN     string   `json:"sn"`
					Status string   `json:"status"`
					Lat    *float64 `json:"lat"`
				} `json:"list"`
				Groups map[string]int `json:"groups"`
			}](b, f.env, "/apis/map/all")
			if len(a.List) != fleetSize {
				b.Fatalf("map: %d devices", len(a.List))
			}
			groups := map[string]int{}
			for i, d := range a.List {
				p := f.plan[i]
				if d.SN != p.sn || d.Status != string(p.status()) || (d.Lat != nil) != p.located {
					b.Fatalf("map #%d: %+v, want %s %s", i, d, p.sn, p.status())
				}
				groups[string(devices.GroupOf(p.status()))]++
			}
			for g, n := range groups {
				if a.Groups[g] != n {
					b.Fatalf("map groups %v, want %v", a.Groups, groups)
				}
			}
			b.Run("all", func(b *testing.B) { benchLatency(b, f.env, func() string { return "/apis/map/all" }) })
		})
	}
}
