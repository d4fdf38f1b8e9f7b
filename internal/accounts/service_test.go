package accounts_test

import (
	"context"
	"fmt"
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

// loginAs logs in from ip with the known-device token device (empty: none).
func loginAs(svc *accounts.Service, number, password, ip, device string) (*accounts.Login, error) {
	return svc.Login(context.Background(), number, password, accounts.Client{IP: ip, UserAgent: "test", Device: device})
}

// wantWait checks a refusal that names its wait in seconds.
func wantWait(t *testing.T, err error, seconds int) {
	t.Helper()
	wantErr(t, err, errs.ETooMany, "account.login.wait", "")
	if got := errs.As(err).Params["seconds"]; got != seconds {
		t.Fatalf("wait %v s, want %d s", got, seconds)
	}
}

func TestService_LoginThrottle(t *testing.T) {
	const owner = "192.0.2.7"
	setup := func(t *testing.T, o accounts.Options) (*accounts.Service, *clock, string) {
		t.Helper()
		c := &clock{t: time.UnixMilli(1_800_000_000_000)}
		if o.Store == nil {
			o.Store = storetest.OpenSQLite(t)
		}
		o.Now = c.now
		svc := accounts.New(o)
		if _, err := svc.Create(context.Background(), "farmer01", "secret1", ""); err != nil {
			t.Fatal(err)
		}
		l, err := loginAs(svc, "farmer01", "secret1", owner, "")
		if err != nil {
			t.Fatal(err)
		}
		if l.Device == "" || !l.DeviceExpires.Equal(c.now().Add(accounts.DefaultKnownDeviceTTL)) {
			t.Fatalf("a login gives a known-device token: %+v", l)
		}
		return svc, c, l.Device
	}

	t.Run("SlowAttackerDoesNotKeepTheOwnerOut", func(t *testing.T) {
		svc, clk, device := setup(t, accounts.Options{})
		// One wrong password every 3 minutes for two hours: the old lock (5
		// failures in 15 minutes) kept the owner out the whole time.
		// The owner comes back every half hour, a minute after a guess.
		for i := range 40 {
			_, err := loginAs(svc, "farmer01", "wrong!", "198.51.100.1", "")
			wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
			clk.advance(time.Minute)
			if i%10 != 4 {
				clk.advance(2 * time.Minute)
				continue
			}
			l, err := loginAs(svc, "farmer01", "secret1", owner, device)
			if err != nil {
				t.Fatalf("attempt %d: the owner's known device was refused: %v", i, err)
			}
			if l.Device != device {
				t.Fatalf("a known device keeps its token")
			}
			// At this rate even a client the account has never seen gets in.
			if _, err := loginAs(svc, "farmer01", "secret1", "203.0.113.50", ""); err != nil {
				t.Fatalf("attempt %d: a new client was refused: %v", i, err)
			}
			clk.advance(2 * time.Minute)
		}
	})

	t.Run("ManyAddressesLockStrangersButNotKnownDevices", func(t *testing.T) {
		svc, clk, device := setup(t, accounts.Options{})
		for i := range 10 {
			_, err := loginAs(svc, "farmer01", "wrong!", fmt.Sprintf("198.51.100.%d", i+1), "")
			wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
			clk.advance(time.Minute)
		}
		// Clients that are not known devices of the account wait until the
		// oldest failure leaves the window, whatever their address or password.
		_, err := loginAs(svc, "farmer01", "secret1", "203.0.113.50", "")
		wantErr(t, err, errs.ETooMany, "account.login.throttled", "")
		if m := errs.As(err).Params["minutes"]; m != 5 {
			t.Errorf("minutes until the oldest failure leaves the window: got %v, want 5", m)
		}
		_, err = loginAs(svc, "farmer01", "secret1", owner, "forged-token")
		wantErr(t, err, errs.ETooMany, "account.login.throttled", "")
		// The owner's known device logs in, from any address.
		if _, err := loginAs(svc, "farmer01", "secret1", "203.0.113.51", device); err != nil {
			t.Fatalf("known device: %v", err)
		}
		// A known device that keeps failing is a stranger again.
		for range 5 {
			_, err := loginAs(svc, "farmer01", "wrong!", owner, device)
			wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
		}
		_, err = loginAs(svc, "farmer01", "secret1", owner, device)
		wantErr(t, err, errs.ETooMany, "account.login.throttled", "")
		clk.advance(16 * time.Minute)
		if _, err := loginAs(svc, "farmer01", "secret1", "203.0.113.50", ""); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})

	t.Run("GrowingDelaysPerAccountAndAddress", func(t *testing.T) {
		db := storetest.OpenSQLite(t)
		svc, clk, device := setup(t, accounts.Options{Store: db})
		const hammer = "198.51.100.9"
		for range 5 {
			_, err := loginAs(svc, "farmer01", "wrong!", hammer, "")
			wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
		}
		for _, wait := range []int{1, 2, 4, 8} {
			_, err := loginAs(svc, "farmer01", "wrong!", hammer, "")
			wantWait(t, err, wait)
			// The right password does not help while the client must wait.
			_, err = loginAs(svc, "farmer01", "secret1", hammer, "")
			wantWait(t, err, wait)
			clk.advance(time.Duration(wait)*time.Second - time.Millisecond)
			_, err = loginAs(svc, "farmer01", "wrong!", hammer, "")
			wantWait(t, err, 1)
			clk.advance(time.Millisecond)
			_, err = loginAs(svc, "farmer01", "wrong!", hammer, "")
			wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
		}
		// The delay is the store's: another node, or this one restarted, sees it.
		other := accounts.New(accounts.Options{Store: db, Now: clk.now})
		_, err := loginAs(other, "farmer01", "wrong!", hammer, "")
		wantWait(t, err, 16)
		// Other addresses and the owner's device are not slowed down.
		if _, err := loginAs(svc, "farmer01", "secret1", "203.0.113.50", ""); err != nil {
			t.Fatalf("another address: %v", err)
		}
		if _, err := loginAs(svc, "farmer01", "secret1", hammer, device); err != nil {
			t.Fatalf("known device on the same address: %v", err)
		}
		// Waiting out the delay, the right password gets in and the client
		// starts afresh; the account still counts the nine failures, and the
		// tenth from strangers locks them out.
		clk.advance(16 * time.Second)
		if _, err := loginAs(svc, "farmer01", "secret1", hammer, ""); err != nil {
			t.Fatalf("after the delay: %v", err)
		}
		_, err = loginAs(svc, "farmer01", "wrong!", hammer, "")
		wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
		_, err = loginAs(svc, "farmer01", "wrong!", hammer, "")
		wantErr(t, err, errs.ETooMany, "account.login.throttled", "")
	})

	t.Run("DelayIsCapped", func(t *testing.T) {
		svc, clk, _ := setup(t, accounts.Options{MaxDelay: 5 * time.Second, AccountMaxFailures: 100})
		for range 5 {
			_, err := loginAs(svc, "farmer01", "wrong!", "198.51.100.9", "")
			wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
		}
		for _, wait := range []int{1, 2, 4, 5, 5, 5} {
			_, err := loginAs(svc, "farmer01", "wrong!", "198.51.100.9", "")
			wantWait(t, err, wait)
			clk.advance(time.Duration(wait) * time.Second)
			_, err = loginAs(svc, "farmer01", "wrong!", "198.51.100.9", "")
			wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
		}
	})

	t.Run("PerAddress", func(t *testing.T) {
		svc, _ := newService(t)
		ctx := context.Background()
		if _, err := svc.Create(ctx, "farmer01", "secret1", ""); err != nil {
			t.Fatal(err)
		}
		known, err := svc.Login(ctx, "farmer01", "secret1", accounts.Client{IP: "203.0.113.9"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			_, err := svc.Login(ctx, "guess"+string(rune('a'+i))+"00", "wrong!", client)
			wantErr(t, err, errs.EUnauthorized, "account.credentials.invalid", "")
		}
		_, err = svc.Login(ctx, "farmer01", "secret1", client)
		wantErr(t, err, errs.ETooMany, "account.login.throttled", "")
		// The address limit holds for known devices too.
		_, err = svc.Login(ctx, "farmer01", "secret1", accounts.Client{IP: client.IP, Device: known.Device})
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
	t.Run("ErrOldWrongIsThrottledPerSession", func(t *testing.T) {
		for range 5 {
			err := svc.ChangePassword(ctx, a.ID, elsewhere.Session.ID, "secret9", "secret2")
			wantErr(t, err, errs.EInvalid, "account.password.oldWrong", "oldPassword")
		}
		err := svc.ChangePassword(ctx, a.ID, elsewhere.Session.ID, "secret1", "secret2")
		wantErr(t, err, errs.ETooMany, "account.login.throttled", "")
	})
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
