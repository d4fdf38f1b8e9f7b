package agro

import (
	"testing"
	"time"
)

func TestCropCurve_Kc(t *testing.T) {
	// FAO-56 Table 11/12-like winter wheat: 20, 30, 40, 30 days with Kc
	// 0.4, 1.15, 0.4.
	c := CropCurve{Initial: 20, Development: 30, Mid: 40, Late: 30, KcIni: 0.4, KcMid: 1.15, KcEnd: 0.4}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		day   int
		kc    float64
		stage GrowthStage
	}{
		{0, 0, StageOutside}, {1, 0.4, StageInitial}, {20, 0.4, StageInitial},
		{21, 0.4 + 0.75/30, StageDevelopment}, {35, 0.4 + 0.75*15/30, StageDevelopment}, {50, 1.15, StageDevelopment},
		{51, 1.15, StageMid}, {90, 1.15, StageMid},
		{105, 1.15 - 0.75*15/30, StageLate}, {120, 0.4, StageLate}, {121, 0, StageOutside},
	} {
		kc, stage := c.Kc(tc.day)
		if stage != tc.stage {
			t.Errorf("day %d: stage %s, want %s", tc.day, stage, tc.stage)
		}
		near(t, "Kc", kc, tc.kc, 1e-12)
	}
	near(t, "ETc", ETc(1.15, 5), 5.75, 1e-12)
	if err := (CropCurve{KcIni: 0.4, KcMid: 1.1, KcEnd: 0.3}).Validate(); err == nil {
		t.Error("a season of no days validated")
	}
	if err := (CropCurve{Initial: 10, KcIni: 3}).Validate(); err == nil {
		t.Error("Kc 3 validated")
	}
}

func TestSoilWaterQuantities(t *testing.T) {
	near(t, "R", RelativeMoisture(18, 30), 60, 1e-12)
	near(t, "θ", MoistureFromRelative(60, 30), 18, 1e-12)
	near(t, "θv", VolumetricFromGravimetric(20, 1.35), 27, 1e-12)
	// 25 vol % over a 10 cm layer holds 25 mm.
	near(t, "water", WaterDepth(25, 10), 25, 1e-12)
	// θFC 32 %, θWP 12 % over 1 m: 1000 × (0.32 − 0.12) × 1 = 200 mm.
	near(t, "TAW", PlantAvailableWater(32, 12, 100), 200, 1e-12)
	r, err := ProfileRelativeMoisture([]float64{15, 24}, []float64{30, 30})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "profile R", r, 65, 1e-12)
	if _, err := ProfileRelativeMoisture([]float64{15}, []float64{30, 30}); err == nil {
		t.Error("mismatched layers accepted")
	}
	if _, err := ProfileRelativeMoisture([]float64{15}, []float64{0}); err == nil {
		t.Error("field capacity 0 accepted")
	}
}

// GB/T 32136-2015 grades, edges included in the drier grade's upper bound.
func TestDroughtByRelativeMoisture(t *testing.T) {
	for _, tc := range []struct {
		r    float64
		want DroughtGrade
	}{
		{100, DroughtNone}, {60.01, DroughtNone}, {60, DroughtLight}, {50.01, DroughtLight},
		{50, DroughtModerate}, {40.01, DroughtModerate}, {40, DroughtSevere}, {30.01, DroughtSevere},
		{30, DroughtExtreme}, {0, DroughtExtreme},
	} {
		if got := DroughtByRelativeMoisture(tc.r); got != tc.want {
			t.Errorf("R %g: %v, want %v", tc.r, got, tc.want)
		}
	}
}

