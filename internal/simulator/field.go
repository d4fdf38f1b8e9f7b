package simulator

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// tilt is a landslide tilt sensor on a slope that creeps: a steady drift of
// about a thousandth of a degree per hour (0.7° a month, an actively moving
// slope worth monitoring), faster while the ground is soaked, and now and
// then a small jump after heavy rain, when pore pressure lets the slope slip.
type tilt struct {
	x, y         float64 // tilt around each axis, degrees
	rateX, rateY float64 // creep in dry weather, °/h
	wet          float64 // recent rain, mm, forgotten over about a day
}

func newTilt(r *rand.Rand) *tilt {
	dir := between(r, 0, 2*math.Pi)
	rate := between(r, 0.0006, 0.0015)
	return &tilt{
		// Installation is never quite level.
		x: r.NormFloat64() * 1.5, y: r.NormFloat64() * 1.5,
		rateX: rate * math.Cos(dir), rateY: rate * math.Sin(dir),
	}
}

func (t *tilt) step(r *rand.Rand, dt, rain float64) {
	t.wet = t.wet*math.Exp(-dt/24) + rain
	speed := 1 + t.wet/20
	t.x += t.rateX * dt * speed
	t.y += t.rateY * dt * speed
	// After 25 mm within about a day, a slip of 0.02–0.08° in the creep
	// direction becomes likely (a few percent per hour).
	if t.wet > 25 && r.Float64() < 0.04*dt {
		jump := between(r, 0.02, 0.08) / math.Hypot(t.rateX, t.rateY)
		t.x += t.rateX * jump
		t.y += t.rateY * jump
	}
	t.x = clamp(t.x, -89, 89)
	t.y = clamp(t.y, -89, 89)
}

// tiltAngle is the inclination of the sensor's axis from the vertical given
// its tilts around X and Y: tan²θ = tan²x + tan²y.
func tiltAngle(x, y float64) float64 {
	rad := math.Pi / 180
	return math.Atan(math.Hypot(math.Tan(x*rad), math.Tan(y*rad))) / rad
}

// level is a water level gauge on a ditch or pond. Rain runs off the
// catchment (a quick store that empties in a few hours) into the water body,
// whose excess over the dry-weather level recedes exponentially over days as
// it drains and evaporates. Water temperature follows the air with a lag of
// most of a day, so its daily swing is a fraction of the air's.
type level struct {
	base      float64 // dry-weather level, m
	gain      float64 // rise in m per mm of rain once it has run in
	tauQuick  float64 // h
	tauRecess float64 // h
	quick     float64 // runoff on its way, m of eventual rise
	excess    float64 // level above base, m
	water     float64 // water temperature, °C
}

func newLevel(r *rand.Rand) *level {
	return &level{
		base: between(r, 0.6, 3.5),
		// A ditch draining fields ten to thirty times its own area rises
		// 1–2.5 cm per mm of rain.
		gain:      between(r, 0.01, 0.025),
		tauQuick:  between(r, 1.5, 4),
		tauRecess: between(r, 36, 96),
	}
}

func (l *level) step(dt, rain float64, w *weather) {
	l.quick += rain * l.gain
	in := l.quick * (1 - math.Exp(-dt/l.tauQuick))
	l.quick -= in
	l.excess = l.excess*math.Exp(-dt/l.tauRecess) + in
	// Shallow water absorbs sunshine, ~+1 °C at 250 W/m².
	l.water = relax(l.water, w.temp+0.004*w.solar, dt, 20)
}

func (l *level) height() float64 { return l.base + l.excess }

// waterTemp is the reading, never below freezing: ice floats, the sensor
// sits in water.
func (l *level) waterTemp() float64 { return math.Max(l.water, 0.1) }

// valve is an irrigation valve controller running a fixed programme: an hour
// of watering in the early morning every two or three days, when evaporation
// and wind drift are lowest. While open the pump pressurises the line and
// water flows; while closed only a little residual head remains.
type valve struct {
	period, phase int64
	startH, durH  float64 // CST hour the valve opens, hours open
	flow          float64 // nominal flow, m³/h
	pOpen, pShut  float64 // line pressure, MPa
	// holds are the commands' overrides of the programme, oldest first.
	holds []override
}

func newValve(r *rand.Rand) *valve {
	v := &valve{
		period: 2 + r.Int64N(2),
		startH: 6 + 0.5*float64(r.IntN(2)),
		durH:   1,
		// A 2–4 inch line on a farm well.
		flow:  between(r, 12, 45),
		pOpen: between(r, 0.25, 0.4),
		pShut: between(r, 0.02, 0.06),
	}
	v.phase = r.Int64N(v.period)
	return v
}

// window returns the opening of CST day d, if the valve opens that day.
func (v *valve) window(d int64) (from, to time.Time, ok bool) {
	if ((d%v.period)+v.period)%v.period != v.phase {
		return time.Time{}, time.Time{}, false
	}
	from = dayStart(d).Add(time.Duration(v.startH * float64(time.Hour)))
	return from, from.Add(time.Duration(v.durH * float64(time.Hour))), true
}

