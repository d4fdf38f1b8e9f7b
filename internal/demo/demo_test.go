package demo_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/demo"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// Seed creates the account and two devices of every type (with the slave
// units of hosts), and a second Seed leaves them as they are.
func TestSeed(t *testing.T) {
	db := storetest.OpenSQLite(t)
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	devs := devices.New(devices.Options{Store: db, Keys: keys})
	farm := demo.New(demo.Options{Accounts: accounts.New(accounts.Options{Store: db}), Devices: devs, Store: db,
		Log: slog.New(slog.DiscardHandler)})
	count := func() (perType map[int]int, slaves, all int) {
		a, err := db.FindAccountByNumber(ctx, demo.Account)
		if err != nil {
			t.Fatal(err)
		}
		if a.Mail != demo.Mail {
			t.Errorf("demo account mail %q", a.Mail)
		}
		list, err := devs.All(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		perType = map[int]int{}
		for _, d := range list {
			if d.Slave {
				slaves++
			} else {
				perType[d.TypeID]++
			}
		}
		return perType, slaves, len(list)
	}
	if err := farm.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	perType, slaves, all := count()
	for _, ty := range devices.Types() {
		if perType[ty.ID] != 2 {
			t.Errorf("type %d: %d demo devices, want 2", ty.ID, perType[ty.ID])
		}
	}
	if slaves < 2 {
		t.Errorf("%d slaves, want the slave unit of each host", slaves)
	}
	if err := farm.Seed(ctx); err != nil {
		t.Fatalf("second seed: %v", err)
	}
	if _, _, again := count(); again != all {
		t.Errorf("second seed: %d devices, had %d", again, all)
	}
}
