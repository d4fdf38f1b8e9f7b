package app_test

// The ET0 raster data service over the demo farm: an area drawn around its
// weather stations, yesterday's grid from their observed ET0, the files, the
// checks, and another account.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/et0grid"
)

type et0GridView struct {
	Day    string
	Method string
	Points []struct {
		ID        int64
		Lat, Lng  float64
		Value     float64
		Source    string
		Predicted *float64
	}
	CrossValidation struct {
		N         int
		MAE, RMSE float64
	}
	West, North, Cell float64
	Cols, Rows        int
	Min, Max          float64
	Values            []float64
}

func TestET0Grid(t *testing.T) {
	cfg := serveConfig(t)
	cfg.DemoDays = 3
	m := start(t, cfg)
	<-m.DemoLoaded()
	owner := loginAPI(t, m.URL())
	var list struct {
		List []struct {
			ID       int64
			Page     string
			Lat, Lng *float64
		}
	}
	owner.get("/apis/devices?size=100", nil, &list)
	w, s, e, n := 180.0, 90.0, -180.0, -90.0
	for _, d := range list.List {
		if d.Page == "tianqi" && d.Lat != nil {
			w, e = math.Min(w, *d.Lng), math.Max(e, *d.Lng)
			s, n = math.Min(s, *d.Lat), math.Max(n, *d.Lat)
		}
	}
	if w > e {
		t.Fatal("no demo weather station with a position")
	}
	body := fmt.Sprintf(`{"name":"Demo county","west":%.4f,"south":%.4f,"east":%.4f,"north":%.4f}`, w-0.05, s-0.05, e+0.05, n+0.05)
	status, env := owner.do("POST", "/apis/et0/areas", body, nil)
	var area struct {
		ID   int64
		Cell float64
	}
	if status != 200 || json.Unmarshal(env.Data, &area) != nil || area.ID == 0 || area.Cell <= 0 {
		t.Fatalf("create: HTTP %d %+v", status, env)
	}
	var detail struct {
		Days []struct {
			Day      string
			Forecast bool
		}
	}
	owner.get(fmt.Sprintf("/apis/et0/areas/%d", area.ID), nil, &detail)
	if len(detail.Days) != 14 || detail.Days[6].Forecast || !detail.Days[7].Forecast {
		t.Fatalf("days %+v", detail.Days)
	}
	yesterday := detail.Days[6].Day
	var g et0GridView
	owner.get(fmt.Sprintf("/apis/et0/areas/%d/grid?day=%s", area.ID, yesterday), nil, &g)
	if g.Day != yesterday || g.Method != "idw" || len(g.Points) == 0 || len(g.Values) != g.Cols*g.Rows {
		t.Fatalf("grid %+v", g)
	}
	var pts []et0grid.Point
	for _, p := range g.Points {
		pts = append(pts, et0grid.Point{Lat: p.Lat, Lng: p.Lng, Value: p.Value})
	}
	inside := 0
	for _, p := range g.Points {
		if p.Source != "station" || p.ID == 0 || p.Value <= 0 || p.Value > 15 {
			t.Errorf("point %+v", p)
		}
		// The cell holding the station is the stations' inverse-distance
		// weighting at the cell's centre. (Not "about the station's value":
		// two demo stations a cell apart may differ by more than any bound.)
		// Stations within the margin around the area count but have no cell.
		r, c := int(math.Floor((g.North-p.Lat)/g.Cell)), int(math.Floor((p.Lng-g.West)/g.Cell))
		if r < 0 || r >= g.Rows || c < 0 || c >= g.Cols {
			continue
		}
		inside++
		want, err := et0grid.IDW(pts, g.North-(float64(r)+0.5)*g.Cell, g.West+(float64(c)+0.5)*g.Cell)
		if v := g.Values[r*g.Cols+c]; err != nil || math.Abs(v-want) > 0.01 {
			t.Errorf("station %d: its cell %v, the weighting there %v (%v)", p.ID, v, want, err)
		}
	}
	if inside == 0 {
		t.Error("no station inside the area")
	}
	// A weighting is an average: the grid stays within the stations' range.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range g.Points {
		lo, hi = math.Min(lo, p.Value), math.Max(hi, p.Value)
	}
	if g.Min < lo-0.01 || g.Max > hi+0.01 || g.Min > g.Max {
		t.Errorf("grid %v–%v, stations %v–%v", g.Min, g.Max, lo, hi)
	}
	if len(g.Points) > 1 && (g.CrossValidation.N != len(g.Points) || g.Points[0].Predicted == nil || g.CrossValidation.RMSE < g.CrossValidation.MAE) {
		t.Errorf("cross-validation %+v", g.CrossValidation)
	}

	// The files.
	get := func(path string) (*http.Response, []byte) {
		res, err := owner.c.Get(m.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, b
	}
	res, tif := get(fmt.Sprintf("/apis/et0/areas/%d/grid.tif?day=%s", area.ID, yesterday))
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/tiff" || string(tif[:4]) != "II*\x00" {
		t.Errorf("GeoTIFF: HTTP %d %s %q", res.StatusCode, res.Header.Get("Content-Type"), tif[:8])
	}
	res, csv := get(fmt.Sprintf("/apis/et0/areas/%d/grid.csv?day=%s", area.ID, yesterday))
	if lines := strings.Split(strings.TrimSpace(string(csv)), "\n"); res.StatusCode != 200 || lines[0] != "lat,lng,et0_mm" || len(lines) != 1+g.Cols*g.Rows {
		t.Errorf("CSV: HTTP %d, %d lines", res.StatusCode, len(lines))
	}

	// Checks, named, in the caller's language.
	for lang, msg := range map[string]string{"en_US": "Area may span at most 5 degrees each way", "zh_CN": "区域东西、南北跨度均不能超过 5 度", "zh_TW": "區域東西、南北跨度均不能超過 5 度"} {
		status, env := owner.do("POST", "/apis/et0/areas", `{"name":"Province","west":110,"south":30,"east":118,"north":36}`, map[string]string{"lang": lang})
		if status != 400 || env.Message != msg || env.Error == nil || env.Error.Field != "region" {
			t.Errorf("%s: too large: HTTP %d %+v", lang, status, env)
		}
	}
	if status, env := owner.do("POST", "/apis/et0/areas", `{"name":" ","west":116,"south":36,"east":117,"north":37}`, map[string]string{"lang": "en_US"}); status != 400 || env.Error == nil || env.Error.Field != "name" {
		t.Errorf("no name: HTTP %d %+v", status, env)
	}
	if status, env := owner.do("POST", "/apis/et0/areas", `{"name":"Upside down","west":117,"south":36,"east":116,"north":37}`, map[string]string{"lang": "en_US"}); status != 400 || env.Error == nil || env.Error.Key != "et0.areaInvalid" {
		t.Errorf("west of east: HTTP %d %+v", status, env)
	}
	far := time.Now().AddDate(0, 0, -30).Format(time.DateOnly)
	if status, env := owner.do("GET", fmt.Sprintf("/apis/et0/areas/%d/grid?day=%s", area.ID, far), "", map[string]string{"lang": "en_US"}); status != 400 || env.Error == nil || env.Error.Field != "day" {
		t.Errorf("a month ago: HTTP %d %+v", status, env)
	}

	// Another account's area looks missing; its owner deletes it.
	if _, err := m.Accounts.Create(context.Background(), "stranger1", "secret1", "stranger1"); err != nil {
		t.Fatal(err)
	}
	st := loginAs(t, m, "stranger1", "secret1")
	missing := st.call("GET", "/apis/et0/areas/987654321", "")
	for _, path := range []string{"", "/grid", "/grid.tif"} {
		if a := st.call("GET", fmt.Sprintf("/apis/et0/areas/%d%s", area.ID, path), ""); a.status != 404 || a.Msg != missing.Msg {
			t.Errorf("another's area%s: HTTP %d %s", path, a.status, a.raw)
		}
	}
	if a := st.call("DELETE", fmt.Sprintf("/apis/et0/areas/%d", area.ID), ""); a.status != 404 {
		t.Errorf("another deletes it: HTTP %d", a.status)
	}
	if status, _ := owner.do("DELETE", fmt.Sprintf("/apis/et0/areas/%d", area.ID), "", nil); status != 200 {
		t.Errorf("delete: HTTP %d", status)
	}
	if status, _ := owner.do("GET", fmt.Sprintf("/apis/et0/areas/%d", area.ID), "", nil); status != 404 {
		t.Errorf("deleted: HTTP %d", status)
	}
}
