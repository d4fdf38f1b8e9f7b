package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

var update = flag.Bool("update", false, "rewrite the golden answers in testdata")

// goldenNow is the clock of the golden answers: a May afternoon in Shanghai.
var goldenNow = time.Date(2026, 5, 30, 14, 20, 0, 0, shanghai)

// fixedForecast is a provider that always answers the same 7 days.
type fixedForecast struct{}

func (fixedForecast) Enabled() bool { return true }

func (fixedForecast) Daily(_ context.Context, lat, lng float64) (*forecast.Forecast, error) {
	f := &forecast.Forecast{Provider: "forecast.test", Latitude: lat, Longitude: lng, Elevation: 21,
		FetchedAt: goldenNow.Add(-10 * time.Minute)}
	y, m, d := goldenNow.Date()
	num := func(v float64) *float64 { return &v }
	rain := []float64{0, 2.4, 12.6, 0, 0, 0, 0.3}
	et0 := []float64{5.61, 4.92, 3.1, 5.2, 5.74, 6.02, 6.3}
	wind := []float64{4.2, 5.1, 7.9, 3.3, 2.8, 3.0, 11.0}
	for i := range 7 {
		f.Days = append(f.Days, forecast.Day{Date: time.Date(y, m, d+i, 0, 0, 0, 0, shanghai), TempMax: num(30 + float64(i)/2),
			TempMin: num(18 + float64(i)/3), Rain: num(rain[i]), ET0: num(et0[i]), WindMax: num(wind[i])})
	}
	return f, nil
}

// goldenDevice registers a device at a fixed place and install time and
// stores what the simulator reports for it over the 21 days before
// goldenNow.
func goldenDevice(t *testing.T, e *env, sn string, typeID int, lat, lng float64, seed int64) *devices.Device {
	t.Helper()
	ctx := context.Background()
	owner := ownerID(t, e, "farmer01")
	d, _, err := e.devices.Register(ctx, devices.Registration{SN: sn, TypeID: typeID, Owner: owner, Lat: &lat, Lng: &lng})
	if err != nil {
		t.Fatal(err)
	}
	installed, alt := goldenNow.AddDate(0, -2, 0), 35.0
	if err := e.db.UpdateProfile(ctx, d.ID, devices.Profile{Name: d.Name, Location: "Golden plot", Lat: &lat, Lng: &lng,
		Altitude: &alt, InstallAt: &installed}); err != nil {
		t.Fatal(err)
	}
	ty := d.Type()
	sim := simulator.New(simulator.Device{SN: sn, Type: ty, Lat: lat, Lng: lng, Seed: seed})
	var reports []*telemetry.Report
	for at := goldenNow.AddDate(0, 0, -21).Truncate(ty.Interval); !at.After(goldenNow); at = at.Add(ty.Interval) {
		var p struct {
			Values map[string]float64            `json:"values"`
			Nodes  map[string]map[string]float64 `json:"nodes"`
		}
		if err := json.Unmarshal(sim.Telemetry(at), &p); err != nil {
			t.Fatal(err)
		}
		var pts []telemetry.Point
		for k, v := range p.Values {
			pts = append(pts, telemetry.Point{Param: k, Value: v})
		}
		for n, vs := range p.Nodes {
			node, _ := strconv.Atoi(n)
			for k, v := range vs {
				pts = append(pts, telemetry.Point{Param: k, Node: node, Value: v})
			}
		}
		reports = append(reports, report(d, at, pts...))
	}
	e.writeAll(reports)
	return d
}

