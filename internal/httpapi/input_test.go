package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// refused checks a 400 naming field with key, and its message in the
// user's language.
func (r reply) refused(t *testing.T, field, key, message string) {
	t.Helper()
	r.want(t, 400, 1400)
	if r.Error == nil || r.Error.Field != field || r.Error.Key != key {
		t.Fatalf("error %+v, want %s on %s", r.Error, key, field)
	}
	if message != "" && r.Message != message {
		t.Fatalf("message %q, want %q", r.Message, message)
	}
}

// raw sends body as it is, for bytes json.Marshal would not write.
func (u *user) raw(method, path, body string) reply {
	u.e.t.Helper()
	req, _ := http.NewRequest(method, u.e.url+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("lang", u.lang)
	res, err := u.http.Do(req)
	if err != nil {
		u.e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	r := reply{status: res.StatusCode, header: res.Header}
	if err := json.Unmarshal(b, &r); err != nil {
		u.e.t.Fatalf("%s %s: not an envelope (%d): %s", method, path, res.StatusCode, b)
	}
	return r
}

func TestQuery_OverlongValueNamesItsField(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	long := strings.Repeat("%25", 50000)
	for lang, msg := range map[string]string{
		"en_US": "Name or SN must be at most 1000 characters",
		"zh_CN": "名称或 SN最多 1000 个字符",
		"zh_TW": "名稱或 SN最多 1000 個字元",
	} {
		u := e.user(lang)
		u.login("farmer01", "secret1").want(t, 200, 0)
		u.do("GET", "/apis/devices?nameOrSn="+long, nil).refused(t, "nameOrSn", "query.tooLong", msg)
	}
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	for _, path := range []string{
		"/apis/rule/devices?typeId=", "/apis/event/messages?level=", "/apis/integration/channel/pushLogList?window=",
		"/apis/openapi/applications?page=", "/apis/tags?x=",
	} {
		name := path[strings.Index(path, "?")+1 : len(path)-1]
		u.do("GET", path+strings.Repeat("a", 1001), nil).refused(t, name, "query.tooLong", "")
	}
	u.do("GET", "/apis/devices?nameOrSn="+strings.Repeat("a", 1000), nil).want(t, 200, 0)
}

func TestBody_WrongTypeNamesItsField(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		d := e.register("SM0000000031", 1, "farmer01")
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		u.raw("PUT", "/apis/account/name", `{"name":123}`).refused(t, "name", "error.wrongType", "Name has the wrong type")
		path := fmt.Sprintf("/apis/poi/%d/config", d.ID)
		u.do("PUT", path, map[string]any{"reportInterval": 30}).want(t, 200, 0)
		u.raw("PUT", path, `{"reportInterval":1.5}`).refused(t, "reportInterval", "error.wrongType", "Report interval has the wrong type")
		u.raw("POST", "/apis/rule", `{"name":"r","expressions":[{"threshold":"x"}]}`).refused(t, "expressions.threshold", "error.wrongType",
			"expressions.threshold has the wrong type")
		zh := e.user("zh_CN")
		zh.login("farmer01", "secret1").want(t, 200, 0)
		zh.raw("PUT", path, `{"reportInterval":"5"}`).refused(t, "reportInterval", "error.wrongType", "上报间隔的类型不正确")
		// Nothing changed.
		if got := decodeData[map[string]any](t, u.do("GET", path, nil)); got["reportInterval"] != float64(30) {
			t.Errorf("config after refusals: %v", got)
		}
		if got := decodeData[map[string]any](t, u.do("GET", "/apis/account/profile", nil)); got["name"] != "东坡农场" {
			t.Errorf("name after refusal: %v", got["name"])
		}
	})
}

