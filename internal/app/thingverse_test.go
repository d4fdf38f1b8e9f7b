package app_test

// End-to-end tests of the thingverse device API (a device named by its URN)
// and the OEM government views (signed like the open API).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/openapi"
)

// errField is the field an error answer names.
func errField(t *testing.T, a answer) string {
	t.Helper()
	var e struct {
		Error struct{ Key, Field string }
	}
	if err := json.Unmarshal(a.raw, &e); err != nil {
		t.Fatal(err)
	}
	return e.Error.Field
}

// demoByPage returns the demo account's first device of a page kind or type.
func demoByPage(t *testing.T, owner *client, kind string) (int64, string) {
	t.Helper()
	var list struct {
		List []struct {
			ID     int64
			SN     string
			Page   string
			TypeID int
			Slave  bool
		}
	}
	owner.must("GET", "/apis/devices?size=100", "", &list)
	for _, d := range list.List {
		if !d.Slave && (d.Page == kind || fmt.Sprintf("type%d", d.TypeID) == kind) {
			return d.ID, d.SN
		}
	}
	t.Fatalf("no demo %s device", kind)
	return 0, ""
}

func TestThingverse_DeviceAPI(t *testing.T) {
	m := start(t, serveConfig(t))
	<-m.DemoLoaded()
	ctx := context.Background()
	owner := loginAs(t, m, "demo01", "demo123456")
	if _, err := m.Accounts.Create(ctx, "stranger9", "secret1", "Stranger"); err != nil {
		t.Fatal(err)
	}
	stranger := loginAs(t, m, "stranger9", "secret1")

	soilID, soilSN := demoByPage(t, owner, "zhi-shang")
	urn := "/apis/thingverse/device/urn:fieldwatch:device:" + soilSN

	// The device, with its URN.
	var dev struct {
		URN    string
		Device struct {
			ID     int64
			SN     string
			Latest []struct{ Param string }
		}
	}
	owner.must("GET", urn, "", &dev)
	if dev.URN != "urn:fieldwatch:device:"+soilSN || dev.Device.ID != soilID || dev.Device.SN != soilSN {
		t.Fatalf("device %+v", dev)
	}
	// The scheme and namespace are case-insensitive.
	owner.must("GET", "/apis/thingverse/device/URN:Fieldwatch:Device:"+soilSN, "", nil)

	// Each view answers what its /apis/poi counterpart does.
	for _, v := range []struct{ tv, poi string }{
		{"/metadata", fmt.Sprintf("/apis/poi/%d/datapoints/v2/metadata", soilID)},
		{"/telemetry", fmt.Sprintf("/apis/poi/%d/detect", soilID)},
	} {
		a, b := owner.call("GET", urn+v.tv, ""), owner.call("GET", v.poi, "")
		if a.Code != 0 || !bytes.Equal(a.Data, b.Data) {
			t.Errorf("%s: %s, want %s", v.tv, a.raw, b.raw)
		}
	}
	var ind struct{ Status string }
	owner.must("GET", urn+"/indicators", "", &ind)
	if ind.Status == "" {
		t.Errorf("indicators without a status")
	}
	var tel struct{ List []struct{ Param string } }
	owner.must("GET", urn+"/telemetry", "", &tel)
	if len(tel.List) == 0 {
		t.Errorf("no telemetry for the demo soil station")
	}
	_, wxSN := demoByPage(t, owner, "type5")
	var et0 json.RawMessage
	owner.must("GET", "/apis/thingverse/device/urn:fieldwatch:device:"+wxSN+"/et0", "", &et0)

	camID, camSN := demoByPage(t, owner, "ibiosense")
	camURN := "/apis/thingverse/device/urn:fieldwatch:device:" + camSN
	var blobs []struct{ URL string }
	waitFor(t, "a camera image", func() bool {
		owner.must("GET", camURN+"/blobs", "", &blobs)
		return len(blobs) > 0
	})
	if !strings.HasPrefix(blobs[0].URL, fmt.Sprintf("/apis/poi/%d/images/", camID)) {
		t.Errorf("blob url %q", blobs[0].URL)
	}
	var insects struct {
		URN   string
		Days  int
		Total float64
		List  []struct {
			Day   int64
			Count float64
		}
	}
	owner.must("GET", camURN+"/insect/statistics?days=3", "", &insects)
	sum := 0.0
	for _, d := range insects.List {
		sum += d.Count
	}
	if insects.Days != 3 || len(insects.List) == 0 || len(insects.List) > 3 || sum != insects.Total {
		t.Errorf("insect statistics %+v", insects)
	}
	if a := owner.call("GET", urn+"/insect/statistics", ""); a.status != 400 || errField(t, a) != "urn" {
		t.Errorf("insect statistics of a soil station: %d %s", a.status, a.raw)
	}

	// A stranger's call answers exactly as for a device that does not exist.
	missing := "/apis/thingverse/device/urn:fieldwatch:device:NOSUCH00000001"
	for _, sub := range []string{"", "/metadata", "/telemetry", "/indicators", "/blobs"} {
		got, none := stranger.call("GET", urn+sub, ""), stranger.call("GET", missing+sub, "")
		if got.Code == 0 || got.status != none.status || !bytes.Equal(got.raw, none.raw) {
			t.Errorf("stranger %s: %d %s, missing %d %s", sub, got.status, got.raw, none.status, none.raw)
		}
	}
	if got, none := stranger.call("PUT", urn+"/label", `{"label":"Mine"}`), stranger.call("PUT", missing+"/label", `{"label":"Mine"}`); got.Code == 0 || !bytes.Equal(got.raw, none.raw) {
		t.Errorf("stranger label: %s vs %s", got.raw, none.raw)
	}

	// A malformed URN is a 400 naming the field, in each language.
	for lang, want := range map[string]string{"en_US": "Device URN", "zh_CN": "设备 URN", "zh_TW": "設備 URN"} {
		for _, bad := range []string{"ZS0000000001", "urn:fieldwatch:device:", "urn:other:device:ZS0000000001", "urn:fieldwatch:device:a%2Fb"} {
			a := owner.callLang(lang, "GET", "/apis/thingverse/device/"+bad, "")
			if a.status != 400 || errField(t, a) != "urn" || !strings.Contains(a.Msg, want) {
				t.Errorf("%s %s: %d %s", lang, bad, a.status, a.raw)
			}
		}
	}

	// The label is the device's name: checked, then saved.
	for _, body := range []string{`{"label":""}`, `{"label":"   "}`, `{"label":"` + strings.Repeat("x", 200) + `"}`} {
		if a := owner.call("PUT", urn+"/label", body); a.status != 400 || errField(t, a) != "label" {
			t.Errorf("label %s: %d %s", body, a.status, a.raw)
		}
	}
	var prof struct{ Name string }
	owner.must("PUT", urn+"/label", `{"label":"North probe"}`, &prof)
	owner.must("GET", fmt.Sprintf("/apis/poi/%d/profile", soilID), "", &prof)
	if prof.Name != "North probe" {
		t.Errorf("name after label: %q", prof.Name)
	}

	// A service call is a command, recorded with source "api".
	valveID, valveSN := demoByPage(t, owner, "type10")
	svc := "/apis/thingverse/device/urn:fieldwatch:device:" + valveSN + "/services/"
	var cmd cmdView
	owner.must("POST", svc+"openFor", `{"minutes":5}`, &cmd)
	if cmd.Name != "openFor" || cmd.Source != "api" || cmd.ID == 0 {
		t.Fatalf("command %+v", cmd)
	}
	var rec cmdView
	owner.must("GET", fmt.Sprintf("/apis/poi/%d/commands/%d", valveID, cmd.ID), "", &rec)
	if rec.Source != "api" || rec.Name != "openFor" || rec.By == nil || rec.By.ID != owner.id || fmt.Sprint(rec.Params["minutes"]) != "5" {
		t.Errorf("recorded command %+v", rec)
	}
	waitFor(t, "the command reaches the device", func() bool {
		owner.must("GET", fmt.Sprintf("/apis/poi/%d/commands/%d", valveID, cmd.ID), "", &rec)
		return rec.State == "effective"
	})
	if a := owner.call("POST", svc+"openFor", `{"minutes":-1}`); a.status != 400 || errField(t, a) != "minutes" {
		t.Errorf("bad params: %d %s", a.status, a.raw)
	}
	if a := owner.call("POST", svc+"selfDestruct", ``); a.status != 400 {
		t.Errorf("unknown service: %d %s", a.status, a.raw)
	}
	if got, none := stranger.call("POST", svc+"close", ``), stranger.call("POST", missing+"/services/close", ``); got.Code == 0 || !bytes.Equal(got.raw, none.raw) {
		t.Errorf("stranger service: %s vs %s", got.raw, none.raw)
	}
}

