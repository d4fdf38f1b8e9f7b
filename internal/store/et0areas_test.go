package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/et0grid"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func TestStore_ET0Areas(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		at := time.UnixMilli(1_772_323_200_000)
		a := &et0grid.Area{AccountID: owner.ID, Name: "北区", Box: et0grid.Box{West: 116.8, South: 36.4, East: 117.2, North: 36.8}, Cell: 0.01, CreatedAt: at}
		if err := db.AddET0Area(ctx, a); err != nil || a.ID == 0 {
			t.Fatalf("add: %v %d", err, a.ID)
		}
		got, err := db.ET0Area(ctx, owner.ID, a.ID)
		if err != nil || got.Name != "北区" || got.Box != a.Box || got.Cell != 0.01 || !got.CreatedAt.Equal(at) {
			t.Fatalf("get: %+v %v", got, err)
		}
		if _, err := db.ET0Area(ctx, other.ID, a.ID); errs.KindOf(err) != errs.ENotFound {
			t.Errorf("another's area: %v", err)
		}
		if err := db.DeleteET0Area(ctx, other.ID, a.ID); errs.KindOf(err) != errs.ENotFound {
			t.Errorf("another deletes it: %v", err)
		}
		list, err := db.ET0Areas(ctx, owner.ID)
		if err != nil || len(list) != 1 {
			t.Fatalf("list: %v %v", list, err)
		}
		if list, _ := db.ET0Areas(ctx, other.ID); len(list) != 0 {
			t.Errorf("another's list: %v", list)
		}
		if err := db.DeleteET0Area(ctx, owner.ID, a.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ET0Area(ctx, owner.ID, a.ID); errs.KindOf(err) != errs.ENotFound {
			t.Errorf("deleted: %v", err)
		}
	})
}
