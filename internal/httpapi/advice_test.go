package httpapi_test

// Farm advice scenarios with answers computed by hand (docs/advice.md):
// a root zone 40 mm depleted with RAW 30 mm gets an irrigation task of the
// water balance's deficit, none after 35 mm of rain; a −2 °C forecast
// minimum gives a frost task for that night; a doubled trap count a
// scouting task; "not useful" suppresses the repeat the next day. On
// SQLite and PostgreSQL.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/soil"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// frostProvider speaks Open-Meteo's forecast API from today: ET0 4.8 mm
// every day, tomorrow's minimum −2 °C at 05:00 (hourly), no heat.
func frostProvider(t *testing.T) *httptest.Server {
	days, hours, temps := []string{}, []string{}, []string{}
	for i := 0; i < 7; i++ {
		days = append(days, `"`+localMidnight(-i).Format(time.DateOnly)+`"`)
	}
	for h := 0; h < 48; h++ {
		at := localMidnight(0).Add(time.Duration(h) * time.Hour)
		hours = append(hours, `"`+at.Format("2006-01-02T15:04")+`"`)
		v := 8.0
		switch {
		case h == 24+5:
			v = -2
		case h >= 24+2 && h <= 24+7:
			v = -1
		}
		temps = append(temps, fmt.Sprint(v))
	}
	body := `{"latitude":37.45,"longitude":116.3,"elevation":21,"daily":{"time":[` + strings.Join(days, ",") + `],
"temperature_2m_max":[18,15,20,21,22,20,19],"temperature_2m_min":[6,-2,5,6,7,6,5],
"precipitation_sum":[0,0,0,0,0,0,0],"et0_fao_evapotranspiration":[4.8,4.8,4.8,4.8,4.8,4.8,4.8],"wind_speed_10m_max":[3,3,3,3,3,3,3]},
"hourly":{"time":[` + strings.Join(hours, ",") + `],"temperature_2m":[` + strings.Join(temps, ",") + `]}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

type adviceTask struct {
	ID       int64
	DeviceID int64
	Day      string
	Kind     string
	Title    string
	Steps    []string
	DueAt    *int64
	Status   string
	Facts    struct {
		ProbeDepletion, RainSince, ETcSince, Depletion, RAW, Amount, Temp, Count, Base *float64
		Day                                                                            string
		At                                                                             *int64
		Sources                                                                        []struct {
			DeviceID int64
			Param    string
			Node     int
		}
	}
}

type todayView struct {
	Day   string
	Tasks []adviceTask
}

func (v todayView) kind(k string) *adviceTask {
	for i := range v.Tasks {
		if v.Tasks[i].Kind == k {
			return &v.Tasks[i]
		}
	}
	return nil
}

func TestAdvice_Scenarios(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		noon := localMidnight(0).Add(12 * time.Hour)
		now := noon
		fc := forecast.New(forecast.Config{BaseURL: frostProvider(t).URL, TTL: time.Hour, Location: shanghai})
		e := analysisEnvWith(t, db, fc, func() time.Time { return now })
		ctx := context.Background()
		probe := e.register("SM0000000001", 1, "farmer01") // SMP003: nodes 10, 20, 30 cm
		gauge := e.register("RG0000000001", 6, "farmer01")
		trap := e.register("IB0000000001", 20, "farmer01")
		// Field capacity 21.43 vol % at every node; maize sown 60 days ago:
		// day 61 of the season, mid-season, Kc 1.2 (FAO-56 Tables 11, 12).
		sown := localMidnight(60)
		if err := db.SaveSoilSettings(ctx, &soil.Settings{DeviceID: probe.ID, CropType: "maize", PlantingTime: &sown,
			Nodes: []soil.NodeConfig{{Depth: 10, FieldCapacity: 21.43, UnitWeight: 1.3}, {Depth: 20, FieldCapacity: 21.43, UnitWeight: 1.3},
				{Depth: 30, FieldCapacity: 21.43, UnitWeight: 1.3}}}); err != nil {
			t.Fatal(err)
		}
		// The probes read 10.0 vol % six hours ago.
		probeAt := now.Add(-6 * time.Hour)
		var pts []telemetry.Point
		for _, n := range []int{10, 20, 30} {
			pts = append(pts, telemetry.Point{Param: "soilMoisture", Node: n, Value: 10})
		}
		e.write(probe, probeAt, pts...)
		e.write(gauge, now.Add(-7*time.Hour), telemetry.Point{Param: "rainfall", Value: 0})
		// Trap catches in the four 24 h windows back from now: 50, 25, 22, 20.
		for i, n := range []float64{50, 25, 22, 20} {
			e.write(trap, now.Add(-time.Duration(18+24*i)*time.Hour), telemetry.Point{Param: "insectCount", Value: n})
		}

		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		field := fmt.Sprintf("?field=%d,%d", gauge.ID, trap.ID)

		// Reality, by hand. Root zone 0–35 cm (layers 0–15, 15–25, 25–35;
		// no root depth in one reading: the 0–40 cm fallback takes all
		// three). RAW = 21.43 × (1 − 0.60) / 100 × 350 mm = 30.0 mm.
		// Depletion at the probes = (21.43 − 10.0) / 100 × 350 = 40.0 mm.
		// ETc = 1.2 × 4.8 = 5.76 mm/day; 6 h since: 5.76 × 6/24 = 1.44 mm.
		// Now: 40.0 − 0 + 1.44 = 41.4 mm ≥ 30.0: irrigate 41 mm.
		r := u.do("GET", fmt.Sprintf("/apis/ai/reality/%d%s", probe.ID, field), nil)
		r.want(t, 200, 0)
		var real struct {
			Water []struct {
				ProbeDepletion, RAW, ETcSince, Depletion, RainSince, HoursSince float64
				ETcRate                                                         *float64
				NeedsWater                                                      bool
				Sources                                                         []struct{ Param string }
			}
			Crop *struct {
				Stage       string
				DayOfSeason int
				Kc          *float64
			}
			Forecast *struct {
				Frost *struct {
					Day  string
					Temp float64
					At   *int64
				}
			}
			Insects []struct {
				Windows [4]float64
				Base    float64
				Doubled bool
			}
			NoData []string
		}
		if err := json.Unmarshal(r.Data, &real); err != nil {
			t.Fatal(err)
		}
		if len(real.Water) != 1 {
			t.Fatalf("water %s", r.Data)
		}
		w := real.Water[0]
		if w.ProbeDepletion != 40 || w.RAW != 30 || w.ETcRate == nil || *w.ETcRate != 5.76 || w.HoursSince != 6 || w.ETcSince != 1.44 ||
			w.Depletion != 41.4 || !w.NeedsWater || len(w.Sources) != 4 {
			t.Errorf("water %+v", w)
		}
		if c := real.Crop; c == nil || c.Stage != "mid" || c.DayOfSeason != 61 || *c.Kc != 1.2 {
			t.Errorf("crop %+v", real.Crop)
		}
		tomorrow5 := localMidnight(-1).Add(5 * time.Hour).UnixMilli()
		if f := real.Forecast; f == nil || f.Frost == nil || f.Frost.Temp != -2 || f.Frost.At == nil || *f.Frost.At != tomorrow5 {
			t.Errorf("forecast %s", r.Data)
		}
		if len(real.Insects) != 1 || real.Insects[0].Windows != [4]float64{50, 25, 22, 20} || real.Insects[0].Base != 20 || !real.Insects[0].Doubled {
			t.Errorf("insects %+v", real.Insects)
		}

		today := decodeData[todayView](t, u.do("GET", fmt.Sprintf("/apis/ai/task/today/%d%s", probe.ID, field), nil))
		irr := today.kind("irrigate")
		if irr == nil || *irr.Facts.Amount != 41 || *irr.Facts.Depletion != 41.4 || irr.DeviceID != probe.ID ||
			!strings.Contains(irr.Title, "41 mm") || len(irr.Steps) != 3 || !strings.Contains(irr.Steps[2], "41.4 mm ≥ 30 mm") {
			t.Fatalf("irrigation task %+v", irr)
		}
		frost := today.kind("frost")
		if frost == nil || *frost.Facts.Temp != -2 || frost.DueAt == nil || *frost.DueAt != tomorrow5 || !strings.Contains(frost.Title, "-2 °C") {
			t.Fatalf("frost task %+v", frost)
		}
		scout := today.kind("scout")
		if scout == nil || scout.DeviceID != trap.ID || *scout.Facts.Count != 50 || *scout.Facts.Base != 20 {
			t.Fatalf("scout task %+v", scout)
		}
		if today.kind("heat") != nil || today.kind("waterlogging") != nil || len(today.Tasks) != 3 {
			t.Errorf("tasks %+v", today.Tasks)
		}
		// The same call again keeps the same tasks (same ids).
		again := decodeData[todayView](t, u.do("GET", fmt.Sprintf("/apis/ai/task/today/%d%s", probe.ID, field), nil))
		if again.kind("irrigate") == nil || again.kind("irrigate").ID != irr.ID {
			t.Errorf("again %+v", again.Tasks)
		}
		// In the other languages, the advisor's own sentences.
		zh := e.user("zh_CN")
		zh.login("farmer01", "secret1").want(t, 200, 0)
		zt := decodeData[todayView](t, zh.do("GET", fmt.Sprintf("/apis/ai/task/today/%d%s", probe.ID, field), nil))
		if z := zt.kind("irrigate"); z == nil || !strings.Contains(z.Title, "灌溉 41 mm") {
			t.Errorf("zh_CN %+v", zt.kind("irrigate"))
		}

		// Feedback: the frost task done, the scouting task not useful.
		for _, fb := range []struct {
			id     int64
			status string
		}{{frost.ID, "done"}, {scout.ID, "notUseful"}} {
			u.do("POST", "/apis/ai/task/feedback", map[string]any{"taskId": fb.id, "status": fb.status, "note": "checked"}).want(t, 200, 0)
		}
		bad := u.do("POST", "/apis/ai/task/feedback", map[string]any{"taskId": frost.ID, "status": "maybe"})
		bad.want(t, 400, 1400)
		if bad.Error.Field != "status" {
			t.Errorf("bad status: %+v", bad.Error)
		}

		// 35 mm of rain three hours ago: 40.0 − 35 + 1.44 = 6.4 mm < 30: no
		// irrigation; the open task of the morning is withdrawn.
		e.write(gauge, now.Add(-3*time.Hour), telemetry.Point{Param: "rainfall", Value: 35})
		wet := decodeData[todayView](t, u.do("GET", fmt.Sprintf("/apis/ai/task/today/%d%s", probe.ID, field), nil))
		if wet.kind("irrigate") != nil || wet.kind("frost") == nil || wet.kind("frost").Status != "done" {
			t.Errorf("after the rain %+v", wet.Tasks)
		}
		rw := u.do("GET", fmt.Sprintf("/apis/ai/reality/%d%s", probe.ID, field), nil)
		if !strings.Contains(string(rw.Data), `"rainSince":35`) || !strings.Contains(string(rw.Data), `"depletion":6.4`) {
			t.Errorf("reality after the rain: %s", rw.Data)
		}

		// The next day the trap doubles again (100 after 50, 25, 22): the
		// advisor would propose scouting, but it was not useful yesterday.
		e.write(trap, now.Add(6*time.Hour), telemetry.Point{Param: "insectCount", Value: 100})
		now = noon.Add(24 * time.Hour)
		next := decodeData[todayView](t, u.do("GET", fmt.Sprintf("/apis/ai/task/today/%d%s", probe.ID, field), nil))
		if next.kind("scout") != nil {
			t.Errorf("scouting repeated after 'not useful': %+v", next.kind("scout"))
		}
		if next.kind("frost") == nil { // done, not "not useful": still proposed
			t.Errorf("next day %+v", next.Tasks)
		}
		nr := u.do("GET", fmt.Sprintf("/apis/ai/reality/%d%s", probe.ID, field), nil)
		if !strings.Contains(string(nr.Data), `"doubled":true`) {
			t.Errorf("the trap should still read as doubled: %s", nr.Data)
		}
		// History: both days, newest first, with the feedback kept.
		hist := decodeData[struct{ List []adviceTask }](t, u.do("GET", fmt.Sprintf("/apis/ai/task/list/%d?days=7", trap.ID), nil))
		if len(hist.List) != 1 || hist.List[0].Status != "notUseful" || hist.List[0].Kind != "scout" {
			t.Errorf("trap history %+v", hist.List)
		}

		// Another account sees nothing: every call answers as for a device
		// or task that does not exist.
		o := e.user("en_US")
		o.login("farmer02", "secret2").want(t, 200, 0)
		missing := o.do("GET", "/apis/ai/reality/999999", nil)
		missing.want(t, 404, 1404)
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"GET", fmt.Sprintf("/apis/ai/reality/%d", probe.ID), nil},
			{"GET", fmt.Sprintf("/apis/ai/strategy?id=%d", probe.ID), nil},
			{"GET", fmt.Sprintf("/apis/ai/task/today/%d", probe.ID), nil},
			{"GET", fmt.Sprintf("/apis/ai/task/list/%d", probe.ID), nil},
			{"POST", "/apis/ai/task", map[string]any{"deviceIds": []int64{probe.ID}}},
			{"POST", "/apis/ai/task/feedback", map[string]any{"taskId": frost.ID, "status": "done"}},
			{"POST", "/apis/ai/farm/question", map[string]any{"id": probe.ID, "question": "irrigate?"}},
		} {
			got := o.do(c.method, c.path, c.body)
			if got.status != 404 || got.Message != missing.Message {
				t.Errorf("%s %s as another account: %d %q", c.method, c.path, got.status, got.Message)
			}
		}
		// The strategy of the owner: stages with dates, the current one marked.
		st := decodeData[struct {
			Stages []struct {
				Stage, From, To string
				Current         bool
			}
			Irrigation, Risks []string
		}](t, u.do("GET", fmt.Sprintf("/apis/ai/strategy?id=%d%s", probe.ID, strings.Replace(field, "?", "&", 1)), nil))
		if len(st.Stages) != 4 || st.Stages[0].From != sown.Format(time.DateOnly) || !st.Stages[2].Current || len(st.Irrigation) < 2 {
			t.Errorf("strategy %+v", st)
		}
	})
}
