package store_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
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

// compactDays is the history BenchmarkCompact compacts per op: 60 days of
// one ZS006's 10-minute reports, 172,800 readings.
const compactDays = 60

// cpuTime is this process's user and system CPU time so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU is a process's user and system CPU time so far, from /proc (0
// for pid 0).
func procCPU(tb testing.TB, pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Fatalf("server CPU time: %v", err)
	}
	// Fields after the parenthesised command: state is the 3rd, utime the 14th.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		tb.Fatalf("server CPU time: %q", f[11:13])
	}
	return time.Duration(ut+st) * 10 * time.Millisecond // USER_HZ = 100
}

// BenchmarkCompact measures CompactReadings end to end over compactDays of
// one ZS006 (a fresh device per op): readings/s of wall time, of this
// process's CPU time, and, on PostgreSQL, of the client's and the server
// backend's CPU time together. Target: ≥ 1 M readings/s on one core.
func BenchmarkCompact(b *testing.B) {
	for _, be := range []struct {
		name string
		open func(testing.TB) *store.DB
	}{{"sqlite", storetest.OpenSQLite}, {"postgres", storetest.OpenPostgres}} {
		b.Run(be.name, func(b *testing.B) {
			db := be.open(b)
			ctx := context.Background()
			pid, err := db.OneConnection(ctx)
			if err != nil {
				b.Fatal(err)
			}
			owner := newAccount(b, db, "farmer01")
			end := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -2)
			var (
				wall, cpu, server time.Duration
				readings          int64
				op                int
			)
			for b.Loop() {
				b.StopTimer()
				op++
				dev := newDevice(b, db, fmt.Sprintf("ZS%07d", op), 2, owner.ID).ID
				var rs []*telemetry.Report
				for at := end.AddDate(0, 0, -compactDays); at.Before(end); at = at.Add(10 * time.Minute) {
					rs = append(rs, report(dev, at, zs006Points(at)...))
					if len(rs) == 1000 {
						if _, err := db.WriteReports(ctx, rs, shanghai); err != nil {
							b.Fatal(err)
						}
						rs = rs[:0]
					}
				}
				if _, err := db.WriteReports(ctx, rs, shanghai); err != nil {
					b.Fatal(err)
				}
				start, c0, s0 := time.Now(), cpuTime(b), procCPU(b, pid)
				b.StartTimer()
				res, err := db.CompactReadings(ctx, time.Now(), nil)
				b.StopTimer()
				wall, cpu, server = wall+time.Since(start), cpu+cpuTime(b)-c0, server+procCPU(b, pid)-s0
				if want := int64(compactDays * 144 * 20); err != nil || res.Readings != want {
					b.Fatalf("compacted %d readings, want %d (%v)", res.Readings, want, err)
				}
				readings += res.Readings
				b.StartTimer()
			}
			b.ReportMetric(float64(readings)/wall.Seconds(), "readings/s")
			b.ReportMetric(float64(readings)/cpu.Seconds(), "readings/cpu-s")
			if pid != 0 {
				b.ReportMetric(float64(readings)/(cpu+server).Seconds(), "readings/client+server-cpu-s")
			}
		})
	}
}
