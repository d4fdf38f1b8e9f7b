package agro

import (
	"math"
	"sort"
	"time"
)

// Soil-moisture event detection on a depth × time series: what a profile
// of moisture (or temperature) probes saw. The methods are this package's
// own, built on the physics the probes record: water arriving from above
// raises each layer in turn (an infiltration pulse, its wetting front
// moving down), roots draw a layer down by day and not by night, saturated
// layers stay at saturation, frozen ones sit at or below 0 °C.
// Moisture is vol %, depths cm, water mm.

// Reading is one timestamped value.
type Reading struct {
	Time  time.Time `json:"time"`
	Value float64   `json:"value"`
}

// DepthSeries is the readings of the probe at one depth, in time order.
type DepthSeries struct {
	Depth    float64   `json:"depth"` // cm below the surface
	Readings []Reading `json:"readings"`
}

// Profile is the series of every depth, shallowest first.
type Profile []DepthSeries

// Validate checks depths increase and each series is in time order.
func (p Profile) Validate() error {
	if len(p) == 0 {
		return invalid("profile", "no depths")
	}
	for i, s := range p {
		if !(s.Depth > 0) || (i > 0 && s.Depth <= p[i-1].Depth) {
			return invalid("profile", "depths must be above 0 and increase (%g cm after %g cm)", s.Depth, prevDepth(p, i))
		}
		for j := 1; j < len(s.Readings); j++ {
			if !s.Readings[j].Time.After(s.Readings[j-1].Time) {
				return invalid("profile", "%g cm: readings out of time order at %s", s.Depth, s.Readings[j].Time.Format(time.RFC3339))
			}
		}
	}
	return nil
}

func prevDepth(p Profile, i int) float64 {
	if i == 0 {
		return 0
	}
	return p[i-1].Depth
}

func (p Profile) depths() []float64 {
	d := make([]float64, len(p))
	for i, s := range p {
		d[i] = s.Depth
	}
	return d
}

// LayerThickness is the thickness, cm, of soil each probe depth stands
// for: from the midpoint with the depth above (the surface for the first)
// to the midpoint with the depth below, the last reaching as far below its
// probe as half the last spacing (the trapezoidal rule of soil-water
// storage). Probes at 10, 20, 30 cm stand for 0–15, 15–25, 25–35 cm.
func LayerThickness(depths []float64) []float64 {
	out := make([]float64, len(depths))
	for i, d := range depths {
		top := 0.0
		if i > 0 {
			top = (depths[i-1] + d) / 2
		}
		var bottom float64
		switch {
		case i+1 < len(depths):
			bottom = (d + depths[i+1]) / 2
		case i > 0:
			bottom = d + (d-depths[i-1])/2
		default:
			bottom = 2 * d // a lone probe stands for the soil down to twice its depth
		}
		out[i] = bottom - top
	}
	return out
}

func thicknesses(p Profile, given []float64) ([]float64, error) {
	if given == nil {
		return LayerThickness(p.depths()), nil
	}
	if len(given) != len(p) {
		return nil, invalid("thickness", "%d thicknesses for %d depths", len(given), len(p))
	}
	for _, t := range given {
		if !(t > 0) {
			return nil, invalid("thickness", "%g cm: layers must be thicker than 0", t)
		}
	}
	return given, nil
}

// PulseOptions tune infiltration-pulse detection; zero values take the
// defaults.
type PulseOptions struct {
	// MinRise is the least rise of a layer, vol % points, that counts as
	// water arriving (default 1.0, well above probe noise of ~0.1–0.2).
	MinRise float64
	// RiseWindow is how long the rise may take from the layer's last low
	// reading (default 12 h).
	RiseWindow time.Duration
	// MaxLag is how long after the layer above a deeper layer may start
	// rising and still belong to the same pulse (default 48 h).
	MaxLag time.Duration
	// Thickness is each layer's thickness, cm (default LayerThickness).
	Thickness []float64
	// Rain, when given, tells rain from irrigation: a pulse with at least
	// half its amount of rain in the 12 h before its start (or the 2 h
	// after) is rain, otherwise irrigation. Without it the source is
	// "unknown".
	Rain []RainAmount
}

