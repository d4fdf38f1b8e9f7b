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

func TestStore_AilabModels(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "modeler01")
		other := newAccount(t, db, "modeler02")
		at := time.UnixMilli(1_772_323_200_000)
		man := ailab.Manifest{Format: 1, Name: "Counter", Version: "1.0",
			Input:    ailab.ModelInput{Name: "image", Width: 32, Height: 24, Channels: 3, Layout: "NCHW", Mean: []float64{0, 0, 0}, Std: []float64{1, 1, 1}},
			Output:   ailab.ModelOutput{Name: "counts", Kind: "count"},
			Elements: []ailab.ModelElement{{Name: "Moth", Unit: "head", Identifier: "moth"}}}
		m := &ailab.StoredModel{OwnerID: owner.ID, Name: "Counter", Version: "1.0", Kind: "count", FileName: "counter.l5d",
			Manifest: man, Operators: []string{"MatMul", "Relu"}, CreatedAt: at}
		if err := db.CreateModel(ctx, m, []byte("package bytes")); err != nil || m.ID == 0 || m.Size != 13 {
			t.Fatalf("create: %+v %v", m, err)
		}
		again := *m
		if err := db.CreateModel(ctx, &again, []byte("x")); errs.KindOf(err) != errs.EInvalid || errs.As(err).Field != "manifest.version" {
			t.Fatalf("the same name and version again: %v", err)
		}
		theirs := *m
		theirs.OwnerID = other.ID
		if err := db.CreateModel(ctx, &theirs, []byte("x")); err != nil {
			t.Fatalf("another account's model of the same name: %v", err)
		}
		got, err := db.Model(ctx, owner.ID, m.ID)
		if err != nil || got.Name != "Counter" || got.Manifest.Input.Width != 32 || got.Manifest.Elements[0].Identifier != "moth" ||
			len(got.Operators) != 2 || got.Size != 13 || !got.CreatedAt.Equal(at) || got.FileName != "counter.l5d" {
			t.Fatalf("model: %+v %v", got, err)
		}
		if data, err := db.ModelData(ctx, owner.ID, m.ID); err != nil || string(data) != "package bytes" {
			t.Fatalf("data: %q %v", data, err)
		}
		list, err := db.Models(ctx, owner.ID)
		if err != nil || len(list) != 1 || list[0].ID != m.ID {
			t.Fatalf("list: %+v %v", list, err)
		}
		// Another account's model is missing to everyone else.
		if _, err := db.Model(ctx, other.ID, m.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another's model: %v", err)
		}
		if _, err := db.ModelData(ctx, other.ID, m.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another's data: %v", err)
		}
		if err := db.DeleteModel(ctx, other.ID, m.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another deletes: %v", err)
		}
		if err := db.DeleteModel(ctx, owner.ID, m.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Model(ctx, owner.ID, m.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("deleted: %v", err)
		}
	})
}
