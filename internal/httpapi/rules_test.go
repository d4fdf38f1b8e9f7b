package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

func frostBody(deviceIDs ...int64) map[string]any {
	return map[string]any{"name": "Frost", "enabled": true, "typeId": 5, "deviceIds": deviceIDs, "level": "alarm",
		"notify": []string{"email"}, "silentHours": 24,
		"expressions": []map[string]any{{"nodes": []int{}, "param": "airTemp", "aggregation": "min", "operator": "lte", "threshold": 0}}}
}

func TestRules_Validation(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		st := e.register("TQ0000000001", 5, "farmer01")
		msgs := map[string]map[string]string{} // lang → field → message
		for _, lang := range []string{"zh_CN", "zh_TW", "en_US"} {
			u := e.user(lang)
			u.login("farmer01", "secret1").want(t, 200, 0)
			cases := map[string]func(b map[string]any){
				"name":        func(b map[string]any) { b["name"] = "" },
				"deviceIds":   func(b map[string]any) { b["deviceIds"] = []int64{} },
				"expressions": func(b map[string]any) { b["expressions"] = []any{} },
				"incomplete": func(b map[string]any) {
					b["expressions"] = []map[string]any{{"param": "airTemp", "aggregation": "min", "operator": "lte"}}
				},
				"range": func(b map[string]any) {
					b["expressions"] = []map[string]any{{"param": "airTemp", "aggregation": "min", "operator": "in", "threshold": 5, "threshold2": 1}}
				},
				"long": func(b map[string]any) { b["name"] = strings.Repeat("霜", 16) },
			}
			msgs[lang] = map[string]string{}
			for name, edit := range cases {
				b := frostBody(st.ID)
				edit(b)
				r := u.do("POST", "/apis/rule", b)
				if r.status != 400 || r.Error == nil {
					t.Fatalf("%s %s: %d %+v", lang, name, r.status, r)
				}
				msgs[lang][name] = r.Error.Field + ": " + r.Message
			}
		}
		want := map[string]string{
			"deviceIds":   "deviceIds: Select at least one device!",
			"expressions": "expressions: Please add rule expression...",
			"incomplete":  "expressions: Please complete the rule expression...",
			"range":       "expressions: The first value of the threshold input must be less than the second value!",
			"name":        "name: Please enter the rule name",
			"long":        "name: The rule name may be at most 15 characters",
		}
		for k, v := range want {
			if msgs["en_US"][k] != v {
				t.Errorf("en_US %s: %q, want %q", k, msgs["en_US"][k], v)
			}
		}
		if msgs["zh_CN"]["deviceIds"] != "deviceIds: 请至少选择一个设备！" || msgs["zh_TW"]["deviceIds"] != "deviceIds: 請至少選擇一個設備！" ||
			msgs["zh_CN"]["range"] != "expressions: 阈值输入的第一个值必须小于第二个值！" || msgs["zh_TW"]["incomplete"] != "expressions: 請完善規則表達式..." {
			t.Errorf("Chinese messages: %v", msgs)
		}
		// Nothing was stored.
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		if l := decodeData[struct{ Total int }](t, u.do("GET", "/apis/rules", nil)); l.Total != 0 {
			t.Fatalf("invalid rules were stored: %d", l.Total)
		}
	})
}

