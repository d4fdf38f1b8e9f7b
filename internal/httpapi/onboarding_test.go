package httpapi_test

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
	"github.com/fieldwatch/fieldwatch/internal/sharing"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

type scanned struct {
	SN, Holder, Name, HashID string
	TypeID                   int
	Bound, Mine              bool
	ID                       *int64
}

// onboardingEnv has farmer01 (u, en_US) and farmer02 (other) logged in,
// a free soil probe, one device of each account, and an anonymous client.
type onboardingEnv struct {
	*env
	u, other, anon       *user
	free, mine, theirs   *devices.Device
	freeCode, theirsCode string
}

func newOnboarding(t *testing.T, db *store.DB) *onboardingEnv {
	e := newEnv(t, db)
	if _, err := e.svc.Create(context.Background(), "farmer02", "secret2", "西岭农场"); err != nil {
		t.Fatal(err)
	}
	o := &onboardingEnv{env: e, u: e.user("en_US"), other: e.user("en_US"), anon: e.user("en_US"),
		free: e.register("ZS0000000901", 2, ""), mine: e.register("ZS0000000902", 2, "farmer01"),
		theirs: e.register("ZS0000000903", 2, "farmer02")}
	o.freeCode, o.theirsCode = e.devices.LabelCode(o.free.SN), e.devices.LabelCode(o.theirs.SN)
	o.u.login("farmer01", "secret1").want(t, 200, 0)
	o.other.login("farmer02", "secret2").want(t, 200, 0)
	return o
}

func TestOnboarding_Scan(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		o := newOnboarding(t, db)
		scan := func(code string) reply { return o.u.do("GET", "/apis/poi/scan?code="+url.QueryEscape(code), nil) }
		t.Run("Free", func(t *testing.T) {
			// The label's text, its URL, and the SN and check code typed by hand
			// (any case) all say the same.
			_, check, _ := strings.Cut(strings.TrimPrefix(o.freeCode, "fw:"), ":")
			for _, code := range []string{o.freeCode, "https://farm.example.com/apps/info?code=" + url.QueryEscape(o.freeCode),
				o.free.SN + " " + strings.ToLower(check)} {
				sc := decodeData[scanned](t, scan(code))
				if sc.SN != o.free.SN || sc.Holder != "free" || sc.Bound || sc.Mine || sc.ID != nil || sc.TypeID != 2 {
					t.Fatalf("%s: %+v", code, sc)
				}
			}
		})
		t.Run("Mine", func(t *testing.T) {
			for _, code := range []string{o.e().devices.LabelCode(o.mine.SN), o.mine.SN} {
				sc := decodeData[scanned](t, scan(code))
				if sc.Holder != "mine" || !sc.Mine || sc.ID == nil || *sc.ID != o.mine.ID || sc.Name == "" || sc.HashID != o.mine.HashID {
					t.Fatalf("%s: %+v", code, sc)
				}
			}
		})
		t.Run("AnotherAccounts", func(t *testing.T) {
			r := scan(o.theirsCode)
			sc := decodeData[scanned](t, r)
			if sc.Holder != "other" || !sc.Bound || sc.Mine || sc.ID != nil || sc.Name != "" ||
				strings.Contains(string(r.Data), "farmer02") || strings.Contains(string(r.Data), "西岭") {
				t.Fatalf("another's device says too much: %s", r.Data)
			}
		})
		t.Run("NotFound", func(t *testing.T) {
			// A wrong check code, a bare SN of another's or a free device, and an
			// unknown SN look alike.
			missing := scan("fw:ZS0000999999:AAAAAAAA")
			missing.want(t, 404, 1404)
			for _, code := range []string{"fw:" + o.free.SN + ":AAAAAAAA", o.theirs.SN, o.free.SN, "fw:a/b:c", "https://x.example/apps/info"} {
				r := scan(code)
				if r.status != 404 || r.Message != missing.Message {
					t.Errorf("%s: %d %q", code, r.status, r.Message)
				}
			}
		})
		t.Run("Stranger", func(t *testing.T) {
			o.anon.do("GET", "/apis/poi/scan?code="+url.QueryEscape(o.freeCode), nil).want(t, 401, 2)
			o.anon.do("GET", "/apis/bixu/detect?sn=ZS0000000901&code=X", nil).want(t, 401, 2)
		})
		t.Run("Validation", func(t *testing.T) {
			for lang, want := range map[string]string{"zh_CN": "请输入二维码", "zh_TW": "請輸入二維碼", "en_US": "Code is required"} {
				o.u.lang = lang
				r := scan("")
				r.want(t, 400, 1400)
				if r.Message != want || r.Error == nil || r.Error.Field != "code" {
					t.Errorf("%s: %q %+v", lang, r.Message, r.Error)
				}
			}
			o.u.lang = "en_US"
		})
	})
}

