package demo

import (
	"context"
	"log/slog"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// A device a user registers to the demo account is theirs: the demo does
// not connect as it, before or after a restart.
func TestFleet_OnlyTheDemosOwnDevices(t *testing.T) {
	db := storetest.OpenSQLite(t)
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	devs := devices.New(devices.Options{Store: db, Keys: keys})
	o := Options{Accounts: accounts.New(accounts.Options{Store: db}), Devices: devs, Store: db, Log: slog.New(slog.DiscardHandler)}
	if err := New(o).Seed(ctx); err != nil {
		t.Fatal(err)
	}
	a, err := db.FindAccountByNumber(ctx, Account)
	if err != nil {
		t.Fatal(err)
	}
	const real = "FARM2024000777"
	if _, _, err := devs.Register(ctx, devices.Registration{SN: real, TypeID: 2, Owner: a.ID, Name: "my probe"}); err != nil {
		t.Fatal(err)
	}
	restarted := New(o)
	if err := restarted.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	fleet, err := restarted.fleet(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(fleet) != len(seeded()) {
		t.Errorf("%d devices simulated, want the %d the demo seeded", len(fleet), len(seeded()))
	}
	for _, m := range fleet {
		if m.dev.SN == real {
			t.Errorf("the demo simulates %s, a device a user registered", real)
		}
	}
}