// goldenCalls are the calls whose answers testdata/analyses.golden holds:
// every analysis route, with the query variants that change an answer's
// shape. {soil}, {station}, {rain}, {tilt} and {combo} stand for the
// devices of TestAnalyses_Golden.
var goldenCalls = []struct{ method, path, lang, body string }{
	{"PUT", "/apis/poi/shang/config?id={soil}", "en_US", `{"nodes":[{"depth":10,"fieldCapacity":31,"unitWeight":1.35},{"depth":20,"fieldCapacity":32,"unitWeight":1.38},{"depth":30,"fieldCapacity":33,"unitWeight":1.4},{"depth":40,"fieldCapacity":34,"unitWeight":1.42},{"depth":50,"fieldCapacity":35,"unitWeight":1.45},{"depth":60,"fieldCapacity":35,"unitWeight":1.45}],"cropType":"wheat","cropVariety":"Jimai 22","irrigationMethod":"drip","plantingTime":1767196800000,"areaMu":12.5,"upload":true}`},
	{"POST", "/apis/poi/crop/update", "zh_CN", `{"id":{soil},"cropName":"maize","sowTime":1777564800000,"area":8}`},
	{"PUT", "/apis/poi/crop/update?id={combo}", "en_US", `{"cropName":"soybean","sowTime":1778083200000}`},
	{"PUT", "/apis/poi/shang/config", "zh_CN", `{"id":{combo},"nodes":[{"depth":60,"fieldCapacity":30,"unitWeight":1.5},{"depth":10,"fieldCapacity":28,"unitWeight":1.3},{"depth":20,"fieldCapacity":29,"unitWeight":1.35},{"depth":30,"fieldCapacity":30,"unitWeight":1.4},{"depth":40,"fieldCapacity":30,"unitWeight":1.45},{"depth":50,"fieldCapacity":30,"unitWeight":1.5}],"cropType":"rice","irrigationMethod":"flood"}`},
	{"GET", "/apis/poi/shang/waterlogging?id={combo}&minHours=1", "en_US", ""},
	{"GET", "/apis/poi/analysis/moisture?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/analysis/et_root?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/analysis/et_root?id={combo}", "en_US", ""},
	{"GET", "/apis/poi/et0_kc?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/et0_kc?id={station}", "zh_CN", ""},
	{"GET", "/apis/poi/shang/etc_et0_kc?id={soil}&stationId={combo}", "en_US", ""},
	{"GET", "/apis/poi/data/sqy/query?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/data/sqy/query?id={soil}&dim=raw&begin=2026-05-29T00:00:00%2B08:00", "en_US", ""},
	{"GET", "/apis/poi/param/list?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/param/list?id={station}", "zh_TW", ""},
	{"GET", "/apis/poi/data/query?id={soil}&params=soilMoisture,relativeMoisture,waterStorage,et0,etc", "en_US", ""},
	{"GET", "/apis/poi/data/query?id={combo}&dim=raw&begin=2026-05-30T00:00:00%2B08:00", "zh_CN", ""},
	{"GET", "/apis/poi/data/query?id={station}&params=windSpeed,windLevel&dim=raw&begin=2026-05-30T08:00:00%2B08:00", "en_US", ""},
	{"GET", "/apis/poi/data/query?id={station}&params=windLevel,airTemp,et0", "en_US", ""},
	{"GET", "/apis/poi/week/weather?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/week/weather?id={station}", "en_US", ""},
	{"GET", "/apis/poi/rainfall?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/rainfall?id={tilt}", "en_US", ""},
	{"GET", "/apis/poi/et0?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/seven/mete?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/tilt/yaw?id={tilt}", "en_US", ""},
	{"GET", "/apis/poi/shan/trend?id={tilt}", "zh_CN", ""},
	{"GET", "/apis/poi/shan/trend?id={tilt}&threshold=0.05", "en_US", ""},
	{"GET", "/apis/poi/shang/status?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/shang/status?id={combo}", "en_US", ""},
	{"GET", "/apis/poi/shang/irriRecognition?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/shang/irriRecognition?id={combo}&minAmount=2", "en_US", ""},
	{"GET", "/apis/poi/shang/infiltration?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/shang/infiltration?id={combo}&begin=2026-05-28T00:00:00%2B08:00&end=2026-05-29T00:00:00%2B08:00", "en_US", ""},
	{"GET", "/apis/poi/shang/waterlogging?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/shang/waterlogging?id={soil}&threshold=30&minHours=2", "en_US", ""},
	{"GET", "/apis/poi/shang/freezeThaw?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/shang/rootdepth?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/shang/detail?id={soil}", "zh_CN", ""},
	{"GET", "/apis/poi/shang/detail?id={combo}", "en_US", ""},
	{"GET", "/apis/poi/shang/nodes?id={soil}", "en_US", ""},
	{"GET", "/apis/poi/shang/config?id={soil}", "zh_TW", ""},
	{"GET", "/apis/poi/shang/config?id={combo}", "en_US", ""},
	{"GET", "/apis/poi/{rain}/pluviometer/early-warning?days=21", "en_US", ""},
	{"GET", "/apis/poi/{rain}/pluviometer/latest", "en_US", ""},
	{"GET", "/apis/poi/{rain}/pluviometer/i-d", "en_US", ""},
	{"GET", "/apis/poi/{rain}/pluviometer/i-d/range?alpha=5&beta=0.3", "en_US", ""},
	{"GET", "/apis/poi/{rain}/pluviometer/realtime?hours=6", "en_US", ""},
	{"GET", "/apis/poi/{rain}/pluviometer/stats", "en_US", ""},
	{"GET", "/apis/poi/{rain}/pluviometer/stats_data", "en_US", ""},
	{"GET", "/apis/poi/{rain}/pluviometer/stats_data?dim=hour&begin=2026-05-29T12:00:00%2B08:00", "en_US", ""},
	{"GET", "/apis/poi/{rain}/pluviometer/stats_data?dim=month", "en_US", ""},
	{"GET", "/apis/poi/{rain}/pluviometer/installing", "en_US", ""},
	{"GET", "/apis/qi/{station}/data/realtime", "en_US", ""},
	{"GET", "/apis/qi/{combo}/data/realtime", "zh_CN", ""},
	{"GET", "/apis/qi/weather/alert?id={station}", "en_US", ""},
	{"GET", "/apis/qi/fwi/statistics?id={station}", "en_US", ""},
	{"GET", "/apis/qi/fwi/history?id={station}", "en_US", ""},
	{"GET", "/apis/qi/data/history?id={station}", "en_US", ""},
	{"GET", "/apis/qi/data/history?id={combo}&begin=2026-05-20T00:00:00%2B08:00", "en_US", ""},
	// Errors keep their shape too.
	{"GET", "/apis/poi/shang/status?id={rain}", "en_US", ""},
	{"GET", "/apis/qi/fwi/history?id={soil}", "zh_CN", ""},
	{"GET", "/apis/poi/et0?id={soil}&stationId={rain}", "en_US", ""},
	{"PUT", "/apis/poi/shang/config?id={soil}", "en_US", `{"nodes":[{"depth":10,"fieldCapacity":31,"unitWeight":1.35}]}`},
	{"PUT", "/apis/poi/crop/update?id={station}", "en_US", `{"cropName":"maize"}`},
}

