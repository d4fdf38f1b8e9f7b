package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// register creates a device for the account with the given number.
func (e *env) register(sn string, typeID int, owner string) *devices.Device {
	e.t.Helper()
	ctx := context.Background()
	var id int64
	if owner != "" {
		a, err := e.db.FindAccountByNumber(ctx, owner)
		if err != nil {
			e.t.Fatal(err)
		}
		id = a.ID
	}
	lat, lng := 37.45, 116.3
	d, _, err := e.devices.Register(ctx, devices.Registration{SN: sn, TypeID: typeID, Owner: id, Lat: &lat, Lng: &lng})
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

func (e *env) write(d *devices.Device, at time.Time, pts ...telemetry.Point) {
	e.t.Helper()
	loc, _ := time.LoadLocation("Asia/Shanghai")
	if _, err := e.db.WriteReports(context.Background(), []*telemetry.Report{{DeviceID: d.ID, Time: at, Points: pts,
		OfflineAt: at.Add(time.Hour)}}, loc); err != nil {
		e.t.Fatal(err)
	}
}

func decodeData[T any](t *testing.T, r reply) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.Data, &v); err != nil {
		t.Fatalf("data %s: %v", r.Data, err)
	}
	return v
}

// deviceRoutes are the device-scoped calls of the device APIs, with {id}
// standing for the device.
var deviceRoutes = []struct{ method, path string }{
	{"GET", "/apis/poi/{id}/intro"},
	{"GET", "/apis/poi/{id}/profile"},
	{"PUT", "/apis/poi/{id}/profile"},
	{"GET", "/apis/poi/{id}/detect"},
	{"GET", "/apis/poi/{id}/tags"},
	{"GET", "/apis/poi/{id}/indicator"},
	{"GET", "/apis/poi/{id}/sales"},
	{"DELETE", "/apis/poi/{id}/remove"},
	{"GET", "/apis/poi/{id}/config"},
	{"PUT", "/apis/poi/{id}/config"},
	{"GET", "/apis/poi/{id}/datapoints/v2/metadata"},
	{"GET", "/apis/poi/{id}/datapoints/v2"},
	{"GET", "/apis/poi/{id}/datapoints/v3"},
	{"POST", "/apis/poi/{id}/datapoints/export"},
	{"GET", "/apis/poi/{id}/datapoints/export/0123456789abcdef01234567"},
	{"GET", "/apis/poi/{id}/images"},
	{"GET", "/apis/poi/{id}/images/1"},
	{"POST", "/apis/poi/{id}/tag"},
	{"DELETE", "/apis/poi/{id}/tag/1"},
	{"GET", "/apis/poi/info?id={id}"},
	{"GET", "/apis/poi/detail?id={id}"},
	{"GET", "/apis/poi/encryption?id={id}"},
	{"POST", "/apis/poi/encryption/rotate?id={id}"},
	{"GET", "/apis/poi/topology?id={id}"},
}

func TestDevices_OthersLookLikeMissing(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		if _, err := e.svc.Create(context.Background(), "farmer02", "secret2", "西岭农场"); err != nil {
			t.Fatal(err)
		}
		theirs := e.register("RG0000000002", 6, "farmer02")
		e.write(theirs, time.Now(), telemetry.Point{Param: "rainfall", Value: 1})
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		tag := u.do("POST", "/apis/tag", map[string]string{"tag": "north"})
		tag.want(t, 200, 0)
		tagID := decodeData[devices.Tag](t, tag).ID
		body := map[string]any{"name": "Mine now", "tagId": tagID, "reportInterval": 5}

		for _, rt := range deviceRoutes {
			other := u.do(rt.method, strings.ReplaceAll(rt.path, "{id}", fmt.Sprint(theirs.ID)), body)
			missing := u.do(rt.method, strings.ReplaceAll(rt.path, "{id}", "987654321"), body)
			if other.status != 404 || other.status != missing.status || other.Code != missing.Code ||
				other.Message != missing.Message || fmt.Sprint(other.Error) != fmt.Sprint(missing.Error) {
				t.Errorf("%s %s: another's device answers %d %d %q, a missing one %d %d %q", rt.method, rt.path,
					other.status, other.Code, other.Message, missing.status, missing.Code, missing.Message)
			}
		}
		// Nothing of theirs changed, and lists do not show it.
		d, _ := db.FindDeviceByID(context.Background(), theirs.ID)
		if d.Name == "Mine now" || d.OwnerID == 0 {
			t.Fatalf("another's device was changed: %+v", d)
		}
		list := decodeData[struct {
			List  []struct{ ID int64 }
			Total int
		}](t, u.do("GET", "/apis/devices?size=100", nil))
		mapAll := decodeData[struct{ List []struct{ ID int64 } }](t, u.do("GET", "/apis/map/all", nil))
		if list.Total != 0 || len(mapAll.List) != 0 {
			t.Fatalf("another's device listed: %+v %+v", list, mapAll)
		}
	})
}