func TestNames_RefuseInvisibleAndControlCharacters(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		d := e.register("SM0000000032", 1, "farmer01")
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		profile := fmt.Sprintf("/apis/poi/%d/profile", d.ID)
		before := decodeData[map[string]any](t, u.do("GET", profile, nil))
		for in, char := range map[string]string{
			"a\x00b": "U+0000", "a\r\nb": "U+000D", "abc\u202Etxt": "U+202E", "a\u200Bb": "U+200B", "\u2066x\u2069": "U+2066",
		} {
			u.do("PUT", "/apis/account/name", map[string]string{"name": in}).refused(t, "name", "text.badChar",
				"Name cannot contain control, invisible or text-direction characters ("+char+")")
			u.do("PUT", profile, map[string]any{"name": in}).refused(t, "name", "text.badChar", "")
			u.do("POST", "/apis/tag", map[string]string{"tag": in}).refused(t, "tag", "text.badChar", "")
			u.do("POST", fmt.Sprintf("/apis/poi/%d/tag", d.ID), map[string]string{"tag": in}).refused(t, "tag", "text.badChar", "")
			u.do("POST", "/apis/integration/channel/create", map[string]any{"name": in, "url": "https://example.com/hook",
				"deviceIds": []int64{d.ID}}).refused(t, "name", "text.badChar", "")
			u.do("POST", "/apis/openapi/application", map[string]any{"name": in}).refused(t, "name", "text.badChar", "")
		}
		// Invalid UTF-8, which a JSON decoder would store as U+FFFD.
		u.raw("PUT", "/apis/account/name", "{\"name\":\"a\xffb\"}").refused(t, "name", "text.invalidUTF8",
			"Name contains bytes that are not valid UTF-8 text")
		u.raw("PUT", profile, "{\"name\":\"\xc3\"}").refused(t, "name", "text.invalidUTF8", "")
		zh := e.user("zh_CN")
		zh.login("farmer01", "secret1").want(t, 200, 0)
		zh.do("PUT", "/apis/account/name", map[string]string{"name": "a\u202Eb"}).refused(t, "name", "text.badChar",
			"名称不能包含控制字符、不可见字符或文字方向字符（U+202E）")
		// Nothing was stored.
		if got := decodeData[map[string]any](t, u.do("GET", "/apis/account/profile", nil)); got["name"] != "东坡农场" {
			t.Errorf("account name: %q", got["name"])
		}
		if got := decodeData[map[string]any](t, u.do("GET", profile, nil)); got["name"] != before["name"] {
			t.Errorf("device name: %q, was %q", got["name"], before["name"])
		}
		if got := decodeData[[]devices.Tag](t, u.do("GET", "/apis/tags", nil)); len(got) != 0 {
			t.Errorf("tags: %v", got)
		}
		for _, list := range []string{"/apis/integration/channel/list", "/apis/openapi/applications"} {
			if got := decodeData[struct{ Total int }](t, u.do("GET", list, nil)); got.Total != 0 {
				t.Errorf("%s: %d stored", list, got.Total)
			}
		}
		// Ordinary names in every script still pass.
		u.do("PUT", "/apis/account/name", map[string]string{"name": "Café 东坡 ①"}).want(t, 200, 0)
	})
}

