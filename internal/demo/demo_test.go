package demo_test

import (
	"context"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/demo"
	"github.com/fieldwatch/fieldwatch/internal/demo/demotest"
	"github.com/fieldwatch/fieldwatch/internal/devices"
)

// Seed creates the account and two devices of every type (with the slave
// units of hosts), and a second Seed leaves them as they are.
func TestSeed(t *testing.T) {
	farm := demotest.New(t, false)
	ctx := context.Background()
	count := func() (perType map[int]int, slaves, all int) {
		a, list := demotest.Fleet(t, farm.DB, farm.Devices)
		if a.Mail != demo.Mail {
			t.Errorf("demo account mail %q", a.Mail)
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
	for _, f := range demo.Free {
		d, err := farm.Devices.FindBySN(ctx, f.SN)
		if err != nil || d.OwnerID != 0 || d.TypeID != f.TypeID {
			t.Errorf("free device %s: %+v %v", f.SN, d, err)
		}
	}
}