// e is the environment, for subtests that read the device service.
func (o *onboardingEnv) e() *env { return o.env }

func TestOnboarding_Bind(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		o := newOnboarding(t, db)
		bind := func(u *user, code, name string) reply {
			return u.do("PUT", "/apis/poi/scan/bind", map[string]string{"code": code, "name": name})
		}
		t.Run("Validation", func(t *testing.T) {
			cases := []struct{ name, lang, want, field string }{
				{"", "zh_CN", "名称不能为空", "name"},
				{"  ", "zh_TW", "名稱不能為空", "name"},
				{"", "en_US", "Name cannot be empty", "name"},
				{strings.Repeat("田", 17), "zh_CN", "名称最多 16 个字符", "name"},
				{strings.Repeat("x", 17), "en_US", "Name must be at most 16 characters", "name"},
				{strings.Repeat("x", 17), "zh_TW", "名稱最多 16 個字元", "name"},
			}
			for _, c := range cases {
				o.u.lang = c.lang
				r := bind(o.u, o.freeCode, c.name)
				r.want(t, 400, 1400)
				if r.Message != c.want || r.Error == nil || r.Error.Field != c.field {
					t.Errorf("%q %s: %q %+v", c.name, c.lang, r.Message, r.Error)
				}
			}
			o.u.lang = "en_US"
			for lang, want := range map[string]string{"zh_CN": "请输入二维码", "zh_TW": "請輸入二維碼", "en_US": "Code is required"} {
				o.u.lang = lang
				r := bind(o.u, "", "North field")
				r.want(t, 400, 1400)
				if r.Message != want {
					t.Errorf("%s: %q", lang, r.Message)
				}
			}
			o.u.lang = "en_US"
			// Nothing was half-written: the device is still free.
			if d, _ := db.FindDeviceByID(context.Background(), o.free.ID); d.OwnerID != 0 || d.Name == "" {
				t.Fatalf("refused bind changed the device: %+v", d)
			}
		})
		t.Run("Stranger", func(t *testing.T) {
			bind(o.anon, o.freeCode, "North field").want(t, 401, 2)
			bind(o.u, "fw:"+o.free.SN+":AAAAAAAA", "North field").want(t, 404, 1404)
			bind(o.u, o.free.SN, "North field").want(t, 404, 1404)
		})
		t.Run("Success", func(t *testing.T) {
			r := bind(o.u, "https://farm.example.com/apps/info?code="+url.QueryEscape(o.freeCode), " North field ")
			r.want(t, 200, 0)
			got := decodeData[struct {
				ID   int64
				Name string
			}](t, r)
			if got.ID != o.free.ID || got.Name != "North field" {
				t.Fatalf("bound: %s", r.Data)
			}
			list := decodeData[struct{ List []struct{ SN, Status string } }](t, o.u.do("GET", "/apis/devices?size=100", nil))
			found := false
			for _, d := range list.List {
				found = found || d.SN == o.free.SN
			}
			if !found {
				t.Fatalf("bound device not in the list: %+v", list)
			}
		})
		t.Run("AlreadyYours", func(t *testing.T) {
			for lang, want := range map[string]string{"zh_CN": "该设备已在您的账号下", "zh_TW": "該設備已在您的帳號下", "en_US": "This device is already yours"} {
				o.u.lang = lang
				r := bind(o.u, o.freeCode, "Again")
				r.want(t, 409, 1409)
				if r.Message != want {
					t.Errorf("%s: %q", lang, r.Message)
				}
			}
			o.u.lang = "en_US"
		})
		t.Run("AnotherAccounts", func(t *testing.T) {
			for _, c := range []struct {
				u    *user
				code string
			}{{o.other, o.freeCode}, {o.u, o.theirsCode}} {
				r := bind(c.u, c.code, "Mine now")
				r.want(t, 409, 1409)
				if r.Message != "This device is already bound to an account" {
					t.Errorf("%q", r.Message)
				}
			}
			if d, _ := db.FindDeviceByID(context.Background(), o.theirs.ID); d.Name == "Mine now" {
				t.Fatal("another's device renamed")
			}
		})
	})
}

