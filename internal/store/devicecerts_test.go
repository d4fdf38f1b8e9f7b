package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devicecert"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func TestStore_DeviceCertificates(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		station := newDevice(t, db, "TQ0000001", 5, owner.ID)
		neighbour := newDevice(t, db, "TQ0000002", 5, other.ID)
		at := time.UnixMilli(1_772_323_200_000)
		c := devicecert.Certificate{Serial: "a1", DeviceID: station.ID, OwnerID: owner.ID, CreatedAt: at, NotAfter: at.AddDate(10, 0, 0)}

		// Only the device's owner gets one.
		if err := db.AddDeviceCertificate(ctx, devicecert.Certificate{Serial: "b1", DeviceID: neighbour.ID, OwnerID: owner.ID,
			CreatedAt: at, NotAfter: at}); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("certificate for another's device: %v", err)
		}
		if err := db.AddDeviceCertificate(ctx, c); err != nil {
			t.Fatal(err)
		}
		valid := func(serial, sn string) bool {
			t.Helper()
			ok, err := db.DeviceCertificateValid(ctx, serial, sn)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if !valid("a1", "TQ0000001") || valid("a1", "TQ0000002") || valid("zz", "TQ0000001") {
			t.Fatal("validity: want a1 valid for TQ0000001 only")
		}
		list, err := db.DeviceCertificates(ctx, station.ID)
		if err != nil || len(list) != 1 || list[0].Serial != "a1" || !list[0].NotAfter.Equal(c.NotAfter) || list[0].RevokedAt != nil {
			t.Fatalf("list: %+v %v", list, err)
		}

		// Revoked: refused, listed with its time, not revoked twice.
		if err := db.RevokeDeviceCertificate(ctx, neighbour.ID, "a1", at); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("revoke through another device: %v", err)
		}
		if err := db.RevokeDeviceCertificate(ctx, station.ID, "a1", at.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if valid("a1", "TQ0000001") {
			t.Fatal("a revoked certificate is valid")
		}
		if err := db.RevokeDeviceCertificate(ctx, station.ID, "a1", at); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("second revoke: %v", err)
		}
		list, _ = db.DeviceCertificates(ctx, station.ID)
		if len(list) != 1 || list[0].RevokedAt == nil || !list[0].RevokedAt.Equal(at.Add(time.Hour)) {
			t.Fatalf("list after revoke: %+v", list)
		}

		// A device that leaves its owner takes no valid certificate along.
		c.Serial = "a2"
		if err := db.AddDeviceCertificate(ctx, c); err != nil {
			t.Fatal(err)
		}
		if err := db.UnbindDevice(ctx, station.ID); err != nil {
			t.Fatal(err)
		}
		if valid("a2", "TQ0000001") {
			t.Fatal("a certificate outlived the device's owner")
		}
		if list, _ := db.DeviceCertificates(ctx, station.ID); len(list) != 0 {
			t.Fatalf("the next owner sees the last one's certificates: %+v", list)
		}
	})
}
