package app_test

// The unified portal: a device's page with no login, opened by a link its
// owner made, revocable, and gone when the device changes hands.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/portal"
)

type portalLink struct {
	Enabled      bool   `json:"enabled"`
	AllowControl bool   `json:"allowControl"`
	CreatedAt    *int64 `json:"createdAt"`
	Token        string `json:"token"`
	Path         string `json:"path"`
}

type portalState struct {
	Code    int `json:"code"`
	Message struct {
		Title   string `json:"title"`
		Content string `json:"content"`
	} `json:"message"`
	Redirect *struct {
		To      string `json:"to"`
		Seconds int    `json:"seconds"`
	} `json:"redirect"`
}

// visitor is a browser with no session, holding a portal link's token.
func visitor(t *testing.T, base string) *api {
	jar, _ := cookiejar.New(nil)
	return &api{t: t, base: base, c: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

func (a *api) portal(method, path, token, body, lang string) (int, envelope) {
	a.t.Helper()
	return a.do(method, path, body, map[string]string{"X-Portal-Token": token, "lang": lang})
}

func TestPortal(t *testing.T) {
	m := start(t, ingestConfig(t))
	owner := loginAPI(t, m.URL())
	dev, key := cmdDevice(t, m, "YYPORTAL001", 10)
	other, _ := cmdDevice(t, m, "YYPORTAL002", 10)
	c, got := deviceClient(t, m, dev.SN, key)
	tok := c.Publish("devices/"+dev.SN+"/telemetry", 1, false, fmt.Sprintf(`{"ts": %d, "values": {"valveState": 0, "flowRate": 0}}`, reportTS()))
	if !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	portalPath := fmt.Sprintf("/apis/poi/%d/portal", dev.ID)

	var off portalLink
	owner.get(portalPath, nil, &off)
	if off.Enabled || off.CreatedAt != nil {
		t.Fatalf("a new device's portal is on: %+v", off)
	}
	// Turned on, read-only: the token once, in the link's fragment.
	status, env := owner.do("POST", portalPath, `{"allowControl":false}`, nil)
	var ro portalLink
	if status != 200 || json.Unmarshal(env.Data, &ro) != nil || !ro.Enabled || ro.AllowControl || len(ro.Token) != 43 ||
		ro.Path != "/uni-portal/"+dev.SN+"#k="+ro.Token {
		t.Fatalf("turn on: HTTP %d %s", status, env.Data)
	}
	var shown portalLink
	owner.get(portalPath, nil, &shown)
	if !shown.Enabled || shown.Token != "" || shown.Path != "" || shown.CreatedAt == nil {
		t.Errorf("the portal's status shows its token again, or is off: %+v", shown)
	}
	// What is kept is the token's hash, not the token.
	ctx := context.Background()
	if _, err := m.DB.OpenDevicePortal(ctx, dev.SN, portal.Hash(ro.Token)); err != nil {
		t.Errorf("the token's hash opens nothing: %v", err)
	}
	if _, err := m.DB.OpenDevicePortal(ctx, dev.SN, ro.Token); err == nil {
		t.Error("the token itself is kept")
	}

	v := visitor(t, m.URL())
	base := "/apis/uni/device/" + dev.SN
	var page struct {
		State  portalState `json:"state"`
		Device struct {
			SN, Name, Status string
		} `json:"device"`
		Latest []struct {
			Param string  `json:"param"`
			Value float64 `json:"value"`
		} `json:"latest"`
		AllowControl bool `json:"allowControl"`
	}
	waitFor(t, "the report", func() bool {
		status, env := v.portal("GET", base, ro.Token, "", "en_US")
		if status != 200 || env.Code != 0 {
			t.Fatalf("the portal: HTTP %d %+v", status, env)
		}
		json.Unmarshal(env.Data, &page)
		return len(page.Latest) > 0
	})
	if page.State.Code != 0 || page.Device.SN != dev.SN || page.Device.Name == "" || page.AllowControl {
		t.Errorf("the portal's device: %+v", page)
	}
	token := ro.Token // the link the visitor holds
	raw := func(path string) string {
		status, env := v.portal("GET", path, token, "", "en_US")
		if status != 200 || env.Code != 0 {
			t.Fatalf("GET %s: HTTP %d %+v", path, status, env)
		}
		return string(env.Data)
	}
	if s := raw(base + "/metadata"); !strings.Contains(s, "flowRate") {
		t.Errorf("metadata: %s", s)
	}
	now := time.Now()
	if s := raw(fmt.Sprintf("%s/datapoints?begin=%d&end=%d&params=flowRate", base, now.Add(-time.Hour).UnixMilli(), now.Add(time.Minute).UnixMilli())); !strings.Contains(s, "flowRate") {
		t.Errorf("datapoints: %s", s)
	}
	var defs struct {
		Allowed  bool
		Commands []struct{ Name string }
	}
	json.Unmarshal([]byte(raw(base+"/commands/definitions")), &defs)
	if defs.Allowed || len(defs.Commands) == 0 {
		t.Errorf("a read-only link's commands: %+v", defs)
	}
	// A read-only link cannot send.
	if status, env := v.portal("POST", base+"/commands", ro.Token, `{"name":"open"}`, "en_US"); status != 403 || env.Error == nil || env.Error.Key != "device.noModifyRight" {
		t.Errorf("a read-only link sent a command: HTTP %d %+v", status, env)
	}

	// Every way in without the right link looks the same: the page does not
	// exist, with the notice and where it goes, in the visitor's language.
	gone := func(what, path, token string) {
		t.Helper()
		for lang, title := range map[string]string{"zh_CN": "页面不存在", "zh_TW": "頁面不存在", "en_US": "The page does not exist"} {
			status, env := v.portal("GET", path, token, "", lang)
			var st portalState
			json.Unmarshal(env.Data, &st)
			if status != 404 || env.Code != 1404 || env.Message != title || st.Code != 404 || st.Message.Title != title ||
				st.Message.Content == "" || st.Redirect == nil || st.Redirect.To != "/login" || st.Redirect.Seconds <= 0 {
				t.Errorf("%s (%s): HTTP %d %+v %s", what, lang, status, env, env.Data)
			}
		}
	}
	gone("no token", base, "")
	gone("a wrong token", base, strings.Repeat("A", 43))
	gone("the token on another device", "/apis/uni/device/"+other.SN, ro.Token)
	gone("a device that does not exist", "/apis/uni/device/NOSUCH0001", ro.Token)
	gone("the record without a token", base+"/commands", "")

	// A stranger cannot turn the portal on or read it.
	if _, err := m.Accounts.Create(ctx, "stranger1", "secret1", "stranger1"); err != nil {
		t.Fatal(err)
	}
	s := loginAs(t, m, "stranger1", "secret1")
	missing := s.call("POST", "/apis/poi/999999999/portal", `{}`)
	for _, method := range []string{"GET", "POST", "DELETE"} {
		if a := s.call(method, portalPath, `{}`); a.status != 404 || a.Code != missing.Code || a.Msg != missing.Msg {
			t.Errorf("a stranger's %s: HTTP %d %s", method, a.status, a.raw)
		}
	}

	// A new link with control replaces the old one, which is gone at once.
	var rw portalLink
	status, env = owner.do("POST", portalPath, `{"allowControl":true}`, nil)
	if status != 200 || json.Unmarshal(env.Data, &rw) != nil || !rw.AllowControl || rw.Token == ro.Token {
		t.Fatalf("a new link: HTTP %d %s", status, env.Data)
	}
	gone("the replaced link", base, ro.Token)
	token = rw.Token
	// Its commands go to the device, in the owner's name, marked as from
	// the portal, and reach "effective" on the device's acknowledgement.
	status, env = v.portal("POST", base+"/commands", rw.Token, `{"name":"openFor","params":{"minutes":10}}`, "en_US")
	var sent cmdView
	if status != 200 || json.Unmarshal(env.Data, &sent) != nil || sent.State != "pending" || sent.Source != "portal" || sent.By != nil {
		t.Fatalf("sent from the portal: HTTP %d %s", status, env.Data)
	}
	if w := receive(t, got); w.ID != sent.ID || w.Name != "openFor" {
		t.Fatalf("the device received %+v", w)
	}
	ack(t, c, dev.SN, fmt.Sprintf(`{"id": %d, "result": "ok"}`, sent.ID))
	if done := owner.waitState(dev.ID, sent.ID, "effective"); done.Source != "portal" || done.By == nil || done.By.Name == "" {
		t.Errorf("the owner's record of it: %+v", done)
	}
	var record struct {
		List  []cmdView `json:"list"`
		Total int       `json:"total"`
	}
	json.Unmarshal([]byte(raw(base+"/commands")), &record)
	if record.Total != 1 || record.List[0].ID != sent.ID || record.List[0].State != "effective" || record.List[0].By != nil {
		t.Errorf("the portal's control record: %+v", record)
	}
	// Bad input is refused in the visitor's language, naming the field.
	if status, env := v.portal("POST", base+"/commands", rw.Token, `{"name":"openFor","params":{"minutes":0}}`, "zh_CN"); status != 400 ||
		env.Message != "开阀时长须在 1 到 720 之间" || env.Error.Field != "params.minutes" {
		t.Errorf("bad input: HTTP %d %+v", status, env)
	}

	// Turned off: gone. Off again is no error.
	var after portalLink
	owner.get(portalPath, nil, &shown)
	if status, env := owner.do("DELETE", portalPath, "", nil); status != 200 || json.Unmarshal(env.Data, &after) != nil || after.Enabled {
		t.Fatalf("turn off: HTTP %d %+v", status, env)
	}
	gone("a revoked link", base, rw.Token)
	if status, _ := owner.do("DELETE", portalPath, "", nil); status != 200 {
		t.Errorf("turning off again: HTTP %d", status)
	}

	// A removed device drops its link; bound again, the old link stays gone.
	status, env = owner.do("POST", portalPath, `{}`, nil)
	var last portalLink
	if status != 200 || json.Unmarshal(env.Data, &last) != nil {
		t.Fatal(status, env)
	}
	if status, env := owner.do("DELETE", fmt.Sprintf("/apis/poi/%d/remove", dev.ID), "", nil); status != 200 {
		t.Fatalf("remove: HTTP %d %+v", status, env)
	}
	gone("a removed device's link", base, last.Token)
	acct, err := m.DB.FindAccountByNumber(ctx, "demo01")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Devices.Bind(ctx, acct.ID, m.Devices.LabelCode(dev.SN), "again"); err != nil {
		t.Fatalf("bind again: %v", err)
	}
	gone("the link of a device bound again", base, last.Token)
}