const probeNoise = 0.2 // vol %: a change smaller than this is not a change

func (o PulseOptions) withDefaults() PulseOptions {
	if o.MinRise == 0 {
		o.MinRise = 1.0
	}
	if o.RiseWindow == 0 {
		o.RiseWindow = 12 * time.Hour
	}
	if o.MaxLag == 0 {
		o.MaxLag = 48 * time.Hour
	}
	return o
}

// PulseLayer is one layer's response to a pulse: the infiltration profile.
type PulseLayer struct {
	Depth    float64   `json:"depth"`
	Arrival  time.Time `json:"arrival"`  // onset: first reading to stay clearly above the baseline (see DetectPulses)
	LagHours float64   `json:"lagHours"` // since the pulse's start
	PeakTime time.Time `json:"peakTime"`
	Before   float64   `json:"before"`  // vol %, the baseline: median of the 6 h before the onset
	Peak     float64   `json:"peak"`    // vol % at the peak
	Rise     float64   `json:"rise"`    // vol % points, peak − before
	WaterMM  float64   `json:"waterMm"` // the layer's share of the pulse's amount, mm
}

// Pulse is an infiltration pulse: rain or irrigation entering the profile.
type Pulse struct {
	Start      time.Time    `json:"start"`
	Source     string       `json:"source"`     // "rain", "irrigation" or "unknown"
	AmountMM   float64      `json:"amountMm"`   // water stored: the largest Σ Δθ × thickness at one time (see DetectPulses)
	RainMM     float64      `json:"rainMm"`     // rain around the start, when a record was given
	FrontDepth float64      `json:"frontDepth"` // deepest layer reached, cm
	FrontSpeed float64      `json:"frontSpeed"` // cm/h from the first to the deepest layer; 0 when they rose within one reading
	Layers     []PulseLayer `json:"layers"`
}

type rise struct {
	arrival, peakTime time.Time
	before, peak      float64
	used              bool
}

// Robust pulse timing (see DetectPulses).
const (
	// baseWindow is how far before a reading its baseline looks: the median
	// of the readings in the 6 h before it.
	baseWindow = 6 * time.Hour
	// mergeGap joins a rise that begins within 3 h of the previous one's
	// peak to it: one long watering or a shower pause, not two pulses.
	mergeGap = 3 * time.Hour
	// settleDelay is how long after the last layer peaked the profile's
	// storage is still followed for the water the pulse stored.
	settleDelay = 6 * time.Hour
	// settleSpan is the half-width of the windows whose median stands for
	// a layer's moisture at a time.
	settleSpan = 90 * time.Minute
	// trendSpan is the time before a layer's onset over which its drying
	// trend is taken.
	trendSpan = 24 * time.Hour
)

// baseline is the median of the readings in [t − baseWindow, t) before
// index k, or the reading itself when there are none.
func baseline(rs []Reading, k int) float64 {
	var vs []float64
	for j := k - 1; j >= 0 && rs[k].Time.Sub(rs[j].Time) <= baseWindow; j-- {
		vs = append(vs, rs[j].Value)
	}
	if len(vs) == 0 {
		return rs[k].Value
	}
	return median(vs)
}

// medianAround is the median of the readings within span of t, and
// whether there were any.
func medianAround(rs []Reading, t time.Time, span time.Duration) (float64, bool) {
	i := sort.Search(len(rs), func(i int) bool { return !rs[i].Time.Before(t.Add(-span)) })
	var vs []float64
	for ; i < len(rs) && !rs[i].Time.After(t.Add(span)); i++ {
		vs = append(vs, rs[i].Value)
	}
	if len(vs) == 0 {
		return 0, false
	}
	return median(vs), true
}

