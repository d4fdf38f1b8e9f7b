package notify_test

import (
	"context"
	"fmt"
	"slices"
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
	"github.com/fieldwatch/fieldwatch/internal/sharing"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
	"github.com/fieldwatch/fieldwatch/internal/wechat"
	"github.com/fieldwatch/fieldwatch/internal/wechat/wechattest"
)

// An alert reaches the owner and every grantee of the device who has bound
// an address for the method, each in their own language; a grantee with
// nothing bound, a disabled one and an account without a grant get nothing.
func TestWorker_ReachesGrantees(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 22, 0, 0, 0, time.UTC)
		account := func(number, mail, openid, lang string) *accounts.Account {
			a := &accounts.Account{AccountNumber: number, Name: number, PasswordHash: "h", Mail: mail, WechatOpenID: openid, CreatedAt: now}
			if err := db.CreateAccount(ctx, a); err != nil {
				t.Fatal(err)
			}
			if lang != "" {
				if err := db.SetLastLogin(ctx, a.ID, now, lang); err != nil {
					t.Fatal(err)
				}
			}
			return a
		}
		owner := account("owner001", "owner@example.com", "", "zh_CN")
		tw := account("grantee01", "tw@example.com", "openid-tw", "zh_TW")
		bare := account("grantee02", "", "", "en_US")
		off := account("grantee03", "off@example.com", "openid-off", "en_US")
		account("stranger1", "stranger@example.com", "openid-x", "en_US")
		dev := &devices.Device{HashID: "h1", SN: "TQ0000001", TypeID: 5, OwnerID: owner.ID, Name: "North field", State: devices.StateUsed, CreatedAt: now}
		if err := db.CreateDevice(ctx, dev, "sealed"); err != nil {
			t.Fatal(err)
		}
		for i, g := range []*accounts.Account{tw, bare, off} {
			l := &sharing.Link{ID: fmt.Sprintf("link%d", i), Kind: sharing.KindGrant, OwnerID: owner.ID, CreatedAt: now,
				ExpiresAt: now.Add(time.Hour), DeviceIDs: []int64{dev.ID}}
			if err := db.CreateLink(ctx, l); err != nil {
				t.Fatal(err)
			}
			if _, err := db.AcceptLink(ctx, l.ID, g.ID, now); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.SetAccountDisabled(ctx, off.ID, &now); err != nil {
			t.Fatal(err)
		}
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
		w := notify.New(notify.Options{Store: db, Mail: sender, WeChat: &wechat.Client{Base: wx.URL, AppID: wechattest.AppID, Secret: wechattest.Secret},
			WeChatTemplate: "TPL", Now: func() time.Time { return now }})
		eng := rules.NewEngine(rules.EngineOptions{Store: db, Now: func() time.Time { return now }})
		rep := &telemetry.Report{DeviceID: dev.ID, Time: now, Points: []telemetry.Point{{Param: "airTemp", Value: -1.5}}, OfflineAt: now.Add(time.Hour)}
		if _, err := db.WriteReports(ctx, []*telemetry.Report{rep}, time.UTC); err != nil {
			t.Fatal(err)
		}
		if err := eng.Evaluate(ctx, []*telemetry.Report{rep}); err != nil {
			t.Fatal(err)
		}
		// Owner: e-mail and WeChat (failed: nothing linked); the zh_TW grantee: both.
		if n, err := w.RunOnce(ctx); err != nil || n != 4 {
			t.Fatalf("deliveries: %d %v", n, err)
		}
		subjects := map[string]string{}
		for range 2 {
			m := <-smtp.C
			p, err := mailtest.Parse(m.Data)
			if err != nil {
				t.Fatal(err)
			}
			subjects[m.To[0]] = p.Subject
		}
		if subjects["owner@example.com"] != "[Alarm] Frost · North field" || subjects["tw@example.com"] != "【告警】Frost · North field" {
			t.Fatalf("subjects %q", subjects)
		}
		sent := wx.Sent()
		if len(sent) != 1 || sent[0].ToUser != "openid-tw" || !strings.Contains(sent[0].Data["first"].Value, "告警") {
			t.Fatalf("wechat %+v", sent)
		}
		evs, _, _ := db.Events(ctx, owner.ID, rules.EventFilter{Page: 1, Size: 10})
		st, err := db.Notifications(ctx, owner.ID, evs[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range st {
			got = append(got, s.Recipient+" "+string(s.Method)+" "+s.State)
		}
		slices.Sort(got)
		want := []string{"grantee01 email sent", "grantee01 wechat sent", "owner001 email sent", "owner001 wechat failed"}
		if !slices.Equal(got, want) {
			t.Fatalf("deliveries %q, want %q", got, want)
		}
	})
}
