package bench_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/bench"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// Each benchmark, run small, measures what it says on the server's graph.

func TestIngest(t *testing.T) {
	stores := map[string]string{"sqlite": ""}
	if base, _ := storetest.PostgresURL(); base != "" {
		stores["postgres"] = base
	}
	for name, dsn := range stores {
		t.Run(name, func(t *testing.T) {
			r, err := bench.Ingest(context.Background(), bench.IngestOptions{DB: dsn, Devices: 4, Reports: 3, TypeID: 2, InFlight: 2})
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Dialect) != name || r.Points != 4*3*20 || r.Commits == 0 || r.Ingest <= 0 || r.Raw <= 0 {
				t.Fatalf("%+v", r)
			}
		})
	}
}

func TestAlerts(t *testing.T) {
	r, err := bench.Alerts(context.Background(), bench.AlertsOptions{Crossings: 3, Load: 200})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ToSMTP) != 3 || len(r.ToEvent) != 3 || r.Load <= 0 {
		t.Fatalf("%+v", r)
	}
	for i, d := range r.ToEvent {
		if d <= 0 || d > r.ToSMTP[i]+time.Second {
			t.Errorf("publish → event %s against publish → mail %s", d, r.ToSMTP[i])
		}
	}
}

func TestCommands(t *testing.T) {
	r, err := bench.Commands(context.Background(), bench.CommandsOptions{Devices: 2, Commands: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Trips) != 6 || r.Trips[0] <= 0 {
		t.Fatalf("%+v", r)
	}
}

func TestPush(t *testing.T) {
	r, err := bench.Push(context.Background(), bench.PushOptions{Backlog: 300, Load: 400, Duration: time.Second, Devices: 5})
	if err != nil {
		t.Fatal(err)
	}
	if r.Backlog != 300 || r.Drain <= 0 || r.Load <= 0 || len(r.ToDelivery) == 0 {
		t.Fatalf("%+v", r)
	}
}

func TestPercentile(t *testing.T) {
	d := []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if got := bench.Percentile(d, 50); got != 5 {
		t.Errorf("p50 %d", got)
	}
	if got := bench.Percentile(d, 100); got != 10 {
		t.Errorf("p100 %d", got)
	}
	if got := bench.Percentile(nil, 99); got != 0 {
		t.Errorf("p99 of nothing %d", got)
	}
}
