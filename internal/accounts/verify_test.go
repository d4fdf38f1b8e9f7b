package accounts_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// codeFixture is the account service over one store with a real SMTP
// server receiving the codes.
type codeFixture struct {
	svc  *accounts.Service
	db   *store.DB
	smtp *mailtest.Server
	clk  *clock
}

func newCodeFixture(t *testing.T, db *store.DB, texter accounts.CodeTexter) *codeFixture {
	t.Helper()
	srv, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	sender, err := mail.New(mail.Config{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.UnixMilli(1_800_000_000_000)}
	o := accounts.Options{Store: db, Now: c.now, Mail: sender}
	if texter != nil {
		o.SMS = texter
	}
	return &codeFixture{svc: accounts.New(o), db: db, smtp: srv, clk: c}
}

var sixDigits = regexp.MustCompile(`\b(\d{6})\b`)

// mailedCode reads the next message and returns its recipient and code.
func (f *codeFixture) mailedCode(t *testing.T) (string, string) {
	t.Helper()
	m := <-f.smtp.C
	p, err := mailtest.Parse(m.Data)
	if err != nil {
		t.Fatal(err)
	}
	got := sixDigits.FindStringSubmatch(p.Subject)
	if got == nil || !strings.Contains(p.Text, got[1]) {
		t.Fatalf("no code in %q / %q", p.Subject, p.Text)
	}
	return m.To[0], got[1]
}

func (f *codeFixture) send(t *testing.T, r accounts.CodeRequest) *accounts.CodeSent {
	t.Helper()
	if r.Lang == "" {
		r.Lang = i18n.EnUS
	}
	sent, err := f.svc.SendCode(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return sent
}

func wrong(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

func TestVerification_Codes(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newCodeFixture(t, db, nil)
		a, err := f.svc.Create(ctx, "farmer01", "secret1", "")
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.svc.Create(ctx, "farmer02", "secret2", "")
		if err != nil {
			t.Fatal(err)
		}
		bind := func(addr string) accounts.CodeRequest {
			return accounts.CodeRequest{AccountID: a.ID, Purpose: accounts.PurposeBind, Channel: accounts.ChannelEmail, Address: addr, ClientIP: "192.0.2.1"}
		}

		t.Run("ErrBadAddress", func(t *testing.T) {
			for _, bad := range []string{"", "farm", "farm@", "@farm.cn", "farm@localhost", "Farm <farm@farm.cn>", "a b@farm.cn"} {
				_, err := f.svc.SendCode(ctx, bind(bad))
				want := "verify.email.invalid"
				if bad == "" {
					want = "verify.email.required"
				}
				wantErr(t, err, errs.EInvalid, want, "address")
			}
		})
		t.Run("ErrSMSNotConfigured", func(t *testing.T) {
			_, err := f.svc.SendCode(ctx, accounts.CodeRequest{AccountID: a.ID, Purpose: accounts.PurposeBind,
				Channel: accounts.ChannelMobile, Address: "13800138000", Field: "phoneNumber"})
			wantErr(t, err, errs.EUnavailable, "verify.sms.notConfigured", "")
		})

		var sent *accounts.CodeSent
		var code string
		t.Run("SentHashedAtRest", func(t *testing.T) {
			sent = f.send(t, bind(" farm@example.com "))
			var to string
			to, code = f.mailedCode(t)
			if to != "farm@example.com" || sent.Address != "f***@example.com" || sent.ExpiresIn != 600 || sent.ResendIn != 60 || sent.Ticket == "" {
				t.Fatalf("to %q, sent %+v", to, sent)
			}
			v, err := db.LatestVerification(ctx, a.ID, accounts.PurposeBind, accounts.ChannelEmail, "farm@example.com")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(v.CodeHash, code) || strings.Contains(v.ID, sent.Ticket) || len(v.CodeHash) != 64 {
				t.Fatalf("stored %+v for code %s", v, code)
			}
		})
		t.Run("ErrResendThrottled", func(t *testing.T) {
			f.clk.advance(15 * time.Second)
			_, err := f.svc.SendCode(ctx, bind("farm@example.com"))
			wantErr(t, err, errs.ETooMany, "verify.code.throttled", "")
			if got := errs.As(err).Params["time"]; got != 45 {
				t.Fatalf("time %v, want 45", got)
			}
			msg := i18n.Message(i18n.EnUS, "verify.code.throttled", "", errs.As(err).Params)
			if msg != "The verification code has been sent, please try again after 45 seconds" {
				t.Fatalf("message %q", msg)
			}
		})
		t.Run("ErrAnotherAccountsTicket", func(t *testing.T) {
			_, err := f.svc.Bind(ctx, b.ID, accounts.ChannelEmail, accounts.Proof{Ticket: sent.Ticket, Code: code})
			wantErr(t, err, errs.EInvalid, "verify.code.invalid", "code")
			got, _ := db.FindAccountByID(ctx, b.ID)
			if got.Mail != "" {
				t.Fatalf("b bound %q", got.Mail)
			}
		})
		t.Run("BindSingleUse", func(t *testing.T) {
			got, err := f.svc.Bind(ctx, a.ID, accounts.ChannelEmail, accounts.Proof{Ticket: sent.Ticket, Code: code})
			if err != nil {
				t.Fatal(err)
			}
			if got.Mail != "farm@example.com" {
				t.Fatalf("mail %q", got.Mail)
			}
			_, err = f.svc.Bind(ctx, a.ID, accounts.ChannelEmail, accounts.Proof{Ticket: sent.Ticket, Code: code})
			wantErr(t, err, errs.EInvalid, "verify.code.invalid", "code")
		})
		t.Run("LocksAfterFiveTries", func(t *testing.T) {
			f.clk.advance(time.Minute)
			s := f.send(t, bind("farm2@example.com"))
			_, c := f.mailedCode(t)
			for i := 1; i <= 4; i++ {
				_, err := f.svc.Bind(ctx, a.ID, accounts.ChannelEmail, accounts.Proof{Ticket: s.Ticket, Code: wrong(c)})
				wantErr(t, err, errs.EInvalid, "verify.code.wrong", "code")
				if left := errs.As(err).Params["left"]; left != 5-i {
					t.Fatalf("try %d: left %v", i, left)
				}
			}
			_, err := f.svc.Bind(ctx, a.ID, accounts.ChannelEmail, accounts.Proof{Ticket: s.Ticket, Code: wrong(c)})
			wantErr(t, err, errs.EInvalid, "verify.code.locked", "code")
			_, err = f.svc.Bind(ctx, a.ID, accounts.ChannelEmail, accounts.Proof{Ticket: s.Ticket, Code: c})
			wantErr(t, err, errs.EInvalid, "verify.code.locked", "code")
			if got, _ := db.FindAccountByID(ctx, a.ID); got.Mail != "farm@example.com" {
				t.Fatalf("mail changed to %q", got.Mail)
			}
		})
		t.Run("Expires", func(t *testing.T) {
			f.clk.advance(time.Minute)
			s := f.send(t, bind("farm3@example.com"))
			_, c := f.mailedCode(t)
			f.clk.advance(accounts.CodeTTL)
			_, err := f.svc.Bind(ctx, a.ID, accounts.ChannelEmail, accounts.Proof{Ticket: s.Ticket, Code: c})
			wantErr(t, err, errs.EInvalid, "verify.code.expired", "code")
		})
		t.Run("BindByAddressWithoutTicket", func(t *testing.T) {
			f.clk.advance(time.Minute)
			f.send(t, bind("farm4@example.com"))
			_, c := f.mailedCode(t)
			_, err := f.svc.Bind(ctx, a.ID, accounts.ChannelEmail, accounts.Proof{Address: "farm5@example.com", Code: c})
			wantErr(t, err, errs.EInvalid, "verify.code.invalid", "code")
			got, err := f.svc.Bind(ctx, a.ID, accounts.ChannelEmail, accounts.Proof{Address: "farm4@example.com", Code: c})
			if err != nil || got.Mail != "farm4@example.com" {
				t.Fatalf("%v %+v", err, got)
			}
		})
		t.Run("UnbindNeedsACodeToTheBoundAddress", func(t *testing.T) {
			_, err := f.svc.Unbind(ctx, a.ID, accounts.ChannelEmail, accounts.Proof{})
			wantErr(t, err, errs.EInvalid, "verify.code.required", "code")
			// A bind code is not an unbind code.
			f.clk.advance(time.Minute)
			s := f.send(t, bind("farm6@example.com"))
			_, c := f.mailedCode(t)
			_, err = f.svc.Unbind(ctx, a.ID, accounts.ChannelEmail, accounts.Proof{Ticket: s.Ticket, Code: c})
			wantErr(t, err, errs.EInvalid, "verify.code.invalid", "code")

			s = f.send(t, accounts.CodeRequest{AccountID: a.ID, Purpose: accounts.PurposeUnbind, Channel: accounts.ChannelEmail, Address: "ignored@example.com"})
			to, c := f.mailedCode(t)
			if to != "farm4@example.com" {
				t.Fatalf("unbind code went to %q", to)
			}
			got, err := f.svc.Unbind(ctx, a.ID, accounts.ChannelEmail, accounts.Proof{Ticket: s.Ticket, Code: c})
			if err != nil || got.Mail != "" {
				t.Fatalf("%v %+v", err, got)
			}
			_, err = f.svc.SendCode(ctx, accounts.CodeRequest{AccountID: a.ID, Purpose: accounts.PurposeUnbind, Channel: accounts.ChannelEmail})
			wantErr(t, err, errs.EInvalid, "verify.notBound.email", "channel")
		})
	})
}

func TestVerification_DailyLimits(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newCodeFixture(t, db, nil)
		a, err := f.svc.Create(ctx, "farmer01", "secret1", "")
		if err != nil {
			t.Fatal(err)
		}
		req := accounts.CodeRequest{AccountID: a.ID, Purpose: accounts.PurposeBind, Channel: accounts.ChannelEmail, Address: "farm@example.com"}
		for range accounts.CodesPerAddress {
			f.send(t, req)
			f.mailedCode(t)
			f.clk.advance(accounts.CodeResendAfter)
		}
		_, err = f.svc.SendCode(ctx, req)
		wantErr(t, err, errs.ETooMany, "verify.code.dailyLimit", "")
		// Another address of the same account still gets codes, up to the account's limit.
		for i := range accounts.CodesPerAccount - accounts.CodesPerAddress {
			r := req
			r.Address = "farm" + string(rune('a'+i)) + "@example.com"
			f.send(t, r)
			f.mailedCode(t)
		}
		req.Address = "other@example.com"
		_, err = f.svc.SendCode(ctx, req)
		wantErr(t, err, errs.ETooMany, "verify.code.dailyLimit", "")
		f.clk.advance(accounts.CodeWindow)
		f.send(t, req)
		f.mailedCode(t)
	})
}