func TestOnboarding_Bixu(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		o := newOnboarding(t, db)
		_, check, _ := strings.Cut(strings.TrimPrefix(o.freeCode, "fw:"), ":")
		t.Run("Validation", func(t *testing.T) {
			cases := []struct{ lang, query, want, field string }{
				{"zh_CN", "code=X", "请输入序列号", "sn"},
				{"zh_TW", "code=X", "請輸入序號", "sn"},
				{"en_US", "code=X", "SN is required", "sn"},
				{"en_US", "sn=a/b&code=X", "The SN must be 6 to 32 letters, digits or dashes", "sn"},
				{"zh_CN", "sn=" + o.free.SN, "请输入二维码", "code"},
			}
			for _, c := range cases {
				o.u.lang = c.lang
				r := o.u.do("GET", "/apis/bixu/detect?"+c.query, nil)
				r.want(t, 400, 1400)
				if r.Message != c.want || r.Error == nil || r.Error.Field != c.field {
					t.Errorf("%s %s: %q %+v", c.lang, c.query, r.Message, r.Error)
				}
			}
			o.u.lang = "en_US"
			r := o.u.do("POST", "/apis/bixu/bind", map[string]string{"sn": o.free.SN, "code": check, "name": ""})
			r.want(t, 400, 1400)
			if r.Error == nil || r.Error.Field != "name" {
				t.Errorf("empty name: %+v", r.Error)
			}
		})
		t.Run("DetectAndBind", func(t *testing.T) {
			sc := decodeData[scanned](t, o.u.do("GET", "/apis/bixu/detect?sn="+o.free.SN+"&code="+check, nil))
			if sc.Holder != "free" {
				t.Fatalf("detect: %+v", sc)
			}
			o.u.do("GET", "/apis/bixu/detect?sn="+o.free.SN+"&code=AAAAAAAA", nil).want(t, 404, 1404)
			o.u.do("POST", "/apis/bixu/bind", map[string]string{"sn": o.free.SN, "code": "AAAAAAAA", "name": "Plot 7"}).want(t, 404, 1404)
			o.u.do("POST", "/apis/bixu/bind", map[string]string{"sn": o.free.SN, "code": check, "name": "Plot 7"}).want(t, 200, 0)
			o.u.do("POST", "/apis/bixu/bind", map[string]string{"sn": o.free.SN, "code": check, "name": "Plot 7"}).want(t, 409, 1409)
			o.other.do("POST", "/apis/bixu/bind", map[string]string{"sn": o.free.SN, "code": check, "name": "Plot 7"}).want(t, 409, 1409)
			if sc := decodeData[scanned](t, o.other.do("GET", "/apis/bixu/detect?sn="+o.free.SN+"&code="+check, nil)); sc.Holder != "other" {
				t.Fatalf("detect by another: %+v", sc)
			}
		})
	})
}

func TestOnboarding_Remove(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		o := newOnboarding(t, db)
		if _, err := o.svc.Create(context.Background(), "farmer03", "secret3", "南坡"); err != nil {
			t.Fatal(err)
		}
		grantee := o.user("en_US")
		grantee.login("farmer03", "secret3").want(t, 200, 0)
		o.grant("farmer01", "farmer03", devices.Right{Rename: true, Settings: true, Export: true}, o.mine.ID)
		o.write(o.mine, time.Now().Add(-time.Hour), telemetry.Point{Param: "soilMoisture", Node: 10, Value: 31})
		// A share link not yet accepted names it too.
		owner, _ := db.FindAccountByNumber(context.Background(), "farmer01")
		now := time.Now()
		link := &sharing.Link{ID: "pending-link", Kind: sharing.KindGrant, OwnerID: owner.ID, CreatedAt: now,
			ExpiresAt: now.Add(time.Minute), DeviceIDs: []int64{o.mine.ID}}
		if err := db.CreateLink(context.Background(), link); err != nil {
			t.Fatal(err)
		}

		path := fmt.Sprintf("/apis/poi/%d/remove", o.mine.ID)
		missing := o.other.do("DELETE", "/apis/poi/987654321/remove", nil)
		if r := o.other.do("DELETE", path, nil); r.status != 404 || r.Message != missing.Message {
			t.Fatalf("a stranger removing: %d %q", r.status, r.Message)
		}
		grantee.do("DELETE", path, nil).want(t, 403, 1403)
		o.anon.do("DELETE", path, nil).want(t, 401, 2)

		o.u.do("DELETE", path, nil).want(t, 200, 0)
		// Gone for the owner and the former grantee alike; its data is purged;
		// its grants and share links end; its label binds it again, fresh.
		for _, u := range []*user{o.u, grantee} {
			u.do("GET", fmt.Sprintf("/apis/poi/%d/intro", o.mine.ID), nil).want(t, 404, 1404)
		}
		shared := decodeData[struct{ List []struct{ ID int64 } }](t, grantee.do("GET", "/apis/authorized/devices", nil))
		if len(shared.List) != 0 {
			t.Fatalf("grant kept: %+v", shared)
		}
		if l, err := db.FindLink(context.Background(), link.ID); err != nil || len(l.DeviceIDs) != 0 {
			t.Fatalf("share link still offers it: %+v %v", l, err)
		}
		if ls, _ := db.Latest(context.Background(), o.mine.ID); len(ls) != 0 {
			t.Fatalf("history kept: %+v", ls)
		}
		code := o.devices.LabelCode(o.mine.SN)
		if sc := decodeData[scanned](t, o.other.do("GET", "/apis/poi/scan?code="+url.QueryEscape(code), nil)); sc.Holder != "free" {
			t.Fatalf("removed device not free: %+v", sc)
		}
		o.other.do("PUT", "/apis/poi/scan/bind", map[string]string{"code": code, "name": "Second life"}).want(t, 200, 0)
		if ls, _ := db.Latest(context.Background(), o.mine.ID); len(ls) != 0 {
			t.Fatalf("the next owner sees the last one's data: %+v", ls)
		}
	})
}

