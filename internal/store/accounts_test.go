package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func newAccount(t testing.TB, db *store.DB, number string) *accounts.Account {
	t.Helper()
	a := &accounts.Account{AccountNumber: number, Name: "Farm " + number, PasswordHash: "h", CreatedAt: time.UnixMilli(1_700_000_000_000)}
	if err := db.CreateAccount(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestStore_Accounts(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		a := newAccount(t, db, "Farmer01")
		if a.ID == 0 {
			t.Fatal("CreateAccount did not set the ID")
		}

		t.Run("FindByNumberIgnoresCase", func(t *testing.T) {
			got, err := db.FindAccountByNumber(ctx, "farmer01")
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != a.ID || got.AccountNumber != "Farmer01" || got.Name != "Farm Farmer01" || !got.CreatedAt.Equal(a.CreatedAt) || got.LastLoginAt != nil {
				t.Fatalf("got %+v", got)
			}
		})
		t.Run("ErrConflictOnDuplicateNumber", func(t *testing.T) {
			err := db.CreateAccount(ctx, &accounts.Account{AccountNumber: "FARMER01", Name: "x", PasswordHash: "h", CreatedAt: time.Now()})
			if e := errs.As(err); e == nil || e.Code != "account.number.taken" || e.Field != "accountNumber" {
				t.Fatalf("got %v", err)
			}
		})
		t.Run("ErrNotFound", func(t *testing.T) {
			if _, err := db.FindAccountByNumber(ctx, "nobody1"); errs.KindOf(err) != errs.ENotFound {
				t.Fatalf("by number: %v", err)
			}
			if _, err := db.FindAccountByID(ctx, a.ID+1000); errs.KindOf(err) != errs.ENotFound {
				t.Fatalf("by id: %v", err)
			}
			if err := db.UpdateAccountName(ctx, a.ID+1000, "x"); errs.KindOf(err) != errs.ENotFound {
				t.Fatalf("rename: %v", err)
			}
		})
		t.Run("RenameAndLastLogin", func(t *testing.T) {
			at := time.UnixMilli(1_700_000_123_456)
			if err := db.UpdateAccountName(ctx, a.ID, "示范农场"); err != nil {
				t.Fatal(err)
			}
			if err := db.SetLastLogin(ctx, a.ID, at, "en_US"); err != nil {
				t.Fatal(err)
			}
			got, err := db.FindAccountByID(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != "示范农场" || got.LastLoginAt == nil || !got.LastLoginAt.Equal(at) {
				t.Fatalf("got %+v", got)
			}
		})
	})
}

func TestStore_Sessions(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		a := newAccount(t, db, "farmer02")
		other := newAccount(t, db, "farmer03")
		now := time.UnixMilli(1_700_000_000_000)
		mk := func(id string, acc int64, exp time.Time) {
			t.Helper()
			err := db.CreateSession(ctx, &accounts.Session{ID: id, AccountID: acc, CreatedAt: now, ExpiresAt: exp, UserAgent: "ua", ClientIP: "10.0.0.1"})
			if err != nil {
				t.Fatal(err)
			}
		}
		mk("s1", a.ID, now.Add(time.Hour))
		mk("s2", a.ID, now.Add(time.Hour))
		mk("s3", other.ID, now.Add(time.Hour))
		mk("old", a.ID, now.Add(-time.Second))

		s, err := db.FindSession(ctx, "s1")
		if err != nil || s.AccountID != a.ID || !s.ExpiresAt.Equal(now.Add(time.Hour)) || s.ClientIP != "10.0.0.1" {
			t.Fatalf("find: %+v %v", s, err)
		}
		if err := db.ExtendSession(ctx, "s1", now.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if s, _ := db.FindSession(ctx, "s1"); !s.ExpiresAt.Equal(now.Add(2 * time.Hour)) {
			t.Fatalf("extend: %v", s.ExpiresAt)
		}
		if n, err := db.DeleteExpiredSessions(ctx, now); err != nil || n != 1 {
			t.Fatalf("expired: %d %v", n, err)
		}

		// A password change keeps the current session and revokes the account's others only.
		if err := db.UpdatePassword(ctx, a.ID, "h2", "s1"); err != nil {
			t.Fatal(err)
		}
		for id, want := range map[string]bool{"s1": true, "s2": false, "s3": true} {
			_, err := db.FindSession(ctx, id)
			if got := err == nil; got != want {
				t.Errorf("session %s present=%v, want %v (%v)", id, got, want, err)
			}
		}
		if got, _ := db.FindAccountByID(ctx, a.ID); got.PasswordHash != "h2" {
			t.Errorf("hash not updated")
		}
		if err := db.UpdatePassword(ctx, a.ID+1000, "h", ""); errs.KindOf(err) != errs.ENotFound {
			t.Errorf("unknown account: %v", err)
		}

		if err := db.DeleteSession(ctx, "s1"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.FindSession(ctx, "s1"); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("after delete: %v", err)
		}
		if err := db.DeleteSession(ctx, "s1"); err != nil {
			t.Fatalf("second delete: %v", err)
		}
	})
}

