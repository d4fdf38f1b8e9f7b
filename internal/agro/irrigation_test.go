package agro

import (
	"math"
	"testing"
	"time"
)

func nearly(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// The worked example of FAO's training manual 3 (§3.2): P = 35, 90, 116, 5,
// 260, 75 mm/month gives Pe = 11, 47, 68, 0, 183, 35.
func TestMonthlyEffectiveRain(t *testing.T) {
	for _, c := range []struct{ p, pe float64 }{{35, 11}, {90, 47}, {116, 67.8}, {5, 0}, {260, 183}, {75, 35}, {0, 0}, {16.6, 0}, {17, 0.2}} {
		if got := MonthlyEffectiveRain(c.p); math.Abs(got-c.pe) > 1e-9 {
			t.Errorf("P %.1f: Pe %.3f, want %.3f", c.p, got, c.pe)
		}
	}
}

func days(from time.Time, n int, rain func(i int) float64) []DayRain {
	out := make([]DayRain, n)
	for i := range out {
		out[i] = DayRain{Day: from.AddDate(0, 0, i), Rain: rain(i)}
	}
	return out
}

func TestEffectiveRain(t *testing.T) {
	shanghai := time.FixedZone("CST", 8*3600)
	june := time.Date(2026, 6, 1, 0, 0, 0, 0, shanghai)
	// A whole month of 3 mm a day: 90 mm, Pe 47.
	if got := EffectiveRain(days(june, 30, func(int) float64 { return 3 })); !nearly(got, 47) {
		t.Errorf("June of 90 mm: %v, want 47", got)
	}
	// Half of it, at the same rate: half the Pe.
	if got := EffectiveRain(days(june, 15, func(int) float64 { return 3 })); !nearly(got, 23.5) {
		t.Errorf("half of June: %v, want 23.5", got)
	}
	// Two months: June 90 mm (47) and July 31 days of 1 mm (31 mm: 8.6).
	july := days(june.AddDate(0, 1, 0), 31, func(int) float64 { return 1 })
	if got := EffectiveRain(append(days(june, 30, func(int) float64 { return 3 }), july...)); !nearly(got, 47+8.6) {
		t.Errorf("June and July: %v, want 55.6", got)
	}
	if got := EffectiveRain(nil); got != 0 {
		t.Errorf("no days: %v", got)
	}
}

// A hand-computed field and district: see docs/analyses.md, "Effective
// utilization coefficient".
func TestUtilizationByHand(t *testing.T) {
	// Field A, 30 mu of maize: ETc 240 mm over the season, effective rain
	// 95 mm, the profile held 180 mm at the start and 165 mm at the end.
	netA := NetIrrigation(240, 95, 180, 165)
	if !nearly(netA, 130) {
		t.Fatalf("net A %v, want 130", netA)
	}
	// Field B, 20 mu: ETc 210, effective rain 95, the soil gained 10 mm.
	netB := NetIrrigation(210, 95, 150, 160)
	if !nearly(netB, 125) {
		t.Fatalf("net B %v, want 125", netB)
	}
	// 130 mm over 30 mu is 2600 m³; 125 mm over 20 mu 1666.67 m³.
	volA, volB := WaterVolume(netA, 30), WaterVolume(netB, 20)
	if !nearly(volA, 2600) || math.Abs(volB-1666.6667) > 1e-3 {
		t.Fatalf("volumes %v %v", volA, volB)
	}
	// 6,500 m³ metered at the source: η = 4266.67 / 6500 = 0.6564.
	eta, ok := UtilizationCoefficient(volA+volB, 6500)
	if !ok || math.Abs(eta-0.65641) > 1e-4 {
		t.Errorf("η %v %v, want 0.6564", eta, ok)
	}
	if _, ok := UtilizationCoefficient(100, 0); ok {
		t.Error("η without gross water")
	}
	// Rain and soil covered the crop: no irrigation counted, never negative.
	if got := NetIrrigation(100, 80, 120, 90); got != 0 {
		t.Errorf("net %v, want 0", got)
	}
}