// findRises finds each rise of at least minRise within window of a low.
//
// The trigger is a reading minRise above the lowest of the window before it;
// its timing and size are then taken robustly, since with probe noise that
// lowest reading is a dip, often hours before the water came: the onset is
// the first reading from which the series stays at least onsetRise above its
// own baseline (the median of the 6 h before it) up to the trigger, and the
// rise is measured from that baseline; it must reach minRise from there too,
// or it was only a rise from a dip. A rise beginning within mergeGap of the
// previous peak continues it.
func findRises(rs []Reading, minRise float64, window time.Duration) []rise {
	onsetRise := math.Max(2*probeNoise, minRise/2)
	base := make([]float64, len(rs))
	for k := range rs {
		base[k] = baseline(rs, k)
	}
	var out []rise
	start := 0
	for i := 1; i < len(rs); i++ {
		low := -1
		for j := i - 1; j >= start && rs[i].Time.Sub(rs[j].Time) <= window; j-- {
			if low < 0 || rs[j].Value < rs[low].Value {
				low = j
			}
		}
		if low < 0 || rs[i].Value-rs[low].Value < minRise {
			continue
		}
		// The earliest k whose readings up to i all stay onsetRise above
		// base[k], scanning back with the running minimum.
		onset, b := i, base[i]
		lowest := math.Inf(1)
		for k := i; k >= max(low, start+1); k-- {
			lowest = math.Min(lowest, rs[k].Value)
			if lowest-base[k] >= onsetRise {
				onset, b = k, base[k]
			}
		}
		peak := i
		for q := i + 1; q < len(rs) && rs[q].Value >= rs[peak].Value-probeNoise && rs[q].Time.Sub(rs[peak].Time) <= window; q++ {
			if rs[q].Value > rs[peak].Value {
				peak = q
			}
		}
		if rs[peak].Value-b < minRise {
			continue // a rise from a dip: noise, not water
		}
		if n := len(out); n > 0 && rs[onset].Time.Sub(out[n-1].peakTime) <= mergeGap {
			if rs[peak].Value > out[n-1].peak {
				out[n-1].peak, out[n-1].peakTime = rs[peak].Value, rs[peak].Time
			}
		} else {
			out = append(out, rise{arrival: rs[onset].Time, peakTime: rs[peak].Time, before: b, peak: rs[peak].Value})
		}
		start, i = peak, peak
	}
	return out
}

// DetectPulses finds infiltration pulses (irrigation and rain recognition):
// a layer whose moisture rises by at least MinRise within RiseWindow of its
// last low marks water arriving; the layers below that start rising, each
// no earlier than an hour before and no later than MaxLag after the one
// above, trace the wetting front down.
//
// Probe noise makes the last low a dip that can lie half a day before the
// water came, so each rise is timed and sized with robust statistics
// instead. Its baseline is the median of the layer's readings over the 6 h
// before; its onset (the layer's Arrival, the first layer's being the
// pulse's Start) is the first reading from which the layer stays at least
// max(0.4, MinRise/2) vol % above that baseline up to the rise, and from
// that baseline the peak must still be MinRise up, or the rise was only
// from a dip. Rises of a layer beginning within 3 h of its previous peak
// are one rise (a long watering, a pause in the rain).
//
// The amount is the water the pulse stored, by the storage-change form of
// the soil water balance (FAO-56 ch. 8, eq. 85): the largest, over the time
// from the start to 6 h after the last layer peaked (or until a layer rises
// again), of Σ (θ − θbaseline)/100 × thickness × 10 mm over the pulse's
// layers at one instant, θ the median of a layer's readings within ±90 min
// and θbaseline its baseline carried along the drying trend of the 24 h
// before its onset (roots keep drawing meanwhile). Adding each layer's peak
// instead would count water again in every layer it drains through. It
// underestimates where water drained past the deepest probe.
func DetectPulses(p Profile, o PulseOptions) ([]Pulse, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	thick, err := thicknesses(p, o.Thickness)
	if err != nil {
		return nil, err
	}
	rises := make([][]rise, len(p))
	for i, s := range p {
		rises[i] = findRises(s.Readings, o.MinRise, o.RiseWindow)
	}
	var pulses []Pulse
	for top := range p {
		for k := range rises[top] {
			r := &rises[top][k]
			if r.used {
				continue
			}
			r.used = true
			pl := Pulse{Start: r.arrival}
			idx := []int{}
			add := func(layer int, r *rise) {
				rise := r.peak - r.before
				pl.Layers = append(pl.Layers, PulseLayer{
					Depth: p[layer].Depth, Arrival: r.arrival, LagHours: r.arrival.Sub(pl.Start).Hours(),
					PeakTime: r.peakTime, Before: r.before, Peak: r.peak, Rise: rise,
					WaterMM: WaterDepth(rise, thick[layer]),
				})
				idx = append(idx, layer)
			}
			add(top, r)
			cur := r
			for layer := top + 1; layer < len(p); layer++ {
				var next *rise
				for m := range rises[layer] {
					c := &rises[layer][m]
					if !c.used && !c.arrival.Before(cur.arrival.Add(-time.Hour)) && !c.arrival.After(cur.arrival.Add(o.MaxLag)) {
						next = c
						break
					}
				}
				if next == nil {
					break
				}
				next.used = true
				add(layer, next)
				cur = next
			}
			settleStored(p, rises, idx, thick, &pl)
			first, last := pl.Layers[0], pl.Layers[len(pl.Layers)-1]
			pl.FrontDepth = last.Depth
			if h := last.Arrival.Sub(first.Arrival).Hours(); h > 0 {
				pl.FrontSpeed = (last.Depth - first.Depth) / h
			}
			pl.Source = "unknown"
			if o.Rain != nil {
				for _, a := range o.Rain {
					if a.Time.After(pl.Start.Add(-12*time.Hour)) && !a.Time.After(pl.Start.Add(2*time.Hour)) {
						pl.RainMM += a.MM
					}
				}
				pl.Source = "irrigation"
				if pl.RainMM >= 0.5*pl.AmountMM {
					pl.Source = "rain"
				}
			}
			pulses = append(pulses, pl)
		}
	}
	sort.SliceStable(pulses, func(i, j int) bool { return pulses[i].Start.Before(pulses[j].Start) })
	return pulses, nil
}

