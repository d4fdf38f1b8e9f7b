package simulator

import (
	"math"
	"math/rand/v2"
	"time"
)

// soil is a one-dimensional soil column under a field crop: a cascade of
// 10 cm layers for water and a 5 cm grid for heat.
//
// Water enters the thin 0–5 cm skin as rain or irrigation (what the skin
// cannot take ponds and soaks in later), drains down layer by layer with an
// unsaturated conductivity that collapses as the soil dries (so a wetting
// front advances and slows with depth, as in the field) and leaves through
// evaporation and root uptake, both driven by sunshine and concentrated in
// the top few decimetres. Deep layers are fed only by slow drainage and have
// few roots, so they vary least.
type soil struct {
	theta []float64 // volumetric water content of each layer (fraction); [0] is the 0–5 cm skin, [k] is centred at 10k cm
	thick []float64 // layer thickness, mm
	pond  float64   // water standing on the surface, mm
	flux  []float64 // scratch: drainage out of each layer in the current step, mm

	thetaR, thetaS float64 // residual and saturated water contents of the texture
	wp             float64 // wilting point: roots cannot extract below it
	ks             float64 // saturated conductivity of the topsoil, mm/h
	kc             float64 // crop coefficient: actual over potential ET when water is ample

	temp []float64 // temperature at 5, 10, …, 200 cm, °C

	offset []float64 // per-node calibration offset of the moisture sensor, % (by node index)
	ecK    float64   // EC per (θ %)^1.5: the salinity of the pore water

	irrigated bool
	irrPeriod int64   // days between irrigations
	irrPhase  int64   // which day of the period
	irrStart  float64 // CST hour the irrigation starts
	irrDepth  float64 // mm applied per irrigation
	irrDay    int64   // the day irrToday was decided for
	irrToday  bool    // whether that day's watering goes ahead
}

// Soil texture: a silty loam of the Yellow River alluvium. With the drainage
// law below, field capacity (drainage under ~1 mm/day) falls near 28–32 %,
// the wilting point near 12 %, saturation at 45 %.
const (
	drainExp   = 13.0 // Brooks–Corey exponent 2b+3 for a loam
	heatDiff   = 18.0 // thermal diffusivity, cm²/h (0.5 mm²/s, a moist loam)
	heatDZ     = 5.0  // cm between heat grid points
	heatBottom = 200  // cm, below which the daily wave is gone and only the annual one remains
)

func newSoil(r *rand.Rand, nodes []int) *soil {
	deepest := 30
	if len(nodes) > 0 {
		deepest = nodes[len(nodes)-1]
	}
	// Two layers beyond the deepest node, so that the bottom boundary
	// (free drainage) does not show in what is reported.
	n := deepest/10 + 3
	s := &soil{
		theta:  make([]float64, n),
		thick:  make([]float64, n),
		flux:   make([]float64, n),
		thetaR: 0.05, thetaS: between(r, 0.43, 0.47),
		wp: between(r, 0.11, 0.13),
		ks: between(r, 12, 20),
		kc: between(r, 0.8, 0.95),
		// 3.5–5.5 gives 400–700 µS/cm at 25 % moisture, typical of the
		// slightly saline soils of the plain.
		ecK:  between(r, 3.5, 5.5),
		temp: make([]float64, heatBottom/heatDZ),
	}
	for range nodes {
		s.offset = append(s.offset, r.NormFloat64()*0.8)
	}
	s.thick[0] = 50
	for k := 1; k < n; k++ {
		s.thick[k] = 100
	}
	// Half the fields are irrigated, checked about weekly and watered in the
	// morning when evaporation is low; a border irrigation puts on 30–45 mm.
	s.irrigated = r.IntN(2) == 0
	s.irrPeriod = 6 + r.Int64N(3)
	s.irrPhase = r.Int64N(s.irrPeriod)
	s.irrStart = 6 + float64(r.IntN(4))
	s.irrDepth = between(r, 30, 45)
	s.irrDay = math.MinInt64
	return s
}

// init sets a plausible profile at t: drier at the top, wetter below, and
// the temperature of the annual wave at each depth.
func (s *soil) init(r *rand.Rand, t time.Time) {
	top := between(r, 0.22, 0.27)
	for k := range s.theta {
		s.theta[k] = math.Min(top+0.006*float64(k), 0.33)
	}
	for i := range s.temp {
		s.temp[i] = annualSoilTemp(float64(i+1)*heatDZ, dayOfYear(t))
	}
}

// annualSoilTemp is the annual temperature wave at depth z cm: it damps and
// lags with depth, with a damping depth of 2.2 m for the yearly period, so at
// 2 m it is ~40 % of the surface swing and seven weeks late.
func annualSoilTemp(z, doy float64) float64 {
	const d = 220.0
	// Soil is about half a degree warmer than the air on average.
	return 14 - 14.8*math.Exp(-z/d)*math.Cos(2*math.Pi*(doy-15)/365-z/d)
}

