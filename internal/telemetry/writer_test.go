package telemetry_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

func TestWriter_BatchesConcurrentReportsDurably(t *testing.T) {
	db := storetest.OpenSQLite(t)
	ctx := context.Background()
	const devs, reports = 20, 30
	ids := make([]int64, devs)
	for i := range ids {
		d := &devices.Device{HashID: "h" + string(rune('a'+i)), SN: "WR" + time.Now().Format("150405") + string(rune('A'+i)),
			TypeID: 6, Name: "x", State: devices.StateUsed, CreatedAt: time.Now()}
		if err := db.CreateDevice(ctx, d, "k"); err != nil {
			t.Fatal(err)
		}
		ids[i] = d.ID
	}
	var commits, stored atomic.Int64
	w := telemetry.NewWriter(telemetry.WriterOptions{Store: db, Location: time.UTC, MaxBatch: 50,
		OnCommit: func(rs []*telemetry.Report, n int, _ time.Duration, err error) {
			if err != nil {
				t.Error(err)
			}
			if len(rs) > 50 {
				t.Errorf("a batch of %d reports exceeds MaxBatch", len(rs))
			}
			commits.Add(1)
			stored.Add(int64(n))
		}})
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			for r := range reports {
				at := start.Add(time.Duration(r) * time.Minute)
				rep := &telemetry.Report{DeviceID: id, Time: at, OfflineAt: at.Add(time.Hour),
					Points: []telemetry.Point{{Param: "rainfall", Value: 0.5}}}
				if err := w.Write(ctx, rep); err != nil {
					t.Error(err)
					return
				}
				// Write returned: the report must already be readable.
				rs, err := db.Readings(ctx, telemetry.Query{DeviceID: id, Begin: at, End: at.Add(time.Millisecond)})
				if err != nil || len(rs) != 1 {
					t.Errorf("report not stored when Write returned: %v %v", rs, err)
					return
				}
			}
		})
	}
	wg.Wait()
	w.Close()
	if stored.Load() != devs*reports {
		t.Fatalf("stored %d readings, want %d", stored.Load(), devs*reports)
	}
	if commits.Load() >= devs*reports {
		t.Fatalf("%d commits for %d concurrent reports: nothing was batched", commits.Load(), devs*reports)
	}
	if err := w.Write(ctx, &telemetry.Report{DeviceID: ids[0], Time: start}); err != telemetry.ErrClosed {
		t.Fatalf("write after close: %v", err)
	}
}
