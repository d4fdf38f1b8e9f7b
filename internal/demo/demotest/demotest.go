// Package demotest sets up the demo farm for tests: its services on a fresh
// SQLite store, and the demo account with its devices as a test reads them
// back, from that farm or from a running server.
package demotest

import (
	"context"
	"log/slog"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/demo"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// Farm is a demo farm on a fresh SQLite store, with the services it was
// made from; Options makes another farm on the same store (a restart).
type Farm struct {
	*demo.Farm
	DB      *store.DB
	Devices *devices.Service
	Options demo.Options
}

// New returns a demo farm on a fresh store, seeded unless told otherwise.
func New(t testing.TB, seed bool) Farm {
	t.Helper()
	db := storetest.OpenSQLite(t)
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		t.Fatal(err)
	}
	devs := devices.New(devices.Options{Store: db, Keys: keys})
	o := demo.Options{Accounts: accounts.New(accounts.Options{Store: db}), Devices: devs, Store: db,
		Log: slog.New(slog.DiscardHandler)}
	f := Farm{Farm: demo.New(o), DB: db, Devices: devs, Options: o}
	if seed {
		if err := f.Seed(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// Finder finds an account by its number: the store, of a farm or a server.
type Finder interface {
	FindAccountByNumber(ctx context.Context, number string) (*accounts.Account, error)
}

// Fleet returns the demo account and every device it owns, slaves included.
func Fleet(t testing.TB, db Finder, devs *devices.Service) (*accounts.Account, []*devices.Device) {
	t.Helper()
	ctx := context.Background()
	a, err := db.FindAccountByNumber(ctx, demo.Account)
	if err != nil {
		t.Fatal(err)
	}
	list, err := devs.All(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	return a, list
}
