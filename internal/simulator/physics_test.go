package simulator

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func stddev(xs []float64) float64 {
	m, s := mean(xs), 0.0
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(xs)))
}

// byHour collects param's readings by CST hour of day.
func byHour(vals []float64, times []time.Time) map[int][]float64 {
	out := map[int][]float64{}
	for i, at := range times {
		h := at.In(cst).Hour()
		out[h] = append(out[h], vals[i])
	}
	return out
}

func TestAfternoonWarmerThanDawn(t *testing.T) {
	s := newSim(t, mustType(t, 5), 1)
	v, times := series(t, s, may1, 7, 10*time.Minute)
	h := byHour(v["airTemp"], times)
	dawn := mean(append(append(h[4], h[5]...), h[6]...))
	afternoon := mean(append(append(h[14], h[15]...), h[16]...))
	if afternoon < dawn+5 {
		t.Errorf("afternoon mean %.1f °C, dawn %.1f °C: want a diurnal swing of several degrees", afternoon, dawn)
	}
	hum := byHour(v["airHumidity"], times)
	if mean(hum[15]) >= mean(hum[5]) {
		t.Errorf("humidity %.0f %% at 15:00, %.0f %% at 05:00: want drier afternoons", mean(hum[15]), mean(hum[5]))
	}
	sun := byHour(v["solarRadiation"], times)
	if mean(sun[0]) != 0 || mean(sun[12]) < 300 {
		t.Errorf("radiation %.0f W/m² at midnight, %.0f at noon", mean(sun[0]), mean(sun[12]))
	}
}

// Seasons: July is warm, January cold.
func TestSeasons(t *testing.T) {
	s := newSim(t, mustType(t, 4), 1)
	jan, _ := series(t, s, time.Date(2025, 1, 1, 0, 0, 0, 0, cst), 10, time.Hour)
	s = newSim(t, mustType(t, 4), 1)
	jul, _ := series(t, s, time.Date(2025, 7, 10, 0, 0, 0, 0, cst), 10, time.Hour)
	if mj, ml := mean(jan["airTemp"]), mean(jul["airTemp"]); mj > 5 || ml < 22 {
		t.Errorf("January mean %.1f °C, July %.1f °C", mj, ml)
	}
}

// rainEvents lists the regional events starting in [from, from+days).
func rainEvents(from time.Time, days int) []rainEvent {
	var out []rainEvent
	for d := cstDay(from); d < cstDay(from)+int64(days); d++ {
		if ev, ok := rainEventOf(d); ok {
			out = append(out, ev)
		}
	}
	return out
}

func TestRainEventsRecur(t *testing.T) {
	for m := 1; m <= 12; m++ {
		from := time.Date(2025, time.Month(m), 1, 0, 0, 0, 0, cst)
		if n := len(rainEvents(from, 30)); n < 2 {
			t.Errorf("%s: %d rain events in 30 days", from.Format("Jan"), n)
		}
	}
}

// Gauges report rain only during the regional events, and two gauges in the
// region see the same events.
func TestRainfallShared(t *testing.T) {
	ty := mustType(t, 9)
	a, b := newSim(t, ty, 1), newSim(t, ty, 2)
	va, times := series(t, a, may1, 30, ty.Interval)
	vb, _ := series(t, b, may1, 30, ty.Interval)
	wetA, wetB := map[int64]bool{}, map[int64]bool{}
	total := 0.0
	for i, at := range times {
		regional := 0.0
		if i > 0 {
			regional = rainBetween(times[i-1], at)
		}
		for _, c := range []struct {
			v   float64
			wet map[int64]bool
		}{{va["rainfall"][i], wetA}, {vb["rainfall"][i], wetB}} {
			if c.v > 0 && regional == 0 {
				t.Fatalf("rain of %.1f mm at %s outside any rain event", c.v, at)
			}
			if c.v > 0 {
				c.wet[cstDay(at)] = true
			}
		}
		total += va["rainfall"][i]
	}
	if total < 5 {
		t.Fatalf("%.1f mm in a month of May", total)
	}
	for d := range wetA {
		if !wetB[d] && rainBetween(dayStart(d), dayStart(d+1)) > 1 {
			t.Errorf("day %s: rain at one gauge only", dayStart(d).In(cst).Format("01-02"))
		}
	}
	if len(wetA) < 2 {
		t.Errorf("rain on %d days of May", len(wetA))
	}
}

