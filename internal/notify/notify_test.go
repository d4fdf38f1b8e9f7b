package notify_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/notify"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// fakeWeChat speaks the WeChat Official Account API's wire format:
// GET /cgi-bin/token and POST /cgi-bin/message/template/send.
type fakeWeChat struct {
	mu       sync.Mutex
	tokens   int
	sent     []notify.TemplateMessage
	expireOn int    // answer 42001 (token expired) to this send (1-based)
	failCode int    // answer this errcode to every send when set
	token    string // the current valid token
	sends    int
}

func (f *fakeWeChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch r.URL.Path {
	case "/cgi-bin/token":
		q := r.URL.Query()
		if q.Get("grant_type") != "client_credential" || q.Get("appid") != "wxapp" || q.Get("secret") != "s3cret" {
			json.NewEncoder(w).Encode(map[string]any{"errcode": 40013, "errmsg": "invalid appid"})
			return
		}
		f.tokens++
		f.token = "TOKEN" + strings.Repeat("x", f.tokens)
		json.NewEncoder(w).Encode(map[string]any{"access_token": f.token, "expires_in": 7200})
	case "/cgi-bin/message/template/send":
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		f.sends++
		if r.URL.Query().Get("access_token") != f.token || f.sends == f.expireOn {
			json.NewEncoder(w).Encode(map[string]any{"errcode": 42001, "errmsg": "access_token expired"})
			return
		}
		if f.failCode != 0 {
			json.NewEncoder(w).Encode(map[string]any{"errcode": f.failCode, "errmsg": "refused"})
			return
		}
		var m notify.TemplateMessage
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			json.NewEncoder(w).Encode(map[string]any{"errcode": 47001, "errmsg": "data format error"})
			return
		}
		f.sent = append(f.sent, m)
		json.NewEncoder(w).Encode(map[string]any{"errcode": 0, "errmsg": "ok", "msgid": 200228332})
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func TestWeChat_TokenAndSend(t *testing.T) {
	f := &fakeWeChat{expireOn: 2}
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := &notify.WeChat{Base: srv.URL, AppID: "wxapp", Secret: "s3cret", TemplateID: "TPL1"}
	ctx := context.Background()
	msg := func() *notify.TemplateMessage {
		return &notify.TemplateMessage{ToUser: "openid-1", Data: map[string]notify.TemplateValue{"first": {Value: "霜冻"}}}
	}
	if err := c.SendTemplate(ctx, msg()); err != nil {
		t.Fatal(err)
	}
	// The token is reused; when the server says it expired, one new token.
	if err := c.SendTemplate(ctx, msg()); err != nil {
		t.Fatal(err)
	}
	if f.tokens != 2 || len(f.sent) != 2 || f.sent[0].TemplateID != "TPL1" || f.sent[0].ToUser != "openid-1" || f.sent[1].Data["first"].Value != "霜冻" {
		t.Fatalf("tokens %d, sent %+v", f.tokens, f.sent)
	}
	f.failCode = 43004 // the user does not follow the account: no retry can fix it
	err := c.SendTemplate(ctx, msg())
	var perm *notify.Permanent
	if err == nil || !asPermanent(err, &perm) {
		t.Fatalf("43004: %v, want a permanent error", err)
	}
	bad := &notify.WeChat{Base: srv.URL, AppID: "wxapp", Secret: "wrong"}
	if err := bad.SendTemplate(ctx, msg()); err == nil || !strings.Contains(err.Error(), "40013") {
		t.Fatalf("bad secret: %v", err)
	}
}

func asPermanent(err error, p **notify.Permanent) bool {
	for e := err; e != nil; {
		if x, ok := e.(*notify.Permanent); ok {
			*p = x
			return true
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		e = u.Unwrap()
	}
	return false
}

func f64(v float64) *float64 { return &v }

// An event raised by the engine reaches the owner by e-mail (in the language
// they saved the rule in) and by WeChat; a refused delivery is tried again,
// one that can never work is recorded as failed.
func TestWorker_Delivers(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := &accounts.Account{AccountNumber: "farmer01", Name: "Farm", PasswordHash: "h", Mail: "farmer@example.com",
			WechatOpenID: "openid-1", CreatedAt: time.Now()}
		if err := db.CreateAccount(ctx, owner); err != nil {
			t.Fatal(err)
		}
		dev := &devices.Device{HashID: "h1", SN: "TQ0000001", TypeID: 5, OwnerID: owner.ID, Name: "North field", State: devices.StateUsed, CreatedAt: time.Now()}
		if err := db.CreateDevice(ctx, dev, "sealed"); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 11, 20, 22, 0, 0, 0, time.UTC)
		rule := &rules.Rule{OwnerID: owner.ID, Name: "Frost", Enabled: true, TypeID: 5, DeviceIDs: []int64{dev.ID}, Level: rules.LevelAlarm,
			Notify: []rules.Method{rules.MethodEmail, rules.MethodWeChat}, Lang: i18n.EnUS, CreatedAt: now, UpdatedAt: now,
			Expressions: []rules.Expression{{Param: "airTemp", Agg: rules.AggMin, Op: rules.OpLTE, Threshold: f64(0)}}}
		if err := rule.Validate(rules.RegistryCatalogue{}); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateRule(ctx, rule); err != nil {
			t.Fatal(err)
		}
		smtp, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer smtp.Close()
		sender, err := mail.New(mail.Config{URL: smtp.URL()})
		if err != nil {
			t.Fatal(err)
		}
		wx := &fakeWeChat{}
		wxSrv := httptest.NewServer(wx)
		defer wxSrv.Close()
		clock := now
		w := notify.New(notify.Options{Store: db, Mail: sender, WeChat: &notify.WeChat{Base: wxSrv.URL, AppID: "wxapp", Secret: "s3cret", TemplateID: "TPL"},
			Now: func() time.Time { return clock }, Backoff: time.Minute, Attempts: 3})
		eng := rules.NewEngine(rules.EngineOptions{Store: db, Now: func() time.Time { return clock }, OnEvent: func(*rules.Event) { w.Wake() }})

		rep := &telemetry.Report{DeviceID: dev.ID, Time: now, Points: []telemetry.Point{{Param: "airTemp", Value: -1.5}}, OfflineAt: now.Add(time.Hour)}
		if _, err := db.WriteReports(ctx, []*telemetry.Report{rep}, time.UTC); err != nil {
			t.Fatal(err)
		}
		if err := eng.Evaluate(ctx, []*telemetry.Report{rep}); err != nil {
			t.Fatal(err)
		}
		smtp.Refuse(1) // the first mail is refused with a temporary error
		if n, err := w.RunOnce(ctx); err != nil || n != 2 {
			t.Fatalf("first run: %d %v", n, err)
		}
		evs, _, _ := db.Events(ctx, owner.ID, rules.EventFilter{Page: 1, Size: 10})
		if len(evs) != 1 {
			t.Fatalf("events: %d", len(evs))
		}
		st, err := db.Notifications(ctx, owner.ID, evs[0].ID)
		if err != nil || len(st) != 2 {
			t.Fatalf("statuses: %+v %v", st, err)
		}
		if st[0].Method != rules.MethodEmail || st[0].State != "queued" || st[0].Attempts != 1 || st[0].LastError == "" {
			t.Fatalf("refused mail: %+v", st[0])
		}
		if st[1].Method != rules.MethodWeChat || st[1].State != "sent" || len(wx.sent) != 1 || wx.sent[0].ToUser != "openid-1" {
			t.Fatalf("wechat: %+v %+v", st[1], wx.sent)
		}
		// Not due yet: nothing is claimed.
		if n, _ := w.RunOnce(ctx); n != 0 {
			t.Fatalf("retried before its time: %d", n)
		}
		clock = clock.Add(2 * time.Minute)
		if n, err := w.RunOnce(ctx); err != nil || n != 1 {
			t.Fatalf("retry: %d %v", n, err)
		}
		select {
		case m := <-smtp.C:
			p, err := mailtest.Parse(m.Data)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(p.To, "farmer@example.com") || p.Subject != "[Alarm] Frost · North field" ||
				!strings.Contains(p.Text, "Air temperature -1.5 °C") || !strings.Contains(p.Text, "TQ0000001") {
				t.Fatalf("mail: %q\n%s", p.Subject, p.Text)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no mail arrived")
		}
		st, _ = db.Notifications(ctx, owner.ID, evs[0].ID)
		if st[0].State != "sent" || st[0].Attempts != 2 || st[0].SentAt == nil {
			t.Fatalf("after the retry: %+v", st[0])
		}

		// Without a mail server configured, the delivery is recorded as failed at once.
		rep2 := &telemetry.Report{DeviceID: dev.ID, Time: now.Add(time.Hour), Points: []telemetry.Point{{Param: "airTemp", Value: 5}}, OfflineAt: now.Add(2 * time.Hour)}
		rep3 := &telemetry.Report{DeviceID: dev.ID, Time: now.Add(30 * time.Hour), Points: []telemetry.Point{{Param: "airTemp", Value: -3}}, OfflineAt: now.Add(31 * time.Hour)}
		if _, err := db.WriteReports(ctx, []*telemetry.Report{rep2, rep3}, time.UTC); err != nil {
			t.Fatal(err)
		}
		if err := eng.Evaluate(ctx, []*telemetry.Report{rep2, rep3}); err != nil {
			t.Fatal(err)
		}
		w.Mail = nil
		w.RunOnce(ctx)
		evs, _, _ = db.Events(ctx, owner.ID, rules.EventFilter{Page: 1, Size: 10, Kind: rules.KindWarning})
		st, _ = db.Notifications(ctx, owner.ID, evs[0].ID)
		if len(st) != 2 || st[0].State != "failed" || !strings.Contains(st[0].LastError, "not configured") {
			t.Fatalf("unconfigured mail: %+v", st)
		}
	})
}