func TestVerification_ResetPassword(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newCodeFixture(t, db, nil)
		a, err := f.svc.Create(ctx, "farmer01", "secret1", "")
		if err != nil {
			t.Fatal(err)
		}
		reset := accounts.CodeRequest{Username: "FARMER01", Purpose: accounts.PurposeReset, Channel: accounts.ChannelEmail}
		_, err = f.svc.SendCode(ctx, reset)
		wantErr(t, err, errs.EInvalid, "account.reset.noAddress.email", "username")
		_, err = f.svc.SendCode(ctx, accounts.CodeRequest{Username: "nobody01", Purpose: accounts.PurposeReset, Channel: accounts.ChannelEmail})
		wantErr(t, err, errs.EInvalid, "account.reset.noAddress.email", "username")

		if err := db.UpdateAccountMail(ctx, a.ID, "farm@example.com"); err != nil {
			t.Fatal(err)
		}
		login, err := f.svc.Login(ctx, "farmer01", "secret1", client)
		if err != nil {
			t.Fatal(err)
		}
		s := f.send(t, reset)
		to, c := f.mailedCode(t)
		if to != "farm@example.com" {
			t.Fatalf("to %q", to)
		}
		err = f.svc.ResetPassword(ctx, "farmer01", accounts.ChannelEmail, accounts.Proof{Ticket: s.Ticket, Code: c}, "12345")
		wantErr(t, err, errs.EInvalid, "account.password.tooShort", "password")
		err = f.svc.ResetPassword(ctx, "farmer01", accounts.ChannelEmail, accounts.Proof{Ticket: s.Ticket, Code: wrong(c)}, "newpass1")
		wantErr(t, err, errs.EInvalid, "verify.code.wrong", "code")
		if err := f.svc.ResetPassword(ctx, "farmer01", accounts.ChannelEmail, accounts.Proof{Ticket: s.Ticket, Code: c}, "newpass1"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Authenticate(ctx, login.Token); errs.KindOf(err) != errs.ESession {
			t.Fatalf("old session after reset: %v", err)
		}
		if _, err := f.svc.Login(ctx, "farmer01", "secret1", client); errs.KindOf(err) != errs.EUnauthorized {
			t.Fatalf("old password: %v", err)
		}
		if _, err := f.svc.Login(ctx, "farmer01", "newpass1", client); err != nil {
			t.Fatal(err)
		}
		err = f.svc.ResetPassword(ctx, "farmer01", accounts.ChannelEmail, accounts.Proof{Ticket: s.Ticket, Code: c}, "newpass2")
		wantErr(t, err, errs.EInvalid, "verify.code.invalid", "code")
	})
}

