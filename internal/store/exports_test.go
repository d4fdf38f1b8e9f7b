package store_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/exports"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/sheet"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func newExport(t *testing.T, db *store.DB, id string, account, device int64, created time.Time) *exports.Job {
	t.Helper()
	j := &exports.Job{ID: id, AccountID: account, DeviceID: device, Params: []string{"soilMoisture", "battery"},
		Nodes: []int{10, 30}, Email: "farmer@example.com", Begin: created.Add(-24 * time.Hour), End: created,
		Dim: exports.DimDaily, Format: sheet.CSV, Lang: i18n.ZhTW, Status: exports.StatusQueued,
		CreatedAt: created, NextAt: created}
	if err := db.CreateExport(context.Background(), j); err != nil {
		t.Fatal(err)
	}
	return j
}

func TestStore_Exports(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		me := newAccount(t, db, "farmer01")
		soil := newDevice(t, db, "ZS2026000123", 2, me.ID)
		t0 := time.UnixMilli(1_780_000_000_000)
		const lease, maxAttempts = time.Minute, 3

		t.Run("CreateAndFind", func(t *testing.T) {
			want := newExport(t, db, "job-find", me.ID, soil.ID, t0)
			got, err := db.FindExport(ctx, "job-find")
			if err != nil {
				t.Fatal(err)
			}
			if got.AccountID != me.ID || got.DeviceID != soil.ID || !slices.Equal(got.Params, want.Params) ||
				!slices.Equal(got.Nodes, want.Nodes) || got.Email != want.Email || !got.Begin.Equal(want.Begin) ||
				!got.End.Equal(want.End) || got.Dim != exports.DimDaily || got.Format != sheet.CSV || got.Lang != i18n.ZhTW ||
				got.Status != exports.StatusQueued || got.Attempts != 0 || got.LeaseUntil != nil || got.FinishedAt != nil ||
				!got.CreatedAt.Equal(t0) {
				t.Fatalf("got %+v", got)
			}
			if _, err := db.FindExport(ctx, "nope"); errs.KindOf(err) != errs.ENotFound {
				t.Fatalf("missing: %v", err)
			}
			if _, err := db.PurgeExports(ctx, t0.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			if _, err := db.FindExport(ctx, "job-find"); err != nil {
				t.Fatalf("a queued job was purged: %v", err)
			}
			claim(t, db, t0, lease, maxAttempts) // out of the way of the next subtests
			if err := db.FinishExport(ctx, "job-find", 1, exports.StatusSent, "", 0, t0); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("ClaimRetryFinish", func(t *testing.T) {
			newExport(t, db, "job-a", me.ID, soil.ID, t0.Add(time.Second))
			if j := claim(t, db, t0, lease, maxAttempts); j != nil {
				t.Fatalf("claimed a job before it was due: %+v", j)
			}
			j := claim(t, db, t0.Add(time.Second), lease, maxAttempts)
			if j == nil || j.ID != "job-a" || j.Status != exports.StatusRunning || j.Attempts != 1 ||
				j.LeaseUntil == nil || !j.LeaseUntil.Equal(t0.Add(time.Second+lease)) {
				t.Fatalf("claim: %+v", j)
			}
			if again := claim(t, db, t0.Add(2*time.Second), lease, maxAttempts); again != nil {
				t.Fatalf("a held job was claimed twice: %+v", again)
			}
			if err := db.ExportProgress(ctx, "job-a", 1, 40, 1234, t0.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			got, _ := db.FindExport(ctx, "job-a")
			if got.Progress != 40 || got.Rows != 1234 || !got.LeaseUntil.Equal(t0.Add(time.Hour)) {
				t.Fatalf("progress: %+v", got)
			}
			// The heartbeat extended the lease past the original one.
			if again := claim(t, db, t0.Add(30*time.Minute), lease, maxAttempts); again != nil {
				t.Fatalf("claimed during an extended lease: %+v", again)
			}
			if err := db.RetryExport(ctx, "job-a", 1, t0.Add(2*time.Hour)); err != nil {
				t.Fatal(err)
			}
			if j := claim(t, db, t0.Add(time.Hour), lease, maxAttempts); j != nil {
				t.Fatalf("claimed before its backoff passed: %+v", j)
			}
			j = claim(t, db, t0.Add(2*time.Hour), lease, maxAttempts)
			if j == nil || j.Attempts != 2 || j.Progress != 0 || j.Rows != 0 {
				t.Fatalf("second attempt: %+v", j)
			}
			// The first attempt no longer holds the job.
			for name, err := range map[string]error{
				"progress": db.ExportProgress(ctx, "job-a", 1, 50, 1, t0),
				"retry":    db.RetryExport(ctx, "job-a", 1, t0),
				"finish":   db.FinishExport(ctx, "job-a", 1, exports.StatusSent, "", 1, t0),
			} {
				if errs.KindOf(err) != errs.ENotFound {
					t.Errorf("%s by a stale attempt: %v", name, err)
				}
			}
			done := t0.Add(3 * time.Hour)
			if err := db.FinishExport(ctx, "job-a", 2, exports.StatusSent, "", 52560, done); err != nil {
				t.Fatal(err)
			}
			got, _ = db.FindExport(ctx, "job-a")
			if got.Status != exports.StatusSent || got.Progress != 100 || got.Rows != 52560 || got.Error != "" ||
				got.FinishedAt == nil || !got.FinishedAt.Equal(done) || got.LeaseUntil != nil {
				t.Fatalf("sent: %+v", got)
			}
			if j := claim(t, db, t0.Add(100*time.Hour), lease, maxAttempts); j != nil {
				t.Fatalf("a sent job was claimed: %+v", j)
			}
		})

		t.Run("CrashedWorkerIsTakenOver", func(t *testing.T) {
			newExport(t, db, "job-b", me.ID, soil.ID, t0.Add(10*time.Hour))
			at := t0.Add(10 * time.Hour)
			for attempt := 1; attempt <= maxAttempts; attempt++ {
				j := claim(t, db, at, lease, maxAttempts)
				if j == nil || j.ID != "job-b" || j.Attempts != attempt {
					t.Fatalf("attempt %d: %+v", attempt, j)
				}
				if n, err := db.ExpireExports(ctx, at.Add(lease+time.Millisecond), maxAttempts, "export.timeout"); err != nil || (n != 0) != (attempt == maxAttempts) {
					t.Fatalf("expire after attempt %d: %d %v", attempt, n, err)
				}
				// The worker died: nothing renews the lease.
				at = at.Add(lease + time.Millisecond)
			}
			got, _ := db.FindExport(ctx, "job-b")
			if got.Status != exports.StatusFailed || got.Error != "export.timeout" || got.Attempts != maxAttempts || got.FinishedAt == nil {
				t.Fatalf("after %d abandoned attempts: %+v", maxAttempts, got)
			}
			if err := db.FinishExport(ctx, "job-b", maxAttempts, exports.StatusSent, "", 1, at); errs.KindOf(err) != errs.ENotFound {
				t.Fatalf("a late worker finished an expired job: %v", err)
			}
		})

		t.Run("FailedKeepsItsReason", func(t *testing.T) {
			newExport(t, db, "job-c", me.ID, soil.ID, t0.Add(20*time.Hour))
			j := claim(t, db, t0.Add(20*time.Hour), lease, maxAttempts)
			if err := db.ExportProgress(ctx, j.ID, 1, 35, 10, t0.Add(21*time.Hour)); err != nil {
				t.Fatal(err)
			}
			if err := db.FinishExport(ctx, j.ID, 1, exports.StatusFailed, "export.failed", 10, t0.Add(20*time.Hour)); err != nil {
				t.Fatal(err)
			}
			got, _ := db.FindExport(ctx, j.ID)
			if got.Status != exports.StatusFailed || got.Error != "export.failed" || got.Progress != 35 {
				t.Fatalf("failed: %+v", got)
			}
		})

		t.Run("ConcurrentClaimsShareNothing", func(t *testing.T) {
			at := t0.Add(50 * time.Hour)
			for i := range 20 {
				newExport(t, db, fmt.Sprintf("job-many-%02d", i), me.ID, soil.ID, at)
			}
			var (
				mu  sync.Mutex
				got = map[string]int{}
				wg  sync.WaitGroup
			)
			for range 4 {
				wg.Go(func() {
					for {
						j, err := db.ClaimExport(ctx, at, lease, maxAttempts)
						if err != nil {
							t.Error(err)
							return
						}
						if j == nil {
							return
						}
						mu.Lock()
						got[j.ID]++
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			if len(got) != 20 {
				t.Fatalf("claimed %d of 20 jobs", len(got))
			}
			for id, n := range got {
				if n != 1 {
					t.Errorf("%s claimed %d times", id, n)
				}
			}
		})

		t.Run("Purge", func(t *testing.T) {
			n, err := db.PurgeExports(ctx, t0.Add(48*time.Hour))
			if err != nil || n != 4 { // job-find, job-a, job-b, job-c
				t.Fatalf("purged %d: %v", n, err)
			}
			if _, err := db.FindExport(ctx, "job-a"); errs.KindOf(err) != errs.ENotFound {
				t.Fatalf("a purged job: %v", err)
			}
		})
	})
}

func claim(t *testing.T, db *store.DB, now time.Time, lease time.Duration, maxAttempts int) *exports.Job {
	t.Helper()
	j, err := db.ClaimExport(context.Background(), now, lease, maxAttempts)
	if err != nil {
		t.Fatal(err)
	}
	return j
}