func TestDevices_ListProfileTags(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		soil := e.register("ZS0000012345", 2, "farmer01")
		rain := e.register("RG0000067890", 6, "farmer01")
		now := time.Now()
		e.write(soil, now.Add(-time.Minute), telemetry.Point{Param: "battery", Value: 3.1})
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)

		type item struct {
			ID         int64
			SN         string
			Status     string
			Group      string
			Page       string
			LowBattery bool
		}
		type page struct {
			List  []item
			Total int
		}
		got := decodeData[page](t, u.do("GET", "/apis/devices?nameOrSn=67890", nil))
		if got.Total != 1 || got.List[0].ID != rain.ID || got.List[0].Status != "offline" || got.List[0].Page != "pluviometer" {
			t.Fatalf("search by the last five digits: %+v", got)
		}
		got = decodeData[page](t, u.do("GET", "/apis/devices?status=online", nil))
		if got.Total != 0 {
			t.Fatalf("a device with 3.1 V is low power, not online: %+v", got)
		}
		got = decodeData[page](t, u.do("GET", "/apis/devices?status=lowpower", nil))
		if got.Total != 1 || !got.List[0].LowBattery || got.List[0].Group != "working" {
			t.Fatalf("low power: %+v", got)
		}
		r := u.do("GET", "/apis/devices?status=sleeping", nil)
		r.want(t, 400, 1400)
		if r.Error.Field != "status" {
			t.Fatalf("bad status filter: %+v", r.Error)
		}

		t.Run("ProfileValidationInEveryLanguage", func(t *testing.T) {
			want := map[string]string{"zh_CN": "名称不能为空", "zh_TW": "名稱不能為空", "en_US": "Name cannot be empty"}
			for lang, msg := range want {
				u.lang = lang
				r := u.do("PUT", fmt.Sprintf("/apis/poi/%d/profile", soil.ID), map[string]any{"name": "  "})
				r.want(t, 400, 1400)
				if r.Message != msg || r.Error.Field != "name" {
					t.Errorf("%s: %q %+v", lang, r.Message, r.Error)
				}
			}
			u.lang = "en_US"
			r := u.do("PUT", fmt.Sprintf("/apis/poi/%d/profile", soil.ID), map[string]any{"name": strings.Repeat("田", 17)})
			r.want(t, 400, 1400)
			r = u.do("PUT", fmt.Sprintf("/apis/poi/%d/profile", soil.ID), map[string]any{"name": "East plot", "lat": 37.5})
			r.want(t, 400, 1400)
			if r.Error.Field != "coordinates" {
				t.Fatalf("half a coordinate pair: %+v", r.Error)
			}
			r = u.do("PUT", fmt.Sprintf("/apis/poi/%d/profile", soil.ID), map[string]any{"name": "东区16字名称也可以的呀呀呀呀呀", "lat": 37.5, "lng": 116.2, "altitude": 21.5})
			r.want(t, 200, 0)
			if saved := decodeData[struct{ Name string }](t, r); saved.Name != "东区16字名称也可以的呀呀呀呀呀" {
				t.Fatalf("the answer to the save shows %q", saved.Name)
			}
			p := decodeData[struct {
				Name     string
				Lat, Lng float64
			}](t, u.do("GET", fmt.Sprintf("/apis/poi/%d/profile", soil.ID), nil))
			if p.Name != "东区16字名称也可以的呀呀呀呀呀" || p.Lat != 37.5 {
				t.Fatalf("profile: %+v", p)
			}
		})
		t.Run("AtMostThreeTagsInEveryLanguage", func(t *testing.T) {
			var ids []int64
			for i := range 4 {
				r := u.do("POST", "/apis/tag", map[string]string{"tag": fmt.Sprintf("plot %d", i)})
				r.want(t, 200, 0)
				ids = append(ids, decodeData[devices.Tag](t, r).ID)
			}
			for _, id := range ids[:3] {
				u.do("POST", fmt.Sprintf("/apis/poi/%d/tag", rain.ID), map[string]any{"tagId": id}).want(t, 200, 0)
			}
			want := map[string]string{"zh_CN": "每台设备最多添加3个标签！", "zh_TW": "每台設備最多新增3個標籤！", "en_US": "Up to 3 tags can be added per device!"}
			for lang, msg := range want {
				u.lang = lang
				r := u.do("POST", fmt.Sprintf("/apis/poi/%d/tag", rain.ID), map[string]any{"tagId": ids[3]})
				r.want(t, 409, 1409)
				if r.Message != msg {
					t.Errorf("%s: %q", lang, r.Message)
				}
			}
			u.lang = "en_US"
			got := decodeData[page](t, u.do("GET", fmt.Sprintf("/apis/devices?tagId=%d", ids[0]), nil))
			if got.Total != 1 || got.List[0].ID != rain.ID {
				t.Fatalf("filter by tag: %+v", got)
			}
			u.do("DELETE", fmt.Sprintf("/apis/poi/%d/tag/%d", rain.ID, ids[0]), nil).want(t, 200, 0)
			u.do("POST", fmt.Sprintf("/apis/poi/%d/tag", rain.ID), map[string]any{"tagId": ids[3]}).want(t, 200, 0)
			tags := decodeData[[]devices.Tag](t, u.do("GET", fmt.Sprintf("/apis/poi/%d/tags", rain.ID), nil))
			if len(tags) != 3 {
				t.Fatalf("tags: %+v", tags)
			}
		})
		t.Run("ExportXLSX", func(t *testing.T) {
			req, _ := http.NewRequest("GET", e.url+"/apis/export/device/info", nil)
			req.Header.Set("lang", "zh_CN")
			res, err := u.http.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Disposition"), ".xlsx") {
				t.Fatalf("export: %d %v", res.StatusCode, res.Header)
			}
			f, err := excelize.OpenReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			rows, err := f.GetRows(f.GetSheetName(0))
			if err != nil || len(rows) != 3 {
				t.Fatalf("rows: %v %v", rows, err)
			}
		})
		t.Run("ScanAndBind", func(t *testing.T) {
			free := e.register("SJ0000000777", 8, "")
			code := e.devices.LabelCode(free.SN)
			bad := "fw:" + free.SN + ":AAAAAAAA"
			u.do("GET", "/apis/poi/scan?code="+bad, nil).want(t, 404, 1404)
			sc := decodeData[struct{ Bound, Mine bool }](t, u.do("GET", "/apis/poi/scan?code="+code, nil))
			if sc.Bound || sc.Mine {
				t.Fatalf("scan: %+v", sc)
			}
			u.do("PUT", "/apis/poi/scan/bind", map[string]string{"code": bad}).want(t, 404, 1404)
			u.do("PUT", "/apis/poi/scan/bind", map[string]string{"code": code, "name": "Slope A"}).want(t, 200, 0)
			u.do("PUT", "/apis/poi/scan/bind", map[string]string{"code": code}).want(t, 409, 1409)
			info := decodeData[struct {
				Name  string
				Right struct{ Owner bool }
			}](t, u.do("GET", fmt.Sprintf("/apis/poi/info?id=%d", free.ID), nil))
			if info.Name != "Slope A" || !info.Right.Owner {
				t.Fatalf("bound device: %+v", info)
			}
		})
		t.Run("RemoveErasesAndHides", func(t *testing.T) {
			u.do("DELETE", fmt.Sprintf("/apis/poi/%d/remove", soil.ID), nil).want(t, 200, 0)
			u.do("GET", fmt.Sprintf("/apis/poi/%d/intro", soil.ID), nil).want(t, 404, 1404)
			ls, _ := db.Latest(context.Background(), soil.ID)
			if len(ls) != 0 {
				t.Fatalf("history kept after removal: %+v", ls)
			}
		})
	})
}

