package cli

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// fill writes days of 10-minute reports of devs soil stations ending two
// days before now, and returns each device's readings count and value sum.
func fill(t *testing.T, cfg config.Store, devs, days int) map[int64][2]float64 {
	t.Helper()
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := map[int64][2]float64{}
	for i := range devs {
		d := &devices.Device{HashID: fmt.Sprintf("h%d", i), SN: fmt.Sprintf("ZS%07d", i), TypeID: 2, Name: "Plot", State: devices.StateUsed,
			CreatedAt: time.UnixMilli(1_700_000_000_000)}
		if err := db.CreateDevice(ctx, d, "sealed"); err != nil {
			t.Fatal(err)
		}
		want[d.ID] = writeHistory(t, db, d.ID, i, days)
	}
	return want
}

// historyEnd is where fill's history ends: two days before now, on the hour.
func historyEnd() time.Time { return time.Now().Add(-48 * time.Hour).Truncate(time.Hour) }

// writeHistory writes days of 10-minute reports (four readings each) of the
// i-th soil station id as rows, ending at historyEnd, and returns their
// count and value sum.
func writeHistory(t *testing.T, db *store.DB, id int64, i, days int) [2]float64 {
	t.Helper()
	ctx := context.Background()
	end := historyEnd()
	var batch []*telemetry.Report
	var n, sum float64
	for at := end.Add(-time.Duration(days) * 24 * time.Hour); at.Before(end); at = at.Add(10 * time.Minute) {
		v := math.Round(float64(at.Unix()%1000+int64(i))) / 10
		pts := []telemetry.Point{{Param: "soilMoisture", Node: 10, Value: v}, {Param: "soilMoisture", Node: 20, Value: v + 1},
			{Param: "soilTemp", Node: 10, Value: v / 2}, {Param: "battery", Value: 12.5}}
		for _, p := range pts {
			n++
			sum += p.Value
		}
		batch = append(batch, &telemetry.Report{DeviceID: id, Time: at, Points: pts, OfflineAt: at.Add(time.Hour)})
		if len(batch) == 2000 {
			if _, err := db.WriteReports(ctx, batch, time.UTC); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if _, err := db.WriteReports(ctx, batch, time.UTC); err != nil {
		t.Fatal(err)
	}
	return [2]float64{n, sum}
}

// check reads every device's readings back and compares count and sum.
func check(t *testing.T, cfg config.Store, want map[int64][2]float64, what string) []store.StorageTable {
	t.Helper()
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for id, w := range want {
		rs, err := db.Readings(ctx, telemetry.Query{DeviceID: id, Begin: time.Unix(0, 0), End: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, r := range rs {
			sum += r.Value
		}
		if float64(len(rs)) != w[0] || math.Abs(sum-w[1]) > 1e-6*math.Abs(w[1]) {
			t.Fatalf("%s: device %d reads %d readings summing %v, want %v and %v", what, id, len(rs), sum, w[0], w[1])
		}
	}
	st, err := db.StorageStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestStorageCompact_Kill9 converts a database written as rows into chunks
// with "storage compact" as its own process, kills it (SIGKILL) while it
// works, checks that every reading reads back once, then runs it again to
// the end and checks again; "storage stats" then finds every reading in
// chunks. On both stores.
func TestStorageCompact_Kill9(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			cfg := config.Store{Data: t.TempDir()}
			if dialect == "postgres" {
				cfg.DB = storetest.DSN(t)
			}
			flags := []string{"--data", cfg.Data}
			if cfg.DB != "" {
				flags = append(flags, "--db", cfg.DB)
			}
			want := fill(t, cfg, 12, 90)
			total := 0.0
			for _, w := range want {
				total += w[0]
			}

			cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--", "storage", "compact"}, flags...)...)
			cmd.Env = append(os.Environ(), "FIELDWATCH_AS_MAIN=1")
			pipe, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(pipe)
			if !lines.Scan() || !strings.Contains(lines.Text(), "readings into") {
				t.Fatalf("no progress line: %q", lines.Text())
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			st := check(t, cfg, want, "after kill -9")
			if st[1].Readings == 0 || st[0].Readings == 0 {
				t.Fatalf("the kill did not land mid-way: %+v", st)
			}

			code, out, errOut := runCmd(t, "", append([]string{"storage", "compact"}, flags...)...)
			if code != 0 {
				t.Fatalf("compact: %d %s", code, errOut)
			}
			if !strings.Contains(out, "telemetry_chunks") {
				t.Fatalf("compact printed no stats: %q", out)
			}
			st = check(t, cfg, want, "after compacting again")
			if st[0].Readings != 0 || float64(st[1].Readings) != total {
				t.Fatalf("stats after compaction: %+v, want %v readings in chunks", st, total)
			}
			code, out, _ = runCmd(t, "", append([]string{"storage", "stats"}, flags...)...)
			if code != 0 || !strings.Contains(out, fmt.Sprintf(" %d ", int64(total))) {
				t.Fatalf("stats: %d %q", code, out)
			}
			t.Logf("\n%s", out)
		})
	}
}
