package agro

import (
	"math"
	"sort"
	"time"
)

// windLevelFloors are the lowest speeds, m/s at 10 m, of wind levels 1–17
// (SPEC.md §9; the same as the Beaufort-based scale of GB/T 28591-2012
// 风力等级, whose level 0 is 0.0–0.2 m/s and level 17 is 56.1–61.2 m/s).
var windLevelFloors = [...]float64{0.3, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7, 37.0, 41.5, 46.2, 51.0, 56.1}

// WindLevel is the wind level 0–17 of a speed in m/s (SPEC.md §9): the
// number of floors at or below it, so 0.3 is level 1 and 56.1 or more is 17.
func WindLevel(speed float64) int {
	return sort.Search(len(windLevelFloors), func(i int) bool { return windLevelFloors[i] > speed })
}

// WindLevelRange is the speed range [lo, hi) of a wind level, m/s; hi is
// +Inf for level 17.
func WindLevelRange(level int) (lo, hi float64) {
	if level > 0 {
		lo = windLevelFloors[level-1]
	}
	hi = math.Inf(1)
	if level < len(windLevelFloors) {
		hi = windLevelFloors[level]
	}
	return lo, hi
}

// Sectors are the 8 compass sectors, clockwise from north.
var Sectors = [8]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}

// WindSector is the compass sector a wind blows from: 8 sectors each
// centred on its direction and reaching 22.5° either side (SPEC.md §9), so
// N is [337.5°, 22.5°), NE [22.5°, 67.5°) and so on; a boundary belongs to
// the sector clockwise of it. Directions are degrees from north, any value.
func WindSector(dir float64) string {
	d := math.Mod(dir, 360)
	if d < 0 {
		d += 360
	}
	return Sectors[int(math.Floor((d+22.5)/45))%8]
}

// RainClass is a rainfall class of SPEC.md §9.
type RainClass int

const (
	RainNone        RainClass = iota // below 0.1 mm (a trace, 微量降雨)
	RainLight                        // 小雨
	RainModerate                     // 中雨
	RainHeavy                        // 大雨
	RainStorm                        // 暴雨
	RainHeavyStorm                   // 大暴雨
	RainSevereStorm                  // 特大暴雨
)

var rainNames = [...]string{"none", "light", "moderate", "heavy", "storm", "heavy storm", "severe storm"}

func (c RainClass) String() string { return rainNames[c] }

// MarshalText writes the class's name.
func (c RainClass) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// rainFloors are the lowest amounts, mm, of the classes light … severe
// storm for each accumulation period. Amounts are observed to 0.1 mm, so
// "moderate 5.0–14.9" means 5.0 up to but excluding 15.0.
var rainFloors = map[int][]float64{
	// Hourly intensity grades of the China Meteorological Administration's
	// surface observation practice (light ≤ 2.5, moderate 2.6–8.0, heavy
	// 8.1–15.9, storm ≥ 16.0 mm in an hour). GB/T 28592-2012 grades only
	// 12 h and 24 h totals, and an hour has no heavy or severe storm class.
	1: {0.1, 2.6, 8.1, 16.0},
	// GB/T 28592-2012 降水量等级, Table 1, 12-hour totals: light 0.1–4.9,
	// moderate 5.0–14.9, heavy 15.0–29.9, storm 30.0–69.9, heavy storm
	// 70.0–139.9, severe storm ≥ 140.0.
	12: {0.1, 5.0, 15.0, 30.0, 70.0, 140.0},
	// GB/T 28592-2012, Table 1, 24-hour totals: light 0.1–9.9, moderate
	// 10.0–24.9, heavy 25.0–49.9, storm 50.0–99.9, heavy storm
	// 100.0–249.9, severe storm ≥ 250.0.
	24: {0.1, 10.0, 25.0, 50.0, 100.0, 250.0},
}

// RainPeriods are the accumulation periods, hours, RainClassOf accepts.
var RainPeriods = []int{1, 12, 24}