func TestRootZone_Balance(t *testing.T) {
	// 40 cm of loam, θFC 30, θWP 12: TAW 72 mm; refill at 60 % of FC
	// (θ 18) leaves RAW = 48 mm.
	z := RootZone{DepthCM: 40, FieldCapacity: 30, WiltingPoint: 12, RefillRelative: 60}
	near(t, "TAW", z.TAW(), 72, 1e-9)
	near(t, "RAW", z.RAW(), 48, 1e-9)
	day := func(i int) time.Time { return time.Date(2026, 5, 1+i, 0, 0, 0, 0, time.UTC) }

	// Start at field capacity, 6 mm/day: the zone reaches the refill point
	// after 8 days, and 48 mm bring it back.
	var days []WaterDay
	for i := range 10 {
		days = append(days, WaterDay{Date: day(i), ETc: 6})
	}
	wb, err := z.Balance(30, days)
	if err != nil {
		t.Fatal(err)
	}
	if !wb.RefillDate.Equal(day(7)) {
		t.Errorf("refill on %s, want %s", wb.RefillDate, day(7))
	}
	near(t, "irrigation", wb.IrrigationDepth, 48, 1e-9)
	near(t, "θ day 1", wb.Days[0].Theta, 30-6.0/400*100, 1e-9)
	// Past the refill point the crop is stressed: day 9 takes Ks ETc
	// with Ks = (72 − 48)/(72 − 48) = 1 at the start, day 10 less.
	if wb.Days[9].ETa >= 6 {
		t.Errorf("stressed day ET %g, want below 6", wb.Days[9].ETa)
	}
	if last := wb.Days[9]; last.Drought != DroughtModerate && last.Drought != DroughtLight {
		t.Errorf("last day %.1f %% is %v", last.Relative, last.Drought)
	}

	// Rain beyond field capacity drains; irrigation counts as rain does.
	wb, _ = z.Balance(25, []WaterDay{{Date: day(0), Rain: 30, ETc: 4}, {Date: day(1), Irrigation: 10, ETc: 4}})
	near(t, "drainage day 1", wb.Days[0].Drainage, 30-4-20, 1e-9)
	near(t, "depletion day 1", wb.Days[0].Depletion, 0, 1e-9)
	near(t, "drainage day 2", wb.Days[1].Drainage, 6, 1e-9)
	if !wb.RefillDate.IsZero() {
		t.Errorf("a wet zone reached refill on %s", wb.RefillDate)
	}

	// Never below the wilting point, however long the drought.
	days = nil
	for i := range 200 {
		days = append(days, WaterDay{Date: day(i), ETc: 8})
	}
	wb, _ = z.Balance(30, days)
	if last := wb.Days[len(wb.Days)-1]; last.Theta < z.WiltingPoint {
		t.Errorf("θ %g below the wilting point", last.Theta)
	}
}

func TestRootZone_ProjectRefill(t *testing.T) {
	z := RootZone{DepthCM: 40, FieldCapacity: 30, WiltingPoint: 12, RefillRelative: 60}
	from := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	// θ 24 holds 24 mm less than FC; 24 more at 4 mm/day: 6 days.
	date, depth, ok, err := z.ProjectRefill(24, 4, from, 30)
	if err != nil || !ok {
		t.Fatalf("%v %v", ok, err)
	}
	if want := from.AddDate(0, 0, 6); !date.Equal(want) {
		t.Errorf("refill %s, want %s", date, want)
	}
	near(t, "depth", depth, 48, 1e-9)
	if _, _, ok, _ := z.ProjectRefill(24, 4, from, 3); ok {
		t.Error("refill within 3 days")
	}
	date, depth, ok, _ = z.ProjectRefill(16, 4, from, 3)
	if !ok || !date.Equal(from) {
		t.Errorf("already dry: %s %v", date, ok)
	}
	near(t, "depth now", depth, 56, 1e-9)
	for name, bad := range map[string]RootZone{
		"depth":         {DepthCM: 0, FieldCapacity: 30, WiltingPoint: 12, RefillRelative: 60},
		"wilting-point": {DepthCM: 40, FieldCapacity: 30, WiltingPoint: 31, RefillRelative: 60},
		"refill":        {DepthCM: 40, FieldCapacity: 30, WiltingPoint: 12, RefillRelative: 30},
	} {
		err := bad.Validate()
		if ie, ok := err.(*InputError); !ok || ie.Field != name {
			t.Errorf("%s: %v", name, err)
		}
	}
}
