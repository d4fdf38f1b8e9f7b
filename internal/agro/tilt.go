package agro

import (
	"math"
	"sort"
	"time"
)

// TiltStep is a jump between two consecutive readings beyond what the trend
// explains: a slip of the slope.
type TiltStep struct {
	Time   time.Time `json:"time"`   // the reading after the jump
	Change float64   `json:"change"` // the jump less the trend's change over the gap
}

// TiltTrend is the trend of a tilt series (any unit, usually degrees).
type TiltTrend struct {
	RatePerDay float64    `json:"ratePerDay"` // least-squares slope, unit/day
	Intercept  float64    `json:"intercept"`  // fitted value at the first reading
	R2         float64    `json:"r2"`         // share of the variance the line explains
	Cumulative float64    `json:"cumulative"` // last reading less the first
	Steps      []TiltStep `json:"steps"`
	Threshold  float64    `json:"threshold"` // the step threshold used
}

// StepFloorResolutions is the smallest automatic step threshold, in units
// of the sensor's resolution (the step between two values it can report).
// A reported value is off by up to half a resolution from rounding, so the
// change between two readings is off by up to one resolution from rounding
// alone; sensor noise of a fraction of a resolution then moves a reading
// across a rounding boundary now and then, and a change of two resolutions
// against a creep of well under one is still only noise. 2.5 resolutions
// lies between two and three reportable steps, so three steps beyond the
// trend count and two do not, whatever fraction of a step the trend adds.
const StepFloorResolutions = 2.5

// TrendOf fits the ordinary least-squares line value = a + b·t (t in days
// since the first reading; b = Σ(t−t̄)(v−v̄) / Σ(t−t̄)²) to a tilt series in
// time order, and finds steps: consecutive readings whose change, less the
// line's change over the gap, exceeds stepThreshold.
//
// A stepThreshold of 0 takes 6 robust standard deviations of those
// detrended changes (1.4826 × their median absolute deviation), so noise
// alone rarely makes a step, but never less than StepFloorResolutions ×
// resolution, the sensor's resolution in the series' unit (0.01° for the
// tilt monitors, which report two decimals). The floor matters on smooth
// series: a slow creep reported to 0.01° changes by 0 most of the time and
// by 0.01 now and then, its MAD is 0, and without a floor every tick of the
// last digit would be a step. resolution must be > 0 when stepThreshold is
// 0; it is not used with a given threshold.
func TrendOf(rs []Reading, stepThreshold, resolution float64) (TiltTrend, error) {
	if len(rs) < 2 {
		return TiltTrend{}, invalid("readings", "a trend needs at least 2 readings, got %d", len(rs))
	}
	for i := 1; i < len(rs); i++ {
		if !rs[i].Time.After(rs[i-1].Time) {
			return TiltTrend{}, invalid("readings", "readings out of time order at %s", rs[i].Time.Format(time.RFC3339))
		}
	}
	if stepThreshold < 0 {
		return TiltTrend{}, invalid("threshold", "%g: a step threshold cannot be negative", stepThreshold)
	}
	if stepThreshold == 0 && !(resolution > 0 && !math.IsInf(resolution, 1)) {
		return TiltTrend{}, invalid("resolution", "%g: an automatic step threshold needs the sensor's resolution (> 0)", resolution)
	}
	days := func(t time.Time) float64 { return t.Sub(rs[0].Time).Hours() / 24 }
	var mt, mv float64
	for _, r := range rs {
		mt += days(r.Time)
		mv += r.Value
	}
	n := float64(len(rs))
	mt, mv = mt/n, mv/n
	var sxy, sxx, syy float64
	for _, r := range rs {
		dt, dv := days(r.Time)-mt, r.Value-mv
		sxy += dt * dv
		sxx += dt * dt
		syy += dv * dv
	}
	tr := TiltTrend{RatePerDay: sxy / sxx, Cumulative: rs[len(rs)-1].Value - rs[0].Value, Steps: []TiltStep{}}
	tr.Intercept = mv - tr.RatePerDay*mt
	if syy > 0 {
		tr.R2 = sxy * sxy / (sxx * syy)
	}
	resid := make([]float64, len(rs)-1)
	for i := 1; i < len(rs); i++ {
		resid[i-1] = rs[i].Value - rs[i-1].Value - tr.RatePerDay*(days(rs[i].Time)-days(rs[i-1].Time))
	}
	tr.Threshold = stepThreshold
	if tr.Threshold == 0 {
		med := median(resid)
		dev := make([]float64, len(resid))
		for i, r := range resid {
			dev[i] = math.Abs(r - med)
		}
		tr.Threshold = math.Max(6*1.4826*median(dev), StepFloorResolutions*resolution)
	}
	for i, r := range resid {
		if math.Abs(r) > tr.Threshold {
			tr.Steps = append(tr.Steps, TiltStep{Time: rs[i+1].Time, Change: r})
		}
	}
	return tr, nil
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Yaw is the direction and size of a tilt given the sensor's tilts x and
// y, degrees, about its two axes. The tilted axis points along
// (tan x, tan y) in the sensor's plane, so the direction is
// atan2(tan y, tan x), degrees in [0, 360) counter-clockwise from the X
// axis, and the tilt from vertical is atan √(tan²x + tan²y) — the
// inclination the simulator and the devices report. A level sensor has
// direction 0.
func Yaw(x, y float64) (direction, tilt float64) {
	rad := math.Pi / 180
	tx, ty := math.Tan(x*rad), math.Tan(y*rad)
	direction = math.Atan2(ty, tx) / rad
	if direction < 0 {
		direction += 360
	}
	return direction, math.Atan(math.Hypot(tx, ty)) / rad
}