// RainClassOf classes a rainfall of mm over hours (1, 12 or 24).
func RainClassOf(mm float64, hours int) (RainClass, error) {
	floors, ok := rainFloors[hours]
	if !ok {
		return 0, invalid("hours", "%d: rain is classed over 1, 12 or 24 hours", hours)
	}
	if !(mm >= 0 && mm < 5000) {
		return 0, invalid("mm", "%g mm is not a rainfall (0–5000)", mm)
	}
	c := RainNone
	for _, f := range floors {
		if mm >= f-1e-9 {
			c++
		}
	}
	return c, nil
}

// RainClassFloor is the lowest amount of class c over hours, and whether
// that period has the class at all.
func RainClassFloor(c RainClass, hours int) (float64, bool) {
	floors := rainFloors[hours]
	if c == RainNone || int(c) > len(floors) {
		return 0, c == RainNone
	}
	return floors[c-1], true
}

// WarningLevel is a rainstorm warning signal level of SPEC.md §4, "01"
// (blue) to "04" (red); WarningNone is no signal.
type WarningLevel int

const (
	WarningNone WarningLevel = iota
	WarningBlue
	WarningYellow
	WarningOrange
	WarningRed
)

var warningNames = [...]string{"none", "blue", "yellow", "orange", "red"}

func (w WarningLevel) String() string { return warningNames[w] }

// Code is the level as SPEC.md §4 numbers it: "01"–"04", "" for none.
func (w WarningLevel) Code() string {
	if w == WarningNone {
		return ""
	}
	return "0" + string(rune('0'+w))
}

// MarshalText writes the level's colour.
func (w WarningLevel) MarshalText() ([]byte, error) { return []byte(w.String()), nil }

// RainstormWarning is the rainstorm signal the rainfall totals of the
// last 3, 6 and 12 hours call for, by the criteria of the China
// Meteorological Administration's 气象灾害预警信号发布与传播办法 (Order
// No. 16, 2007, annex): blue when 12 h rainfall reaches 50 mm, yellow when
// 6 h reaches 50 mm, orange when 3 h reaches 50 mm, red when 3 h reaches
// 100 mm. The criteria also count forecast rain ("will reach"); on observed
// totals the signal says the amount has been reached.
func RainstormWarning(mm3h, mm6h, mm12h float64) WarningLevel {
	switch {
	case mm3h >= 100:
		return WarningRed
	case mm3h >= 50:
		return WarningOrange
	case mm6h >= 50:
		return WarningYellow
	case mm12h >= 50:
		return WarningBlue
	}
	return WarningNone
}

// RainAmount is the rain measured in the interval ending at Time, mm.
type RainAmount struct {
	Time time.Time `json:"time"`
	MM   float64   `json:"mm"`
}

// MaxRainfall is the largest total, mm, of the amounts falling in any
// window of the given length that ends at one of them: the amounts at
// times in (t − window, t]. amounts must be in time order.
func MaxRainfall(amounts []RainAmount, window time.Duration) float64 {
	var best, sum float64
	start := 0
	for _, a := range amounts {
		sum += a.MM
		for amounts[start].Time.Add(window).Compare(a.Time) <= 0 {
			sum -= amounts[start].MM
			start++
		}
		best = math.Max(best, sum)
	}
	return best
}

// RainstormWarningOf is the highest signal any moment of a rainfall
// record called for (RainstormWarning on the running 3, 6 and 12 h totals).
func RainstormWarningOf(amounts []RainAmount) WarningLevel {
	return RainstormWarning(MaxRainfall(amounts, 3*time.Hour), MaxRainfall(amounts, 6*time.Hour), MaxRainfall(amounts, 12*time.Hour))
}

// AirQualityGrade is an air-quality grade 1–6 of SPEC.md §9.
type AirQualityGrade int

var airQualityNames = [...]string{"", "excellent", "good", "light", "moderate", "heavy", "severe"}

func (g AirQualityGrade) String() string { return airQualityNames[g] }