// irrigationRate is the irrigation being applied at t, mm/h.
//
// On its irrigation day (about weekly) the farmer waters only when the root
// zone has dried below ~27 % (some 85 % of field capacity) and the crop is
// growing; nobody floods a wet or frozen field. The decision is taken when
// the watering would start and holds for the rest of that day.
func (s *soil) irrigationRate(t time.Time, w *weather) float64 {
	if !s.irrigated {
		return 0
	}
	d := cstDay(t)
	if ((d%s.irrPeriod)+s.irrPeriod)%s.irrPeriod != s.irrPhase {
		return 0
	}
	const durH = 3.0
	h := cstHour(t)
	if h < s.irrStart || h >= s.irrStart+durH {
		return 0
	}
	if s.irrDay != d {
		root := (s.theta[1] + s.theta[2] + s.theta[3]) / 3
		s.irrDay, s.irrToday = d, root < 0.27 && w.dailyMean > 5
	}
	if !s.irrToday {
		return 0
	}
	return s.irrDepth / durH
}

// step advances the column by dt hours under weather w with water input
// (rain plus irrigation, mm) over the step.
func (s *soil) step(dt float64, w *weather, input float64) {
	s.stepWater(dt, w, input)
	s.stepHeat(dt, w)
}

func (s *soil) stepWater(dt float64, w *weather, input float64) {
	n := len(s.theta)
	// Infiltration: the skin takes what it has room for; the rest ponds
	// (a flooded border, puddles). Ponds deeper than 50 mm run off.
	water := input + s.pond
	room := (s.thetaS - s.theta[0]) * s.thick[0]
	in := math.Min(water, room)
	s.theta[0] += in / s.thick[0]
	s.pond = math.Min(water-in, 50)

	// Drainage from each layer to the one below, computed from the state at
	// the start of the step, bottom first so that a layer only receives what
	// room the one below has left after its own outflow.
	flux := s.flux
	for k := n - 1; k >= 0; k-- {
		se := clamp((s.theta[k]-s.thetaR)/(s.thetaS-s.thetaR), 0, 1)
		// A plough pan and denser subsoil: conductivity halves every ~1 m.
		ks := s.ks * math.Exp(-float64(k)*10/140)
		q := ks * math.Pow(se, drainExp) * dt
		q = math.Min(q, (s.theta[k]-s.thetaR)*s.thick[k]*0.5)
		if k+1 < n {
			free := (s.thetaS-s.theta[k+1])*s.thick[k+1] + flux[k+1]
			q = math.Min(q, math.Max(free, 0))
		}
		flux[k] = math.Max(q, 0)
	}
	for k := range n {
		s.theta[k] -= flux[k] / s.thick[k]
		if k > 0 {
			s.theta[k] += flux[k-1] / s.thick[k]
		}
	}

	// Evapotranspiration. Potential ET follows the sun (a radiation method:
	// ~0.65 µm per W/m² per hour, scaled by warmth), so drying is fastest
	// around midday and early afternoon and nil at night; it comes to about
	// 4–6 mm/day in early summer and under 1 mm/day in winter.
	pet := 0.00065 * w.solar * clamp((w.temp+5)/25, 0, 1.4) * dt
	if pet <= 0 {
		return
	}
	fc := 0.30
	// Bare-soil evaporation from the skin: quick while it is wet, then
	// self-limiting as it dries to near the residual content.
	skinStress := clamp((s.theta[0]-s.thetaR-0.02)/(fc-s.thetaR), 0, 1)
	s.theta[0] -= 0.3 * pet * skinStress / s.thick[0]
	// Transpiration: roots halve in density every ~15 cm and extraction
	// stops at the wilting point, easing from 70 % of field capacity down.
	var weights [16]float64
	sum := 0.0
	for k := 1; k < n && k < len(weights); k++ {
		z := float64(k) * 10
		stress := clamp((s.theta[k]-s.wp)/(0.7*fc-s.wp), 0, 1)
		weights[k] = math.Exp(-z/22) * stress
		sum += math.Exp(-z / 22)
	}
	for k := 1; k < n && k < len(weights); k++ {
		s.theta[k] -= 0.7 * s.kc * pet * weights[k] / sum / s.thick[k]
	}
}

func (s *soil) stepHeat(dt float64, w *weather) {
	// The surface is warmer than the air by day (absorbed sunshine, about
	// +1 °C per 100 W/m² under a crop) and cooler on clear nights.
	surface := w.temp + 0.01*w.solar
	if w.sinElev <= 0 {
		surface -= 1.5 * (1 - w.cloud)
	}
	bottom := annualSoilTemp(heatBottom, w.doy)
	// Explicit conduction; r ≤ 0.06 for 5-minute steps, well inside the
	// stability limit of 0.5.
	r := heatDiff * dt / (heatDZ * heatDZ)
	prev := surface
	for i := range s.temp {
		next := bottom
		if i+1 < len(s.temp) {
			next = s.temp[i+1]
		}
		cur := s.temp[i]
		s.temp[i] = cur + r*(prev-2*cur+next)
		prev = cur
	}
}

// moisture is the reading (%) of the node at depth cm with calibration offset off.
func (s *soil) moisture(depth int, off float64) float64 {
	return s.theta[depth/10]*100 + off
}

// temperature is the soil temperature (°C) at depth cm.
func (s *soil) temperature(depth int) float64 {
	i := depth/int(heatDZ) - 1
	return s.temp[clampInt(i, 0, len(s.temp)-1)]
}

// ec is the bulk electrical conductivity (µS/cm) at depth cm: it rises with
// the water that carries the ions (Archie-like, with exponent 1.5) and
// slightly with depth, where salts leached from above accumulate.
func (s *soil) ec(depth int) float64 {
	return s.ecK * math.Pow(s.theta[depth/10]*100, 1.5) * (1 + 0.003*float64(depth))
}

func clampInt(v, lo, hi int) int { return max(lo, min(hi, v)) }
