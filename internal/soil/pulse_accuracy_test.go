package soil

import (
	"context"
	"math"
	"os"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/readings/readingstest"
)

// TestPulseAccuracy measures irrigation recognition on simulated stations
// (the table of docs/agronomy.md): for each configuration, 8 irrigated
// stations over 30 days, every simulated irrigation matched to a non-rain
// pulse on its local date. It only reports; run it with
// FIELDWATCH_PULSE_ACCURACY=1 go test ./internal/soil -run PulseAccuracy -v.
func TestPulseAccuracy(t *testing.T) {
	if os.Getenv("FIELDWATCH_PULSE_ACCURACY") == "" {
		t.Skip("set FIELDWATCH_PULSE_ACCURACY=1 to measure")
	}
	for _, cfg := range []struct {
		typ   int
		begin time.Time
	}{
		{21, time.Date(2026, 5, 20, 0, 0, 0, 0, cstZone)},
		{21, time.Date(2026, 7, 1, 0, 0, 0, 0, cstZone)},
		{1, time.Date(2026, 5, 20, 0, 0, 0, 0, cstZone)},
		{1, time.Date(2026, 8, 1, 0, 0, 0, 0, cstZone)},
		{3, time.Date(2026, 4, 10, 0, 0, 0, 0, cstZone)},
	} {
		begin, end := cfg.begin, cfg.begin.AddDate(0, 0, 30)
		hits, total, split, stations := 0, 0, 0, 0
		var errSum, errAbs float64
		for seed := int64(1); stations < 8; seed++ {
			f := readingstest.New()
			sim := f.Add(t, 1, cfg.typ, seed, begin.Add(-3*readings.Day), end, nil)
			truth := sim.Irrigations()
			if len(truth) == 0 {
				continue
			}
			stations++
			got, err := service(f, end).Irrigations(context.Background(), f.Device(1), rainFrom(f), readings.Range{Begin: begin, End: end}, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, ir := range truth {
				if ir.Start.Before(begin) || !ir.Start.Before(end.Add(-12*time.Hour)) {
					continue
				}
				total++
				date := ir.Start.In(cstZone).Format(time.DateOnly)
				n := 0
				for _, p := range got.Pulses {
					if p.Start.Format(time.DateOnly) != date || p.Source == "rain" {
						continue
					}
					if n == 0 {
						hits++
						errSum += p.AmountMM - ir.MM
						errAbs += math.Abs(p.AmountMM - ir.MM)
					}
					n++
				}
				if n == 0 {
					t.Logf("type %d seed %d: missed %.1f mm at %s (rain within a day %.1f mm)", cfg.typ, seed, ir.MM,
						ir.Start.In(cstZone).Format("01-02 15:04"), sim.RainBetween(ir.Start.Add(-readings.Day), ir.Start.Add(readings.Day)))
				}
				if n > 1 {
					split++
				}
			}
		}
		t.Logf("type %d from %s: %d stations, %d irrigations, %d on the right day (%.0f %%), %d split, amount error mean %+.1f mm, mean absolute %.1f mm",
			cfg.typ, begin.Format("01-02"), stations, total, hits, 100*float64(hits)/float64(total), split, errSum/float64(hits), errAbs/float64(hits))
	}
}