func TestRanges_RefusedAsDocumented(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		d := e.register("SM0000000033", 1, "farmer01")
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		config := fmt.Sprintf("/apis/poi/%d/config", d.ID)
		u.do("PUT", config, map[string]any{"reportInterval": 15}).want(t, 200, 0)
		for _, v := range []int{0, -5, 1441} {
			u.do("PUT", config, map[string]any{"reportInterval": v}).refused(t, "reportInterval", "device.config.interval",
				"The report interval must be between 1 and 1440 minutes")
		}
		if got := decodeData[map[string]any](t, u.do("GET", config, nil)); got["reportInterval"] != float64(15) {
			t.Errorf("after refusals: %v", got)
		}
		// null gives the type's interval back.
		u.do("PUT", config, map[string]any{"reportInterval": nil}).want(t, 200, 0)
		if got := decodeData[map[string]any](t, u.do("GET", config, nil)); got["reportInterval"] != nil {
			t.Errorf("after null: %v", got)
		}

		profile := fmt.Sprintf("/apis/poi/%d/profile", d.ID)
		for _, v := range []int64{-1, 0, 946684799999} {
			u.do("PUT", profile, map[string]any{"name": "Plot", "installTime": v}).refused(t, "installTime", "device.installTime.tooEarly",
				"The install time must be after 1 January 2000")
		}
		if got := decodeData[map[string]any](t, u.do("GET", profile, nil)); got["name"] == "Plot" {
			t.Errorf("profile saved despite refusal: %v", got)
		}
		u.do("PUT", profile, map[string]any{"name": "Plot", "installTime": 946684800000}).want(t, 200, 0)

		for _, q := range []struct{ path, field string }{
			{"/apis/event/messages?unread=yes", "unread"},
			{"/apis/event/messages?unread=1", "unread"},
			{"/apis/event/events?ruleId=abc", "ruleId"},
			{"/apis/event/events?ruleId=-2", "ruleId"},
			{"/apis/event/messages?deviceId=x", "deviceId"},
			{"/apis/event/messages?deviceId=0", "deviceId"},
			{"/apis/integration/channel/pushLogList?channelId=x", "channelId"},
			{"/apis/integration/channel/pushLogList?status=done", "status"},
			{fmt.Sprintf("/apis/poi/%d/pluviometer/early-warning?days=abc", d.ID), "days"},
		} {
			r := u.do("GET", q.path, nil)
			if r.status == 404 {
				t.Fatalf("%s: no such route", q.path)
			}
			r.refused(t, q.field, r.Error.Key, "")
		}
		for _, ok := range []string{"/apis/event/messages?unread=true", "/apis/event/messages?unread=false",
			fmt.Sprintf("/apis/event/events?ruleId=7&deviceId=%d", d.ID), "/apis/integration/channel/pushLogList?status=fail"} {
			u.do("GET", ok, nil).want(t, 200, 0)
		}
	})
}

func TestTags_RefusedFourthLeavesNoTag(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		d := e.register("SM0000000034", 1, "farmer01")
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		path := fmt.Sprintf("/apis/poi/%d/tag", d.ID)
		for _, name := range []string{"north", "east", "wheat"} {
			got := decodeData[[]devices.Tag](t, u.do("POST", path, map[string]string{"tag": name}))
			if !containsTag(got, name) {
				t.Fatalf("%s not on the device: %v", name, got)
			}
		}
		r := u.do("POST", path, map[string]string{"tag": "fourth"})
		r.want(t, 409, 1409)
		if r.Message != "Up to 3 tags can be added per device!" {
			t.Errorf("message %q", r.Message)
		}
		tags := decodeData[[]devices.Tag](t, u.do("GET", "/apis/tags", nil))
		if len(tags) != 3 || containsTag(tags, "fourth") {
			t.Errorf("tags after the refusal: %v", tags)
		}
		// An existing tag by name is reused, not duplicated.
		other := e.register("SM0000000035", 1, "farmer01")
		got := decodeData[[]devices.Tag](t, u.do("POST", fmt.Sprintf("/apis/poi/%d/tag", other.ID), map[string]string{"tag": " north "}))
		if len(got) != 1 || got[0].ID != tags[tagIndex(tags, "north")].ID {
			t.Errorf("reuse: %v", got)
		}
		if n := len(decodeData[[]devices.Tag](t, u.do("GET", "/apis/tags", nil))); n != 3 {
			t.Errorf("%d tags after reuse", n)
		}
		u.do("POST", path, map[string]any{}).refused(t, "tagId", "error.required", "")
	})
}

func containsTag(ts []devices.Tag, name string) bool { return tagIndex(ts, name) >= 0 }

func tagIndex(ts []devices.Tag, name string) int {
	for i, t := range ts {
		if t.Name == name {
			return i
		}
	}
	return -1
}
