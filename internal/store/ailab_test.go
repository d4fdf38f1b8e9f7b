package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func TestStore_AilabSamples(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		trap := newDevice(t, db, "CB0000001", 5, owner.ID)
		at := time.UnixMilli(1_772_323_200_000)
		now := at.Add(time.Hour)
		if err := db.SaveImage(ctx, trap.ID, at, "image/jpeg", []byte("jpeg bytes")); err != nil {
			t.Fatal(err)
		}
		imgs, err := db.Images(ctx, trap.ID, 10)
		if err != nil || len(imgs) != 1 {
			t.Fatalf("images: %v %v", imgs, err)
		}

		// Another account cannot take the picture; the owner can, once.
		if _, err := db.SampleFromImage(ctx, other.ID, imgs[0].ID, 640, 480, now); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another's picture: %v", err)
		}
		s, err := db.SampleFromImage(ctx, owner.ID, imgs[0].ID, 640, 480, now)
		if err != nil || s.SN != "CB0000001" || s.DeviceName != trap.Name || !s.SampleTime.Equal(at) ||
			s.ImageID == nil || *s.ImageID != imgs[0].ID || s.Width != 640 || len(s.Labels) != 0 {
			t.Fatalf("sample from image: %+v %v", s, err)
		}
		again, err := db.SampleFromImage(ctx, owner.ID, imgs[0].ID, 640, 480, now)
		if err != nil || again.ID != s.ID {
			t.Fatalf("the same picture twice: %+v %v", again, err)
		}
		ct, data, err := db.SampleData(ctx, owner.ID, s.ID)
		if err != nil || ct != "image/jpeg" || string(data) != "jpeg bytes" {
			t.Fatalf("referenced data: %q %q %v", ct, data, err)
		}

		// An upload keeps its own bytes.
		up := &ailab.Sample{OwnerID: owner.ID, DeviceName: "Upload", SampleTime: at, Tag: "moths", Duration: 3,
			Location: "north field", ContentType: "image/png", Width: 32, Height: 24, CreatedAt: now}
		if err := db.CreateSample(ctx, up, []byte("png bytes")); err != nil || up.ID == 0 {
			t.Fatal(err)
		}
		if _, data, err := db.SampleData(ctx, owner.ID, up.ID); err != nil || string(data) != "png bytes" {
			t.Fatalf("uploaded data: %q %v", data, err)
		}

		// Labels are kept; another account sees nothing of it.
		labels := []ailab.Label{{Element: "moth", X: 1, Y: 2, W: 10, H: 8}, {Element: "beetle", X: 5, Y: 6}}
		if err := db.UpdateSample(ctx, owner.ID, s.ID, "moths", "trap 1", labels); err != nil {
			t.Fatal(err)
		}
		if err := db.UpdateSample(ctx, other.ID, s.ID, "x", "", nil); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another updates: %v", err)
		}
		got, err := db.Sample(ctx, owner.ID, s.ID)
		if err != nil || got.Tag != "moths" || got.Location != "trap 1" || len(got.Labels) != 2 || got.Labels[0] != labels[0] || got.Labels[1] != labels[1] {
			t.Fatalf("labelled: %+v %v", got, err)
		}
		if _, err := db.Sample(ctx, other.ID, s.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another reads: %v", err)
		}
		if _, _, err := db.SampleData(ctx, other.ID, up.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another downloads: %v", err)
		}
		if list, err := db.Samples(ctx, other.ID, ""); err != nil || len(list) != 0 {
			t.Fatalf("another's list: %v %v", list, err)
		}
		if list, err := db.Samples(ctx, owner.ID, ""); err != nil || len(list) != 2 || list[0].ID != up.ID {
			t.Fatalf("list: %+v %v", list, err)
		}
		if list, err := db.Samples(ctx, owner.ID, "none"); err != nil || len(list) != 0 {
			t.Fatalf("tag filter: %+v %v", list, err)
		}

		// Deleting a sample keeps the camera picture.
		if err := db.DeleteSample(ctx, other.ID, s.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another deletes: %v", err)
		}
		if err := db.DeleteSample(ctx, owner.ID, s.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.ImageData(ctx, trap.ID, imgs[0].ID); err != nil {
			t.Fatalf("the picture went with the sample: %v", err)
		}
		if err := db.DeleteSample(ctx, owner.ID, s.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("second delete: %v", err)
		}
	})
}

