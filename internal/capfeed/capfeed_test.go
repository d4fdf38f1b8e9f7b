package capfeed_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/capfeed"
)

// serve serves testdata under /cap/ and counts requests.
func serve(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	fs := http.StripPrefix("/cap/", http.FileServer(http.Dir("testdata")))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fs.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// now is 09:45 Beijing time on 26 July 2026: the hail alert (to 08:00) has
// expired, the thunderstorm (to 10:30 UTC) and rainstorm (to 20:00) are in force.
var now = time.Date(2026, 7, 26, 1, 45, 0, 0, time.UTC)

func client(url string) *capfeed.Client {
	return capfeed.New(capfeed.Config{URL: url, Now: func() time.Time { return now }})
}

func TestFeedAtGuangzhou(t *testing.T) {
	srv, _ := serve(t)
	got, err := client(srv.URL+"/cap/feed.xml").At(context.Background(), 23.2, 113.3)
	if err != nil {
		t.Fatal(err)
	}
	// thunderstorm (Severe → orange), rainstorm (yellow from the headline,
	// not its Severe); the typhoon was cancelled, the hail expired, the
	// exercise is not Actual, the frost is in Hebei.
	want := []struct {
		typ   string
		level capfeed.Level
		area  string
	}{{"thunderstormGale", 3, "EXTREME NORTH CENTRAL TUOLUMNE COUNTY IN CALIFORNIA"}, {"rainstorm", 2, "广州市"}}
	if len(got) != len(want) {
		t.Fatalf("got %d alerts %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].Type != w.typ || got[i].Level != w.level || got[i].AreaDesc != w.area {
			t.Errorf("alert %d = %+v, want %+v", i, got[i], w)
		}
	}
	if r := got[1]; r.Headline != "广州市气象台发布暴雨黄色预警信号" || r.Sender != "guangdong@12379.cn" ||
		!r.Expires.Equal(time.Date(2026, 7, 26, 12, 0, 0, 0, time.UTC)) || !r.Effective.Equal(time.Date(2026, 7, 26, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("rainstorm %+v", r)
	}
}

func TestFeedInlineAlertAndOutside(t *testing.T) {
	srv, _ := serve(t)
	c := client(srv.URL + "/cap/feed.xml")
	got, err := c.At(context.Background(), 38.04, 114.5) // Shijiazhuang
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Type != "frost" || got[0].Level != 2 {
		t.Errorf("Shijiazhuang %+v", got)
	}
	// Just outside the Guangzhou polygon's east edge (113.6) and 11 km from
	// the thunderstorm circle's centre: nothing.
	got, err = c.At(context.Background(), 23.2, 113.61)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range got {
		if a.Type == "rainstorm" {
			t.Errorf("outside the polygon: %+v", a)
		}
	}
	// 0.089° of latitude is 9.9 km: inside the 10 km circle; 0.091° is 10.1 km.
	in, _ := c.At(context.Background(), 23.289, 113.3)
	out, _ := c.At(context.Background(), 23.291, 113.3)
	has := func(as []capfeed.Alert, typ string) bool {
		for _, a := range as {
			if a.Type == typ {
				return true
			}
		}
		return false
	}
	if !has(in, "thunderstormGale") || has(out, "thunderstormGale") {
		t.Errorf("circle edge: in %+v out %+v", in, out)
	}
}

func TestSingleDocumentExpiryAndCache(t *testing.T) {
	srv, n := serve(t)
	clock := now
	c := capfeed.New(capfeed.Config{URL: srv.URL + "/cap/rainstorm.xml", TTL: time.Minute, Now: func() time.Time { return clock }})
	for _, tc := range []struct {
		at   time.Time
		want int
	}{{now, 1}, {time.Date(2026, 7, 26, 11, 59, 59, 0, time.UTC), 1}, {time.Date(2026, 7, 26, 12, 0, 0, 0, time.UTC), 0}} {
		clock = tc.at
		got, err := c.At(context.Background(), 23.2, 113.3)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.want {
			t.Errorf("at %v: %d alerts, want %d", tc.at, len(got), tc.want)
		}
	}
	// The first two calls are 10 h apart, the last two 1 s: two fetches.
	if n.Load() != 2 {
		t.Errorf("%d fetches, want 2", n.Load())
	}
}

func TestFeedErrors(t *testing.T) {
	srv, _ := serve(t)
	if _, err := client("").At(context.Background(), 0, 0); err != capfeed.ErrUnavailable {
		t.Errorf("no URL: %v", err)
	}
	if _, err := client(srv.URL+"/cap/missing.xml").At(context.Background(), 0, 0); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("missing: %v", err)
	}
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("<html><body>maintenance</body></html>"))
	}))
	defer html.Close()
	if _, err := client(html.URL).At(context.Background(), 0, 0); err == nil || !strings.Contains(err.Error(), "neither") {
		t.Errorf("html: %v", err)
	}
}

func TestTypeAndLevelMapping(t *testing.T) {
	for _, tc := range []struct {
		event, headline, severity string
		typ                       string
		level                     capfeed.Level
	}{
		{"台风", "中央气象台发布台风红色预警", "Extreme", "typhoon", 4},
		{"暴雨", "暴雨橙色预警信号", "Minor", "rainstorm", 3},
		{"暴雪", "", "Moderate", "blizzard", 2},
		{"寒潮", "寒潮蓝色预警信号", "", "coldWave", 1},
		{"大风", "", "Severe", "gale", 3},
		{"沙尘暴", "沙尘暴黄色预警", "", "sandstorm", 2},
		{"高温", "高温红色预警", "", "highTemperature", 4},
		{"干旱", "干旱橙色预警", "", "drought", 3},
		{"雷电", "雷电黄色预警", "", "thunder", 2},
		{"冰雹", "冰雹橙色预警", "", "hail", 3},
		{"霜冻", "霜冻蓝色预警", "", "frost", 1},
		{"大雾", "大雾黄色预警", "", "fog", 2},
		{"霾", "霾橙色预警", "", "haze", 3},
		{"道路结冰", "道路结冰黄色预警", "", "roadIcing", 2},
		{"森林火险", "森林火险红色预警", "", "forestFire", 4},
		{"雷雨大风", "雷雨大风蓝色预警", "", "thunderstormGale", 1},
		{"Tropical Storm Warning", "", "Severe", "typhoon", 3},
		{"High Wind Warning", "issued covered area", "Moderate", "gale", 2}, // "covered" is not "red"
		{"Dense Fog Advisory", "", "Minor", "fog", 1},
		{"Tsunami Warning", "", "Extreme", "", 4},
		{"暴雨", "", "Unknown", "rainstorm", 0},
	} {
		if got := capfeed.TypeOf(tc.event, tc.headline); got != tc.typ {
			t.Errorf("TypeOf(%q, %q) = %q, want %q", tc.event, tc.headline, got, tc.typ)
		}
		if got := capfeed.LevelOf(tc.event, tc.headline, tc.severity); got != tc.level {
			t.Errorf("LevelOf(%q, %q, %q) = %d, want %d", tc.event, tc.headline, tc.severity, got, tc.level)
		}
	}
}
