package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// SPEC §5 data-push channel: name required, at most 64; URL required, at
// most 255 and a valid http(s) address; devices selected. Each message in
// the three languages, naming its field; nothing is stored.
func TestPush_ChannelValidation(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		soil := e.register("ZS0000000021", 21, "farmer01")
		u := e.user("")
		u.login("farmer01", "secret1").want(t, 200, 0)
		good := func() map[string]any {
			return map[string]any{"name": "County GIS", "url": "http://gis.example.com/in", "deviceIds": []int64{soil.ID}}
		}
		cases := []struct {
			name  string
			edit  func(map[string]any)
			field string
			msgs  map[string]string
		}{
			{"no name", func(b map[string]any) { b["name"] = "  " }, "name",
				map[string]string{"zh_CN": "请输入通道名称", "zh_TW": "請輸入通道名稱", "en_US": "Please enter the channel name"}},
			{"long name", func(b map[string]any) { b["name"] = strings.Repeat("x", 65) }, "name",
				map[string]string{"zh_CN": "通道名称最多 64 个字符", "zh_TW": "通道名稱最多 64 個字元", "en_US": "The channel name can be at most 64 characters"}},
			{"no url", func(b map[string]any) { b["url"] = "" }, "url",
				map[string]string{"zh_CN": "请输入推送地址", "zh_TW": "請輸入推送位址", "en_US": "Please enter the push address"}},
			{"long url", func(b map[string]any) { b["url"] = "http://gis.example.com/" + strings.Repeat("p", 240) }, "url",
				map[string]string{"zh_CN": "推送地址最多 255 个字符", "zh_TW": "推送位址最多 255 個字元", "en_US": "The push address can be at most 255 characters"}},
			{"bad url", func(b map[string]any) { b["url"] = "ftp://gis.example.com" }, "url",
				map[string]string{"zh_CN": "请输入有效的 http 或 https 地址", "zh_TW": "請輸入有效的 http 或 https 位址", "en_US": "Please enter a valid http or https address"}},
			{"no devices", func(b map[string]any) { b["deviceIds"] = []int64{} }, "deviceIds",
				map[string]string{"zh_CN": "请选择设备", "zh_TW": "請選擇設備", "en_US": "Please select devices"}},
		}
		for _, c := range cases {
			for lang, msg := range c.msgs {
				u.lang = lang
				b := good()
				c.edit(b)
				r := u.do("POST", "/apis/integration/channel/create", b)
				r.want(t, 400, 1400)
				if r.Error.Field != c.field || r.Message != msg {
					t.Errorf("%s %s: %s %q, want %s %q", c.name, lang, r.Error.Field, r.Message, c.field, msg)
				}
			}
		}
		u.lang = "en_US"
		list := decodeData[struct{ Total int }](t, u.do("GET", "/apis/integration/channel/list", nil))
		if list.Total != 0 {
			t.Fatalf("a refused channel was stored: %d", list.Total)
		}
		// A good one: the secret once, then never again.
		made := decodeData[struct {
			ID     int64
			Secret string
		}](t, u.do("POST", "/apis/integration/channel/create", good()))
		if !strings.HasPrefix(made.Secret, "whsec_") {
			t.Fatalf("secret %q", made.Secret)
		}
		one := decodeData[struct {
			ID        int64
			Name      string
			DeviceIDs []int64
			Window    string
		}](t, u.do("GET", fmt.Sprintf("/apis/integration/channel/get?id=%d&window=3h", made.ID), nil))
		if one.ID != made.ID || one.Name != "County GIS" || len(one.DeviceIDs) != 1 || one.DeviceIDs[0] != soil.ID || one.Window != "3h" {
			t.Fatalf("channel/get: %+v", one)
		}
		for _, path := range []string{"/apis/integration/channel/list", fmt.Sprintf("/apis/integration/channel/get?id=%d", made.ID),
			fmt.Sprintf("/apis/integration/channel/getConnectionData?id=%d", made.ID)} {
			if r := u.do("GET", path, nil); strings.Contains(string(r.Data), made.Secret) {
				t.Fatalf("%s shows the secret again", path)
			}
		}
		// An update that breaks a rule leaves the stored channel as it was.
		bad := good()
		bad["id"], bad["name"] = made.ID, ""
		u.do("PUT", "/apis/integration/channel/update", bad).want(t, 400, 1400)
		got := decodeData[struct {
			List []struct{ Name string }
		}](t, u.do("GET", "/apis/integration/channel/list", nil))
		if len(got.List) != 1 || got.List[0].Name != "County GIS" {
			t.Fatalf("after a refused update: %+v", got)
		}
		// Another account's channel looks missing.
		e.svc.Create(t.Context(), "farmer02", "secret2", "B")
		v := e.user("en_US")
		v.login("farmer02", "secret2").want(t, 200, 0)
		v.do("GET", fmt.Sprintf("/apis/integration/channel/getConnectionData?id=%d", made.ID), nil).want(t, 404, 1404)
		v.do("GET", fmt.Sprintf("/apis/integration/channel/get?id=%d", made.ID), nil).want(t, 404, 1404)
		v.do("DELETE", fmt.Sprintf("/apis/integration/channel/delete?id=%d", made.ID), nil).want(t, 404, 1404)
		v.do("PUT", "/apis/integration/channel/switch", map[string]any{"id": made.ID, "enabled": false}).want(t, 404, 1404)
	})
}