func TestRules_CRUDAndEvents(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		ctx := context.Background()
		if _, err := e.svc.Create(ctx, "farmer02", "secret2", "西岭农场"); err != nil {
			t.Fatal(err)
		}
		st := e.register("TQ0000000001", 5, "farmer01")
		soil := e.register("ZS0000000001", 2, "farmer01")
		theirs := e.register("TQ0000000002", 5, "farmer02")
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		them := e.user("en_US")
		them.login("farmer02", "secret2").want(t, 200, 0)

		// Another account's device, or one of another type, cannot be chosen.
		if r := u.do("POST", "/apis/rule", frostBody(theirs.ID)); r.status != 400 || r.Error.Field != "deviceIds" || r.Message != "A selected device does not exist" {
			t.Fatalf("another's device: %d %q", r.status, r.Message)
		}
		if r := u.do("POST", "/apis/rule", frostBody(soil.ID)); r.status != 400 || r.Error.Field != "deviceIds" {
			t.Fatalf("a soil probe in a weather rule: %d %q", r.status, r.Message)
		}
		created := u.do("POST", "/apis/rule", frostBody(st.ID))
		created.want(t, 200, 0)
		rule := decodeData[struct {
			ID        int64
			Name      string
			TypeName  string
			DeviceIDs []int64
		}](t, created)
		if rule.ID == 0 || rule.TypeName != "Automatic weather station" || len(rule.DeviceIDs) != 1 {
			t.Fatalf("created: %+v", rule)
		}
		path := fmt.Sprintf("/apis/rule/%d", rule.ID)
		// Another account sees no such rule.
		for _, m := range []string{"GET", "PUT", "DELETE"} {
			if r := them.do(m, path, frostBody(theirs.ID)); r.status != 404 {
				t.Errorf("%s another's rule: %d", m, r.status)
			}
		}
		if r := them.do("PUT", path+"?includes=enabled", map[string]bool{"enabled": false}); r.status != 404 {
			t.Errorf("toggle another's rule: %d", r.status)
		}
		u.do("PUT", path+"?includes=enabled", map[string]bool{"enabled": false}).want(t, 200, 0)
		if g := decodeData[struct{ Enabled bool }](t, u.do("GET", path, nil)); g.Enabled {
			t.Fatal("still enabled")
		}
		u.do("PUT", path+"?includes=enabled", map[string]bool{"enabled": true}).want(t, 200, 0)
		if r := u.do("PUT", path+"?includes=deviceIds", map[string][]int64{"deviceIds": {}}); r.status != 400 || r.Message != "Select at least one device!" {
			t.Fatalf("no devices: %d %q", r.status, r.Message)
		}

		params := decodeData[[]struct {
			ID    string
			Nodes []int
		}](t, u.do("GET", fmt.Sprintf("/apis/rule/params?deviceId=%d", soil.ID), nil))
		var moist []int
		for _, p := range params {
			if p.ID == "soilMoisture" {
				moist = p.Nodes
			}
		}
		if len(moist) == 0 {
			t.Fatalf("soil params: %+v", params)
		}
		if r := u.do("GET", fmt.Sprintf("/apis/rule/params?deviceId=%d", theirs.ID), nil); r.status != 404 {
			t.Fatalf("params of another's device: %d", r.status)
		}
		tpls := decodeData[[]struct{ ID string }](t, u.do("GET", "/apis/rule/templates?typeId=5", nil))
		if len(tpls) == 0 || tpls[0].ID != "frost" {
			t.Fatalf("templates: %+v", tpls)
		}
		devs := decodeData[[]struct{ ID int64 }](t, u.do("GET", "/apis/rule/devices?typeId=5", nil))
		if len(devs) != 1 || devs[0].ID != st.ID {
			t.Fatalf("rule devices: %+v", devs)
		}
		types := decodeData[[]struct{ TypeID, Count int }](t, u.do("GET", "/apis/rule/types", nil))
		if len(types) != 2 {
			t.Fatalf("types: %+v", types)
		}

		// A report below zero raises one warning message.
		eng := rules.NewEngine(rules.EngineOptions{Store: db})
		at := time.Now().Truncate(time.Minute)
		rep := &telemetry.Report{DeviceID: st.ID, Time: at, Points: []telemetry.Point{{Param: "airTemp", Value: -2.5}}, OfflineAt: at.Add(time.Hour)}
		e.write(st, at, rep.Points...)
		if err := eng.Evaluate(ctx, []*telemetry.Report{rep}); err != nil {
			t.Fatal(err)
		}
		if n := decodeData[struct{ Unread int }](t, u.do("OPTIONS", "/apis/event/messages", nil)); n.Unread != 1 {
			t.Fatalf("unread: %+v", n)
		}
		if n := decodeData[struct{ Unread int }](t, them.do("OPTIONS", "/apis/event/messages", nil)); n.Unread != 0 {
			t.Fatalf("another account's unread: %+v", n)
		}
		msgs := decodeData[struct {
			List []struct {
				MessageID    int64
				RuleID       int64
				RuleDeviceID int64
				SN           string
				RuleName     string
				DeviceType   string
				Description  string
				Kind         string
				Read         bool
			}
			Total int
		}](t, u.do("GET", "/apis/event/messages", nil))
		if msgs.Total != 1 || msgs.List[0].SN != "TQ0000000001" || msgs.List[0].RuleID != rule.ID || msgs.List[0].RuleDeviceID != st.ID ||
			msgs.List[0].Kind != "warning" || msgs.List[0].Description != "Rule triggered: Air temperature -2.5 °C" || msgs.List[0].Read {
			t.Fatalf("messages: %+v", msgs)
		}
		u.do("PUT", "/apis/event/messages/read", map[string][]int64{"ids": {msgs.List[0].MessageID}}).want(t, 200, 0)
		if n := decodeData[struct{ Unread int }](t, u.do("OPTIONS", "/apis/event/messages", nil)); n.Unread != 0 {
			t.Fatalf("unread after reading: %+v", n)
		}
		if ev := decodeData[struct{ Total int }](t, u.do("GET", fmt.Sprintf("/apis/event/events?ruleId=%d&kind=warning", rule.ID), nil)); ev.Total != 1 {
			t.Fatalf("events by rule: %+v", ev)
		}
		u.do("DELETE", path, nil).want(t, 200, 0)
		if r := u.do("GET", path, nil); r.status != 404 {
			t.Fatalf("deleted rule: %d", r.status)
		}
	})
}
