package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/soil"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func TestStore_SoilSettings(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		probe := newDevice(t, db, "ZS0000001", 2, owner.ID)

		if _, err := db.SoilSettings(ctx, probe.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("no settings yet: %v", err)
		}
		planted := time.UnixMilli(1_772_323_200_000)
		area := 12.5
		want := &soil.Settings{DeviceID: probe.ID,
			Nodes:    []soil.NodeConfig{{Depth: 10, FieldCapacity: 30.5, UnitWeight: 1.35}, {Depth: 20, FieldCapacity: 31, UnitWeight: 1.4}},
			CropType: "maize", CropVariety: "郑单958", IrrigationMethod: "drip", PlantingTime: &planted, AreaMu: &area,
			Upload: true, UpdatedAt: time.UnixMilli(1_772_400_000_000)}
		if err := db.SaveSoilSettings(ctx, want); err != nil {
			t.Fatal(err)
		}
		got, err := db.SoilSettings(ctx, probe.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read back\n got %+v\nwant %+v", got, want)
		}

		// Saving again replaces everything, optional fields included.
		again := &soil.Settings{DeviceID: probe.ID, Nodes: []soil.NodeConfig{{Depth: 10, FieldCapacity: 28, UnitWeight: 1.3}},
			UpdatedAt: time.UnixMilli(1_772_500_000_000)}
		if err := db.SaveSoilSettings(ctx, again); err != nil {
			t.Fatal(err)
		}
		got, err = db.SoilSettings(ctx, probe.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, again) {
			t.Fatalf("replaced\n got %+v\nwant %+v", got, again)
		}

		// A device that does not exist, or has no owner, takes no settings.
		if err := db.SaveSoilSettings(ctx, &soil.Settings{DeviceID: 987654, UpdatedAt: time.Now()}); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("missing device: %v", err)
		}
		unowned := newDevice(t, db, "ZS0000002", 2, 0)
		if err := db.SaveSoilSettings(ctx, &soil.Settings{DeviceID: unowned.ID, UpdatedAt: time.Now()}); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("unowned device: %v", err)
		}

		// Unbound and bound by someone else, the device has no settings for
		// them; the old row does not leak.
		if err := db.UnbindDevice(ctx, probe.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.BindDevice(ctx, probe.ID, other.ID, "Theirs", time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SoilSettings(ctx, probe.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("new owner sees the old owner's settings: %v", err)
		}
		mine := &soil.Settings{DeviceID: probe.ID, Nodes: []soil.NodeConfig{}, CropType: "wheat", UpdatedAt: time.UnixMilli(1_772_600_000_000)}
		if err := db.SaveSoilSettings(ctx, mine); err != nil {
			t.Fatal(err)
		}
		if got, err := db.SoilSettings(ctx, probe.ID); err != nil || got.CropType != "wheat" || len(got.Nodes) != 0 {
			t.Fatalf("new owner's settings: %+v %v", got, err)
		}
	})
}
