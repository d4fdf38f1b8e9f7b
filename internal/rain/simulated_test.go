package rain

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/readings/readingstest"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

var cstZone = time.FixedZone("CST", 8*3600)

// The rain gauge calls for the rainstorm signal the simulated downpour's own
// totals call for, and for none before it.
func TestSimulatedRainstormWarning(t *testing.T) {
	probe := simulator.New(simulator.Device{SN: "P", Type: readingstest.Type(t, 6), Lat: 37.45, Lng: 116.3, Seed: 1})
	// The wettest 3 h of the summer, on 10-minute report times.
	var peak time.Time
	best := 0.0
	for at := time.Date(2026, 6, 1, 0, 0, 0, 0, cstZone); at.Before(time.Date(2026, 9, 1, 0, 0, 0, 0, cstZone)); at = at.Add(10 * time.Minute) {
		if mm := probe.RainBetween(at.Add(-3*time.Hour), at); mm > best {
			best, peak = mm, at
		}
	}
	truth := func(now time.Time) agro.WarningLevel {
		return agro.RainstormWarning(probe.RainBetween(now.Add(-3*time.Hour), now),
			probe.RainBetween(now.Add(-6*time.Hour), now), probe.RainBetween(now.Add(-12*time.Hour), now))
	}
	want := truth(peak)
	if want == agro.WarningNone {
		t.Fatalf("the wettest 3 h of the summer bring %.1f mm: no rainstorm to check", best)
	}
	t.Logf("%.1f mm in the 3 h to %s: signal %s", best, peak.In(cstZone).Format("2006-01-02 15:04"), want)
	f := readingstest.New()
	f.Add(t, 1, 6, 1, peak.Add(-2*readings.Day), peak.Add(time.Hour), nil)
	for _, c := range []struct {
		now  time.Time
		want agro.WarningLevel
	}{
		{peak, want},
		{peak.Add(-readings.Day), truth(peak.Add(-readings.Day))},
	} {
		got, err := New(readings.New(telemetry.NewHistory(telemetry.HistoryOptions{Store: f, Location: cstZone}), func() time.Time { return c.now })).EarlyWarning(context.Background(), f.Device(1), 1)
		if err != nil {
			t.Fatal(err)
		}
		if got.Current != c.want {
			t.Errorf("at %s (%.1f mm in 3 h): signal %+v, want level %d", c.now.In(cstZone).Format("01-02 15:04"),
				probe.RainBetween(c.now.Add(-3*time.Hour), c.now), got.Current, c.want)
		}
	}
	got, err := New(readings.New(telemetry.NewHistory(telemetry.HistoryOptions{Store: f, Location: cstZone}), func() time.Time { return peak })).EarlyWarning(context.Background(), f.Device(1), 1)
	if err != nil {
		t.Fatal(err)
	}
	if got.Highest != want || len(got.Episodes) == 0 || !got.Episodes[0].Ongoing {
		t.Errorf("the storm's episode: highest %+v, episodes %+v", got.Highest, got.Episodes)
	}
}
