package agro

import (
	"errors"
	"math"
	"testing"
)

// GB/T 32136-2015 table 2 (soil relative humidity index): no drought
// R > 60, light 50 < R ≤ 60, moderate 40 < R ≤ 50, severe 30 < R ≤ 40,
// extreme R ≤ 30 — each threshold belongs to the drier grade.
func TestDroughtGrade_Boundaries(t *testing.T) {
	const eps = 1e-9
	cases := []struct {
		r    float64
		want DroughtGrade
	}{
		{100, DroughtNone}, {60 + eps, DroughtNone}, {60.1, DroughtNone},
		{60, DroughtLight}, {60 - eps, DroughtLight}, {50.1, DroughtLight}, {50 + eps, DroughtLight},
		{50, DroughtModerate}, {49.9, DroughtModerate}, {40 + eps, DroughtModerate},
		{40, DroughtSevere}, {39.9, DroughtSevere}, {30 + eps, DroughtSevere},
		{30, DroughtExtreme}, {29.9, DroughtExtreme}, {0, DroughtExtreme},
	}
	for _, c := range cases {
		if got := DroughtByRelativeMoisture(c.r); got != c.want {
			t.Errorf("R %v: %v, want %v", c.r, got, c.want)
		}
		if got := AssessRelative(c.r, DroughtOtherStage).Grade; got != c.want {
			t.Errorf("AssessRelative(%v, other): %v, want %v", c.r, got, c.want)
		}
	}
}

// The stage coefficient a (seedling 1.1, critical 0.9, other 1) moves every
// boundary: at the seedling stage R = 60/1.1 is the last light-drought value,
// in the critical period R = 60/0.9 is.
func TestDroughtGrade_StageAdjustment(t *testing.T) {
	const eps = 1e-6
	for _, c := range []struct {
		stage DroughtStage
		a     float64
	}{{DroughtSeedling, 1.1}, {DroughtCritical, 0.9}, {DroughtOtherStage, 1}, {"", 1}} {
		if got := AssessRelative(50, c.stage).Coefficient; got != c.a {
			t.Errorf("%q: a = %v, want %v", c.stage, got, c.a)
		}
		for _, b := range []struct {
			threshold    float64
			wet, atOrDry DroughtGrade
		}{
			{60, DroughtNone, DroughtLight}, {50, DroughtLight, DroughtModerate},
			{40, DroughtModerate, DroughtSevere}, {30, DroughtSevere, DroughtExtreme},
		} {
			r := b.threshold / c.a
			if got := AssessRelative(r+eps, c.stage).Grade; got != b.wet {
				t.Errorf("%q R %.6f (just above %v/a): %v, want %v", c.stage, r+eps, b.threshold, got, b.wet)
			}
			if got := AssessRelative(r-eps, c.stage).Grade; got != b.atOrDry {
				t.Errorf("%q R %.6f (just below %v/a): %v, want %v", c.stage, r-eps, b.threshold, got, b.atOrDry)
			}
		}
	}
	// The same soil by stage: R 56.25 % is light drought in general and in
	// the critical period (0.9 × 56.25 = 50.625), none at the seedling stage
	// (1.1 × 56.25 = 61.875).
	theta, fc := 18.0, 32.0
	for stage, want := range map[DroughtStage]DroughtGrade{DroughtOtherStage: DroughtLight, DroughtSeedling: DroughtNone, DroughtCritical: DroughtLight} {
		a, err := AssessDrought([]float64{theta}, []float64{fc}, stage)
		if err != nil {
			t.Fatal(err)
		}
		if a.Grade != want || math.Abs(a.Relative-56.25) > 1e-9 {
			t.Errorf("%s: R %v grade %v, want 56.25 %v", stage, a.Relative, a.Grade, want)
		}
	}
	a, _ := AssessDrought([]float64{16}, []float64{32}, DroughtCritical) // R 50, index 45
	if a.Grade != DroughtModerate || math.Abs(a.Index-45) > 1e-9 {
		t.Errorf("critical R 50: index %v grade %v, want 45 moderate", a.Index, a.Grade)
	}
}

func TestWaterlogged_Boundary(t *testing.T) {
	for r, want := range map[float64]bool{89.9: false, 90: false, 90.0001: true, 120: true} {
		if got := Waterlogged(r); got != want {
			t.Errorf("R %v: waterlogged %v, want %v", r, got, want)
		}
	}
	// The flag reads the soil, not the stage-adjusted index.
	a := AssessRelative(85, DroughtSeedling) // index 93.5
	if a.Waterlogged {
		t.Errorf("R 85 at seedling stage flagged waterlogged (index %v)", a.Index)
	}
}

// A region worked by hand: three devices, the 0–20 cm band.
//
//	device  θ (vol %)  θfc   R = θ/θfc×100
//	A       20.1       30.0  67.0
//	B       15.6       31.2  50.0
//	C       11.7       26.0  45.0
//
// Region R = (67 + 50 + 45) / 3 = 54.0 → light drought (50 < 54 ≤ 60).
// In the critical period a = 0.9: index 48.6 → moderate drought.
// At the seedling stage a = 1.1: index 59.4 → still light drought.
func TestAssessDrought_RegionByHand(t *testing.T) {
	thetas, fcs := []float64{20.1, 15.6, 11.7}, []float64{30.0, 31.2, 26.0}
	for _, c := range []struct {
		stage DroughtStage
		index float64
		grade DroughtGrade
	}{{DroughtOtherStage, 54.0, DroughtLight}, {DroughtCritical, 48.6, DroughtModerate}, {DroughtSeedling, 59.4, DroughtLight}} {
		a, err := AssessDrought(thetas, fcs, c.stage)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(a.Relative-54.0) > 1e-9 || math.Abs(a.Index-c.index) > 1e-9 || a.Grade != c.grade || a.Waterlogged {
			t.Errorf("%s: %+v, want R 54.0 index %v %v", c.stage, a, c.index, c.grade)
		}
	}
}

func TestAssessDrought_BadInput(t *testing.T) {
	for name, c := range map[string]struct {
		th, fc []float64
		stage  DroughtStage
		field  string
	}{
		"stage":     {[]float64{18}, []float64{32}, "flowering", "stage"},
		"no layers": {nil, nil, DroughtOtherStage, "theta"},
		"mismatch":  {[]float64{18, 20}, []float64{32}, DroughtOtherStage, "theta"},
		"zero fc":   {[]float64{18}, []float64{0}, DroughtOtherStage, "field-capacity"},
		"negative":  {[]float64{-1}, []float64{32}, DroughtOtherStage, "theta"},
		"NaN":       {[]float64{math.NaN()}, []float64{32}, DroughtOtherStage, "theta"},
		"units":     {[]float64{18}, []float64{0.32}, DroughtOtherStage, "theta"},
	} {
		_, err := AssessDrought(c.th, c.fc, c.stage)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field {
			t.Errorf("%s: %v, want an InputError on %s", name, err, c.field)
		}
	}
}
