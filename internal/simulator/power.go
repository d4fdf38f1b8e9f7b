package simulator

import (
	"math"
	"math/rand/v2"
	"time"
)

// power is a device's battery and radio.
//
// Sleepy probes run on a lithium cell that slowly discharges, a few
// millivolts a day, and sags a little in the cold. Solar stations run on a
// 12 V pack: a charge controller lifts it to 13.5–14.2 V while the panel
// delivers, and it rests at 12.2–12.9 V depending on charge, lowest at dawn
// after a night of load.
type power struct {
	solar bool

	// Lithium cell.
	v0, drain, floor float64 // initial V, V/day, lowest V reached
	since            time.Time

	// Solar pack.
	soc    float64 // state of charge, 0–1
	capAh  float64
	loadA  float64 // mean draw of the electronics, A
	panelW float64 // panel peak power, W
	sunA   float64 // what the panel could deliver now, A

	sigMean   float64 // mean received signal, dBm (distance to the cell tower)
	sigStream uint64  // slow fading series of this device
}

func newPower(r *rand.Rand, d Device) *power {
	p := &power{
		solar:     d.Type.Solar,
		sigMean:   between(r, -100, -66),
		sigStream: hash(0x516e, uint64(d.Seed)),
	}
	if p.solar {
		p.soc = between(r, 0.75, 0.95)
		p.capAh = between(r, 17, 24)
		p.loadA = between(r, 0.08, 0.2)
		p.panelW = between(r, 15, 30)
		if d.Type.Camera {
			// The trap lamp and the camera heater need a bigger pack and panel.
			p.capAh, p.loadA, p.panelW = 60, between(r, 0.3, 0.45), 60
		}
		return p
	}
	// A lithium cell partway through its life, losing 3–6 mV a day.
	p.v0 = between(r, 3.8, 4.05)
	p.drain = between(r, 0.003, 0.006)
	p.floor = 3.45
	if d.LowBattery || lowBattery(d.Seed) {
		// A cell at the end of its life: it needs charging (under 3.2 V).
		p.v0 = between(r, 3.22, 3.3)
		p.floor = 3.05
	}
	return p
}

// lowBattery picks about one lithium device in twenty, from its seed.
func lowBattery(seed int64) bool { return hash(0x10bba7, uint64(seed))%20 == 0 }

func (p *power) init(t time.Time) { p.since = t }

// step charges or discharges the solar pack over dt hours.
func (p *power) step(dt float64, w *weather) {
	if !p.solar {
		return
	}
	// Panel current at ~13 V with 80 % of the rated power reaching the battery.
	p.sunA = p.panelW * w.solar / 1000 * 0.8 / 13
	in := p.sunA
	if p.soc > 0.9 {
		// The controller tapers the current as the pack fills.
		in *= (1 - p.soc) / 0.1
	}
	p.soc = clamp(p.soc+(in-p.loadA)*dt/p.capAh, 0.15, 1)
}

// voltage is the battery voltage at t with air temperature temp (°C).
func (p *power) voltage(t time.Time, temp float64) float64 {
	if !p.solar {
		days := t.Sub(p.since).Hours() / 24
		v := math.Max(p.floor, p.v0-p.drain*days)
		// Cold raises the cell's internal resistance.
		return v - 0.004*math.Max(0, 10-temp)
	}
	rest := 11.9 + 0.95*p.soc
	if p.sunA > 0.05 {
		// Bulk, then absorption: the controller holds the pack above its
		// resting voltage as long as the panel can deliver.
		return math.Min(14.2, rest+0.35+0.6*math.Min(1, p.sunA/1.0))
	}
	return rest - 0.2*p.loadA
}

// chargeVoltage is the solar input voltage: near zero at night, 17–21 V in
// daylight (a "12 V" panel's open-circuit voltage is ~21.5 V).
func (p *power) chargeVoltage(w *weather) float64 {
	if w.solar < 5 {
		return w.solar * 0.1
	}
	v := 17 + 3.5*math.Min(1, w.solar/400)
	if p.soc >= 0.99 {
		// A full pack draws nothing; the panel floats towards open circuit.
		v += 0.8
	}
	return v
}

// signal is the received signal strength, dBm: the device's mean, slow
// fading over hours, a couple of dB lost in rain.
func (p *power) signal(r *rand.Rand, t time.Time, w *weather) float64 {
	s := p.sigMean + 4*smooth(p.sigStream, hours(t)/5) - 2*w.rainInfl + 2*r.NormFloat64()
	return clamp(math.Round(s), -110, -60)
}