// settleStored sets each layer's WaterMM and the pulse's AmountMM from the
// settled storage change (see DetectPulses); a layer with no readings around
// the settled time keeps its peak rise.
func settleStored(p Profile, rises [][]rise, idx []int, thick []float64, pl *Pulse) {
	pl.AmountMM = 0
	for _, l := range pl.Layers {
		pl.AmountMM += l.WaterMM
	}
	// Each layer's counterfactual: its baseline, following the drying trend
	// of the day before the onset (rising trends are not extrapolated).
	slope := make([]float64, len(idx))
	for n, layer := range idx {
		l := pl.Layers[n]
		a, ok1 := medianAround(p[layer].Readings, l.Arrival.Add(-trendSpan+settleSpan), settleSpan)
		b, ok2 := medianAround(p[layer].Readings, l.Arrival.Add(-settleSpan), settleSpan)
		if ok1 && ok2 {
			slope[n] = math.Min((b-a)/(trendSpan-2*settleSpan).Hours(), 0)
		}
	}
	last := pl.Start
	for _, l := range pl.Layers {
		if l.PeakTime.After(last) {
			last = l.PeakTime
		}
	}
	end := last.Add(settleDelay)
	// Stop before any of the layers rises again.
	for n, layer := range idx {
		for _, r := range rises[layer] {
			if r.arrival.After(pl.Layers[n].Arrival) && r.arrival.Before(end) {
				end = r.arrival
			}
		}
	}
	best, bestAt := math.Inf(-1), make([]float64, len(idx))
	cur := make([]float64, len(idx))
	for _, r := range p[idx[0]].Readings {
		if r.Time.Before(pl.Start) {
			continue
		}
		if r.Time.After(end) {
			break
		}
		total := 0.0
		for n, layer := range idx {
			l := pl.Layers[n]
			cur[n] = 0
			if v, ok := medianAround(p[layer].Readings, r.Time, settleSpan); ok && !r.Time.Before(l.Arrival) {
				base := l.Before + slope[n]*r.Time.Sub(l.Arrival).Hours()
				cur[n] = WaterDepth(math.Max(v-base, 0), thick[layer])
			}
			total += cur[n]
		}
		if total > best {
			best = total
			copy(bestAt, cur)
		}
	}
	if math.IsInf(best, -1) {
		return // no readings: keep the peak rises
	}
	pl.AmountMM = 0
	for n := range idx {
		pl.Layers[n].WaterMM = bestAt[n]
		pl.AmountMM += bestAt[n]
	}
}

