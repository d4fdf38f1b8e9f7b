package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// BenchmarkWriteReports replays the ingest benchmark's write pattern on the
// store alone: 500 soil stations reporting 20 readings each (6 depths × 3
// parameters, battery and signal), 40 reports each, committed in batches
// of 1,000 reports (20,000 readings, the writer's default). It reports
// readings per second.
func BenchmarkWriteReports(b *testing.B) {
	const devs, rounds, batch = 500, 40, 1000
	params := []string{"soilMoisture", "soilTemp", "ec"}
	for b.Loop() {
		b.StopTimer()
		db := storetest.OpenSQLite(b)
		ctx := context.Background()
		ids := make([]int64, devs)
		for i := range ids {
			ids[i] = newDevice(b, db, fmt.Sprintf("ZS%07d", i), 2, 0).ID
		}
		end := time.Now().Truncate(10 * time.Minute)
		var all []*telemetry.Report
		for r := range rounds {
			at := end.Add(-time.Duration(rounds-r) * 10 * time.Minute)
			for i, id := range ids {
				var pts []telemetry.Point
				for _, depth := range []int{10, 20, 30, 40, 50, 60} {
					for k, p := range params {
						pts = append(pts, telemetry.Point{Param: p, Node: depth, Value: float64(i+r+k) / 7})
					}
				}
				pts = append(pts, telemetry.Point{Param: "battery", Value: 12.5}, telemetry.Point{Param: "signal", Value: 20})
				all = append(all, report(id, at, pts...))
			}
		}
		b.StartTimer()
		start := time.Now()
		n := 0
		for len(all) > 0 {
			k := min(batch, len(all))
			got, err := db.WriteReports(ctx, all[:k], shanghai)
			if err != nil {
				b.Fatal(err)
			}
			n += got
			all = all[k:]
		}
		b.ReportMetric(float64(n)/time.Since(start).Seconds(), "readings/s")
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
}
