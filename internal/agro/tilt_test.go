package agro

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestTrendOf(t *testing.T) {
	t0 := time.Date(2026, 8, 1, 0, 0, 0, 0, cst)
	// A creep of 0.024°/day (0.001°/h) with 0.002° of sensor noise.
	r := rand.New(rand.NewPCG(1, 2))
	var rs []Reading
	for h := 0; h < 240; h++ {
		rs = append(rs, Reading{t0.Add(time.Duration(h) * time.Hour), 1.5 + 0.001*float64(h) + 0.002*r.NormFloat64()})
	}
	tr, err := TrendOf(rs, 0, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "rate", tr.RatePerDay, 0.024, 0.0005)
	near(t, "cumulative", tr.Cumulative, rs[239].Value-rs[0].Value, 1e-12)
	if len(tr.Steps) != 0 || tr.R2 < 0.99 {
		t.Errorf("creep alone: steps %+v, R² %g", tr.Steps, tr.R2)
	}

	// A slip of 0.05° at hour 100 is found as one step of that size.
	for h := 100; h < 240; h++ {
		rs[h].Value += 0.05
	}
	tr, _ = TrendOf(rs, 0, 0.01)
	if len(tr.Steps) != 1 || !tr.Steps[0].Time.Equal(t0.Add(100*time.Hour)) {
		t.Fatalf("steps %+v (threshold %g)", tr.Steps, tr.Threshold)
	}
	near(t, "step", tr.Steps[0].Change, 0.05, 0.01)
	// A fixed threshold above it finds none.
	tr, _ = TrendOf(rs, 0.1, 0)
	if len(tr.Steps) != 0 {
		t.Errorf("a 0.05 slip passed a 0.1 threshold")
	}

	// An exact line: its rate and intercept, no steps.
	line := []Reading{{t0, 2}, {t0.Add(24 * time.Hour), 3}, {t0.Add(72 * time.Hour), 5}}
	tr, _ = TrendOf(line, 0, 0.01)
	near(t, "line rate", tr.RatePerDay, 1, 1e-12)
	near(t, "line intercept", tr.Intercept, 2, 1e-12)
	near(t, "line R²", tr.R2, 1, 1e-12)
	if len(tr.Steps) != 0 {
		t.Errorf("steps on a line: %+v", tr.Steps)
	}
	if _, err := TrendOf(rs[:1], 0, 0.01); err == nil {
		t.Error("one reading made a trend")
	}
	if _, err := TrendOf([]Reading{{t0, 1}, {t0, 2}}, 0, 0.01); err == nil {
		t.Error("readings at one time made a trend")
	}
}

// A smooth creep reported to the tilt monitors' 0.01° has a MAD of 0: the
// threshold falls back to 2.5 resolutions, so the ticks of the last digit
// are not steps, while a real slip of 0.05° is one.
func TestTrendOf_QuantisedCreep(t *testing.T) {
	t0 := time.Date(2026, 8, 1, 0, 0, 0, 0, cst)
	const res = 0.01
	quantise := func(v float64) float64 { return math.Round(v/res) * res }
	for _, noise := range []float64{0, 0.002, 0.004} {
		// A month of hourly readings creeping 0.001°/h (the simulator's
		// slopes), with sensor noise below the resolution, as reported.
		r := rand.New(rand.NewPCG(3, 4))
		truth := make([]float64, 720)
		rs := make([]Reading, 720)
		for h := range rs {
			truth[h] = 1.3 + 0.001*float64(h)
			rs[h] = Reading{t0.Add(time.Duration(h) * time.Hour), quantise(truth[h] + noise*r.NormFloat64())}
		}
		tr, err := TrendOf(rs, 0, res)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Steps) != 0 || tr.Threshold < 2.5*res-1e-12 {
			t.Errorf("noise %g: creep alone made %d steps (threshold %g), first %+v", noise, len(tr.Steps), tr.Threshold, tr.Steps[:min(1, len(tr.Steps))])
		}
		near(t, "rate", tr.RatePerDay, 0.024, 0.001)

		// The slope slips 0.05° at hour 400.
		for h := 400; h < len(rs); h++ {
			rs[h].Value = quantise(truth[h] + 0.05 + noise*r.NormFloat64())
		}
		tr, _ = TrendOf(rs, 0, res)
		if len(tr.Steps) != 1 || !tr.Steps[0].Time.Equal(t0.Add(400*time.Hour)) {
			t.Fatalf("noise %g: slip: %d steps, first %+v (threshold %g)", noise, len(tr.Steps), tr.Steps[:min(3, len(tr.Steps))], tr.Threshold)
		}
		near(t, "slip", tr.Steps[0].Change, 0.05, 0.015)
	}
	// The old floor of 1e-6 took every tick for a step: the resolution is
	// required for an automatic threshold.
	if _, err := TrendOf([]Reading{{t0, 1}, {t0.Add(time.Hour), 1.01}}, 0, 0); err == nil {
		t.Error("an automatic threshold without a resolution")
	}
}

func TestYaw(t *testing.T) {
	for _, tc := range []struct {
		x, y, dir float64
	}{
		{1, 0, 0}, {0, 1, 90}, {-1, 0, 180}, {0, -1, 270}, {1, 1, 45}, {1, -1, 315}, {0, 0, 0},
	} {
		dir, _ := Yaw(tc.x, tc.y)
		near(t, "direction", dir, tc.dir, 1e-9)
	}
	_, tilt := Yaw(3, 4)
	want := math.Atan(math.Hypot(math.Tan(3*math.Pi/180), math.Tan(4*math.Pi/180))) * 180 / math.Pi
	near(t, "tilt", tilt, want, 1e-12)
	near(t, "small tilts add as vectors", tilt, 5, 0.01)
}
