// Package simulator is a physically plausible fleet of simulated field
// devices. It feeds the demo farm (a month of history through the real
// ingest path, then live reports over MQTT), `fieldwatch simulate` and the
// ingest benchmarks.
//
// All devices share one regional weather, a pure function of time: rain
// events, the daily temperature cycle, cloud, wind and haze are the same for
// every device at the same instant. Each device observes it through its own
// offsets and noise and carries its own state (soil water and heat, water
// level, slope creep, battery charge) that evolves between reports. Given
// the same Seed and the same sequence of requests a device produces the same
// bytes.
package simulator

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
)

// Device describes one simulated device.
type Device struct {
	SN   string
	Type *devices.Type // for a slave, the host type's SlaveType()
	Lat  float64
	Lng  float64
	Seed int64
	// LowBattery gives a lithium-cell device a cell at the end of its life
	// (under 3.2 V, so the console flags it). Without it about one lithium
	// device in twenty, chosen by Seed, has one. Solar types ignore it.
	LowBattery bool
}

// Sim is one device's evolving state. Reports must be requested in
// increasing time order; a request dated before the previous one reports the
// current state without advancing it. A Sim is safe for concurrent use.
type Sim struct {
	mu  sync.Mutex
	d   Device
	rng *rand.Rand // noise of the readings
	evo *rand.Rand // chance events of the evolving state

	started bool
	now     time.Time // the time the state has been advanced to
	prev    time.Time // the previous telemetry report
	hasPrev bool

	// Fixed per-device offsets from the regional weather: a sensor's
	// calibration and its site's microclimate.
	tempOff, rhOff, pressOff float64
	windExposure             float64 // sheltered sites see less wind
	catchFactor              float64 // local rain and gauge catch, ±15 %

	soil    *soil
	tilt    *tilt
	level   *level
	valve   *valve
	insects *insects
	power   *power
	leaf    float64 // leaf wetness, %
	light   *bool   // the lamp as a command set it; nil: the type's default (lightOn)

	rainCarry float64 // rain in the gauge's bucket that has not tipped yet, mm
	tipMM     float64 // rain per bucket tip, mm

	irrigations []Irrigation // the waterings applied so far: ground truth for tests
}

// Irrigation is one watering the simulated farmer applied to a soil
// device's field.
type Irrigation struct {
	Start time.Time // when water first reached the surface
	End   time.Time // the end of the last step with water applied
	MM    float64   // water applied, mm
}

// Irrigations returns the waterings applied to the device's field since the
// Sim was created (about one a week on an irrigated field), oldest first:
// the ground truth of irrigation recognition. Reading it does not change the
// simulation.
func (s *Sim) Irrigations() []Irrigation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.irrigations)
}

// SoilTemperature is the model's soil temperature (°C) at depth cm at the
// time the state has been advanced to (the last report), without the
// sensor's noise; ok is false for a device without soil. Reading it does not
// change the simulation.
func (s *Sim) SoilTemperature(depth int) (float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.soil == nil {
		return 0, false
	}
	return s.soil.temperature(depth), true
}

// RainBetween is the rain (mm) that fell on the device's site in (a, b]:
// the regional rain times the site's catch factor, before the gauge's
// bucket rounds it to whole tips. Reading it does not change the
// simulation.
func (s *Sim) RainBetween(a, b time.Time) float64 {
	return rainBetween(a, b) * s.catchFactor
}

// Limits of the state's integration.
const (
	substep = 5 * time.Minute // the soil and battery models' time step
	// Beyond this gap between requests the state restarts rather than
	// integrating weeks of weather nobody will see.
	maxCatchUpDays = 45
	spinUpSoil     = 5 * 24 * time.Hour // lets the soil profile settle into the recent weather
	spinUp         = 2 * 24 * time.Hour
)

// New returns the simulation of d. d.Type must not be nil.
func New(d Device) *Sim {
	c := newRand(d.Seed, 1)
	s := &Sim{
		d:            d,
		rng:          newRand(d.Seed, 2),
		evo:          newRand(d.Seed, 3),
		tempOff:      c.NormFloat64() * 0.4,
		rhOff:        c.NormFloat64() * 2,
		pressOff:     c.NormFloat64() * 0.6,
		windExposure: between(c, 0.75, 1.2),
		catchFactor:  between(c, 0.85, 1.15),
		tipMM:        0.1,
	}
	t := d.Type
	if hasAny(t, "soilMoisture", "soilTemp", "ec") {
		s.soil = newSoil(c, t.Nodes)
	}
	if hasAny(t, "tiltX", "tiltY", "tiltAngle") {
		s.tilt = newTilt(c)
	}
	if hasAny(t, "waterLevel", "waterTemp") {
		s.level = newLevel(c)
	}
	if hasAny(t, "valveState", "flowRate", "waterVolume", "pipePressure") {
		s.valve = newValve(c)
	}
	if hasAny(t, "insectCount") {
		s.insects = newInsects(c, d)
	}
	s.power = newPower(c, d)
	return s
}