func TestDevices_Datapoints(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		soil := e.register("ZS0000054321", 2, "farmer01")
		loc, _ := time.LoadLocation("Asia/Shanghai")
		start := time.Date(2026, 11, 1, 0, 0, 0, 0, loc)
		// Two days of 10-minute reports: moisture at 10 cm rises 0.01 per
		// report, at 20 cm stays at 30; one spike at 10 cm.
		var reports []*telemetry.Report
		for i := range 288 {
			at := start.Add(time.Duration(i) * 10 * time.Minute)
			v := 20 + float64(i)*0.01
			if i == 100 {
				v = 80
			}
			reports = append(reports, &telemetry.Report{DeviceID: soil.ID, Time: at, OfflineAt: at.Add(time.Hour), Points: []telemetry.Point{
				{Param: "soilMoisture", Node: 10, Value: v}, {Param: "soilMoisture", Node: 20, Value: 30}, {Param: "battery", Value: 12},
			}})
		}
		if _, err := db.WriteReports(context.Background(), reports, loc); err != nil {
			t.Fatal(err)
		}
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		base := fmt.Sprintf("/apis/poi/%d/datapoints", soil.ID)
		rng := fmt.Sprintf("begin=%d&end=%d", start.UnixMilli(), start.Add(48*time.Hour).UnixMilli())

		meta := decodeData[struct {
			Nodes  []int
			Params []struct {
				ID, Name, Unit string
				PerNode        bool
			}
		}](t, u.do("GET", base+"/v2/metadata", nil))
		if len(meta.Nodes) != 6 || meta.Params[0].ID != "soilMoisture" || meta.Params[0].Name != "Soil moisture" || !meta.Params[0].PerNode {
			t.Fatalf("metadata: %+v", meta)
		}

		type v2 struct {
			Series []struct {
				Param      string
				Node       int
				Aggregated string
				Unit       string
				Points     []json.RawMessage
			}
		}
		raw := decodeData[v2](t, u.do("GET", base+"/v2?"+rng+"&params=soilMoisture&nodes=10", nil))
		if len(raw.Series) != 1 || raw.Series[0].Node != 10 || len(raw.Series[0].Points) != 288 || raw.Series[0].Unit != "%" {
			t.Fatalf("raw: %d series", len(raw.Series))
		}
		all := decodeData[v2](t, u.do("GET", base+"/v2?"+rng, nil))
		if len(all.Series) != 3 || all.Series[0].Param != "battery" || all.Series[2].Node != 20 || len(all.Series[2].Points) != 288 {
			t.Fatalf("every series: %d", len(all.Series))
		}
		avg := decodeData[struct {
			Series []struct {
				Param, Aggregated string
				Points            [][2]float64
			}
		}](t, u.do("GET", base+"/v2?"+rng+"&params=soilMoisture&nodes=10,20&aggregated=average", nil))
		if len(avg.Series) != 1 || avg.Series[0].Aggregated != "average" || avg.Series[0].Points[0][1] != 25 {
			t.Fatalf("aggregated: %+v", avg.Series)
		}
		daily := decodeData[struct {
			Series []struct {
				Param  string
				Node   int
				Daily  []string
				Points []struct {
					Time                 int64
					Min, Max, Avg, Value float64
					Count                int
				}
			}
		}](t, u.do("GET", base+"/v2?"+rng+"&dim=daily&params=battery,soilMoisture&nodes=20", nil))
		if len(daily.Series) != 2 || daily.Series[0].Param != "battery" || len(daily.Series[0].Points) != 2 ||
			daily.Series[0].Points[0].Count != 144 || daily.Series[0].Points[0].Time != start.UnixMilli() ||
			daily.Series[1].Node != 20 || daily.Series[1].Points[1].Avg != 30 {
			t.Fatalf("daily: %+v", daily.Series)
		}

		v3 := decodeData[struct {
			Series []struct {
				Param   string
				Total   int
				T       []int64
				V       []float64
				Sampled bool
			}
		}](t, u.do("GET", base+"/v3?"+rng+"&params=soilMoisture&nodes=10&points=50", nil))
		s := v3.Series[0]
		if s.Total != 288 || !s.Sampled || len(s.T) > 50 || len(s.T) != len(s.V) {
			t.Fatalf("v3: total %d, %d points", s.Total, len(s.T))
		}
		peak := false
		for _, v := range s.V {
			peak = peak || v == 80
		}
		if !peak {
			t.Fatal("the spike was lost in downsampling")
		}

		for _, c := range []struct{ query, field string }{
			{"dim=hourly", "dim"},
			{"aggregated=median", "aggregated"},
			{"params=windSpeed", "params"},
			{"nodes=15", "nodes"},
			{fmt.Sprintf("begin=%d&end=%d", start.UnixMilli(), start.UnixMilli()), "end"},
			{fmt.Sprintf("begin=%d&end=%d", start.AddDate(-2, 0, 0).UnixMilli(), start.UnixMilli()), "begin"},
			{"begin=yesterday", "begin"},
			{"points=5", "points"},
		} {
			r := u.do("GET", base+"/v3?"+c.query, nil)
			r.want(t, 400, 1400)
			if r.Error.Field != c.field {
				t.Errorf("%s: field %q, want %q", c.query, r.Error.Field, c.field)
			}
		}
	})
}
