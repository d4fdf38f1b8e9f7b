package agro

import (
	"math"
	"time"
)

// DayRain is one day's rain, mm, on the day beginning at Day (local midnight).
type DayRain struct {
	Day  time.Time
	Rain float64
}

// EffectiveRain is the rain a crop can use over the days given, mm: the
// formula of FAO's Irrigation Water Management training manual 3
// (Brouwer & Heibloem, 1986, §3.2) applied to each calendar month,
//
//	Pe = 0.8 P − 25  when P > 75 mm/month
//	Pe = 0.6 P − 10  when P ≤ 75 mm/month
//
// never below zero. A month the days cover only in part (a season starting
// on the 10th) is taken at its full-month rate — P scaled up by the month's
// days over the days given, Pe scaled back down — so splitting a season in
// two does not change its effective rain for a month of even rain.
func EffectiveRain(days []DayRain) float64 {
	type month struct {
		rain      float64
		days, len int
	}
	months := map[[2]int]*month{}
	for _, d := range days {
		k := [2]int{d.Day.Year(), int(d.Day.Month())}
		m := months[k]
		if m == nil {
			first := time.Date(d.Day.Year(), d.Day.Month(), 1, 0, 0, 0, 0, d.Day.Location())
			m = &month{len: first.AddDate(0, 1, 0).Add(-time.Hour).Day()}
			months[k] = m
		}
		m.rain += d.Rain
		m.days++
	}
	var total float64
	for _, m := range months {
		share := float64(m.days) / float64(m.len)
		total += MonthlyEffectiveRain(m.rain/share) * share
	}
	return total
}

// MonthlyEffectiveRain is FAO's monthly effective rain for p mm of rain in
// a month (see EffectiveRain).
func MonthlyEffectiveRain(p float64) float64 {
	if p > 75 {
		return math.Max(0, 0.8*p-25)
	}
	return math.Max(0, 0.6*p-10)
}

// NetIrrigation is the water, mm, a field's crop took from irrigation over
// a period, by the field water balance of the head-and-tail method (首尾法)
// for dry-land crops: the crop's ET, less the effective rain, less the
// water the soil profile gave up (storage at the start minus at the end;
// negative when the soil gained water). It is zero when rain and the soil
// covered the crop's use.
func NetIrrigation(etc, effectiveRain, storageStart, storageEnd float64) float64 {
	return math.Max(0, etc-effectiveRain-(storageStart-storageEnd))
}

// MuM2 is the area of one mu (亩), m².
const MuM2 = 10000.0 / 15

// WaterVolume is depth mm over area mu, m³.
func WaterVolume(depthMM, areaMu float64) float64 { return depthMM / 1000 * areaMu * MuM2 }

// UtilizationCoefficient is the effective utilization coefficient of
// irrigation water (灌溉水有效利用系数) by the head-and-tail method: the net
// water the fields' crops used, m³, over the gross water drawn at the
// source, m³. ok is false without gross water.
func UtilizationCoefficient(netM3, grossM3 float64) (eta float64, ok bool) {
	if grossM3 <= 0 {
		return 0, false
	}
	return netM3 / grossM3, true
}