func TestOnboarding_CredentialsAndRotate(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		o := newOnboarding(t, db)
		if _, err := o.svc.Create(context.Background(), "farmer03", "secret3", "南坡"); err != nil {
			t.Fatal(err)
		}
		grantee := o.user("en_US")
		grantee.login("farmer03", "secret3").want(t, 200, 0)
		o.grant("farmer01", "farmer03", devices.Right{Rename: true, Settings: true, Export: true}, o.mine.ID)
		type creds struct {
			SN, Username, Key, Topic, LabelCode, LabelURL, IngestURL, MQTTHost string
			MQTTPort                                                           int
		}
		enc := fmt.Sprintf("/apis/poi/encryption?id=%d", o.mine.ID)
		rot := fmt.Sprintf("/apis/poi/encryption/rotate?id=%d", o.mine.ID)
		before := decodeData[creds](t, o.u.do("GET", enc, nil))
		if before.SN != o.mine.SN || before.Username != o.mine.SN || len(before.Key) != 32 ||
			before.LabelCode != o.devices.LabelCode(o.mine.SN) || !strings.HasSuffix(before.IngestURL, "/ingest/v1/telemetry") ||
			!strings.Contains(before.LabelURL, "/apps/info?code="+url.QueryEscape(before.LabelCode)) || before.MQTTHost != "127.0.0.1" {
			t.Fatalf("credentials: %+v", before)
		}
		for _, p := range []string{enc, rot} {
			method := map[string]string{enc: "GET", rot: "POST"}[p]
			grantee.do(method, p, nil).want(t, 403, 1403)
			o.other.do(method, p, nil).want(t, 404, 1404)
			o.anon.do(method, p, nil).want(t, 401, 2)
		}
		report := func(key string) int {
			req, _ := http.NewRequest("POST", o.url+"/ingest/v1/telemetry", bytes.NewReader([]byte(`{"values":{"battery":3.9}}`)))
			req.SetBasicAuth(o.mine.SN, key)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res.StatusCode
		}
		if st := report(before.Key); st != 200 {
			t.Fatalf("report with the key: %d", st)
		}
		after := decodeData[creds](t, o.u.do("POST", rot, nil))
		if len(after.Key) != 32 || after.Key == before.Key {
			t.Fatalf("rotated: %+v", after)
		}
		if again := decodeData[creds](t, o.u.do("GET", enc, nil)); again.Key != after.Key {
			t.Fatalf("credentials after rotating: %q, want %q", again.Key, after.Key)
		}
		if st := report(before.Key); st != 401 {
			t.Fatalf("report with the old key: %d", st)
		}
		if st := report(after.Key); st != 200 {
			t.Fatalf("report with the new key: %d", st)
		}
	})
}

func TestOnboarding_Activate(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		o := newOnboarding(t, db)
		key, err := o.devices.Key(context.Background(), o.free.ID)
		if err != nil {
			t.Fatal(err)
		}
		activate := func(sn, key string) reply {
			req, _ := http.NewRequest("POST", o.url+"/activate", nil)
			req.Header.Set("lang", "en_US")
			if sn != "" {
				req.SetBasicAuth(sn, key)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			r := reply{status: res.StatusCode}
			if err := json.NewDecoder(res.Body).Decode(&r); err != nil {
				t.Fatal(err)
			}
			return r
		}
		r := activate("", "")
		r.want(t, 401, 1401)
		activate(o.free.SN, "0123456789abcdef0123456789abcdef").want(t, 401, 1401)
		activate("ZS0000999999", key).want(t, 401, 1401)
		r = activate(o.free.SN, key)
		r.want(t, 200, 0)
		got := decodeData[struct {
			SN             string
			Bound          bool
			ReportInterval int
			Topic          string
		}](t, r)
		if got.SN != o.free.SN || got.Bound || got.ReportInterval != 30 || got.Topic != "devices/"+o.free.SN+"/telemetry" {
			t.Fatalf("activate: %s", r.Data)
		}
		o.u.do("PUT", "/apis/poi/scan/bind", map[string]string{"code": o.freeCode, "name": "Plot 9"}).want(t, 200, 0)
		if got := decodeData[struct{ Bound bool }](t, activate(o.free.SN, key)); !got.Bound {
			t.Fatal("bound device activates as unbound")
		}
	})
}
