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

func newLabModel(t *testing.T, db *store.DB, owner int64, at time.Time) *ailab.StoredModel {
	t.Helper()
	man := ailab.Manifest{Format: 1, Name: "Counter", Version: "1.0",
		Input:    ailab.ModelInput{Name: "image", Width: 32, Height: 24, Channels: 3, Layout: "NCHW", Mean: []float64{0, 0, 0}, Std: []float64{1, 1, 1}},
		Output:   ailab.ModelOutput{Name: "counts", Kind: "count"},
		Elements: []ailab.ModelElement{{Name: "Moth", Unit: "head", Identifier: "moth"}}}
	m := &ailab.StoredModel{OwnerID: owner, Name: "Counter", Version: "1.0", Kind: "count", FileName: "counter.l5d",
		Manifest: man, Operators: []string{"MatMul"}, CreatedAt: at}
	if err := db.CreateModel(context.Background(), m, []byte("package")); err != nil {
		t.Fatal(err)
	}
	return m
}

// Applications, the runs a new picture queues, their claims, retries and
// leases, and the records they leave, each account seeing its own only.
func TestStore_AilabApps(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "detect01")
		other := newAccount(t, db, "detect02")
		at := time.UnixMilli(1_772_323_200_000)
		trap := newDevice(t, db, "IB0000001", 20, owner.ID)
		trap2 := newDevice(t, db, "IB0000002", 20, owner.ID)
		m := newLabModel(t, db, owner.ID, at)

		a := &ailab.App{OwnerID: owner.ID, Name: "Moths", MediumName: "Light trap moths", Type: ailab.AppInsect, ModelID: m.ID,
			Elements: m.Manifest.Elements, DeviceIDs: []int64{trap.ID}, CreatedAt: at, UpdatedAt: at}
		if err := db.CreateLabApp(ctx, a); err != nil || a.ID == 0 {
			t.Fatalf("create: %v", err)
		}
		dup := *a
		if err := db.CreateLabApp(ctx, &dup); errs.KindOf(err) != errs.EInvalid || errs.As(err).Field != "name" {
			t.Fatalf("the same name again: %v", err)
		}
		theirs := *a
		theirs.OwnerID = other.ID
		if err := db.CreateLabApp(ctx, &theirs); err != nil {
			t.Fatalf("another account's of the same name: %v", err)
		}
		if _, err := db.LabApp(ctx, other.ID, a.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another's application: %v", err)
		}
		if err := db.SetLabAppPublished(ctx, other.ID, a.ID, true, at); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("publishing another's: %v", err)
		}
		if err := db.DeleteModel(ctx, owner.ID, m.ID); errs.KindOf(err) != errs.EInvalid || errs.As(err).Field != "modelId" {
			t.Fatalf("deleting a model in use: %v", err)
		}

		// Unpublished: a picture queues nothing.
		if err := db.SaveImage(ctx, trap.ID, at, "image/jpeg", []byte("one")); err != nil {
			t.Fatal(err)
		}
		if j, err := db.ClaimDetection(ctx, at, time.Minute, 3); err != nil || j != nil {
			t.Fatalf("a run of an unpublished application: %+v %v", j, err)
		}
		if err := db.SetLabAppPublished(ctx, owner.ID, a.ID, true, at); err != nil {
			t.Fatal(err)
		}
		// A second published application cannot watch the same trap.
		b := &ailab.App{OwnerID: owner.ID, Name: "Moths 2", Type: ailab.AppInsect, ModelID: m.ID, Elements: m.Manifest.Elements,
			DeviceIDs: []int64{trap2.ID, trap.ID}, CreatedAt: at, UpdatedAt: at}
		if err := db.CreateLabApp(ctx, b); err != nil {
			t.Fatal(err)
		}
		if err := db.SetLabAppPublished(ctx, owner.ID, b.ID, true, at); errs.KindOf(err) != errs.EInvalid || errs.As(err).Field != "deviceIds" {
			t.Fatalf("two published applications on one trap: %v", err)
		}

		// Published: each new picture queues one run, a redelivered one none.
		pic := at.Add(time.Hour)
		for range 2 {
			if err := db.SaveImage(ctx, trap.ID, pic, "image/jpeg", []byte("two")); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.SaveImage(ctx, trap2.ID, pic, "image/jpeg", []byte("unwatched")); err != nil {
			t.Fatal(err)
		}
		now := pic.Add(time.Second)
		j, err := db.ClaimDetection(ctx, now, time.Minute, 3)
		if err != nil || j == nil || j.AppID != a.ID || j.DeviceID != trap.ID || j.Attempts != 1 {
			t.Fatalf("claim: %+v %v", j, err)
		}
		if j2, err := db.ClaimDetection(ctx, now, time.Minute, 3); err != nil || j2 != nil {
			t.Fatalf("one picture, one run: %+v %v", j2, err)
		}
		w, err := db.DetectionWork(ctx, j)
		if err != nil || w.SN != trap.SN || string(w.Picture) != "two" || !w.PictureAt.Equal(pic) || w.TypeID != 20 || w.App.Name != "Moths" {
			t.Fatalf("work: %+v %v", w, err)
		}

		// A failed attempt comes back after its delay; a worker that stopped
		// mid-run leaves it to be claimed again once the lease passes.
		if err := db.RetryDetection(ctx, j, "busy", now.Add(time.Minute), now); err != nil {
			t.Fatal(err)
		}
		if j2, _ := db.ClaimDetection(ctx, now.Add(30*time.Second), time.Minute, 3); j2 != nil {
			t.Fatalf("claimed before its retry time: %+v", j2)
		}
		j, err = db.ClaimDetection(ctx, now.Add(time.Minute), time.Minute, 3)
		if err != nil || j == nil || j.Attempts != 2 {
			t.Fatalf("the retry: %+v %v", j, err)
		}
		stale := *j
		j, err = db.ClaimDetection(ctx, now.Add(3*time.Minute), time.Minute, 3)
		if err != nil || j == nil || j.Attempts != 3 {
			t.Fatalf("claimed again after the lease: %+v %v", j, err)
		}
		if err := db.RetryDetection(ctx, &stale, "late", now.Add(time.Hour), now); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("the stale attempt still holds the run: %v", err)
		}
		appID, imageID := a.ID, j.ImageID
		rec := &ailab.Record{OwnerID: owner.ID, AppID: &appID, AppName: a.Name, DeviceID: trap.ID, DeviceName: trap.Name, SN: trap.SN,
			ImageID: &imageID, DetectedAt: pic, Location: "north", Packages: []ailab.RecordPackage{{Identifier: "moth", Name: "Moth",
				Unit: "head", Average: 12.4, Valid: 12}}, Millis: 40, CreatedAt: now.Add(3 * time.Minute)}
		if err := db.FinishDetection(ctx, j, rec); err != nil {
			t.Fatal(err)
		}
		if err := db.FinishDetection(ctx, j, rec); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("finishing a done run again: %v", err)
		}
		counts, err := db.LabAppJobCounts(ctx, owner.ID)
		if err != nil || counts[a.ID] != (ailab.JobCounts{Done: 1}) {
			t.Fatalf("job counts: %+v %v", counts, err)
		}

		// Records: filters, paging, another account's are missing.
		list, total, err := db.Records(ctx, owner.ID, ailab.RecordFilter{DeviceID: trap.ID, Limit: 10})
		if err != nil || total != 1 || len(list) != 1 || list[0].Packages[0].Valid != 12 || !list[0].DetectedAt.Equal(pic) ||
			*list[0].AppID != a.ID || list[0].Location != "north" {
			t.Fatalf("records: %+v %d %v", list, total, err)
		}
		for name, f := range map[string]ailab.RecordFilter{
			"other device": {DeviceID: trap2.ID}, "other app": {AppID: b.ID},
			"before": {End: pic}, "after": {Begin: pic.Add(time.Millisecond)},
		} {
			if _, n, err := db.Records(ctx, owner.ID, f); err != nil || n != 0 {
				t.Errorf("%s: %d %v", name, n, err)
			}
		}
		if _, n, _ := db.Records(ctx, other.ID, ailab.RecordFilter{}); n != 0 {
			t.Fatalf("another account sees %d records", n)
		}
		if err := db.DeleteRecord(ctx, other.ID, list[0].ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("deleting another's record: %v", err)
		}

		// The last attempt failing fails the run for good.
		if err := db.SaveImage(ctx, trap.ID, pic.Add(time.Hour), "image/jpeg", []byte("three")); err != nil {
			t.Fatal(err)
		}
		j, _ = db.ClaimDetection(ctx, now.Add(time.Hour), time.Minute, 1)
		if j == nil {
			t.Fatal("no run for the third picture")
		}
		if err := db.RetryDetection(ctx, j, "not a picture", time.Time{}, now); err != nil {
			t.Fatal(err)
		}
		if counts, _ := db.LabAppJobCounts(ctx, owner.ID); counts[a.ID] != (ailab.JobCounts{Done: 1, Failed: 1}) {
			t.Fatalf("after a failure: %+v", counts)
		}

		// A lease running out on the last attempt expires the run.
		if err := db.SaveImage(ctx, trap.ID, pic.Add(2*time.Hour), "image/jpeg", []byte("four")); err != nil {
			t.Fatal(err)
		}
		if j, _ = db.ClaimDetection(ctx, now.Add(2*time.Hour), time.Minute, 1); j == nil {
			t.Fatal("no run for the fourth picture")
		}
		if n, err := db.ExpireDetections(ctx, now.Add(3*time.Hour), 1); err != nil || n != 1 {
			t.Fatalf("expire: %d %v", n, err)
		}

		// Withdrawn: queued runs are dropped; deleted: records stay.
		if err := db.SaveImage(ctx, trap.ID, pic.Add(3*time.Hour), "image/jpeg", []byte("five")); err != nil {
			t.Fatal(err)
		}
		if err := db.SetLabAppPublished(ctx, owner.ID, a.ID, false, at); err != nil {
			t.Fatal(err)
		}
		if counts, _ := db.LabAppJobCounts(ctx, owner.ID); counts[a.ID].Queued != 0 {
			t.Fatalf("queued after withdrawal: %+v", counts)
		}
		if err := db.DeleteLabApp(ctx, owner.ID, a.ID); err != nil {
			t.Fatal(err)
		}
		if _, n, _ := db.Records(ctx, owner.ID, ailab.RecordFilter{}); n != 1 {
			t.Fatalf("records after the application went: %d", n)
		}
		if err := db.DeleteRecord(ctx, owner.ID, list[0].ID); err != nil {
			t.Fatal(err)
		}
		apps, err := db.LabApps(ctx, owner.ID)
		if err != nil || len(apps) != 1 || apps[0].ID != b.ID || len(apps[0].DeviceIDs) != 2 {
			t.Fatalf("applications left: %+v %v", apps, err)
		}
	})
}