// WaterloggingPeriod is a spell of a layer at or above saturation.
type WaterloggingPeriod struct {
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"` // first reading below the threshold, or the last reading while still waterlogged
	Hours   float64   `json:"hours"`
	Peak    float64   `json:"peak"`
	Ongoing bool      `json:"ongoing"`
}

// LayerWaterlogging is one layer's waterlogging.
type LayerWaterlogging struct {
	Depth     float64              `json:"depth"`
	Threshold float64              `json:"threshold"` // vol %
	Hours     float64              `json:"hours"`     // total
	Periods   []WaterloggingPeriod `json:"periods"`
}

// DetectWaterlogging finds, per layer, the spells at or above its
// saturation threshold (vol %) lasting at least minDuration, and their
// total duration. thresholds holds one value for every layer or one per
// layer.
func DetectWaterlogging(p Profile, thresholds []float64, minDuration time.Duration) ([]LayerWaterlogging, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(thresholds) != 1 && len(thresholds) != len(p) {
		return nil, invalid("threshold", "give one saturation threshold or one per depth (%d depths)", len(p))
	}
	out := make([]LayerWaterlogging, len(p))
	for i, s := range p {
		th := thresholds[0]
		if len(thresholds) > 1 {
			th = thresholds[i]
		}
		if !(th > 0 && th <= 100) {
			return nil, invalid("threshold", "%g vol %% is not a saturation threshold", th)
		}
		l := LayerWaterlogging{Depth: s.Depth, Threshold: th, Periods: []WaterloggingPeriod{}}
		var cur *WaterloggingPeriod
		closeAt := func(end time.Time, ongoing bool) {
			cur.End, cur.Ongoing = end, ongoing
			cur.Hours = end.Sub(cur.Start).Hours()
			if end.Sub(cur.Start) >= minDuration {
				l.Periods = append(l.Periods, *cur)
				l.Hours += cur.Hours
			}
			cur = nil
		}
		for _, r := range s.Readings {
			switch {
			case r.Value >= th && cur == nil:
				cur = &WaterloggingPeriod{Start: r.Time, Peak: r.Value}
			case r.Value >= th:
				cur.Peak = math.Max(cur.Peak, r.Value)
			case cur != nil:
				closeAt(r.Time, false)
			}
		}
		if cur != nil {
			closeAt(s.Readings[len(s.Readings)-1].Time, true)
		}
		out[i] = l
	}
	return out, nil
}

// FreezeThawEvent is soil temperature crossing 0 °C at a depth.
type FreezeThawEvent struct {
	Kind string    `json:"kind"` // "freeze" (to 0 °C or below) or "thaw" (above 0 °C)
	Time time.Time `json:"time"` // interpolated between the readings either side
}

// LayerFreezeThaw is one depth's freezing and thawing.
type LayerFreezeThaw struct {
	Depth       float64           `json:"depth"`
	Events      []FreezeThawEvent `json:"events"`
	Cycles      int               `json:"cycles"`      // thaws that follow a freeze in the record
	FrozenHours float64           `json:"frozenHours"` // time at or below 0 °C
	Dates       []string          `json:"dates"`       // days (in the readings' zone) with a crossing
}