func TestStore_LoginFailures(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t0 := time.UnixMilli(1_700_000_000_000)
		window := 15 * time.Minute
		for i := range 3 {
			at := t0.Add(time.Duration(i) * time.Minute)
			if err := db.AddLoginFailure(ctx, "account:x", at, at.Add(-window)); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.AddLoginFailure(ctx, "address:1.2.3.4", t0, t0.Add(-window)); err != nil {
			t.Fatal(err)
		}
		f, err := db.LoginFailures(ctx, "account:x", t0.Add(-window))
		if err != nil || f.Count != 3 || !f.Oldest.Equal(t0) || !f.Latest.Equal(t0.Add(2*time.Minute)) {
			t.Fatalf("count: %+v %v", f, err)
		}
		// Only failures inside the window count.
		if f, _ := db.LoginFailures(ctx, "account:x", t0.Add(90*time.Second)); f.Count != 1 {
			t.Fatalf("windowed count: %d", f.Count)
		}
		if f, _ := db.LoginFailures(ctx, "account:none", t0.Add(-window)); f.Count != 0 || !f.Oldest.IsZero() || !f.Latest.IsZero() {
			t.Fatalf("no failures: %+v", f)
		}
		// A later failure prunes records that fell out of the window.
		late := t0.Add(time.Hour)
		if err := db.AddLoginFailure(ctx, "account:x", late, late.Add(-window)); err != nil {
			t.Fatal(err)
		}
		if f, _ := db.LoginFailures(ctx, "account:x", time.UnixMilli(0)); f.Count != 1 {
			t.Fatalf("after prune: %d", f.Count)
		}
		if err := db.ClearLoginFailures(ctx, "account:x"); err != nil {
			t.Fatal(err)
		}
		if f, _ := db.LoginFailures(ctx, "account:x", time.UnixMilli(0)); f.Count != 0 {
			t.Fatalf("after clear: %d", f.Count)
		}
		if f, _ := db.LoginFailures(ctx, "address:1.2.3.4", time.UnixMilli(0)); f.Count != 1 {
			t.Fatalf("other key touched: %d", f.Count)
		}
		// The purge drops every key's old failures.
		if err := db.DeleteLoginFailures(ctx, t0.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		if f, _ := db.LoginFailures(ctx, "address:1.2.3.4", time.UnixMilli(0)); f.Count != 0 {
			t.Fatalf("after purge: %d", f.Count)
		}
	})
}

func TestStore_KnownDevices(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t0 := time.UnixMilli(1_700_000_000_000)
		a := &accounts.Account{AccountNumber: "farmer01", Name: "x", PasswordHash: "h", CreatedAt: t0}
		b := &accounts.Account{AccountNumber: "farmer02", Name: "y", PasswordHash: "h", CreatedAt: t0}
		for _, acc := range []*accounts.Account{a, b} {
			if err := db.CreateAccount(ctx, acc); err != nil {
				t.Fatal(err)
			}
		}
		known := func(id string, account int64, at time.Time) bool {
			t.Helper()
			ok, err := db.IsKnownDevice(ctx, id, account, at)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if err := db.AddKnownDevice(ctx, "d1", a.ID, t0, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if !known("d1", a.ID, t0) || known("d1", b.ID, t0) || known("d2", a.ID, t0) || known("d1", a.ID, t0.Add(time.Hour)) {
			t.Fatal("a device is known to the account it logged in to, until its expiry")
		}
		// Logging in again moves the expiry; one device may know two accounts.
		if err := db.AddKnownDevice(ctx, "d1", a.ID, t0, t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := db.AddKnownDevice(ctx, "d1", b.ID, t0, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if !known("d1", a.ID, t0.Add(90*time.Minute)) || !known("d1", b.ID, t0) {
			t.Fatal("extended or second account not known")
		}
		if err := db.DeleteExpiredKnownDevices(ctx, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if known("d1", b.ID, t0) || !known("d1", a.ID, t0) {
			t.Fatal("the purge must drop exactly the expired records")
		}
	})
}

func TestStore_MigrateIsIdempotent(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		v, err := db.Migrate(context.Background())
		if err != nil || v < 1 {
			t.Fatalf("second migrate: %d %v", v, err)
		}
	})
}