func TestNormalizeMobile(t *testing.T) {
	for in, want := range map[string]string{"13800138000": "13800138000", "+86 138-0013-8000": "13800138000", "8613800138000": "13800138000"} {
		if got, err := accounts.NormalizeMobile("phoneNumber", in); err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
	for _, bad := range []string{"12800138000", "1380013800", "138001380001", "1380013800a", "+1 415 555 0100"} {
		_, err := accounts.NormalizeMobile("phoneNumber", bad)
		wantErr(t, err, errs.EInvalid, "verify.mobile.invalid", "phoneNumber")
	}
}

func TestService_DisabledAccount(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := accounts.New(accounts.Options{Store: db})
		if _, err := svc.CreateWith(ctx, accounts.NewAccount{Number: "farmer01", Password: "secret1", Mail: "farm@example.com"}); err != nil {
			t.Fatal(err)
		}
		l, err := svc.Login(ctx, "farmer01", "secret1", client)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.SetDisabled(ctx, "Farmer01", true); err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.Authenticate(ctx, l.Token); errs.KindOf(err) != errs.ESession {
			t.Fatalf("session of a disabled account: %v", err)
		}
		_, err = svc.Login(ctx, "farmer01", "secret1", client)
		wantErr(t, err, errs.EForbidden, "account.disabled", "")
		// A wrong password still reads as a wrong password: disabling tells nothing to a guesser.
		_, err = svc.Login(ctx, "farmer01", "wrong12", client)
		wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
		list, err := svc.List(ctx)
		if err != nil || len(list) != 1 || list[0].DisabledAt == nil || list[0].Mail != "farm@example.com" {
			t.Fatalf("list %v %+v", err, list)
		}
		if _, err := svc.SetDisabled(ctx, "farmer01", false); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Login(ctx, "farmer01", "secret1", client); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.SetDisabled(ctx, "nobody01", true); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("unknown: %v", err)
		}
	})
}
