package detect_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/ailab/builtin"
	"github.com/fieldwatch/fieldwatch/internal/detect"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// lab is a store with an account, two traps and the built-in counter
// published on them, and a telemetry writer over it.
type lab struct {
	db     *store.DB
	writer *telemetry.Writer
	traps  []*devices.Device
	owner  int64
	app    int64
}

func newLab(tb testing.TB) *lab {
	tb.Helper()
	ctx := context.Background()
	db := storetest.OpenSQLite(tb)
	now := time.Now()
	a := &accounts.Account{AccountNumber: "bench01", Name: "Bench", PasswordHash: "h", CreatedAt: now}
	if err := db.CreateAccount(ctx, a); err != nil {
		tb.Fatal(err)
	}
	l := &lab{db: db, owner: a.ID}
	for _, sn := range []string{"IB00000001", "IB00000002"} {
		d := &devices.Device{HashID: "h" + sn, SN: sn, TypeID: 20, OwnerID: a.ID, Name: sn, State: devices.StateUsed, CreatedAt: now}
		if err := db.CreateDevice(ctx, d, "sealed"); err != nil {
			tb.Fatal(err)
		}
		l.traps = append(l.traps, d)
	}
	pkg, err := ailab.ReadPackage(builtin.InsectCounterFile, builtin.InsectCounter)
	if err != nil {
		tb.Fatal(err)
	}
	m := &ailab.StoredModel{OwnerID: a.ID, Name: pkg.Manifest.Name, Version: pkg.Manifest.Version, Kind: pkg.Manifest.Output.Kind,
		FileName: builtin.InsectCounterFile, Manifest: pkg.Manifest, Operators: pkg.Operators, CreatedAt: now}
	if err := db.CreateModel(ctx, m, builtin.InsectCounter); err != nil {
		tb.Fatal(err)
	}
	app := &ailab.App{OwnerID: a.ID, Name: "Moths", Type: ailab.AppInsect, ModelID: m.ID, Elements: pkg.Manifest.Elements,
		DeviceIDs: []int64{l.traps[0].ID, l.traps[1].ID}, Published: true, CreatedAt: now, UpdatedAt: now}
	if err := db.CreateLabApp(ctx, app); err != nil {
		tb.Fatal(err)
	}
	l.app = app.ID
	l.writer = telemetry.NewWriter(telemetry.WriterOptions{Store: db, Location: time.UTC})
	tb.Cleanup(l.writer.Close)
	return l
}

// BenchmarkDrainBacklog drains a backlog of 1,000 trap pictures (half on
// each trap, 320×240 JPEGs of 0–200 moths) with one worker per core, and
// reports the rate: pictures run, recorded and written as readings per
// second.
func BenchmarkDrainBacklog(b *testing.B) {
	const backlog = 1000
	l := newLab(b)
	ctx := context.Background()
	pictures := make([][]byte, 50)
	base := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	for i := range pictures {
		pictures[i] = simulator.TrapPicture(int64(i), 34.7, 113.6, base.Add(time.Duration(i)*37*time.Hour), i*4)
	}
	pool := detect.New(detect.Options{Store: l.db, Writer: l.writer})
	workers := runtime.GOMAXPROCS(0)
	ws := make([]*detect.Worker, workers)
	for i := range ws {
		ws[i] = pool.NewWorker()
	}
	next := base
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		for i := range backlog {
			next = next.Add(time.Minute)
			if err := l.db.SaveImage(ctx, l.traps[i%2].ID, next, "image/jpeg", pictures[i%len(pictures)]); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		var wg sync.WaitGroup
		for _, w := range ws {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					ok, err := w.RunOnce(ctx)
					if err != nil {
						b.Error(err)
						return
					}
					if !ok {
						return
					}
				}
			}()
		}
		wg.Wait()
	}
	b.StopTimer()
	counts, err := l.db.LabAppJobCounts(ctx, l.owner)
	if err != nil {
		b.Fatal(err)
	}
	if c := counts[l.app]; c.Done != backlog*b.N {
		b.Fatalf("runs %+v, want %d done", c, backlog*b.N)
	}
	b.ReportMetric(float64(backlog*b.N)/b.Elapsed().Seconds(), "pictures/s")
	b.ReportMetric(float64(workers), "workers")
}
