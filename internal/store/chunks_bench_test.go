package store_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// zs006Points is a ZS006 report's 20 readings at the parameters' precision.
func zs006Points(t time.Time) []telemetry.Point {
	s := float64(t.Unix())
	day := 2 * math.Pi * s / 86400
	var pts []telemetry.Point
	for i, n := range []int{10, 20, 30, 40, 50, 60} {
		f := float64(i)
		pts = append(pts,
			telemetry.Point{Param: "soilMoisture", Node: n, Value: math.Round(250+30*math.Sin(day+f)) / 10},
			telemetry.Point{Param: "soilTemp", Node: n, Value: math.Round(150+(60-10*f)*math.Sin(day-f/2)) / 10},
			telemetry.Point{Param: "ec", Node: n, Value: math.Round(800 + 20*math.Sin(day))})
	}
	return append(pts, telemetry.Point{Param: "battery", Value: math.Round(1260+40*math.Sin(day)) / 100},
		telemetry.Point{Param: "signal", Value: math.Round(-75 + 8*math.Sin(day/7))})
}

// BenchmarkLateReport measures a late report (20 readings) written into a
// day already compacted: the writer merges it into the day's 20 chunks.
// Target: ≤ 50 ms.
func BenchmarkLateReport(b *testing.B) {
	for _, be := range []struct {
		name string
		open func(testing.TB) *store.DB
	}{{"sqlite", storetest.OpenSQLite}, {"postgres", storetest.OpenPostgres}} {
		b.Run(be.name, func(b *testing.B) {
			db := be.open(b)
			ctx := context.Background()
			owner := newAccount(b, db, "farmer01")
			dev := newDevice(b, db, "ZS0000001", 2, owner.ID).ID
			day := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
			var rs []*telemetry.Report
			for at := day.Add(-24 * time.Hour); at.Before(day.Add(48 * time.Hour)); at = at.Add(10 * time.Minute) {
				rs = append(rs, report(dev, at, zs006Points(at)...))
			}
			if _, err := db.WriteReports(ctx, rs, shanghai); err != nil {
				b.Fatal(err)
			}
			if res, err := db.CompactReadings(ctx, time.Now(), nil); err != nil || res.Readings != int64(len(rs)*20) {
				b.Fatalf("compacted %d readings (%v)", res.Readings, err)
			}
			i := 0
			for b.Loop() {
				// A new time each op, spread over the compacted day.
				at := day.Add(time.Duration(i%144)*10*time.Minute + time.Duration(1+i/144)*time.Second)
				i++
				n, err := db.WriteReports(ctx, []*telemetry.Report{report(dev, at, zs006Points(at)...)}, shanghai)
				if err != nil || n != 20 {
					b.Fatalf("stored %d readings (%v)", n, err)
				}
			}
			st, err := db.StorageStats(ctx)
			if err != nil || st[0].Readings != 0 {
				b.Fatalf("late readings left as rows: %+v (%v)", st, err)
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/report")
		})
	}
}