func TestOEM_GovViews(t *testing.T) {
	m := start(t, serveConfig(t))
	<-m.DemoLoaded()
	ctx := context.Background()
	owner := loginAs(t, m, "demo01", "demo123456")
	if _, err := m.Accounts.Create(ctx, "other009", "secret1", "Other"); err != nil {
		t.Fatal(err)
	}
	other, err := m.DB.FindAccountByNumber(ctx, "other009")
	if err != nil {
		t.Fatal(err)
	}
	theirs, _, err := m.Devices.Register(ctx, devices.Registration{SN: "THEIRS000009", TypeID: 21, Owner: other.ID})
	if err != nil {
		t.Fatal(err)
	}
	shanID, shanSN := demoByPage(t, owner, "shan-jing")
	rainID, rainSN := demoByPage(t, owner, "pluviometer")

	var app struct {
		ID        int64
		AppKey    string
		AppSecret string
	}
	owner.must("POST", "/apis/openapi/application", `{"name":"County water bureau","range":"all"}`, &app)
	owner.must("PUT", fmt.Sprintf("/apis/openapi/application/%d/publish", app.ID), `{"published":true}`, nil)
	now := time.Now()

	var shan struct {
		Device struct {
			ID int64
			SN string
		}
		Warning string
		Slips   int
		Latest  *struct{ Time int64 }
		Trend   []struct{ Param string }
	}
	a := signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", fmt.Sprintf("/apis/oem/gov-lsw/%d/shanjing", shanID), nil, now, "")
	if a.Code != 0 {
		t.Fatalf("shanjing: %d %s", a.status, a.raw)
	}
	if err := json.Unmarshal(a.Data, &shan); err != nil {
		t.Fatal(err)
	}
	if shan.Device.SN != shanSN || (shan.Warning != "normal" && shan.Warning != "slip") || shan.Latest == nil || len(shan.Trend) == 0 ||
		(shan.Warning == "slip") != (shan.Slips > 0) {
		t.Errorf("shanjing %s", a.Data)
	}

	var rain struct {
		Device struct{ SN string }
		Latest struct {
			Time    *int64
			Rain24h *float64
			Warning json.RawMessage
		}
	}
	a = signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", fmt.Sprintf("/apis/oem/gov-lsw/%d/pluviometer", rainID), nil, now, "")
	if a.Code != 0 {
		t.Fatalf("pluviometer: %d %s", a.status, a.raw)
	}
	if err := json.Unmarshal(a.Data, &rain); err != nil {
		t.Fatal(err)
	}
	if rain.Device.SN != rainSN || rain.Latest.Time == nil || rain.Latest.Rain24h == nil || len(rain.Latest.Warning) == 0 {
		t.Errorf("pluviometer %s", a.Data)
	}

	// A device of the other kind has no such view.
	if a := signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", fmt.Sprintf("/apis/oem/gov-lsw/%d/shanjing", rainID), nil, now, ""); a.status != 400 {
		t.Errorf("shanjing of a rain gauge: %d %s", a.status, a.raw)
	}
	if a := signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", fmt.Sprintf("/apis/oem/gov-lsw/%d/pluviometer", shanID), nil, now, ""); a.status != 400 {
		t.Errorf("pluviometer of a landslide monitor: %d %s", a.status, a.raw)
	}

	// Another account's device answers as a missing one.
	got := signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", fmt.Sprintf("/apis/oem/gov-lsw/%d/pluviometer", theirs.ID), nil, now, "")
	none := signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", "/apis/oem/gov-lsw/987654321/pluviometer", nil, now, "")
	if got.Code == 0 || got.status != none.status || !bytes.Equal(got.raw, none.raw) {
		t.Errorf("another's device: %d %s, missing %d %s", got.status, got.raw, none.status, none.raw)
	}
	// Outside the application's device list: missing too.
	var scoped struct {
		ID        int64
		AppKey    string
		AppSecret string
	}
	owner.must("POST", "/apis/openapi/application", fmt.Sprintf(`{"name":"Rain only","range":"devices","deviceIds":[%d]}`, rainID), &scoped)
	owner.must("PUT", fmt.Sprintf("/apis/openapi/application/%d/publish", scoped.ID), `{"published":true}`, nil)
	if a := signedCall(t, m.URL(), scoped.AppKey, scoped.AppSecret, "GET", fmt.Sprintf("/apis/oem/gov-lsw/%d/pluviometer", rainID), nil, now, ""); a.Code != 0 {
		t.Errorf("in scope: %s", a.raw)
	}
	got = signedCall(t, m.URL(), scoped.AppKey, scoped.AppSecret, "GET", fmt.Sprintf("/apis/oem/gov-lsw/%d/shanjing", shanID), nil, now, "")
	none = signedCall(t, m.URL(), scoped.AppKey, scoped.AppSecret, "GET", "/apis/oem/gov-lsw/987654321/shanjing", nil, now, "")
	if got.Code == 0 || !bytes.Equal(got.raw, none.raw) {
		t.Errorf("out of scope: %s, missing %s", got.raw, none.raw)
	}

	// Unsigned, and signed with the wrong secret: refused.
	path := fmt.Sprintf("/apis/oem/gov-lsw/%d/shanjing", shanID)
	res, err := http.Get(m.URL() + path)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Errorf("unsigned: %d", res.StatusCode)
	}
	if a := signedCall(t, m.URL(), app.AppKey, "fwas_wrong", "GET", path, nil, now, ""); a.status != 401 || a.Code == 0 {
		t.Errorf("wrong signature: %d %s", a.status, a.raw)
	}
	// A signature of another path does not open this one.
	stamp := fmt.Sprint(now.Unix())
	sig := openapi.Sign(app.AppSecret, openapi.StringToSign("GET", fmt.Sprintf("/apis/oem/gov-lsw/%d/pluviometer", rainID), url.Values{}, stamp, "other-path-nonce-01", nil))
	req, _ := http.NewRequest("GET", m.URL()+path, nil)
	for k, v := range map[string]string{openapi.HeaderKey: app.AppKey, openapi.HeaderTimestamp: stamp, openapi.HeaderNonce: "other-path-nonce-01", openapi.HeaderSignature: sig} {
		req.Header.Set(k, v)
	}
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Errorf("another path's signature: %d", res.StatusCode)
	}
}