// DetectFreezeThaw finds where the soil temperature (°C) at each depth
// crosses 0 °C: a freeze when it falls from above 0 to 0 or below, a thaw
// when it rises back above 0, each timed by linear interpolation between
// the readings either side.
func DetectFreezeThaw(temps Profile) ([]LayerFreezeThaw, error) {
	if err := temps.Validate(); err != nil {
		return nil, err
	}
	out := make([]LayerFreezeThaw, len(temps))
	for i, s := range temps {
		l := LayerFreezeThaw{Depth: s.Depth, Events: []FreezeThawEvent{}, Dates: []string{}}
		frozeAt := time.Time{}
		if len(s.Readings) > 0 && s.Readings[0].Value <= 0 {
			frozeAt = s.Readings[0].Time
		}
		froze := false
		for j := 1; j < len(s.Readings); j++ {
			a, b := s.Readings[j-1], s.Readings[j]
			var kind string
			switch {
			case a.Value > 0 && b.Value <= 0:
				kind = "freeze"
			case a.Value <= 0 && b.Value > 0:
				kind = "thaw"
			default:
				continue
			}
			f := a.Value / (a.Value - b.Value)
			at := a.Time.Add(time.Duration(f * float64(b.Time.Sub(a.Time))))
			l.Events = append(l.Events, FreezeThawEvent{Kind: kind, Time: at})
			if d := at.Format(time.DateOnly); len(l.Dates) == 0 || l.Dates[len(l.Dates)-1] != d {
				l.Dates = append(l.Dates, d)
			}
			if kind == "freeze" {
				froze, frozeAt = true, at
			} else {
				if froze {
					l.Cycles++
				}
				l.FrozenHours += at.Sub(frozeAt).Hours()
				frozeAt = time.Time{}
			}
		}
		if !frozeAt.IsZero() {
			l.FrozenHours += s.Readings[len(s.Readings)-1].Time.Sub(frozeAt).Hours()
		}
		out[i] = l
	}
	return out, nil
}

// RootDepthOptions tune the diurnal-drawdown test; zero values take the
// defaults.
type RootDepthOptions struct {
	MinDrop     float64        // least daytime drop, vol % points (default 0.1)
	MinFraction float64        // share of usable days that must show it (default 0.5)
	Location    *time.Location // the site's clock (default the first reading's)
}

// RootLayer is one depth's evidence of root water uptake.
type RootLayer struct {
	Depth         float64 `json:"depth"`
	Days          int     `json:"days"`          // usable days (no water arriving)
	DrawdownDays  int     `json:"drawdownDays"`  // days with the diurnal signature
	MeanDayDrop   float64 `json:"meanDayDrop"`   // vol % points, 08:00 → 18:00
	MeanNightDrop float64 `json:"meanNightDrop"` // vol % points, 18:00 → 08:00 next day
	Active        bool    `json:"active"`
}

// ActiveRootDepth is the deepest depth whose moisture shows roots at work:
// transpiration draws a layer down in daylight and stops at night, so its
// moisture falls in steps, while drainage and evaporation from below work
// day and night alike. A day (08:00 to 08:00 next morning, site clock)
// shows the signature when the 08:00→18:00 drop is at least MinDrop and at
// least twice the night's (18:00→08:00) drop; days when water arrived (a
// rise of MinDrop or more above the morning value) are left out. A depth is
// active when at least MinFraction of its usable days show it. Returns 0
// when no depth is active.
func ActiveRootDepth(p Profile, o RootDepthOptions) (float64, []RootLayer, error) {
	if err := p.Validate(); err != nil {
		return 0, nil, err
	}
	if o.MinDrop == 0 {
		o.MinDrop = 0.1
	}
	if o.MinFraction == 0 {
		o.MinFraction = 0.5
	}
	var deepest float64
	layers := make([]RootLayer, len(p))
	for i, s := range p {
		l := RootLayer{Depth: s.Depth}
		if len(s.Readings) > 1 {
			loc := o.Location
			if loc == nil {
				loc = s.Readings[0].Time.Location()
			}
			first := s.Readings[0].Time.In(loc)
			day := time.Date(first.Year(), first.Month(), first.Day(), 8, 0, 0, 0, loc)
			end := s.Readings[len(s.Readings)-1].Time
			var sumDay, sumNight float64
			for ; !day.AddDate(0, 0, 1).After(end); day = day.AddDate(0, 0, 1) {
				morning, ok1 := valueAt(s.Readings, day)
				evening, ok2 := valueAt(s.Readings, day.Add(10*time.Hour))
				next, ok3 := valueAt(s.Readings, day.AddDate(0, 0, 1))
				if !ok1 || !ok2 || !ok3 || maxBetween(s.Readings, day, day.AddDate(0, 0, 1)) >= morning+o.MinDrop {
					continue
				}
				dayDrop, nightDrop := morning-evening, evening-next
				l.Days++
				sumDay += dayDrop
				sumNight += nightDrop
				if dayDrop >= o.MinDrop && dayDrop >= 2*math.Max(nightDrop, 0) {
					l.DrawdownDays++
				}
			}
			if l.Days > 0 {
				l.MeanDayDrop, l.MeanNightDrop = sumDay/float64(l.Days), sumNight/float64(l.Days)
				l.Active = float64(l.DrawdownDays) >= o.MinFraction*float64(l.Days)
			}
		}
		if l.Active {
			deepest = s.Depth
		}
		layers[i] = l
	}
	return deepest, layers, nil
}