// Air-quality cut-offs of SPEC.md §9: a value up to and including a cut-off
// is in the grade below it, as in the breakpoint tables of China's
// HJ 633-2012. The PM2.5 ones are that standard's 24-hour breakpoints for
// IAQI 50, 100, 150, 200 and 300 (µg/m³); the PM10 ones are the spec's,
// which has 300 where HJ 633-2012 has 350 for IAQI 200. TVOC has four
// cut-offs, so it reaches grade 5 at most; its unit is the sensor's.
var (
	PM25CutOffs = []float64{35, 75, 115, 150, 250}
	PM10CutOffs = []float64{50, 150, 250, 300, 420}
	TVOCCutOffs = []float64{1200, 2000, 8000, 12000}
)

// gradeOf is 1 plus the number of cut-offs below v.
func gradeOf(v float64, cutOffs []float64) AirQualityGrade {
	g := AirQualityGrade(1)
	for _, c := range cutOffs {
		if v > c {
			g++
		}
	}
	return g
}

// AirQuality is an air-quality grading.
type AirQuality struct {
	Grade AirQualityGrade  `json:"grade"`
	Name  string           `json:"name"` // the overall grade's name
	PM25  AirQualityGrade  `json:"pm25"`
	PM10  AirQualityGrade  `json:"pm10"`
	TVOC  *AirQualityGrade `json:"tvoc,omitempty"`
	// Primary names the pollutants whose grade is the overall one.
	Primary []string `json:"primary"`
}

// AirQualityOf grades PM2.5 and PM10 (µg/m³) and optionally TVOC by the
// cut-offs of SPEC.md §9; the worst grade wins (as the overall AQI takes
// the largest IAQI, HJ 633-2012).
func AirQualityOf(pm25, pm10 float64, tvoc *float64) (AirQuality, error) {
	if !(pm25 >= 0 && pm25 < 10000) {
		return AirQuality{}, invalid("pm25", "%g µg/m³ is not a concentration (0–10000)", pm25)
	}
	if !(pm10 >= 0 && pm10 < 10000) {
		return AirQuality{}, invalid("pm10", "%g µg/m³ is not a concentration (0–10000)", pm10)
	}
	q := AirQuality{PM25: gradeOf(pm25, PM25CutOffs), PM10: gradeOf(pm10, PM10CutOffs)}
	q.Grade = max(q.PM25, q.PM10)
	if tvoc != nil {
		if !(*tvoc >= 0 && *tvoc < 1e6) {
			return AirQuality{}, invalid("tvoc", "%g is not a TVOC reading (0–1000000)", *tvoc)
		}
		g := gradeOf(*tvoc, TVOCCutOffs)
		q.TVOC = &g
		q.Grade = max(q.Grade, g)
	}
	q.Name = q.Grade.String()
	for _, p := range []struct {
		name string
		g    *AirQualityGrade
	}{{"pm25", &q.PM25}, {"pm10", &q.PM10}, {"tvoc", q.TVOC}} {
		if p.g != nil && *p.g == q.Grade {
			q.Primary = append(q.Primary, p.name)
		}
	}
	return q, nil
}

// IDThreshold is a rainfall intensity–duration threshold for shallow
// landslides and debris flows, I = α D^(−β), with I in mm/h and D in hours.
type IDThreshold struct {
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
}

// CaineThreshold is Caine's (1980) global threshold, I = 14.82 D^(−0.39),
// fitted for durations from 10 minutes to 10 days.
var CaineThreshold = IDThreshold{Alpha: 14.82, Beta: 0.39}

// Validate checks the coefficients.
func (t IDThreshold) Validate() error {
	if !(t.Alpha > 0 && t.Alpha < 1000) {
		return invalid("alpha", "%g is not an I-D coefficient α (0–1000)", t.Alpha)
	}
	if !(t.Beta >= 0 && t.Beta < 5) {
		return invalid("beta", "%g is not an I-D exponent β (0–5)", t.Beta)
	}
	return nil
}

// Intensity is the threshold intensity, mm/h, for rain lasting hours.
func (t IDThreshold) Intensity(hours float64) float64 {
	return t.Alpha * math.Pow(hours, -t.Beta)
}

// Ratio is the mean intensity of mm of rain over hours divided by the
// threshold intensity for that duration: 1 or more means the threshold is
// reached.
func (t IDThreshold) Ratio(mm, hours float64) float64 {
	if hours <= 0 {
		return 0
	}
	return mm / hours / t.Intensity(hours)
}
