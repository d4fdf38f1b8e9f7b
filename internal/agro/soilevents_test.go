package agro

import (
	"math"
	"testing"
	"time"
)

var cst = time.FixedZone("CST", 8*3600)

// ramp is 0 before from, amount after from+over, linear between.
func ramp(t, from time.Time, over time.Duration, amount float64) float64 {
	switch {
	case t.Before(from):
		return 0
	case t.After(from.Add(over)):
		return amount
	}
	return amount * float64(t.Sub(from)) / float64(over)
}

// daytimeDrawdown is the water roots took by t at dropPerDay, drawn only
// between 08:00 and 18:00 (site clock) since start.
func daytimeDrawdown(start, t time.Time, dropPerDay float64) float64 {
	var total float64
	for d := start; d.Before(t); d = d.Add(time.Hour) {
		if h := d.In(cst).Hour(); h >= 8 && h < 18 {
			total += dropPerDay / 10
		}
	}
	return total
}

// irrigatedProfile is ten days of hourly readings at 10–40 cm: roots draw
// the 10 and 20 cm layers down by day, 30 cm drains slowly day and night,
// 40 cm holds steady; on day 3 at 06:00 an irrigation wets 10 cm by 10
// points over 2 h, 20 cm by 6 from 4 h later, 30 cm by 3 from 10 h later.
func irrigatedProfile() (Profile, time.Time) {
	start := time.Date(2026, 6, 1, 0, 0, 0, 0, cst)
	water := start.AddDate(0, 0, 3).Add(6 * time.Hour)
	p := Profile{{Depth: 10}, {Depth: 20}, {Depth: 30}, {Depth: 40}}
	for h := 0; h < 240; h++ {
		t := start.Add(time.Duration(h) * time.Hour)
		p[0].Readings = append(p[0].Readings, Reading{t, 24 - daytimeDrawdown(start, t, 0.3) + ramp(t, water, 2*time.Hour, 10)})
		p[1].Readings = append(p[1].Readings, Reading{t, 26 - daytimeDrawdown(start, t, 0.2) + ramp(t, water.Add(4*time.Hour), 3*time.Hour, 6)})
		p[2].Readings = append(p[2].Readings, Reading{t, 28 - 0.05*float64(h)/24 + ramp(t, water.Add(10*time.Hour), 3*time.Hour, 3)})
		p[3].Readings = append(p[3].Readings, Reading{t, 30})
	}
	return p, water
}

func TestLayerThickness(t *testing.T) {
	got := LayerThickness([]float64{10, 20, 30, 40})
	for i, want := range []float64{15, 10, 10, 10} {
		near(t, "thickness", got[i], want, 1e-12)
	}
	near(t, "lone probe", LayerThickness([]float64{20})[0], 40, 1e-12)
}