// maxGap is the longest gap between readings valueAt interpolates across.
const maxGap = 3 * time.Hour

// valueAt interpolates the series at t between the readings either side,
// when they are at most maxGap apart.
func valueAt(rs []Reading, t time.Time) (float64, bool) {
	i := sort.Search(len(rs), func(i int) bool { return !rs[i].Time.Before(t) })
	if i < len(rs) && rs[i].Time.Equal(t) {
		return rs[i].Value, true
	}
	if i == 0 || i == len(rs) || rs[i].Time.Sub(rs[i-1].Time) > maxGap {
		return 0, false
	}
	a, b := rs[i-1], rs[i]
	f := float64(t.Sub(a.Time)) / float64(b.Time.Sub(a.Time))
	return a.Value + f*(b.Value-a.Value), true
}

// valueNear is valueAt that also holds the first or last reading up to
// maxGap beyond the series: a profile "until now" uses the latest reading
// rather than none.
func valueNear(rs []Reading, t time.Time) (float64, bool) {
	if v, ok := valueAt(rs, t); ok || len(rs) == 0 {
		return v, ok
	}
	if last := rs[len(rs)-1]; t.After(last.Time) && t.Sub(last.Time) <= maxGap {
		return last.Value, true
	}
	if first := rs[0]; t.Before(first.Time) && first.Time.Sub(t) <= maxGap {
		return first.Value, true
	}
	return 0, false
}

// maxBetween is the largest reading in [from, to].
func maxBetween(rs []Reading, from, to time.Time) float64 {
	m := math.Inf(-1)
	for _, r := range rs {
		if !r.Time.Before(from) && !r.Time.After(to) {
			m = math.Max(m, r.Value)
		}
	}
	return m
}

// LayerChange is one layer's moisture change between two times.
type LayerChange struct {
	Depth   float64 `json:"depth"`
	Before  float64 `json:"before"`
	After   float64 `json:"after"`
	Change  float64 `json:"change"`  // vol % points
	WaterMM float64 `json:"waterMm"` // Δθ × thickness
}

// MoistureChange is the infiltration profile between two times: each
// layer's moisture before and after (interpolated, readings at most 3 h
// apart around each time; the nearest reading when a time is up to 3 h
// beyond the series, as "now" usually is), the change and the water it stands for, with
// thickness as in PulseOptions.Thickness (nil for LayerThickness). Layers
// without readings around both times are left out.
func MoistureChange(p Profile, from, to time.Time, thickness []float64) ([]LayerChange, float64, error) {
	if err := p.Validate(); err != nil {
		return nil, 0, err
	}
	thick, err := thicknesses(p, thickness)
	if err != nil {
		return nil, 0, err
	}
	out := []LayerChange{}
	var total float64
	for i, s := range p {
		before, ok1 := valueNear(s.Readings, from)
		after, ok2 := valueNear(s.Readings, to)
		if !ok1 || !ok2 {
			continue
		}
		c := LayerChange{Depth: s.Depth, Before: before, After: after, Change: after - before, WaterMM: WaterDepth(after-before, thick[i])}
		total += c.WaterMM
		out = append(out, c)
	}
	return out, total, nil
}