// SPEC §5 open-API application: name at most 20 characters; push address a
// valid http or https address (optional); chosen devices required.
func TestOpenAPI_AppValidation(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		soil := e.register("ZS0000000021", 21, "farmer01")
		if _, err := e.svc.Create(t.Context(), "farmer02", "secret2", "B"); err != nil {
			t.Fatal(err)
		}
		theirs := e.register("ZS0000000022", 21, "farmer02")
		u := e.user("")
		u.login("farmer01", "secret1").want(t, 200, 0)
		cases := []struct {
			name  string
			body  map[string]any
			field string
			msgs  map[string]string
		}{
			{"long name", map[string]any{"name": strings.Repeat("田", 21)}, "name",
				map[string]string{"zh_CN": "应用名称最多 20 个字符", "zh_TW": "應用名稱最多 20 個字元", "en_US": "The application name can be at most 20 characters"}},
			{"no name", map[string]any{"name": ""}, "name",
				map[string]string{"zh_CN": "请输入应用名称", "zh_TW": "請輸入應用名稱", "en_US": "Please enter the application name"}},
			{"bad push address", map[string]any{"name": "GIS", "pushUrl": "http://no spaces.example.com"}, "pushUrl",
				map[string]string{"zh_CN": "请输入有效的 http 或 https 地址", "zh_TW": "請輸入有效的 http 或 https 位址", "en_US": "Please enter a valid http or https address"}},
			{"no devices", map[string]any{"name": "GIS", "range": "devices", "deviceIds": []int64{}}, "deviceIds",
				map[string]string{"zh_CN": "请选择设备", "zh_TW": "請選擇設備", "en_US": "Please select devices"}},
		}
		for _, c := range cases {
			for lang, msg := range c.msgs {
				u.lang = lang
				r := u.do("POST", "/apis/openapi/application", c.body)
				r.want(t, 400, 1400)
				if r.Error.Field != c.field || r.Message != msg {
					t.Errorf("%s %s: %s %q, want %s %q", c.name, lang, r.Error.Field, r.Message, c.field, msg)
				}
			}
		}
		u.lang = "en_US"
		// Another account's device looks missing.
		r := u.do("POST", "/apis/openapi/application", map[string]any{"name": "GIS", "range": "devices", "deviceIds": []int64{theirs.ID}})
		r.want(t, 404, 1404)
		if got := decodeData[struct{ Total int }](t, u.do("GET", "/apis/openapi/applications", nil)); got.Total != 0 {
			t.Fatalf("a refused application was stored: %d", got.Total)
		}
		made := decodeData[struct {
			ID        int64
			AppSecret string
			Range     string
		}](t, u.do("POST", "/apis/openapi/application", map[string]any{"name": strings.Repeat("田", 20), "pushUrl": "gis.example.com/in",
			"range": "devices", "deviceIds": []int64{soil.ID}}))
		if made.AppSecret == "" || made.Range != "devices" {
			t.Fatalf("made %+v", made)
		}
		got := decodeData[struct {
			PushURL   string
			ChannelID *int64
		}](t, u.do("GET", fmt.Sprintf("/apis/openapi/application/%d", made.ID), nil))
		if got.PushURL != "http://gis.example.com/in" || got.ChannelID == nil {
			t.Fatalf("push address and channel: %+v", got)
		}
		// The application's push address is not one of the data-push channels.
		u.do("GET", fmt.Sprintf("/apis/integration/channel/get?id=%d", *got.ChannelID), nil).want(t, 404, 1404)
		// Another account's application looks missing, whatever the call.
		v := e.user("en_US")
		v.login("farmer02", "secret2").want(t, 200, 0)
		app := fmt.Sprintf("/apis/openapi/application/%d", made.ID)
		v.do("GET", app, nil).want(t, 404, 1404)
		v.do("PUT", app, map[string]any{"name": "Mine now"}).want(t, 404, 1404)
		v.do("PUT", app+"/publish", map[string]any{"published": true}).want(t, 404, 1404)
		v.do("POST", app+"/secret", nil).want(t, 404, 1404)
		v.do("DELETE", app, nil).want(t, 404, 1404)
		u.do("GET", app, nil).want(t, 200, 0)
	})
}
