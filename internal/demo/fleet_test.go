package demo_test

import (
	"context"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/demo"
	"github.com/fieldwatch/fieldwatch/internal/demo/demotest"
	"github.com/fieldwatch/fieldwatch/internal/devices"
)

// A device a user registers to the demo account is theirs: the demo does
// not connect as it, before or after a restart.
func TestFleet_OnlyTheDemosOwnDevices(t *testing.T) {
	farm := demotest.New(t, true)
	ctx := context.Background()
	a, _ := demotest.Fleet(t, farm.DB, farm.Devices)
	const real = "FARM2024000777"
	if _, _, err := farm.Devices.Register(ctx, devices.Registration{SN: real, TypeID: 2, Owner: a.ID, Name: "my probe"}); err != nil {
		t.Fatal(err)
	}
	restarted := demo.New(farm.Options)
	if err := restarted.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	fleet, err := demo.FleetSNs(ctx, restarted)
	if err != nil {
		t.Fatal(err)
	}
	if len(fleet) != demo.Seeded() {
		t.Errorf("%d devices simulated, want the %d the demo seeded", len(fleet), demo.Seeded())
	}
	for _, sn := range fleet {
		if sn == real {
			t.Errorf("the demo simulates %s, a device a user registered", real)
		}
	}
}