func (v *valve) open(t time.Time) bool {
	if open, ok := v.held(t); ok {
		return open
	}
	from, to, ok := v.window(cstDay(t))
	return ok && !t.Before(from) && t.Before(to)
}

// openHours is how long the valve was open within (a, b]: the state is
// constant between the programme's and the commands' boundaries, so each
// piece is open or closed throughout.
func (v *valve) openHours(a, b time.Time) float64 {
	cuts := []time.Time{a, b}
	last := cstDay(b)
	for d := max(cstDay(a), last-maxCatchUpDays); d <= last; d++ {
		if from, to, ok := v.window(d); ok {
			cuts = append(cuts, from, to)
		}
	}
	for _, h := range v.holds {
		cuts = append(cuts, h.from, h.to)
	}
	slices.SortFunc(cuts, func(x, y time.Time) int { return x.Compare(y) })
	total := 0.0
	for i := 1; i < len(cuts); i++ {
		lo, hi := later(a, cuts[i-1]), earlier(b, cuts[i])
		if hi.After(lo) && v.open(lo.Add(hi.Sub(lo)/2)) {
			total += hi.Sub(lo).Hours()
		}
	}
	return total
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// insects is a light trap. The day's catch is decided per day (a Poisson
// draw around a mean set by season, warmth and the device's surroundings)
// and spread over the day by hourly activity weights: almost nothing by
// day, a peak two hours after dusk when moths fly to the lamp, tailing off
// towards dawn, suppressed in rain and in cold. Counts are thus a function of
// seed and time: the catch so far today, which the camera shows, is the sum
// of the day's reports.
type insects struct {
	seed  int64
	base  float64 // mean catch of a warm, dry midsummer night
	lat   float64
	lng   float64
	cache map[int64]*insectDay
}

type insectDay struct {
	total   int
	cumW    [25]float64 // cumulative activity weight at the start of each CST hour
	weights [24]float64
}

func newInsects(r *rand.Rand, d Device) *insects {
	return &insects{seed: d.Seed, base: between(r, 40, 160), lat: d.Lat, lng: d.Lng, cache: map[int64]*insectDay{}}
}

// activity is the relative flight activity at CST hour h (0–23, taken at the
// middle of the hour), in clear warm weather.
func activity(h float64) float64 {
	if h >= 6 && h < 18.5 {
		return 0.02 // a few strays are caught by day
	}
	// Peak at 21:00, hours after midnight count as 24+.
	if h < 12 {
		h += 24
	}
	return 0.25 + math.Exp(-(h-21)*(h-21)/(2*1.8*1.8))
}

func (in *insects) day(d int64) *insectDay {
	if c, ok := in.cache[d]; ok {
		return c
	}
	if len(in.cache) > 8 {
		clear(in.cache)
	}
	c := &insectDay{}
	start := dayStart(d)
	sumClear := 0.0
	for h := range 24 {
		mid := start.Add(time.Duration(h)*time.Hour + 30*time.Minute)
		w := weatherAt(mid, in.lat, in.lng)
		// Insects barely fly below ~8 °C and are fully active above ~22 °C;
		// rain keeps most of them down.
		warm := clamp((w.temp-8)/14, 0.02, 1.2)
		a := activity(float64(h) + 0.5)
		c.weights[h] = a * warm * (1 - 0.8*w.rainInfl)
		c.cumW[h+1] = c.cumW[h] + c.weights[h]
		sumClear += a
	}
	r := rand.New(rand.NewPCG(uint64(in.seed), hash(0x1a5ec7, uint64(d))))
	// Populations build through the summer (several generations of moths)
	// and swing from night to night.
	season := 0.15 + 0.85*wetSeason(dayOfYear(start.Add(12*time.Hour)))
	mean := in.base * season * math.Exp(0.35*r.NormFloat64()) * c.cumW[24] / sumClear
	c.total = poisson(r, mean)
	in.cache[d] = c
	return c
}

// soFar is the catch from CST midnight up to t.
func (in *insects) soFar(t time.Time) int {
	c := in.day(cstDay(t))
	if c.cumW[24] <= 0 || c.total == 0 {
		return 0
	}
	h := cstHour(t)
	i := min(int(h), 23)
	w := c.cumW[i] + c.weights[i]*(h-float64(i))
	return int(math.Floor(float64(c.total)*w/c.cumW[24] + 1e-9))
}

// between is the catch within (a, b].
func (in *insects) between(a, b time.Time) int {
	da, db := cstDay(a), cstDay(b)
	if da == db {
		return max(in.soFar(b)-in.soFar(a), 0)
	}
	n := in.day(da).total - in.soFar(a)
	for d := max(da+1, db-maxCatchUpDays); d < db; d++ {
		n += in.day(d).total
	}
	return n + in.soFar(b)
}

// poisson draws a Poisson variate: Knuth's method for small means, the
// normal approximation above 50 where it is accurate to a count or two.
func poisson(r *rand.Rand, mean float64) int {
	if mean <= 0 {
		return 0
	}
	if mean > 50 {
		return max(0, int(math.Round(mean+math.Sqrt(mean)*r.NormFloat64())))
	}
	l := math.Exp(-mean)
	k, p := 0, 1.0
	for {
		p *= r.Float64()
		if p <= l {
			return k
		}
		k++
	}
}