func hasAny(t *devices.Type, ids ...string) bool {
	for _, id := range ids {
		if _, ok := t.Param(id); ok {
			return true
		}
	}
	return false
}

// Device returns the device the simulation was built for.
func (s *Sim) Device() Device { return s.d }

// Points is the number of readings in each telemetry payload of the device.
func (s *Sim) Points() int {
	n := 0
	for _, p := range s.d.Type.Params {
		if p.Detected {
			continue // the server writes it from the pictures
		}
		if p.PerNode {
			n += len(s.d.Type.Nodes)
		} else {
			n++
		}
	}
	return n
}

// start initialises the state some days before t and runs it up to t, so the
// first report already reflects the recent weather.
func (s *Sim) start(t time.Time) {
	from := t.Add(-spinUp)
	if s.soil != nil {
		from = t.Add(-spinUpSoil)
		s.soil.init(s.evo, from)
	}
	w := weatherAt(from, s.d.Lat, s.d.Lng)
	if s.level != nil {
		s.level.water = w.dailyMean
	}
	s.power.init(t)
	s.now = from
	s.started = true
	s.advance(t)
}

// advance integrates the state up to t.
func (s *Sim) advance(t time.Time) {
	if !s.started || t.Sub(s.now) > maxCatchUpDays*24*time.Hour {
		s.start(t)
		return
	}
	for s.now.Before(t) {
		next := s.now.Add(substep)
		if next.After(t) {
			next = t
		}
		s.step(s.now, next)
		s.now = next
	}
}

func (s *Sim) step(t0, t1 time.Time) {
	dt := t1.Sub(t0).Hours()
	w := weatherAt(t0.Add(t1.Sub(t0)/2), s.d.Lat, s.d.Lng)
	rain := rainBetween(t0, t1) * s.catchFactor
	if s.soil != nil {
		irr := s.soil.irrigationRate(t0, &w) * dt
		if irr > 0 {
			if n := len(s.irrigations); n > 0 && !t0.After(s.irrigations[n-1].End) {
				s.irrigations[n-1].MM += irr
				s.irrigations[n-1].End = t1
			} else {
				s.irrigations = append(s.irrigations, Irrigation{Start: t0, End: t1, MM: irr})
			}
		}
		s.soil.step(dt, &w, rain+irr)
	}
	if s.tilt != nil {
		s.tilt.step(s.evo, dt, rain)
	}
	if s.level != nil {
		s.level.step(dt, rain, &w)
	}
	s.power.step(dt, &w)
	s.leaf = relax(s.leaf, leafTarget(&w), dt, 0.75)
}

// leafTarget is the wetness a leaf tends to: soaked in rain, dew on calm
// humid nights as the leaf cools below the dew point, dry in sunshine.
func leafTarget(w *weather) float64 {
	switch {
	case w.raining:
		return 97
	case w.sinElev < 0.15 && w.rh > 85:
		return clamp((w.rh-85)*7, 0, 100)
	}
	return 0
}

