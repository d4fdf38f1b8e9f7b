package agro

import (
	"math"
	"testing"
	"time"
)

func TestWindLevel(t *testing.T) {
	for _, tc := range []struct {
		speed float64
		want  int
	}{
		{0, 0}, {0.29, 0}, {0.3, 1}, {1.59, 1}, {1.6, 2}, {3.4, 3}, {5.49, 3}, {5.5, 4}, {8, 5},
		{10.8, 6}, {13.9, 7}, {17.19, 7}, {17.2, 8}, {20.8, 9}, {24.5, 10}, {28.5, 11},
		{32.69, 11}, {32.7, 12}, {37, 13}, {41.5, 14}, {46.2, 15}, {51, 16}, {56.09, 16},
		{56.1, 17}, {80, 17},
	} {
		if got := WindLevel(tc.speed); got != tc.want {
			t.Errorf("WindLevel(%g) = %d, want %d", tc.speed, got, tc.want)
		}
	}
	if lo, hi := WindLevelRange(0); lo != 0 || hi != 0.3 {
		t.Errorf("level 0 is [%g, %g)", lo, hi)
	}
	if lo, hi := WindLevelRange(17); lo != 56.1 || !math.IsInf(hi, 1) {
		t.Errorf("level 17 is [%g, %g)", lo, hi)
	}
}

func TestWindSector(t *testing.T) {
	for _, tc := range []struct {
		dir  float64
		want string
	}{
		{0, "N"}, {22.49, "N"}, {22.5, "NE"}, {45, "NE"}, {67.49, "NE"}, {67.5, "E"}, {90, "E"},
		{112.5, "SE"}, {135, "SE"}, {157.5, "S"}, {180, "S"}, {202.5, "SW"}, {247.5, "W"},
		{292.5, "NW"}, {337.49, "NW"}, {337.5, "N"}, {359.99, "N"}, {360, "N"}, {-10, "N"},
		{-22.6, "NW"}, {725, "N"},
	} {
		if got := WindSector(tc.dir); got != tc.want {
			t.Errorf("WindSector(%g) = %s, want %s", tc.dir, got, tc.want)
		}
	}
}

func TestRainClassOf(t *testing.T) {
	for _, tc := range []struct {
		mm    float64
		hours int
		want  RainClass
	}{
		{0, 1, RainNone}, {0.05, 1, RainNone}, {0.1, 1, RainLight}, {2.5, 1, RainLight}, {2.6, 1, RainModerate},
		{8.0, 1, RainModerate}, {8.1, 1, RainHeavy}, {15.9, 1, RainHeavy}, {16.0, 1, RainStorm}, {120, 1, RainStorm},
		{0.09, 12, RainNone}, {0.1, 12, RainLight}, {4.9, 12, RainLight}, {5.0, 12, RainModerate},
		{14.9, 12, RainModerate}, {15.0, 12, RainHeavy}, {29.9, 12, RainHeavy}, {30.0, 12, RainStorm},
		{69.9, 12, RainStorm}, {70.0, 12, RainHeavyStorm}, {139.9, 12, RainHeavyStorm}, {140.0, 12, RainSevereStorm},
		{0, 24, RainNone}, {0.1, 24, RainLight}, {9.9, 24, RainLight}, {10.0, 24, RainModerate},
		{24.9, 24, RainModerate}, {25.0, 24, RainHeavy}, {49.9, 24, RainHeavy}, {50.0, 24, RainStorm},
		{99.9, 24, RainStorm}, {100.0, 24, RainHeavyStorm}, {249.9, 24, RainHeavyStorm}, {250.0, 24, RainSevereStorm},
	} {
		got, err := RainClassOf(tc.mm, tc.hours)
		if err != nil || got != tc.want {
			t.Errorf("RainClassOf(%g, %d) = %v, %v; want %v", tc.mm, tc.hours, got, err, tc.want)
		}
	}
	if _, err := RainClassOf(10, 6); err == nil {
		t.Error("6 hours accepted")
	}
	if _, err := RainClassOf(-1, 24); err == nil {
		t.Error("negative rain accepted")
	}
	if f, ok := RainClassFloor(RainStorm, 24); !ok || f != 50 {
		t.Errorf("storm floor over 24 h = %g, %v", f, ok)
	}
	if _, ok := RainClassFloor(RainHeavyStorm, 1); ok {
		t.Error("an hour has a heavy-storm class")
	}
}

func TestRainstormWarning(t *testing.T) {
	for _, tc := range []struct {
		mm3, mm6, mm12 float64
		want           WarningLevel
		code           string
	}{
		{0, 0, 0, WarningNone, ""},
		{10, 20, 49.9, WarningNone, ""},
		{10, 20, 50, WarningBlue, "01"},
		{10, 49.9, 60, WarningBlue, "01"},
		{10, 50, 60, WarningYellow, "02"},
		{49.9, 60, 70, WarningYellow, "02"},
		{50, 60, 70, WarningOrange, "03"},
		{99.9, 120, 130, WarningOrange, "03"},
		{100, 120, 130, WarningRed, "04"},
	} {
		got := RainstormWarning(tc.mm3, tc.mm6, tc.mm12)
		if got != tc.want || got.Code() != tc.code {
			t.Errorf("RainstormWarning(%g, %g, %g) = %v %q, want %v %q", tc.mm3, tc.mm6, tc.mm12, got, got.Code(), tc.want, tc.code)
		}
	}
}

