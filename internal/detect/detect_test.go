package detect_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/detect"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// A pool woken by new pictures runs each once: a record and a reading per
// picture. A run whose worker stopped mid-way (a restart) is claimed again
// once its lease passes, and done once.
func TestPool_RunsEachPictureOnceAcrossARestart(t *testing.T) {
	l := newLab(t)
	ctx := context.Background()
	base := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	catches := []int{0, 15, 80}
	for i, c := range catches {
		if err := l.db.SaveImage(ctx, l.traps[0].ID, base.Add(time.Duration(i)*time.Hour), "image/jpeg",
			simulator.TrapPicture(int64(i), 34.7, 113.6, base, c)); err != nil {
			t.Fatal(err)
		}
	}
	// A worker claims the first run and stops before finishing it.
	now := time.Now()
	if j, err := l.db.ClaimDetection(ctx, now, time.Minute, 5); err != nil || j == nil {
		t.Fatalf("claim: %+v %v", j, err)
	}

	// After the restart, the pool runs the other two at once and the
	// first once its lease has passed (its clock is two minutes ahead).
	pool := detect.New(detect.Options{Store: l.db, Writer: l.writer, Workers: 2, Poll: 20 * time.Millisecond,
		Now: func() time.Time { return time.Now().Add(2 * time.Minute) }})
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { pool.Run(runCtx); close(done) }()
	pool.Wake()
	for {
		c, err := l.db.LabAppJobCounts(ctx, l.owner)
		if err != nil {
			t.Fatal(err)
		}
		if c[l.app].Done == len(catches) {
			break
		}
		if c[l.app].Failed > 0 {
			t.Fatalf("runs: %+v", c[l.app])
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	<-done

	recs, n, err := l.db.Records(ctx, l.owner, ailab.RecordFilter{})
	if err != nil || n != len(catches) {
		t.Fatalf("records: %d %v", n, err)
	}
	series, err := l.db.Series(ctx, telemetry.Query{DeviceID: l.traps[0].ID, Params: []string{ailab.DetectParam},
		Begin: base, End: base.Add(24 * time.Hour)})
	if err != nil || len(series) != 1 || len(series[0].V) != len(catches) {
		t.Fatalf("readings: %+v %v", series, err)
	}
	for i, r := range recs { // newest first
		want := catches[len(catches)-1-i]
		got := r.Packages[0].Valid
		if got < float64(want)*0.8-3 || got > float64(want)*1.2+3 {
			t.Errorf("picture of %d moths counted %v", want, got)
		}
		if series[0].V[len(catches)-1-i] != got || series[0].TS[len(catches)-1-i] != r.DetectedAt.UnixMilli()+1 {
			t.Errorf("reading %v at %d for record %v at %v", series[0].V[len(catches)-1-i], series[0].TS[len(catches)-1-i], got, r.DetectedAt)
		}
	}
}
