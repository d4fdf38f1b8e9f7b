package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/portal"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func TestStore_DevicePortals(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		station := newDevice(t, db, "TQ0000001", 5, owner.ID)
		neighbour := newDevice(t, db, "TQ0000002", 5, other.ID)
		at := time.UnixMilli(1_772_323_200_000)

		// Only the device's owner makes one.
		if err := db.SetDevicePortal(ctx, portal.Link{DeviceID: neighbour.ID, OwnerID: owner.ID, CreatedAt: at}, "h0"); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("a link to another's device: %v", err)
		}
		if _, err := db.DevicePortal(ctx, station.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("a portal before any link: %v", err)
		}
		if err := db.SetDevicePortal(ctx, portal.Link{DeviceID: station.ID, OwnerID: owner.ID, CreatedAt: at}, "h1"); err != nil {
			t.Fatal(err)
		}
		open := func(sn, hash string) *portal.Link {
			t.Helper()
			l, err := db.OpenDevicePortal(ctx, sn, hash)
			if errs.KindOf(err) == errs.ENotFound {
				return nil
			}
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		if l := open("TQ0000001", "h1"); l == nil || l.DeviceID != station.ID || l.OwnerID != owner.ID || l.AllowControl || !l.CreatedAt.Equal(at) {
			t.Fatalf("open: %+v", l)
		}
		if open("TQ0000002", "h1") != nil || open("TQ0000001", "h2") != nil {
			t.Fatal("a link opens another device, or a wrong hash opens it")
		}

		// A new link replaces the old one in one row.
		later := at.Add(time.Hour)
		if err := db.SetDevicePortal(ctx, portal.Link{DeviceID: station.ID, OwnerID: owner.ID, AllowControl: true, CreatedAt: later}, "h2"); err != nil {
			t.Fatal(err)
		}
		if open("TQ0000001", "h1") != nil {
			t.Fatal("the replaced link still opens")
		}
		if l, err := db.DevicePortal(ctx, station.ID); err != nil || !l.AllowControl || !l.CreatedAt.Equal(later) {
			t.Fatalf("status: %+v %v", l, err)
		}

		// Revoked: gone, and revoking again is ENOTFOUND.
		if err := db.DeleteDevicePortal(ctx, station.ID); err != nil {
			t.Fatal(err)
		}
		if open("TQ0000001", "h2") != nil {
			t.Fatal("a revoked link opens")
		}
		if err := db.DeleteDevicePortal(ctx, station.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("second revoke: %v", err)
		}

		// Removing the device drops its link.
		if err := db.SetDevicePortal(ctx, portal.Link{DeviceID: station.ID, OwnerID: owner.ID, CreatedAt: at}, "h3"); err != nil {
			t.Fatal(err)
		}
		if err := db.UnbindDevice(ctx, station.ID); err != nil {
			t.Fatal(err)
		}
		if open("TQ0000001", "h3") != nil {
			t.Fatal("a removed device's link opens")
		}
	})
}
