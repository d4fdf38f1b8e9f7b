package notify_test

import (
	"context"
	"strings"
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
	"github.com/fieldwatch/fieldwatch/internal/wechat"
	"github.com/fieldwatch/fieldwatch/internal/wechat/wechattest"
)

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
		wx := wechattest.New(t)
		clock := now
		w := notify.New(notify.Options{Store: db, Mail: sender, WeChat: &wechat.Client{Base: wx.URL, AppID: wechattest.AppID, Secret: wechattest.Secret}, WeChatTemplate: "TPL",
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
		if st[1].Method != rules.MethodWeChat || st[1].State != "sent" || len(wx.Sent()) != 1 || wx.Sent()[0].ToUser != "openid-1" || wx.Sent()[0].TemplateID != "TPL" {
			t.Fatalf("wechat: %+v %+v", st[1], wx.Sent())
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
		// WeChat answers 43004 (the user does not follow the account): no
		// retry can help, so that delivery fails at once too.
		wx.FailWith(43004)
		w.RunOnce(ctx)
		evs, _, _ = db.Events(ctx, owner.ID, rules.EventFilter{Page: 1, Size: 10, Kind: rules.KindWarning})
		st, _ = db.Notifications(ctx, owner.ID, evs[0].ID)
		if len(st) != 2 || st[0].State != "failed" || !strings.Contains(st[0].LastError, "not configured") {
			t.Fatalf("unconfigured mail: %+v", st)
		}
		if st[1].State != "failed" || st[1].Attempts != 1 || !strings.Contains(st[1].LastError, "43004") {
			t.Fatalf("WeChat 43004: %+v", st[1])
		}
	})
}