func TestRainstormWarningOf(t *testing.T) {
	t0 := time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC)
	hourly := func(mm ...float64) []RainAmount {
		var out []RainAmount
		for i, v := range mm {
			out = append(out, RainAmount{Time: t0.Add(time.Duration(i+1) * time.Hour), MM: v})
		}
		return out
	}
	// 60 mm spread over 10 hours: 12 h reaches 50, 6 h does not.
	if got := RainstormWarningOf(hourly(6, 6, 6, 6, 6, 6, 6, 6, 6, 6)); got != WarningBlue {
		t.Errorf("60 mm over 10 h: %v", got)
	}
	// 52 mm in 6 hours, at most 27 in any 3.
	if got := RainstormWarningOf(hourly(1, 9, 9, 9, 8, 8, 9, 1)); got != WarningYellow {
		t.Errorf("52 mm in 6 h: %v", got)
	}
	// A burst: 30 + 40 + 35 = 105 mm in 3 hours.
	if got := RainstormWarningOf(hourly(2, 30, 40, 35, 1)); got != WarningRed {
		t.Errorf("105 mm in 3 h: %v", got)
	}
	// The window is (t − 3 h, t]: the amount at t − 3 h is outside.
	if got := MaxRainfall(hourly(50, 0, 0, 50), 3*time.Hour); got != 50 {
		t.Errorf("MaxRainfall over a 3 h window = %g, want 50", got)
	}
	if got := MaxRainfall(nil, time.Hour); got != 0 {
		t.Errorf("MaxRainfall of nothing = %g", got)
	}
}

func TestAirQualityOf(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		pm25, pm10 float64
		tvoc       *float64
		want       AirQualityGrade
		primary    []string
	}{
		{0, 0, nil, 1, []string{"pm25", "pm10"}},
		{35, 50, nil, 1, []string{"pm25", "pm10"}},
		{35.1, 50, nil, 2, []string{"pm25"}},
		{75, 150, nil, 2, []string{"pm25", "pm10"}},
		{75.1, 10, nil, 3, []string{"pm25"}},
		{115.1, 10, nil, 4, []string{"pm25"}},
		{150.1, 10, nil, 5, []string{"pm25"}},
		{250.1, 10, nil, 6, []string{"pm25"}},
		{10, 50.1, nil, 2, []string{"pm10"}},
		{10, 250.1, nil, 4, []string{"pm10"}},
		{10, 300.1, nil, 5, []string{"pm10"}},
		{10, 420.1, nil, 6, []string{"pm10"}},
		{10, 10, f(1200), 1, []string{"pm25", "pm10", "tvoc"}},
		{10, 10, f(1200.1), 2, []string{"tvoc"}},
		{10, 10, f(8000.1), 4, []string{"tvoc"}},
		{10, 10, f(12000.1), 5, []string{"tvoc"}},
		{260, 10, f(99999), 6, []string{"pm25"}},
	} {
		q, err := AirQualityOf(tc.pm25, tc.pm10, tc.tvoc)
		if err != nil || q.Grade != tc.want || len(q.Primary) != len(tc.primary) {
			t.Errorf("AirQualityOf(%g, %g, %v) = %+v, %v; want grade %d from %v", tc.pm25, tc.pm10, tc.tvoc, q, err, tc.want, tc.primary)
			continue
		}
		for i := range tc.primary {
			if q.Primary[i] != tc.primary[i] {
				t.Errorf("AirQualityOf(%g, %g, %v) primary %v, want %v", tc.pm25, tc.pm10, tc.tvoc, q.Primary, tc.primary)
			}
		}
	}
	if _, err := AirQualityOf(-1, 10, nil); err == nil {
		t.Error("negative PM2.5 accepted")
	}
}

// Caine (1980): I = 14.82 D^−0.39; at 1 h the threshold is α itself.
func TestIDThreshold(t *testing.T) {
	near(t, "I(1 h)", CaineThreshold.Intensity(1), 14.82, 1e-12)
	near(t, "I(10 h)", CaineThreshold.Intensity(10), 14.82*math.Pow(10, -0.39), 1e-12)
	near(t, "I(24 h)", CaineThreshold.Intensity(24), 4.3, 0.01)
	// 100 mm in 24 h is 4.17 mm/h, just under the threshold.
	if r := CaineThreshold.Ratio(100, 24); r >= 1 || r < 0.95 {
		t.Errorf("100 mm in 24 h: ratio %g", r)
	}
	custom := IDThreshold{Alpha: 8, Beta: 0.5}
	near(t, "custom I(4 h)", custom.Intensity(4), 4, 1e-12)
	if err := (IDThreshold{Alpha: 0, Beta: 0.4}).Validate(); err == nil {
		t.Error("α = 0 accepted")
	}
}