// A substantial rain wets the 10 cm layer within hours, and it dries again
// over the following days.
func TestSoilWetsAndDries(t *testing.T) {
	ty := mustType(t, 2)
	seed := int64(1)
	for ; ; seed++ {
		if s := newSim(t, ty, seed); !s.soil.irrigated {
			break // irrigation would mix in pulses of its own
		}
	}
	s := newSim(t, ty, seed)
	step := 30 * time.Minute
	v, times := series(t, s, may1, 30, step)
	m10 := v["soilMoisture@10"]
	checked := 0
	for _, ev := range rainEvents(may1.Add(24*time.Hour), 25) {
		if rainBetween(ev.start, ev.end) < 15 {
			continue
		}
		i0 := int(ev.start.Sub(may1) / step)
		peak, ip := m10[i0], i0
		for i := i0; i < len(m10) && i <= i0+int((ev.end.Sub(ev.start)+6*time.Hour)/step); i++ {
			if m10[i] > peak {
				peak, ip = m10[i], i
			}
		}
		if peak < m10[i0]+2 {
			t.Errorf("rain of %.0f mm from %s: 10 cm moisture %.1f → at most %.1f %%",
				rainBetween(ev.start, ev.end), ev.start.In(cst).Format("01-02 15:04"), m10[i0], peak)
		}
		// Dry spells: look three days on, unless it rained again.
		i3 := ip + int(72*time.Hour/step)
		if i3 < len(m10) && rainBetween(times[ip], times[i3]) < 2 && m10[i3] > peak-1.5 {
			t.Errorf("after %s the 10 cm layer stays at %.1f %% (peak %.1f %%)",
				ev.start.In(cst).Format("01-02"), m10[i3], peak)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no rain of 15 mm or more in May to check")
	}
	for k, xs := range v {
		if strings.HasPrefix(k, "soilMoisture") {
			for _, x := range xs {
				if x < 8 || x > 48 {
					t.Fatalf("%s reads %.1f %%", k, x)
				}
			}
		}
	}
}

// An irrigated field shows its weekly pulses.
func TestIrrigationPulses(t *testing.T) {
	ty := mustType(t, 21)
	seed := int64(1)
	for ; ; seed++ {
		if s := newSim(t, ty, seed); s.soil.irrigated {
			break
		}
	}
	s := newSim(t, ty, seed)
	v, times := series(t, s, may1, 30, 30*time.Minute)
	rises := 0
	m10 := v["soilMoisture@10"]
	for i := 1; i < len(times); i++ {
		h := cstHour(times[i])
		if h > s.soil.irrStart && h <= s.soil.irrStart+3 && m10[i] > m10[i-1]+1 &&
			rainBetween(times[i-1], times[i]) == 0 {
			rises++
		}
	}
	if rises < 2 {
		t.Errorf("%d rises of moisture during irrigation hours in a month", rises)
	}
}

func TestDeepLayersVaryLess(t *testing.T) {
	ty := mustType(t, 3)
	s := newSim(t, ty, 4)
	v, _ := series(t, s, may1, 30, time.Hour)
	top, deep := ty.Nodes[0], ty.Nodes[len(ty.Nodes)-1]
	for _, p := range []string{"soilMoisture", "soilTemp"} {
		st := stddev(v[p+"@"+strconv.Itoa(top)])
		sd := stddev(v[p+"@"+strconv.Itoa(deep)])
		if sd >= st {
			t.Errorf("%s varies by %.2f at %d cm and %.2f at %d cm", p, st, top, sd, deep)
		}
	}
}

// Soil temperature follows the air, damped and later with depth.
func TestSoilTemperatureLags(t *testing.T) {
	ty := mustType(t, 2)
	s := newSim(t, ty, 4)
	v, times := series(t, s, may1, 14, 30*time.Minute)
	peakHour := func(k string) int {
		h := byHour(v[k], times)
		best, bh := math.Inf(-1), 0
		for hr, xs := range h {
			if m := mean(xs); m > best {
				best, bh = m, hr
			}
		}
		return bh
	}
	h10, h20 := peakHour("soilTemp@10"), peakHour("soilTemp@20")
	if h10 < 13 || h20 <= h10 {
		t.Errorf("soil temperature peaks at %d:00 at 10 cm, %d:00 at 20 cm", h10, h20)
	}
}

func TestSolarBatteryChargesByDay(t *testing.T) {
	s := newSim(t, mustType(t, 5), 2)
	v, times := series(t, s, may1, 30, 10*time.Minute)
	h := byHour(v["battery"], times)
	if d, a := mean(h[5]), mean(h[15]); d >= a {
		t.Errorf("battery %.2f V at 05:00, %.2f V at 15:00", d, a)
	}
}

func TestLithiumBattery(t *testing.T) {
	ty := mustType(t, 1)
	v, _ := series(t, newSim(t, ty, 1), may1, 30, time.Hour)
	b := v["battery"]
	if b[0] < 3.4 || b[0] > 4.1 || mean(b[len(b)-24:]) >= mean(b[:24]) {
		t.Errorf("lithium cell from %.2f to %.2f V", b[0], b[len(b)-1])
	}
	low := New(Device{SN: "LOW", Type: ty, Lat: 37.45, Lng: 116.3, Seed: 1, LowBattery: true})
	v, _ = series(t, low, may1, 30, time.Hour)
	if b := v["battery"]; b[len(b)-1] >= 3.2 {
		t.Errorf("a flat cell ends the month at %.2f V", b[len(b)-1])
	}
	n := 0
	for seed := range int64(2000) {
		if lowBattery(seed) {
			n++
		}
	}
	if n < 60 || n > 140 {
		t.Errorf("%d of 2000 seeds have a flat cell, want about 1 in 20", n)
	}
}

func TestTiltDrifts(t *testing.T) {
	v, _ := series(t, newSim(t, mustType(t, 8), 3), may1, 30, time.Hour)
	x, y, a := v["tiltX"], v["tiltY"], v["tiltAngle"]
	last := len(x) - 1
	if d := math.Hypot(x[last]-x[0], y[last]-y[0]); d < 0.2 {
		t.Errorf("the slope moved %.2f° in a month", d)
	}
	for i := range x {
		if want := tiltAngle(x[i], y[i]); math.Abs(a[i]-want) > 0.006 {
			t.Fatalf("tilt %.2f, %.2f gives angle %.2f, reported %.2f", x[i], y[i], want, a[i])
		}
	}
}

func TestLevelRisesAfterRain(t *testing.T) {
	ty := mustType(t, 17)
	v, times := series(t, newSim(t, ty, 3), may1, 30, ty.Interval)
	lv := v["waterLevel"]
	lo, hi := lv[0], lv[0]
	for _, x := range lv {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	if hi-lo < 0.1 {
		t.Errorf("level between %.2f and %.2f m in a rainy month", lo, hi)
	}
	// The highest level comes after rain, not before any.
	imax := 0
	for i, x := range lv {
		if x == hi {
			imax = i
		}
	}
	if rainBetween(times[imax].Add(-48*time.Hour), times[imax]) < 5 {
		t.Errorf("the level peaks at %s without rain", times[imax])
	}
	wt := stddev(v["waterTemp"])
	if wt <= 0 {
		t.Error("water temperature constant")
	}
}

func TestValveSchedule(t *testing.T) {
	ty := mustType(t, 10)
	s := newSim(t, ty, 3)
	v, times := series(t, s, may1, 30, ty.Interval)
	openDays := map[int64]bool{}
	var pOpen, pShut []float64
	volume := 0.0
	for i, at := range times {
		open := v["valveState"][i] == 1
		if h := cstHour(at); open && (h < 6 || h > 7.5) {
			t.Fatalf("valve open at %s", at.In(cst))
		}
		if !open && v["flowRate"][i] != 0 {
			t.Fatalf("flow through a closed valve at %s", at)
		}
		if open {
			openDays[cstDay(at)] = true
			pOpen = append(pOpen, v["pipePressure"][i])
		} else {
			pShut = append(pShut, v["pipePressure"][i])
		}
		volume += v["waterVolume"][i]
	}
	if n := len(openDays); n < 9 || n > 16 {
		t.Errorf("valve opened on %d days of 30, want every 2–3 days", n)
	}
	if mean(pOpen) <= mean(pShut)+0.1 {
		t.Errorf("pressure %.2f MPa open, %.2f shut", mean(pOpen), mean(pShut))
	}
	// Each opening delivers an hour of the nominal flow.
	if want := float64(len(openDays)) * s.valve.flow; math.Abs(volume-want) > 0.05*want {
		t.Errorf("%.1f m³ delivered in %d openings of %.1f m³/h", volume, len(openDays), s.valve.flow)
	}
}

func TestInsectsFlyAtNight(t *testing.T) {
	ty := mustType(t, 20)
	v, times := series(t, newSim(t, ty, 3), time.Date(2025, 7, 1, 0, 0, 0, 0, cst), 14, time.Hour)
	var day, night float64
	for i, at := range times {
		// A report at hour h counts the hour before it.
		if h := at.In(cst).Hour(); h >= 8 && h <= 18 {
			day += v["insectCount"][i]
		} else if h >= 20 || h <= 3 {
			night += v["insectCount"][i]
		}
	}
	if night < 100 || night < 5*day {
		t.Errorf("%.0f insects at night, %.0f by day over two July weeks", night, day)
	}
}
