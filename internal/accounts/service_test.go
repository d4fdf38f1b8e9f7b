package accounts_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// clock is a settable time source.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newService(t *testing.T) (*accounts.Service, *clock) {
	t.Helper()
	c := &clock{t: time.UnixMilli(1_800_000_000_000)}
	return accounts.New(accounts.Options{Store: storetest.OpenSQLite(t), Now: c.now}), c
}

var client = accounts.Client{IP: "192.0.2.7", UserAgent: "test"}

func wantErr(t *testing.T, err error, kind errs.Kind, code, field string) {
	t.Helper()
	e := errs.As(err)
	if e == nil || e.Kind != kind || e.Code != code || e.Field != field {
		t.Fatalf("got %v, want %s %s (field %q)", err, kind, code, field)
	}
}

func TestService_Create(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name, number, password, display, code, field string
	}{
		{"ErrNumberRequired", "", "secret1", "", "error.required", "accountNumber"},
		{"ErrNumberTooShort", "abc12", "secret1", "", "account.number.tooShort", "accountNumber"},
		{"ErrNumberCharset", "farm-01", "secret1", "", "account.number.charset", "accountNumber"},
		{"ErrNumberNotASCII", "农场账号六位", "secret1", "", "account.number.charset", "accountNumber"},
		{"ErrNumberTooLong", "a123456789012345678901234567890123", "secret1", "", "account.number.tooLong", "accountNumber"},
		{"ErrPasswordRequired", "farmer01", "", "", "account.password.required", "password"},
		{"ErrPasswordTooShort", "farmer01", "12345", "", "account.password.tooShort", "password"},
		{"ErrNameTooLong", "farmer01", "secret1", "一二三四五六七八九十一二三四五六七", "account.name.tooLong", "name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svc.Create(ctx, tc.number, tc.password, tc.display)
			wantErr(t, err, errs.EInvalid, tc.code, tc.field)
		})
	}
	a, err := svc.Create(ctx, "farmer01", "secret1", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "farmer01" {
		t.Errorf("blank name should default to the account number, got %q", a.Name)
	}
	_, err = svc.Create(ctx, "FARMER01", "secret1", "")
	wantErr(t, err, errs.EInvalid, "account.number.taken", "accountNumber")
}

func TestService_Login(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	if _, err := svc.Create(ctx, "farmer01", "secret1", "农场一"); err != nil {
		t.Fatal(err)
	}
	l, err := svc.Login(ctx, "Farmer01", "secret1", client)
	if err != nil {
		t.Fatal(err)
	}
	if l.Token == "" || l.Account.Name != "农场一" || l.Account.LastLoginAt == nil || l.Session.ClientIP != client.IP {
		t.Fatalf("login: %+v", l)
	}
	a, _, err := svc.Authenticate(ctx, l.Token)
	if err != nil || a.AccountNumber != "farmer01" {
		t.Fatalf("authenticate: %v %v", a, err)
	}
	if l.Session.ID == l.Token {
		t.Error("the store must hold a hash of the token, not the token")
	}

	t.Run("ErrWrongPassword", func(t *testing.T) {
		_, err := svc.Login(ctx, "farmer01", "secret2", client)
		wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
	})
	t.Run("ErrUnknownAccountLooksTheSame", func(t *testing.T) {
		_, err := svc.Login(ctx, "nobody01", "secret1", client)
		wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
	})
	t.Run("ErrMissingFields", func(t *testing.T) {
		_, err := svc.Login(ctx, "", "secret1", client)
		wantErr(t, err, errs.EInvalid, "error.required", "accountNumber")
		_, err = svc.Login(ctx, "farmer01", "", client)
		wantErr(t, err, errs.EInvalid, "account.password.required", "password")
	})
}

func TestService_LoginThrottle(t *testing.T) {
	t.Run("PerAccount", func(t *testing.T) {
		svc, clk := newService(t)
		ctx := context.Background()
		if _, err := svc.Create(ctx, "farmer01", "secret1", ""); err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			_, err := svc.Login(ctx, "farmer01", "wrong!", accounts.Client{IP: "198.51.100." + string(rune('1'+i))})
			wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
			clk.advance(time.Minute)
		}
		// Even the right password is refused while the account is locked, from any address.
		_, err := svc.Login(ctx, "farmer01", "secret1", client)
		wantErr(t, err, errs.ETooMany, "account.login.throttled", "")
		if m := errs.As(err).Params["minutes"]; m != 10 {
			t.Errorf("minutes until the oldest failure leaves the window: got %v, want 10", m)
		}
		clk.advance(10*time.Minute + time.Second)
		if _, err := svc.Login(ctx, "farmer01", "secret1", client); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
	t.Run("PerAddress", func(t *testing.T) {
		svc, _ := newService(t)
		ctx := context.Background()
		if _, err := svc.Create(ctx, "farmer01", "secret1", ""); err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			_, err := svc.Login(ctx, "guess"+string(rune('a'+i))+"00", "wrong!", client)
			wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
		}
		_, err := svc.Login(ctx, "farmer01", "secret1", client)
		wantErr(t, err, errs.ETooMany, "account.login.throttled", "")
		if _, err := svc.Login(ctx, "farmer01", "secret1", accounts.Client{IP: "203.0.113.9"}); err != nil {
			t.Fatalf("another address: %v", err)
		}
	})
}

