package httpapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/capfeed"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// capFeed serves an Atom feed linking one CAP 1.2 typhoon alert whose
// circle holds the test stations (37.45, 116.3).
func capFeed(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/feed", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/atom+xml")
		_, _ = fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test</id><title>预警</title><updated>2026-01-01T00:00:00Z</updated>
<entry><id>1</id><title>台风</title><link rel="alternate" type="application/cap+xml" href="/cap/typhoon-1.xml"/></entry></feed>`)
	})
	mux.HandleFunc("/cap/typhoon-1.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/cap+xml")
		_, _ = fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
  <identifier>typhoon-1</identifier><sender>hebei@12379.cn</sender><sent>2026-01-01T06:00:00+08:00</sent>
  <status>Actual</status><msgType>Alert</msgType><scope>Public</scope>
  <info><category>Met</category><event>台风</event><urgency>Expected</urgency><severity>Moderate</severity><certainty>Likely</certainty>
    <headline>河北省气象台发布台风黄色预警信号</headline>
    <area><areaDesc>衡水市</areaDesc><circle>37.5,116.3 20</circle></area></info>
</alert>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// A station's stored readings make the cold-wave signal, the feed adds a
// typhoon, and the answer says what checked each type.
func TestAnalyses_WeatherWarnings(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		feed := capFeed(t)
		today := localMidnight(1) // the clock is yesterday's 09:00
		now := today.Add(9 * time.Hour)
		e := analysisEnvFeed(t, db, nil, capfeed.New(capfeed.Config{URL: feed.URL + "/feed"}), func() time.Time { return now })
		station := e.register("TQ0000000007", 7, "farmer01")
		temp := func(at time.Time, v float64) *telemetry.Report {
			return report(station, at, telemetry.Point{Param: "airTemp", Value: v})
		}
		// Minima 14 °C, 14 °C, then 4 °C this morning: a 10 °C drop to 4 °C
		// with a level-6 wind is yellow.
		e.writeAll([]*telemetry.Report{
			temp(today.AddDate(0, 0, -2).Add(5*time.Hour), 14), temp(today.AddDate(0, 0, -2).Add(14*time.Hour), 22),
			temp(today.AddDate(0, 0, -1).Add(5*time.Hour), 14), temp(today.AddDate(0, 0, -1).Add(14*time.Hour), 20),
			temp(today.Add(5*time.Hour), 4), temp(today.Add(8*time.Hour), 6),
			report(station, today.Add(7*time.Hour), telemetry.Point{Param: "windSpeed", Value: 10.8}),
		})
		u := e.user("zh_CN")
		u.login("farmer01", "secret1").want(t, 200, 0)
		al := decodeData[struct {
			Alerts []struct {
				Type, Color, Source, Basis, Headline, Area string
				Value                                      float64
			}
			Checks []struct {
				Type string
				By   []string
			}
			Feed     string
			NeedFeed []string
		}](t, u.do("GET", fmt.Sprintf("/apis/qi/weather/alert?id=%d", station.ID), nil))
		var got []string
		for _, a := range al.Alerts {
			got = append(got, fmt.Sprintf("%s %s %s %s %v %s", a.Type, a.Color, a.Source, a.Basis, a.Value, a.Area))
		}
		want := []string{"coldWave yellow station tempDrop24h 10 ", "typhoon yellow feed feed 0 衡水市", "gale blue station wind24h 10.8 "}
		if !slices.Equal(got, want) {
			t.Errorf("alerts\n%q\nwant\n%q", got, want)
		}
		if al.Feed != "ok" || len(al.Checks) != 16 || al.Checks[0].Type != "typhoon" || !slices.Equal(al.Checks[0].By, []string{"feed"}) ||
			!slices.Contains(al.NeedFeed, "typhoon") || slices.Contains(al.NeedFeed, "coldWave") {
			t.Errorf("feed %q checks %+v need %v", al.Feed, al.Checks, al.NeedFeed)
		}
	})
}