// Every analysis route answers byte for byte what testdata/analyses.golden
// holds, on simulated devices read at a fixed time with a fixed forecast.
// go test -run Golden -update rewrites the file after a deliberate change.
func TestAnalyses_Golden(t *testing.T) {
	e := goldenEnv(t, storetest.OpenSQLite(t))
	ids := map[string]int64{
		"{soil}":    goldenDevice(t, e, "ZS0000000002", 2, 37.45, 116.3, 3).ID,
		"{station}": goldenDevice(t, e, "TQ0000000005", 5, 37.468, 116.3, 5).ID,
		"{rain}":    goldenDevice(t, e, "RG0000000009", 9, 37.46, 116.31, 7).ID,
		"{tilt}":    goldenDevice(t, e, "SJ0000000008", 8, 37.9, 116.8, 8).ID,
		"{combo}":   goldenDevice(t, e, "ZQ0000000021", 21, 37.44, 116.29, 11).ID,
	}
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	var got bytes.Buffer
	for _, c := range goldenCalls {
		path, body := c.path, c.body
		for k, id := range ids {
			path, body = strings.ReplaceAll(path, k, fmt.Sprint(id)), strings.ReplaceAll(body, k, fmt.Sprint(id))
		}
		fmt.Fprintf(&got, "%s %s %s\n%s\n\n", c.method, c.path, c.lang, rawCall(t, u, c.method, path, c.lang, body))
	}
	file := filepath.Join("testdata", "analyses.golden")
	if *update {
		if err := os.WriteFile(file, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		g, w := strings.Split(got.String(), "\n\n"), strings.Split(string(want), "\n\n")
		for i := 0; i < len(g) && i < len(w); i++ {
			if g[i] != w[i] {
				t.Fatalf("answer %d differs:\n got %.2000s\nwant %.2000s", i, g[i], w[i])
			}
		}
		t.Fatalf("%d answers, want %d", len(g), len(w))
	}
}

// rawCall makes one call and returns the answer's body as sent.
func rawCall(t *testing.T, u *user, method, path, lang, body string) []byte {
	t.Helper()
	req, _ := http.NewRequest(method, u.e.url+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("lang", lang)
	res, err := u.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte(strconv.Itoa(res.StatusCode)+" "), bytes.TrimSpace(raw)...)
}