func TestService_SessionLifetime(t *testing.T) {
	svc, clk := newService(t)
	ctx := context.Background()
	if _, err := svc.Create(ctx, "farmer01", "secret1", ""); err != nil {
		t.Fatal(err)
	}
	l, err := svc.Login(ctx, "farmer01", "secret1", client)
	if err != nil {
		t.Fatal(err)
	}
	ttl := accounts.DefaultSessionTTL

	// Used in the first half of its life: not extended.
	clk.advance(ttl / 4)
	_, s, err := svc.Authenticate(ctx, l.Token)
	if err != nil || !s.ExpiresAt.Equal(l.Session.ExpiresAt) {
		t.Fatalf("early use: %v %v", s, err)
	}
	// Used in the second half: extended to a full TTL from now.
	clk.advance(ttl / 2)
	_, s, err = svc.Authenticate(ctx, l.Token)
	if err != nil || !s.ExpiresAt.Equal(clk.now().Add(ttl)) {
		t.Fatalf("late use: %v %v", s, err)
	}
	// Unused for a whole TTL: expired.
	clk.advance(ttl)
	_, _, err = svc.Authenticate(ctx, l.Token)
	wantErr(t, err, errs.ESession, "error.session", "")

	t.Run("LogoutRevokes", func(t *testing.T) {
		l, err := svc.Login(ctx, "farmer01", "secret1", client)
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.Logout(ctx, l.Token); err != nil {
			t.Fatal(err)
		}
		_, _, err = svc.Authenticate(ctx, l.Token)
		wantErr(t, err, errs.ESession, "error.session", "")
	})
	t.Run("ErrUnknownToken", func(t *testing.T) {
		_, _, err := svc.Authenticate(ctx, "forged")
		wantErr(t, err, errs.ESession, "error.session", "")
		_, _, err = svc.Authenticate(ctx, "")
		wantErr(t, err, errs.ESession, "error.session", "")
	})
}

func TestService_ChangePassword(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	a, err := svc.Create(ctx, "farmer01", "secret1", "")
	if err != nil {
		t.Fatal(err)
	}
	here, _ := svc.Login(ctx, "farmer01", "secret1", client)
	elsewhere, _ := svc.Login(ctx, "farmer01", "secret1", client)

	for _, tc := range []struct{ name, old, new, code, field string }{
		{"ErrOldRequired", "", "secret2", "account.password.required", "oldPassword"},
		{"ErrNewTooShort", "secret1", "12345", "account.password.tooShort", "newPassword"},
		{"ErrSameAsOld", "secret1", "secret1", "account.password.sameAsOld", "newPassword"},
		{"ErrOldWrong", "secret9", "secret2", "account.password.oldWrong", "oldPassword"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := svc.ChangePassword(ctx, a.ID, here.Session.ID, tc.old, tc.new)
			wantErr(t, err, errs.EInvalid, tc.code, tc.field)
		})
	}
	if err := svc.ChangePassword(ctx, a.ID, here.Session.ID, "secret1", "secret2"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Authenticate(ctx, here.Token); err != nil {
		t.Errorf("the session that changed the password must stay: %v", err)
	}
	if _, _, err := svc.Authenticate(ctx, elsewhere.Token); errs.KindOf(err) != errs.ESession {
		t.Errorf("other sessions must be revoked: %v", err)
	}
	if _, err := svc.Login(ctx, "farmer01", "secret1", client); errs.KindOf(err) != errs.EUnauthorized {
		t.Errorf("old password still works: %v", err)
	}
	if _, err := svc.Login(ctx, "farmer01", "secret2", client); err != nil {
		t.Errorf("new password refused: %v", err)
	}
}

func TestService_Rename(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	a, _ := svc.Create(ctx, "farmer01", "secret1", "")
	_, err := svc.Rename(ctx, a.ID, "   ")
	wantErr(t, err, errs.EInvalid, "account.name.empty", "name")
	got, err := svc.Rename(ctx, a.ID, "  东坡灌区 ")
	if err != nil || got.Name != "东坡灌区" {
		t.Fatalf("rename: %v %v", got, err)
	}
}

func TestService_EnsureAccount(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	created, err := svc.EnsureAccount(ctx, "demo01", "demo123456", "示范农场")
	if err != nil || !created {
		t.Fatalf("first: %v %v", created, err)
	}
	created, err = svc.EnsureAccount(ctx, "demo01", "other-password", "x")
	if err != nil || created {
		t.Fatalf("second: %v %v", created, err)
	}
	if _, err := svc.Login(ctx, "demo01", "demo123456", client); err != nil {
		t.Fatalf("the existing password must be kept: %v", err)
	}
}