func TestStore_AilabSets(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		at := time.UnixMilli(1_772_323_200_000)
		sample := func(acc int64, labels []ailab.Label) int64 {
			s := &ailab.Sample{OwnerID: acc, SampleTime: at, ContentType: "image/png", Width: 100, Height: 50, Labels: labels, CreatedAt: at}
			if err := db.CreateSample(ctx, s, []byte("png")); err != nil {
				t.Fatal(err)
			}
			return s.ID
		}
		a := sample(owner.ID, []ailab.Label{{Element: "moth", X: 10, Y: 10, W: 20, H: 10}})
		b := sample(owner.ID, []ailab.Label{{Element: "beetle", X: 50, Y: 25}})
		theirs := sample(other.ID, nil)

		// A sample of another account is missing, and nothing is written.
		if err := db.CreateSet(ctx, &ailab.Set{OwnerID: owner.ID, Name: "traps", SampleIDs: []int64{a, theirs}, CreatedAt: at}); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another's sample: %v", err)
		}
		if list, err := db.Sets(ctx, owner.ID); err != nil || len(list) != 0 {
			t.Fatalf("a half-made set: %+v %v", list, err)
		}
		set := &ailab.Set{OwnerID: owner.ID, Name: "traps", Description: "June", SampleIDs: []int64{a, b}, CreatedAt: at}
		if err := db.CreateSet(ctx, set); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateSet(ctx, &ailab.Set{OwnerID: owner.ID, Name: "traps", SampleIDs: []int64{a}, CreatedAt: at}); errs.KindOf(err) != errs.EInvalid {
			t.Fatalf("a second set of the name: %v", err)
		}
		got, err := db.Set(ctx, owner.ID, set.ID)
		if err != nil || got.Version != 1 || got.Rows != 2 || got.Columns != 2 || got.Used || got.Description != "June" {
			t.Fatalf("set: %+v %v", got, err)
		}
		if _, err := db.Set(ctx, other.ID, set.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another reads the set: %v", err)
		}

		// Unused: edited in place. The version keeps the labels it was made with.
		if err := db.UpdateSample(ctx, owner.ID, a, "", "", []ailab.Label{{Element: "moth", X: 0, Y: 0, W: 5, H: 5}, {Element: "fly", X: 1, Y: 1}}); err != nil {
			t.Fatal(err)
		}
		_, items, err := db.SetExport(ctx, owner.ID, set.ID)
		if err != nil || len(items) != 2 || len(items[0].Sample.Labels) != 1 || items[0].Sample.Labels[0].W != 20 || string(items[0].Data) != "png" {
			t.Fatalf("export items: %+v %v", items, err)
		}
		got, err = db.UpdateSet(ctx, &ailab.Set{ID: set.ID, OwnerID: owner.ID, Description: "June, north", SampleIDs: []int64{a}, CreatedAt: at})
		if err != nil || got.ID != set.ID || got.Version != 1 || got.Rows != 1 || got.Columns != 2 || got.Description != "June, north" {
			t.Fatalf("in place: %+v %v", got, err)
		}

		// Used: editing makes version 2 and leaves version 1 as it was.
		if err := db.MarkSetUsed(ctx, owner.ID, set.ID); err != nil {
			t.Fatal(err)
		}
		v2, err := db.UpdateSet(ctx, &ailab.Set{ID: set.ID, OwnerID: owner.ID, Description: "July", SampleIDs: []int64{a, b}, CreatedAt: at.Add(time.Hour)})
		if err != nil || v2.ID == set.ID || v2.Version != 2 || v2.Name != "traps" || v2.Rows != 2 || v2.Used {
			t.Fatalf("next version: %+v %v", v2, err)
		}
		v1, err := db.Set(ctx, owner.ID, set.ID)
		if err != nil || !v1.Used || v1.Rows != 1 || v1.Description != "June, north" {
			t.Fatalf("the used version changed: %+v %v", v1, err)
		}
		if list, err := db.Sets(ctx, owner.ID); err != nil || len(list) != 2 || list[0].ID != v2.ID {
			t.Fatalf("sets: %+v %v", list, err)
		}
		if list, err := db.Sets(ctx, other.ID); err != nil || len(list) != 0 {
			t.Fatalf("another's sets: %+v %v", list, err)
		}
		if err := db.DeleteSet(ctx, other.ID, v2.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another deletes: %v", err)
		}
		if err := db.DeleteSet(ctx, owner.ID, v2.ID); err != nil {
			t.Fatal(err)
		}
	})
}

func TestStore_AilabElements(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		moth := &ailab.Element{OwnerID: owner.ID, Name: "Cotton bollworm", Unit: "head", Identifier: "moth"}
		if err := db.CreateElement(ctx, moth); err != nil || moth.ID == 0 {
			t.Fatal(err)
		}
		if err := db.CreateElement(ctx, &ailab.Element{OwnerID: owner.ID, Name: "Again", Identifier: "moth"}); errs.KindOf(err) != errs.EInvalid {
			t.Fatalf("an identifier twice: %v", err)
		}
		// Another account has its own list and may use the same identifier.
		if err := db.CreateElement(ctx, &ailab.Element{OwnerID: other.ID, Name: "Moth", Identifier: "moth"}); err != nil {
			t.Fatal(err)
		}
		if list, err := db.Elements(ctx, owner.ID); err != nil || len(list) != 1 || list[0] != *moth {
			t.Fatalf("elements: %+v %v", list, err)
		}
		if err := db.DeleteElement(ctx, other.ID, moth.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another deletes: %v", err)
		}
		if err := db.DeleteElement(ctx, owner.ID, moth.ID); err != nil {
			t.Fatal(err)
		}
		if list, err := db.Elements(ctx, owner.ID); err != nil || len(list) != 0 {
			t.Fatalf("after delete: %+v %v", list, err)
		}
	})
}