func TestDetectPulses(t *testing.T) {
	p, water := irrigatedProfile()
	pulses, err := DetectPulses(p, PulseOptions{Rain: []RainAmount{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(pulses) != 1 {
		t.Fatalf("%d pulses: %+v", len(pulses), pulses)
	}
	pl := pulses[0]
	if !pl.Start.Equal(water.Add(time.Hour)) || pl.Source != "irrigation" {
		t.Errorf("pulse starts %s from %s", pl.Start, pl.Source)
	}
	// 10 points over 15 cm + 6 over 10 cm + 3 over 10 cm = 24 mm, less the
	// little the roots drew meanwhile.
	near(t, "amount", pl.AmountMM, 24, 0.5)
	near(t, "front depth", pl.FrontDepth, 30, 0)
	// The front reached 30 cm 10 h after 10 cm: 2 cm/h.
	near(t, "front speed", pl.FrontSpeed, 2, 1e-9)
	if len(pl.Layers) != 3 {
		t.Fatalf("%d layers", len(pl.Layers))
	}
	near(t, "lag at 20 cm", pl.Layers[1].LagHours, 4, 1e-9)
	near(t, "rise at 20 cm", pl.Layers[1].Rise, 6, 0.1)

	// The same with 30 mm of rain just before: rain.
	pulses, _ = DetectPulses(p, PulseOptions{Rain: []RainAmount{{Time: water.Add(time.Hour), MM: 30}}})
	if pulses[0].Source != "rain" || pulses[0].RainMM != 30 {
		t.Errorf("with rain: %s, %g mm", pulses[0].Source, pulses[0].RainMM)
	}
	pulses, _ = DetectPulses(p, PulseOptions{})
	if pulses[0].Source != "unknown" {
		t.Errorf("without a rain record: %s", pulses[0].Source)
	}
	// A drying profile has no pulses.
	for i := range p {
		for j := range p[i].Readings {
			p[i].Readings[j].Value = 30 - 0.01*float64(j)
		}
	}
	if pulses, _ := DetectPulses(p, PulseOptions{}); len(pulses) != 0 {
		t.Errorf("drying profile: %d pulses", len(pulses))
	}
}

func TestActiveRootDepth(t *testing.T) {
	p, _ := irrigatedProfile()
	depth, layers, err := ActiveRootDepth(p, RootDepthOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if depth != 20 {
		t.Errorf("active root depth %g cm, want 20: %+v", depth, layers)
	}
	// Nine whole 08:00-to-08:00 days, the irrigation day left out.
	if layers[0].Days != 8 || layers[0].DrawdownDays != 8 {
		t.Errorf("10 cm: %+v", layers[0])
	}
	near(t, "10 cm day drop", layers[0].MeanDayDrop, 0.3, 1e-9)
	if layers[2].Active || layers[3].Active {
		t.Errorf("30 or 40 cm active: %+v", layers)
	}
}

func TestDetectWaterlogging(t *testing.T) {
	start := time.Date(2026, 7, 1, 0, 0, 0, 0, cst)
	var s DepthSeries
	s.Depth = 20
	for h := 0; h < 48; h++ {
		v := 35.0
		if (h >= 5 && h < 15) || (h >= 20 && h < 22) || h >= 40 {
			v = 46 + float64(h%3)
		}
		s.Readings = append(s.Readings, Reading{start.Add(time.Duration(h) * time.Hour), v})
	}
	got, err := DetectWaterlogging(Profile{s}, []float64{45}, 3*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	l := got[0]
	if len(l.Periods) != 2 {
		t.Fatalf("%d periods: %+v", len(l.Periods), l.Periods)
	}
	near(t, "first spell", l.Periods[0].Hours, 10, 1e-9)
	near(t, "peak", l.Periods[0].Peak, 48, 1e-9)
	if !l.Periods[1].Ongoing || l.Periods[1].Hours != 7 {
		t.Errorf("last spell %+v", l.Periods[1])
	}
	near(t, "total", l.Hours, 17, 1e-9)
	if _, err := DetectWaterlogging(Profile{s}, []float64{45, 46}, 0); err == nil {
		t.Error("two thresholds for one depth accepted")
	}
}

func TestDetectFreezeThaw(t *testing.T) {
	// 2 cos(2π(h − 14)/24) − 0.5 °C: above 0 from about 08:58 to 19:02.
	start := time.Date(2026, 1, 10, 0, 0, 0, 0, cst)
	var s DepthSeries
	s.Depth = 5
	for h := 0; h < 72; h++ {
		s.Readings = append(s.Readings, Reading{start.Add(time.Duration(h) * time.Hour), 2*math.Cos(2*math.Pi*float64(h-14)/24) - 0.5})
	}
	got, err := DetectFreezeThaw(Profile{s, {Depth: 50, Readings: []Reading{{start, 3}, {start.Add(time.Hour), 3.1}}}})
	if err != nil {
		t.Fatal(err)
	}
	l := got[0]
	if len(l.Events) != 6 || l.Events[0].Kind != "thaw" || l.Events[1].Kind != "freeze" {
		t.Fatalf("events %+v", l.Events)
	}
	offset := 5.034 * float64(time.Hour)
	if d := l.Events[0].Time.Sub(start.Add(14*time.Hour - time.Duration(offset))); d.Abs() > 10*time.Minute {
		t.Errorf("first thaw at %s", l.Events[0].Time)
	}
	if d := l.Events[1].Time.Sub(start.Add(14*time.Hour + time.Duration(offset))); d.Abs() > 10*time.Minute {
		t.Errorf("first freeze at %s", l.Events[1].Time)
	}
	if l.Cycles != 2 || len(l.Dates) != 3 || l.Dates[0] != "2026-01-10" {
		t.Errorf("cycles %d, dates %v", l.Cycles, l.Dates)
	}
	// Frozen from the first reading to 08:58, two nights of 13.93 h, and
	// from 19:02 to the last reading at 23:00.
	near(t, "frozen hours", l.FrozenHours, 8.97+2*13.93+3.97, 0.1)
	if len(got[1].Events) != 0 || got[1].FrozenHours != 0 {
		t.Errorf("50 cm never froze: %+v", got[1])
	}
}

func TestMoistureChange(t *testing.T) {
	p, water := irrigatedProfile()
	changes, total, err := MoistureChange(p, water, water.Add(20*time.Hour), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 4 {
		t.Fatalf("%d layers", len(changes))
	}
	// The irrigation's 10, 6 and 3 points, less what roots and drainage
	// took in those 20 h (10 daylight hours): 9.7, 5.8, 2.958 and 0.
	near(t, "10 cm", changes[0].Change, 9.7, 1e-9)
	near(t, "30 cm", changes[2].Change, 3-0.05*20/24, 1e-9)
	near(t, "total", total, 9.7*1.5+5.8+3-0.05*20/24, 1e-9)
	if _, _, err := MoistureChange(p, water, water, []float64{10}); err == nil {
		t.Error("one thickness for four depths accepted")
	}
	// Until "now", a little after the last reading: the last reading counts;
	// hours after it, nothing does.
	last := p[0].Readings[len(p[0].Readings)-1].Time
	held, _, err := MoistureChange(p, water, last.Add(40*time.Minute), nil)
	if err != nil || len(held) != 4 || held[0].After != p[0].Readings[len(p[0].Readings)-1].Value {
		t.Fatalf("until now: %+v %v", held, err)
	}
	if gone, _, _ := MoistureChange(p, water, last.Add(4*time.Hour), nil); len(gone) != 0 {
		t.Fatalf("4 h past the data: %+v", gone)
	}
}

func TestProfile_Validate(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, p := range map[string]Profile{
		"empty":     {},
		"depthZero": {{Depth: 0}},
		"unordered": {{Depth: 20}, {Depth: 10}},
		"timeOrder": {{Depth: 10, Readings: []Reading{{t0, 1}, {t0, 2}}}},
	} {
		if err := p.Validate(); err == nil {
			t.Errorf("%s validated", name)
		}
	}
}

// noisyProfile is hourly readings at 10 and 20 cm with ±0.2 vol % probe
// noise (a fixed pattern), a dip of 0.4 below the baseline the evening
// before, and a watering from 08:00 on day 2 that raises 10 cm by 6 points
// over two hours, pauses two hours, and raises it by 7 more; 3 of those
// points (4.5 mm over the 15 cm layer) then drain over 4 h into 20 cm, which
// rises by 4.5 points over its 10 cm.
func noisyProfile() (Profile, time.Time) {
	start := time.Date(2026, 6, 1, 0, 0, 0, 0, cst)
	water := start.AddDate(0, 0, 1).Add(8 * time.Hour)
	noise := []float64{0.1, -0.15, 0.2, 0, -0.1, 0.15, -0.2, 0.05, 0.1, -0.05}
	p := Profile{{Depth: 10}, {Depth: 20}}
	for h := 0; h < 72; h++ {
		t := start.Add(time.Duration(h) * time.Hour)
		v10 := 22 + noise[h%len(noise)] + ramp(t, water, 2*time.Hour, 6) + ramp(t, water.Add(4*time.Hour), 2*time.Hour, 7)
		v10 -= ramp(t, water.Add(6*time.Hour), 4*time.Hour, 3)
		if t.Equal(water.Add(-11 * time.Hour)) { // 21:00 the evening before
			v10 -= 0.4
		}
		v20 := 25 + noise[(h+3)%len(noise)] + ramp(t, water.Add(6*time.Hour), 4*time.Hour, 4.5)
		p[0].Readings = append(p[0].Readings, Reading{t, v10})
		p[1].Readings = append(p[1].Readings, Reading{t, v20})
	}
	return p, water
}

// A noise dip the evening before neither dates the pulse early nor splits a
// watering that paused, and water that drains from one layer into the next
// is counted once: 13 points over 15 cm = 19.5 mm, where the layers' peaks
// would add up to 24 mm.
func TestDetectPulsesRobust(t *testing.T) {
	p, water := noisyProfile()
	pulses, err := DetectPulses(p, PulseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pulses) != 1 {
		t.Fatalf("%d pulses: %+v", len(pulses), pulses)
	}
	pl := pulses[0]
	if !pl.Start.Equal(water.Add(time.Hour)) {
		t.Errorf("pulse starts %s, water came at %s", pl.Start, water)
	}
	near(t, "10 cm baseline", pl.Layers[0].Before, 22, 0.15)
	near(t, "amount", pl.AmountMM, 19.5, 0.6)
	near(t, "10 cm rise", pl.Layers[0].Rise, 13, 0.4)
	if len(pl.Layers) != 2 {
		t.Fatalf("%d layers", len(pl.Layers))
	}
	near(t, "20 cm rise", pl.Layers[1].Rise, 4.5, 0.4)
}