// Telemetry returns a telemetry payload dated at:
//
//	{"ts": <unix seconds>, "values": {"<param>": <number>}, "nodes": {"<depth cm>": {"<param>": <number>}}}
//
// Amounts (rainfall, insectCount, waterVolume) cover the time since the
// previous call, or one type interval for the first.
func (s *Sim) Telemetry(at time.Time) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started && at.Before(s.now) {
		at = s.now
	}
	s.advance(at)
	from := at.Add(-s.d.Type.Interval)
	if s.hasPrev {
		from = s.prev
	}
	s.prev, s.hasPrev = at, true
	o := s.observe(at, from)

	t := s.d.Type
	b := make([]byte, 0, 64+32*s.Points())
	b = append(b, `{"ts":`...)
	b = appendTS(b, at)
	first := true
	for i := range t.Params {
		p := &t.Params[i]
		if p.PerNode || p.Detected {
			continue
		}
		if first {
			b = append(b, `,"values":{`...)
		} else {
			b = append(b, ',')
		}
		first = false
		b = appendKey(b, p.ID)
		b = appendValue(b, p, o.value(p.ID, 0))
	}
	if !first {
		b = append(b, '}')
	}
	if hasPerNode(t) && len(t.Nodes) > 0 {
		b = append(b, `,"nodes":{`...)
		for ni, depth := range t.Nodes {
			if ni > 0 {
				b = append(b, ',')
			}
			b = appendKey(b, strconv.Itoa(depth))
			b = append(b, '{')
			firstP := true
			for i := range t.Params {
				p := &t.Params[i]
				if !p.PerNode {
					continue
				}
				if !firstP {
					b = append(b, ',')
				}
				firstP = false
				b = appendKey(b, p.ID)
				b = appendValue(b, p, o.value(p.ID, ni))
			}
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

func hasPerNode(t *devices.Type) bool {
	for _, p := range t.Params {
		if p.PerNode {
			return true
		}
	}
	return false
}

// Status returns a status payload dated at: battery and signal, the solar
// input voltage for solar types, and an empty fault list.
func (s *Sim) Status(at time.Time) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started && at.Before(s.now) {
		at = s.now
	}
	s.advance(at)
	w := weatherAt(at, s.d.Lat, s.d.Lng)
	b := make([]byte, 0, 128)
	b = append(b, `{"ts":`...)
	b = appendTS(b, at)
	b = append(b, `,"battery":`...)
	b = strconv.AppendFloat(b, round(clamp(s.battery(at, &w), 0, 20), 2), 'f', 2, 64)
	if s.power.solar {
		b = append(b, `,"chargeVoltage":`...)
		b = strconv.AppendFloat(b, round(s.power.chargeVoltage(&w), 1), 'f', 1, 64)
	}
	b = append(b, `,"signal":`...)
	b = strconv.AppendFloat(b, s.power.signal(s.rng, at, &w), 'f', 0, 64)
	return append(b, `,"faults":[]}`...)
}

func (s *Sim) battery(at time.Time, w *weather) float64 {
	return s.power.voltage(at, w.temp) + 0.008*s.rng.NormFloat64()
}

// observation is what the sensors read at one report.
type observation struct {
	s       *Sim
	at      time.Time
	from    time.Time
	w       weather
	tx, ty  float64 // tilt readings, rounded as reported
	insects int
}

func (s *Sim) observe(at, from time.Time) *observation {
	o := &observation{s: s, at: at, from: from, w: weatherAt(at, s.d.Lat, s.d.Lng)}
	if s.tilt != nil {
		o.tx = round(s.tilt.x+0.004*s.rng.NormFloat64(), 2)
		o.ty = round(s.tilt.y+0.004*s.rng.NormFloat64(), 2)
	}
	if s.insects != nil {
		o.insects = s.insects.between(from, at)
	}
	return o
}

// value is the reading of parameter id (at node index ni for per-node ones).
func (o *observation) value(id string, ni int) float64 {
	s, w, r := o.s, &o.w, o.s.rng
	n := r.NormFloat64
	switch id {
	case "airTemp":
		return w.temp + s.tempOff + 0.15*n()
	case "airHumidity":
		return clamp(w.rh+s.rhOff+1.2*n(), 5, 100)
	case "pressure":
		return w.pressure + s.pressOff + 0.15*n()
	case "windSpeed":
		v := w.wind * s.windExposure * (1 + 0.22*n())
		if r.Float64() < 0.05 {
			v += between(r, 2, 5) // a gust in the averaging window
		}
		return math.Max(v, 0)
	case "windDirection":
		// Light winds wander more.
		d := math.Mod(w.windDir+(8+20/(1+w.wind))*n()+720, 360)
		if round(d, 0) >= 360 {
			d = 0
		}
		return d
	case "rainfall":
		// A tipping bucket: only whole tips are reported, the rest waits
		// in the bucket for the next report.
		amount := rainBetween(o.from, o.at)*s.catchFactor + s.rainCarry
		tips := math.Floor(amount/s.tipMM + 1e-9)
		s.rainCarry = amount - tips*s.tipMM
		return math.Min(tips*s.tipMM, 300)
	case "solarRadiation":
		return w.solar * (1 + 0.03*n())
	case "illuminance":
		// Daylight carries about 115 lm per W of global irradiance; a
		// seedling monitor's fill light adds its own.
		lx := w.solar * 115 * (1 + 0.03*n())
		if s.d.Type.ID == 22 && s.lightOn() {
			lx += 300
		}
		return lx
	case "co2":
		// ~420 ppm background; plant and soil respiration accumulate under
		// the night's stable layer (more in calm air), photosynthesis draws
		// it down in the afternoon.
		return 420 + 70*w.nightCalm/(1+0.3*w.wind) - 25*w.solar/800 + 5*n()
	case "leafWetness":
		return clamp(s.leaf+1.5*n(), 0, 100)
	case "pm25":
		return o.pm25()
	case "pm10":
		// Coarse dust lifted by wind, most of all in the dry spring.
		dust := 1.5 + 0.3*smooth(streamDust, hours(o.at)/24)
		return o.pm25()*dust + 6*w.wind*(1-0.7*w.rainInfl) + 3*n()
	case "tvoc":
		// Biogenic and traffic VOCs: more when warm, trapped at night.
		return (120 + 6*math.Max(w.temp, 0)) * (0.8 + 0.6*w.nightCalm) * math.Sqrt(w.haze) * math.Exp(0.12*n())
	case "soilMoisture":
		depth := s.d.Type.Nodes[ni]
		return clamp(s.soil.moisture(depth, s.soil.offset[ni])+0.15*n(), 1, 60)
	case "soilTemp":
		return s.soil.temperature(s.d.Type.Nodes[ni]) + 0.05*n()
	case "ec":
		return clamp(s.soil.ec(s.d.Type.Nodes[ni])*(1+0.02*n()), 150, 1600)
	case "tiltX":
		return o.tx
	case "tiltY":
		return o.ty
	case "tiltAngle":
		return tiltAngle(o.tx, o.ty)
	case "waterLevel":
		return math.Max(s.level.height()+0.003*n(), 0)
	case "waterTemp":
		return s.level.waterTemp() + 0.05*n()
	case "valveState":
		if s.valve.open(o.at) {
			return 1
		}
		return 0
	case "flowRate":
		if s.valve.open(o.at) {
			return s.valve.flow * (1 + 0.02*n())
		}
		return 0
	case "waterVolume":
		return s.valve.openHours(o.from, o.at) * s.valve.flow * (1 + 0.01*n())
	case "pipePressure":
		if s.valve.open(o.at) {
			return s.valve.pOpen + 0.008*n()
		}
		return math.Max(s.valve.pShut+0.004*n(), 0)
	case "insectCount":
		if !s.lightOn() {
			return 0 // without its lamp the trap lures nothing
		}
		return float64(o.insects)
	case "battery":
		return s.battery(o.at, w)
	case "signal":
		return s.power.signal(r, o.at, w)
	}
	// A parameter this simulator does not model: a steady mid-range value.
	p, _ := s.d.Type.Param(id)
	return (p.Min + p.Max) / 2
}

// pm25 is fine particulate matter: a seasonal background (heating and
// stagnant air make winter dirtier) multiplied in haze episodes, higher under
// the night's stable layer, diluted by wind and washed out by rain.
func (o *observation) pm25() float64 {
	w := &o.w
	base := 30 + 35*(1-wetSeason(w.doy))
	v := base * w.haze * (0.8 + 0.5*w.nightCalm) / (1 + 0.12*w.wind) * (1 - 0.55*w.rainInfl)
	// Both particle sizes see the same air: derive the noise from the
	// report time, not the stream, so pm10 stays consistent with pm25.
	return v * math.Exp(0.1*(2*unit(uint64(o.s.d.Seed), uint64(o.at.Unix()))-1))
}

// round rounds v to dec decimals.
func round(v float64, dec int) float64 {
	p := math.Pow10(dec)
	r := math.Round(v*p) / p
	if r == 0 {
		return 0 // no "-0"
	}
	return r
}

func appendKey(b []byte, k string) []byte {
	b = strconv.AppendQuote(b, k)
	return append(b, ':')
}

// appendValue writes v at p's precision, inside p's range.
func appendValue(b []byte, p *devices.Param, v float64) []byte {
	if math.IsNaN(v) {
		v = p.Min
	}
	v = round(clamp(v, p.Min, p.Max), p.Precision)
	return strconv.AppendFloat(b, v, 'f', p.Precision, 64)
}

// appendTS writes t as unix seconds, with milliseconds when t has them so
// that reports less than a second apart stay distinct.
func appendTS(b []byte, t time.Time) []byte {
	ms := t.UnixMilli()
	b = strconv.AppendInt(b, floorDiv(ms, 1000), 10)
	if frac := ms - floorDiv(ms, 1000)*1000; frac != 0 {
		b = append(b, '.')
		b = append(b, byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
	}
	return b
}
