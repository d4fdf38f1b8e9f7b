package analysis

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// Defaults of the soil analyses.
const (
	// refillRelative is the relative moisture (% of field capacity) at which
	// a root zone needs water: where light drought begins (GB/T 32136-2015).
	refillRelative = 60
	// fallbackRootDepth is the root zone, cm, when no active root depth shows
	// in the readings: 0–40 cm, the two upper bands of the soil briefing.
	fallbackRootDepth = 40
	// muM2 is one mu (亩) in square metres.
	muM2 = 10000.0 / 15
)

// LayerState is a layer's moisture at one time, with what follows from the
// soil settings.
type LayerState struct {
	Depth     int      `json:"depth"`
	Moisture  *float64 `json:"moisture"`  // vol %
	Relative  *float64 `json:"relative"`  // % of field capacity
	Drought   string   `json:"drought"`   // GB/T 32136-2015 grade by relative moisture: none, light, moderate, severe, extreme ("" without settings)
	WaterMM   *float64 `json:"waterMm"`   // water held by the layer's thickness
	Temp      *float64 `json:"temp"`      // °C (status only)
	EC        *float64 `json:"ec"`        // µS/cm (status only)
	Frozen    bool     `json:"frozen"`    // soil temperature at or below 0 °C
	Saturated bool     `json:"saturated"` // moisture at or above the waterlogging threshold
}

// ProfileState is the whole profile at one time.
type ProfileState struct {
	Time            *int64       `json:"time"`
	Layers          []LayerState `json:"layers"`
	ProfileRelative *float64     `json:"profileRelative"` // mean of the layers' relative moisture
	Drought         string       `json:"drought"`         // of ProfileRelative
	StorageMM       *float64     `json:"storageMm"`       // water over every layer with a reading
}

// profileState builds the state of the layers from their moisture (nil
// where a node has no reading).
func profileState(nodes []int, moisture map[int]float64, st *SoilSettings) ProfileState {
	thick := agro.LayerThickness(floats(nodes))
	ps := ProfileState{Layers: []LayerState{}}
	var rels, fcs []float64
	var storage float64
	seen := false
	for i, d := range nodes {
		l := LayerState{Depth: d}
		if v, ok := moisture[d]; ok {
			l.Moisture = ptr(round(v, 2))
			l.WaterMM = ptr(round(agro.WaterDepth(v, thick[i]), 2))
			storage += agro.WaterDepth(v, thick[i])
			seen = true
			if n, ok := st.node(d); ok {
				r := agro.RelativeMoisture(v, n.FieldCapacity)
				l.Relative, l.Drought = ptr(round(r, 1)), agro.DroughtByRelativeMoisture(r).String()
				l.Saturated = v >= n.Saturation()
				rels, fcs = append(rels, v), append(fcs, n.FieldCapacity)
			}
		}
		ps.Layers = append(ps.Layers, l)
	}
	if seen {
		ps.StorageMM = ptr(round(storage, 2))
	}
	if r, err := agro.ProfileRelativeMoisture(rels, fcs); err == nil && len(rels) > 0 {
		ps.ProfileRelative, ps.Drought = ptr(round(r, 1)), agro.DroughtByRelativeMoisture(r).String()
	}
	return ps
}

// MoistureAnalysis is GET /apis/poi/analysis/moisture.
type MoistureAnalysis struct {
	Begin      int64         `json:"begin"`
	End        int64         `json:"end"`
	Configured bool          `json:"configured"`
	Nodes      []NodeView    `json:"nodes"`
	Days       []MoistureDay `json:"days"`
	Latest     ProfileState  `json:"latest"`
}

// MoistureDay is one day's profile from the nodes' daily mean moisture.
type MoistureDay struct {
	Time int64  `json:"time"`
	Date string `json:"date"`
	ProfileState
}

// Moisture analyses a soil device's moisture per day over r (default the
// last 7 days, at most 366) and now: relative moisture and drought grade per
// layer and for the profile, water stored. Returns ENOTFOUND, EINVALID.
func (s *Service) Moisture(ctx context.Context, viewer, id int64, r Range, lang i18n.Lang) (*MoistureAnalysis, error) {
	d, t, right, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	begin, end, err := s.span(r, 7*day, 366*day)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	view := s.settingsView(st, t, right, lang)
	out := &MoistureAnalysis{Begin: ms(begin), End: ms(end), Configured: view.Configured, Nodes: view.Nodes, Days: []MoistureDay{}}
	dt, err := s.days(ctx, d.ID, []string{"soilMoisture"}, t.Nodes, begin, end)
	if err != nil {
		return nil, err
	}
	s.eachDay(begin, end, func(mid time.Time) {
		m := map[int]float64{}
		for _, n := range t.Nodes {
			if day, ok := dt.get(ms(mid), "soilMoisture", n); ok {
				m[n] = day.Avg()
			}
		}
		if len(m) > 0 {
			out.Days = append(out.Days, MoistureDay{Time: ms(mid), Date: mid.Format(time.DateOnly), ProfileState: profileState(t.Nodes, m, st)})
		}
	})
	if out.Latest, err = s.latestState(ctx, d, t, st); err != nil {
		return nil, err
	}
	return out, nil
}

// latestState is the profile at the newest readings, with temperature and EC.
func (s *Service) latestState(ctx context.Context, d *devices.Device, t *devices.Type, st *SoilSettings) (ProfileState, error) {
	lt, err := s.latest(ctx, d.ID)
	if err != nil {
		return ProfileState{}, err
	}
	m := map[int]float64{}
	var newest time.Time
	for _, n := range t.Nodes {
		if r, ok := lt[seriesKey{"soilMoisture", n}]; ok {
			m[n] = r.Value
			if r.Time.After(newest) {
				newest = r.Time
			}
		}
	}
	ps := profileState(t.Nodes, m, st)
	ps.Time = msPtr(newest)
	for i := range ps.Layers {
		l := &ps.Layers[i]
		if r, ok := lt[seriesKey{"soilTemp", l.Depth}]; ok {
			l.Temp, l.Frozen = ptr(r.Value), r.Value <= 0
		}
		if r, ok := lt[seriesKey{"ec", l.Depth}]; ok {
			l.EC = ptr(r.Value)
		}
	}
	return ps, nil
}

// SoilStatus is GET /apis/poi/shang/status: the profile now and the last
// water that reached it.
type SoilStatus struct {
	Configured bool         `json:"configured"`
	Now        ProfileState `json:"now"`
	// LastPulse is the newest infiltration pulse of the last 7 days.
	LastPulse *PulseView `json:"lastPulse"`
	Frozen    bool       `json:"frozen"`    // some layer at or below 0 °C
	Saturated bool       `json:"saturated"` // some layer waterlogged
}

// Status returns a soil device's state now. Returns ENOTFOUND, EINVALID.
func (s *Service) Status(ctx context.Context, viewer, id, stationID int64) (*SoilStatus, error) {
	d, t, _, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	out := &SoilStatus{Configured: st.configured(t.Nodes)}
	if out.Now, err = s.latestState(ctx, d, t, st); err != nil {
		return nil, err
	}
	for _, l := range out.Now.Layers {
		out.Frozen = out.Frozen || l.Frozen
		out.Saturated = out.Saturated || l.Saturated
	}
	rec, err := s.pulses(ctx, viewer, d, t, st, stationID, s.now().Add(-7*day), s.now(), DefaultMinPulse)
	if err != nil {
		return nil, err
	}
	if n := len(rec.Pulses); n > 0 {
		out.LastPulse = &rec.Pulses[n-1]
	}
	return out, nil
}

// MoistureSeries is GET /apis/poi/data/sqy/query: each node's moisture,
// daily means (dim daily) or readings (dim raw), with relative moisture.
type MoistureSeries struct {
	Begin int64             `json:"begin"`
	End   int64             `json:"end"`
	Dim   string            `json:"dim"`
	Nodes []NodeMoistureSet `json:"nodes"`
}

// NodeMoistureSet is one node's moisture series.
type NodeMoistureSet struct {
	Depth         int             `json:"depth"`
	FieldCapacity *float64        `json:"fieldCapacity"`
	Points        []MoisturePoint `json:"points"`
}

// MoisturePoint is one moisture value: a reading, or a day's mean with its
// minimum and maximum.
type MoisturePoint struct {
	Time     int64    `json:"time"`
	Moisture float64  `json:"moisture"`
	Min      *float64 `json:"min,omitempty"`
	Max      *float64 `json:"max,omitempty"`
	Relative *float64 `json:"relative"`
}

// MoistureData returns a soil device's moisture per node over r (default
// the last 7 days; at most 366 days raw, 3 years daily). Returns ENOTFOUND,
// EINVALID.
func (s *Service) MoistureData(ctx context.Context, viewer, id int64, r Range, daily bool) (*MoistureSeries, error) {
	d, t, _, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	max := 366 * day
	if daily {
		max = maxETRange
	}
	begin, end, err := s.span(r, 7*day, max)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	out := &MoistureSeries{Begin: ms(begin), End: ms(end), Dim: "raw", Nodes: []NodeMoistureSet{}}
	rel := func(depth int, v float64) *float64 {
		if n, ok := st.node(depth); ok {
			return ptr(round(agro.RelativeMoisture(v, n.FieldCapacity), 1))
		}
		return nil
	}
	sets := map[int]*NodeMoistureSet{}
	for _, n := range t.Nodes {
		set := &NodeMoistureSet{Depth: n, Points: []MoisturePoint{}}
		if c, ok := st.node(n); ok {
			set.FieldCapacity = ptr(c.FieldCapacity)
		}
		sets[n] = set
	}
	if daily {
		out.Dim = "daily"
		dt, err := s.days(ctx, d.ID, []string{"soilMoisture"}, t.Nodes, begin, end)
		if err != nil {
			return nil, err
		}
		for _, k := range sortedKeys(dt) {
			for _, n := range t.Nodes {
				if day, ok := dt.get(k, "soilMoisture", n); ok {
					avg := round(day.Avg(), 2)
					sets[n].Points = append(sets[n].Points, MoisturePoint{Time: k, Moisture: avg, Min: ptr(day.Min), Max: ptr(day.Max), Relative: rel(n, avg)})
				}
			}
		}
	} else {
		p, err := s.profile(ctx, d, t, "soilMoisture", begin, end)
		if err != nil {
			return nil, err
		}
		for _, ds := range p {
			set := sets[int(ds.Depth)]
			for _, r := range ds.Readings {
				set.Points = append(set.Points, MoisturePoint{Time: ms(r.Time), Moisture: r.Value, Relative: rel(set.Depth, r.Value)})
			}
		}
	}
	for _, n := range t.Nodes {
		out.Nodes = append(out.Nodes, *sets[n])
	}
	return out, nil
}

// NodesView is GET /apis/poi/shang/nodes: each node's soil and newest readings.
type NodesView struct {
	Configured bool            `json:"configured"`
	Nodes      []NodeStateView `json:"nodes"`
}

// NodeStateView is one node.
type NodeStateView struct {
	NodeView
	Moisture *float64 `json:"moisture"`
	Relative *float64 `json:"relative"`
	Temp     *float64 `json:"temp"`
	EC       *float64 `json:"ec"`
	Time     *int64   `json:"time"`
}

// Nodes returns a soil device's nodes. Returns ENOTFOUND, EINVALID.
func (s *Service) Nodes(ctx context.Context, viewer, id int64, lang i18n.Lang) (*NodesView, error) {
	d, t, right, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	lt, err := s.latest(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	view := s.settingsView(st, t, right, lang)
	out := &NodesView{Configured: view.Configured, Nodes: []NodeStateView{}}
	for _, nv := range view.Nodes {
		n := NodeStateView{NodeView: nv}
		if r, ok := lt[seriesKey{"soilMoisture", nv.Depth}]; ok {
			n.Moisture, n.Time = ptr(r.Value), msPtr(r.Time)
			if nv.FieldCapacity != nil {
				n.Relative = ptr(round(agro.RelativeMoisture(r.Value, *nv.FieldCapacity), 1))
			}
		}
		if r, ok := lt[seriesKey{"soilTemp", nv.Depth}]; ok {
			n.Temp = ptr(r.Value)
		}
		if r, ok := lt[seriesKey{"ec", nv.Depth}]; ok {
			n.EC = ptr(r.Value)
		}
		out.Nodes = append(out.Nodes, n)
	}
	return out, nil
}

// SoilDetail is GET /apis/poi/shang/detail: the settings and where the crop
// stands today.
type SoilDetail struct {
	Settings SettingsView `json:"settings"`
	Crop     *CropView    `json:"crop"`
	// AreaM2 is the planted area in square metres.
	AreaM2 *float64 `json:"areaM2"`
	// IrrigationMethodName is the method in the caller's language.
	IrrigationMethodName string `json:"irrigationMethodName"`
}

// Detail returns a soil device's settings and crop. Returns ENOTFOUND, EINVALID.
func (s *Service) Detail(ctx context.Context, viewer, id int64, lang i18n.Lang) (*SoilDetail, error) {
	_, t, right, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	out := &SoilDetail{Settings: s.settingsView(st, t, right, lang), Crop: s.cropView(st, lang)}
	if st != nil {
		if st.AreaMu != nil {
			out.AreaM2 = ptr(round(*st.AreaMu*muM2, 1))
		}
		if n, ok := irrigationMethod(st.IrrigationMethod); ok {
			out.IrrigationMethodName = n.In(lang)
		}
	}
	return out, nil
}

// PulseView is a recognised infiltration pulse (irrigation or rain).
type PulseView struct {
	Start      int64            `json:"start"`
	Date       string           `json:"date"`   // the local day it began
	Source     string           `json:"source"` // irrigation, rain, or unknown (no rain record)
	AmountMM   float64          `json:"amountMm"`
	RainMM     *float64         `json:"rainMm"`   // rain from 12 h before the start until the last layer peaked
	VolumeM3   *float64         `json:"volumeM3"` // amount over the planted area
	FrontDepth float64          `json:"frontDepth"`
	FrontSpeed float64          `json:"frontSpeed"` // cm/h
	Layers     []PulseLayerView `json:"layers"`
}

// PulseLayerView is one layer's response to a pulse.
type PulseLayerView struct {
	Depth    float64 `json:"depth"`
	Arrival  int64   `json:"arrival"`
	LagHours float64 `json:"lagHours"`
	PeakTime int64   `json:"peakTime"`
	Before   float64 `json:"before"`
	Peak     float64 `json:"peak"`
	Rise     float64 `json:"rise"`
	WaterMM  float64 `json:"waterMm"`
}

// Irrigations is GET /apis/poi/shang/irriRecognition.
type Irrigations struct {
	Begin int64 `json:"begin"`
	End   int64 `json:"end"`
	// RainStation is whose rain readings told rain from irrigation; null
	// when none (every pulse is then "unknown").
	RainStation *Station    `json:"rainStation"`
	Pulses      []PulseView `json:"pulses"`
	// IrrigationMM and RainMM total the pulses of each source.
	IrrigationMM float64 `json:"irrigationMm"`
	RainMM       float64 `json:"rainMm"`
	Count        int     `json:"irrigationCount"`
	// MinAmountMM is the least water a listed pulse stored.
	MinAmountMM float64 `json:"minAmountMm"`
}

// pulseMargin is read before the range so a pulse starting at its beginning
// has what agro.DetectPulses measures it against: the low within 12 h of the
// rise, the 6 h baseline before its onset and the drying trend of the day
// before.
const pulseMargin = 36 * time.Hour

// DefaultMinPulse is the least water, mm, a pulse must store to be listed:
// a field irrigation puts on tens of millimetres, and rises storing less
// are mostly probe noise and dew.
const DefaultMinPulse = 5.0

// pulses detects the infiltration pulses starting in [begin, end) that
// store at least minAmount mm. agro.DetectPulses tells rain from irrigation
// by the rain from 12 h before a pulse's start to 2 h after it; water
// reaches 10 cm within the first hour of a storm, so that window misses
// most of a long one. Here a pulse is rain when the rain from 12 h before
// its start until its first layer peaked is at least half its amount: the
// top layer peaks as the rain ends, while deeper layers may peak a day or
// two later, by when the next day's shower would pass a watering off as
// rain.
func (s *Service) pulses(ctx context.Context, viewer int64, d *devices.Device, t *devices.Type, st *SoilSettings, stationID int64, begin, end time.Time, minAmount float64) (*Irrigations, error) {
	out := &Irrigations{Begin: ms(begin), End: ms(end), MinAmountMM: minAmount, Pulses: []PulseView{}}
	p, err := s.profile(ctx, d, t, "soilMoisture", begin.Add(-pulseMargin), end)
	if err != nil || len(p) == 0 {
		return out, err
	}
	found, err := agro.DetectPulses(p, agro.PulseOptions{Thickness: thicknessFor(p, t.Nodes)})
	if err != nil {
		return nil, err
	}
	src, station, err := s.station(ctx, viewer, d, stationID, "rainfall")
	if err != nil {
		return nil, err
	}
	var rain *rainRecord
	if src != nil {
		out.RainStation = station
		amounts, err := s.rainAmounts(ctx, src.ID, begin.Add(-pulseMargin-12*time.Hour), end.Add(2*day))
		if err != nil {
			return nil, err
		}
		rain = newRainRecord(amounts)
	}
	for _, pl := range found {
		if pl.Start.Before(begin) || pl.AmountMM < minAmount {
			continue
		}
		v := PulseView{Start: ms(pl.Start), Date: pl.Start.In(s.loc).Format(time.DateOnly), Source: "unknown",
			AmountMM: round(pl.AmountMM, 2), FrontDepth: pl.FrontDepth, FrontSpeed: round(pl.FrontSpeed, 2), Layers: []PulseLayerView{}}
		last := pl.Start
		if len(pl.Layers) > 0 && pl.Layers[0].PeakTime.After(last) {
			last = pl.Layers[0].PeakTime
		}
		for _, l := range pl.Layers {
			v.Layers = append(v.Layers, PulseLayerView{Depth: l.Depth, Arrival: ms(l.Arrival), LagHours: round(l.LagHours, 2),
				PeakTime: ms(l.PeakTime), Before: round(l.Before, 2), Peak: l.Peak, Rise: round(l.Rise, 2), WaterMM: round(l.WaterMM, 2)})
		}
		if rain != nil {
			mm := rain.sum(last, last.Sub(pl.Start)+12*time.Hour)
			v.RainMM, v.Source = ptr(round(mm, 2)), "irrigation"
			if mm >= pl.AmountMM/2 {
				v.Source = "rain"
			}
		}
		if st != nil && st.AreaMu != nil {
			v.VolumeM3 = ptr(round(pl.AmountMM/1000**st.AreaMu*muM2, 2))
		}
		switch v.Source {
		case "irrigation":
			out.IrrigationMM += v.AmountMM
			out.Count++
		case "rain":
			out.RainMM += v.AmountMM
		}
		out.Pulses = append(out.Pulses, v)
	}
	out.IrrigationMM, out.RainMM = round(out.IrrigationMM, 2), round(out.RainMM, 2)
	return out, nil
}

// Irrigations recognises irrigation and rain reaching a soil device's
// profile over r (default the last 30 days, at most 366), listing pulses
// that stored at least minAmount mm (0: DefaultMinPulse). Rain is the
// device's own, or the station stationID's, or the nearest visible gauge's
// within 30 km. Returns ENOTFOUND, EINVALID.
func (s *Service) Irrigations(ctx context.Context, viewer, id, stationID int64, r Range, minAmount float64) (*Irrigations, error) {
	d, t, _, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	begin, end, err := s.span(r, 30*day, 366*day)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	if minAmount <= 0 {
		minAmount = DefaultMinPulse
	}
	return s.pulses(ctx, viewer, d, t, st, stationID, begin, end, minAmount)
}

// Infiltration is GET /apis/poi/shang/infiltration: how each layer's
// moisture changed between two times.
type Infiltration struct {
	From    int64              `json:"from"`
	To      int64              `json:"to"`
	Layers  []agro.LayerChange `json:"layers"`
	TotalMM float64            `json:"totalMm"`
	// Pulse is the pulse the times were taken from when none were given.
	Pulse *PulseView `json:"pulse"`
}

// Infiltration returns the infiltration profile of a soil device between
// r's times; without them, across the newest pulse of the last 7 days (from
// the last reading before it began to its latest peak), or over the last 24
// hours when there was none. Returns ENOTFOUND, EINVALID.
func (s *Service) Infiltration(ctx context.Context, viewer, id, stationID int64, r Range) (*Infiltration, error) {
	d, t, _, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	out := &Infiltration{Layers: []agro.LayerChange{}}
	var from, to time.Time
	if r.Begin.IsZero() && r.End.IsZero() {
		to, from = s.now(), s.now().Add(-day)
		rec, err := s.pulses(ctx, viewer, d, t, nil, stationID, s.now().Add(-7*day), s.now(), DefaultMinPulse)
		if err != nil {
			return nil, err
		}
		if n := len(rec.Pulses); n > 0 {
			pl := rec.Pulses[n-1]
			out.Pulse = &pl
			from, to = time.UnixMilli(pl.Start), time.UnixMilli(pl.Start)
			for _, l := range pl.Layers {
				if pt := time.UnixMilli(l.PeakTime); pt.After(to) {
					to = pt
				}
			}
		}
	} else if from, to, err = s.span(r, day, 366*day); err != nil {
		return nil, err
	}
	p, err := s.profile(ctx, d, t, "soilMoisture", from.Add(-maxInterp), to.Add(maxInterp+time.Millisecond))
	if err != nil {
		return nil, err
	}
	if out.Pulse != nil {
		// From the top layer's last reading before the water arrived: its low.
		start := from
		for _, ds := range p {
			if ds.Depth != out.Pulse.Layers[0].Depth {
				continue
			}
			for _, rd := range ds.Readings {
				if rd.Time.Before(start) {
					from = rd.Time
				}
			}
		}
	}
	out.From, out.To = ms(from), ms(to)
	if len(p) == 0 {
		return out, nil
	}
	layers, total, err := agro.MoistureChange(p, from, to, thicknessFor(p, t.Nodes))
	if err != nil {
		return nil, err
	}
	for i := range layers {
		l := &layers[i]
		l.Before, l.After, l.Change, l.WaterMM = round(l.Before, 2), round(l.After, 2), round(l.Change, 2), round(l.WaterMM, 2)
	}
	out.Layers, out.TotalMM = layers, round(total, 2)
	return out, nil
}

// thicknessFor is the thickness of each depth of p in the layout of all the
// type's nodes, so a node without readings does not widen its neighbours.
func thicknessFor(p agro.Profile, nodes []int) []float64 {
	all := agro.LayerThickness(floats(nodes))
	out := make([]float64, len(p))
	for i, ds := range p {
		out[i] = all[slices.Index(nodes, int(ds.Depth))]
	}
	return out
}

// maxInterp is how far around a time readings are read to interpolate it
// (agro interpolates between readings at most 3 h apart).
const maxInterp = 3 * time.Hour

// Waterlogging is GET /apis/poi/shang/waterlogging.
type Waterlogging struct {
	Begin int64 `json:"begin"`
	End   int64 `json:"end"`
	// ThresholdSource is "query" (the threshold parameter), "settings" (each
	// layer's saturation from its unit weight) or "" (no settings: no layers).
	ThresholdSource string                   `json:"thresholdSource"`
	MinHours        float64                  `json:"minHours"`
	Layers          []agro.LayerWaterlogging `json:"layers"`
	Hours           float64                  `json:"hours"` // the longest total of any layer
}

// defaultMinWaterlogging is the shortest spell that counts: roots of field
// crops start to suffer after about half a day without air.
const defaultMinWaterlogging = 12 * time.Hour

// Waterlogging finds the spells each layer of a soil device spent at or
// above saturation over r (default the last 30 days, at most 366): threshold
// (vol %) when given, else each layer's saturation from its settings.
// Returns ENOTFOUND, EINVALID.
func (s *Service) Waterlogging(ctx context.Context, viewer, id int64, r Range, threshold *float64, minDuration time.Duration) (*Waterlogging, error) {
	d, t, _, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	begin, end, err := s.span(r, 30*day, 366*day)
	if err != nil {
		return nil, err
	}
	if minDuration <= 0 {
		minDuration = defaultMinWaterlogging
	}
	out := &Waterlogging{Begin: ms(begin), End: ms(end), MinHours: minDuration.Hours(), Layers: []agro.LayerWaterlogging{}}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := s.profile(ctx, d, t, "soilMoisture", begin, end)
	if err != nil {
		return nil, err
	}
	var thresholds []float64
	switch {
	case threshold != nil:
		out.ThresholdSource, thresholds = "query", []float64{*threshold}
	case st.configured(t.Nodes):
		out.ThresholdSource = "settings"
		for _, ds := range p {
			n, _ := st.node(int(ds.Depth))
			thresholds = append(thresholds, round(n.Saturation(), 1))
		}
	default:
		return out, nil
	}
	if len(p) == 0 {
		return out, nil
	}
	layers, err := agro.DetectWaterlogging(p, thresholds, minDuration)
	if err != nil {
		return nil, err
	}
	for i := range layers {
		layers[i].Hours = round(layers[i].Hours, 2)
		for j := range layers[i].Periods {
			layers[i].Periods[j].Hours = round(layers[i].Periods[j].Hours, 2)
		}
		out.Hours = math.Max(out.Hours, layers[i].Hours)
	}
	out.Layers = layers
	return out, nil
}

// FreezeThaw is GET /apis/poi/shang/freezeThaw.
type FreezeThaw struct {
	Begin  int64                  `json:"begin"`
	End    int64                  `json:"end"`
	Layers []agro.LayerFreezeThaw `json:"layers"`
	// Dates are the local days with a crossing at any depth.
	Dates []string `json:"dates"`
	// FrozenNow lists the depths at or below 0 °C at their newest reading.
	FrozenNow []float64 `json:"frozenNow"`
}

// FreezeThaw finds where each depth's soil temperature crossed 0 °C over r
// (default the last 30 days, at most 366). Returns ENOTFOUND, EINVALID.
func (s *Service) FreezeThaw(ctx context.Context, viewer, id int64, r Range) (*FreezeThaw, error) {
	d, t, _, err := s.soilDevice(ctx, viewer, id, "soilTemp")
	if err != nil {
		return nil, err
	}
	begin, end, err := s.span(r, 30*day, 366*day)
	if err != nil {
		return nil, err
	}
	out := &FreezeThaw{Begin: ms(begin), End: ms(end), Layers: []agro.LayerFreezeThaw{}, Dates: []string{}, FrozenNow: []float64{}}
	p, err := s.profile(ctx, d, t, "soilTemp", begin, end)
	if err != nil || len(p) == 0 {
		return out, err
	}
	layers, err := agro.DetectFreezeThaw(p)
	if err != nil {
		return nil, err
	}
	for i, l := range layers {
		layers[i].FrozenHours = round(l.FrozenHours, 2)
		for _, dt := range l.Dates {
			if !slices.Contains(out.Dates, dt) {
				out.Dates = append(out.Dates, dt)
			}
		}
		if rs := p[i].Readings; len(rs) > 0 && rs[len(rs)-1].Value <= 0 {
			out.FrozenNow = append(out.FrozenNow, l.Depth)
		}
	}
	slices.Sort(out.Dates)
	out.Layers = layers
	return out, nil
}

// RootDepth is GET /apis/poi/shang/rootdepth.
type RootDepth struct {
	Begin     int64            `json:"begin"`
	End       int64            `json:"end"`
	RootDepth float64          `json:"rootDepth"` // cm; 0 when no layer shows roots at work
	Layers    []agro.RootLayer `json:"layers"`
}

// RootDepth finds the active root depth of a soil device over r (default
// the last 14 days, at most 60). Returns ENOTFOUND, EINVALID.
func (s *Service) RootDepth(ctx context.Context, viewer, id int64, r Range) (*RootDepth, error) {
	d, t, _, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	begin, end, err := s.span(r, 14*day, 60*day)
	if err != nil {
		return nil, err
	}
	return s.rootDepth(ctx, d, t, begin, end)
}

func (s *Service) rootDepth(ctx context.Context, d *devices.Device, t *devices.Type, begin, end time.Time) (*RootDepth, error) {
	out := &RootDepth{Begin: ms(begin), End: ms(end), Layers: []agro.RootLayer{}}
	p, err := s.profile(ctx, d, t, "soilMoisture", begin, end)
	if err != nil || len(p) == 0 {
		return out, err
	}
	depth, layers, err := agro.ActiveRootDepth(p, agro.RootDepthOptions{Location: s.loc})
	if err != nil {
		return nil, err
	}
	for i := range layers {
		layers[i].MeanDayDrop, layers[i].MeanNightDrop = round(layers[i].MeanDayDrop, 3), round(layers[i].MeanNightDrop, 3)
	}
	out.RootDepth, out.Layers = depth, layers
	return out, nil
}

// ETRoot is GET /apis/poi/analysis/et_root: the root zone's water and when
// it will need irrigation at the crop's ET.
type ETRoot struct {
	Configured bool          `json:"configured"`
	RootDepth  *RootDepth    `json:"rootDepth"`
	Zone       *RootZoneView `json:"zone"`
	ET         *ETRateView   `json:"et"`
	// Projection is when the zone reaches the refill point without rain or
	// irrigation at the ET rate, and the water that brings it back to field
	// capacity then; null without settings, a crop or ET.
	Projection *RefillView `json:"projection"`
}

// RootZoneView is the root zone now.
type RootZoneView struct {
	Depth          float64 `json:"depth"`          // cm of soil: the layers down to the root depth
	RootDepthFound bool    `json:"rootDepthFound"` // false: the 0–40 cm fallback
	FieldCapacity  float64 `json:"fieldCapacity"`  // vol %, thickness-weighted
	Moisture       float64 `json:"moisture"`       // vol %, thickness-weighted, newest readings
	Relative       float64 `json:"relative"`
	Drought        string  `json:"drought"`
	RefillRelative float64 `json:"refillRelative"` // % of field capacity
	DeficitMM      float64 `json:"deficitMm"`      // water to field capacity
	RAWMM          float64 `json:"rawMm"`          // readily available water: field capacity to refill point
}

// ETRateView is the crop water use the projection runs at.
type ETRateView struct {
	ET0    float64  `json:"et0"` // mm/day
	Kc     *float64 `json:"kc"`
	Stage  string   `json:"stage,omitempty"`
	ETc    *float64 `json:"etc"`    // mm/day
	Source string   `json:"source"` // forecast (the next 7 days' mean) or observed (the last 7 days' mean)
}

// RefillView is the projected refill.
type RefillView struct {
	Time         int64    `json:"time"`
	Date         string   `json:"date"`
	DaysUntil    int      `json:"daysUntil"`
	IrrigationMM float64  `json:"irrigationMm"`
	VolumeM3     *float64 `json:"volumeM3"`
}

// ETRoot combines the active root depth (last 14 days), the root zone's
// water now, the crop's ET and the projected refill (FAO-56 chapter 8 daily
// balance, no rain). Returns ENOTFOUND, EINVALID.
func (s *Service) ETRoot(ctx context.Context, viewer, id, stationID int64) (*ETRoot, error) {
	d, t, _, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	out := &ETRoot{Configured: st.configured(t.Nodes)}
	now := s.now()
	if out.RootDepth, err = s.rootDepth(ctx, d, t, now.Add(-14*day), now); err != nil {
		return nil, err
	}
	if out.Zone, err = s.rootZone(ctx, d, t, st, out.RootDepth.RootDepth); err != nil {
		return nil, err
	}
	if out.ET, err = s.etRate(ctx, viewer, d, st, stationID); err != nil {
		return nil, err
	}
	if out.Zone == nil || out.ET == nil || out.ET.ETc == nil {
		return out, nil
	}
	z := agro.RootZone{DepthCM: out.Zone.Depth, FieldCapacity: out.Zone.FieldCapacity, RefillRelative: refillRelative}
	// The wilting point is not among the settings. The projection stops at
	// the refill point, before water stress would slow ET (Ks = 1 until
	// then), so it does not depend on it; 0 passes validation.
	date, depth, ok, err := z.ProjectRefill(out.Zone.Moisture, *out.ET.ETc, s.midnight(now), 60)
	if err != nil || !ok {
		return out, nil
	}
	out.Projection = &RefillView{Time: ms(date), Date: date.Format(time.DateOnly),
		DaysUntil: int(math.Round(date.Sub(s.midnight(now)).Hours() / 24)), IrrigationMM: round(depth, 1)}
	if st.AreaMu != nil {
		out.Projection.VolumeM3 = ptr(round(depth/1000**st.AreaMu*muM2, 1))
	}
	return out, nil
}

// rootZone is the zone of the layers down to rootDepth (fallback 40 cm).
func (s *Service) rootZone(ctx context.Context, d *devices.Device, t *devices.Type, st *SoilSettings, rootDepth float64) (*RootZoneView, error) {
	if !st.configured(t.Nodes) {
		return nil, nil
	}
	lt, err := s.latest(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	z := &RootZoneView{RootDepthFound: rootDepth > 0, RefillRelative: refillRelative}
	if rootDepth == 0 {
		rootDepth = fallbackRootDepth
	}
	thick := agro.LayerThickness(floats(t.Nodes))
	var fc, theta float64
	for i, depth := range t.Nodes {
		if float64(depth) > rootDepth {
			break
		}
		r, ok := lt[seriesKey{"soilMoisture", depth}]
		if !ok {
			return nil, nil // a layer of the zone has no reading
		}
		n, _ := st.node(depth)
		z.Depth += thick[i]
		fc += n.FieldCapacity * thick[i]
		theta += r.Value * thick[i]
	}
	if z.Depth == 0 {
		return nil, nil
	}
	z.FieldCapacity, z.Moisture = round(fc/z.Depth, 2), round(theta/z.Depth, 2)
	z.Relative = round(agro.RelativeMoisture(z.Moisture, z.FieldCapacity), 1)
	z.Drought = agro.DroughtByRelativeMoisture(z.Relative).String()
	z.DeficitMM = round(math.Max(0, agro.WaterDepth(z.FieldCapacity-z.Moisture, z.Depth)), 1)
	z.RAWMM = round(agro.WaterDepth(z.FieldCapacity*(1-refillRelative/100.0), z.Depth), 1)
	return z, nil
}

// etRate is the mean ET0 of the forecast's days, or else of the last 7
// observed days, with today's Kc.
func (s *Service) etRate(ctx context.Context, viewer int64, d *devices.Device, st *SoilSettings, stationID int64) (*ETRateView, error) {
	var sum float64
	var n int
	source := "forecast"
	if f := s.forecastFor(ctx, d, st); f != nil {
		for _, fd := range f.Days {
			if fd.ET0 != nil {
				sum += *fd.ET0
				n++
			}
		}
	}
	if n == 0 {
		source = "observed"
		src, _, err := s.station(ctx, viewer, d, stationID, "airTemp")
		if err != nil || src == nil {
			return nil, err
		}
		today := s.midnight(s.now())
		days, err := s.observedET0(ctx, src, today.AddDate(0, 0, -7), today)
		if err != nil {
			return nil, err
		}
		for _, e := range days {
			sum += e.ET0
			n++
		}
	}
	if n == 0 {
		return nil, nil
	}
	v := &ETRateView{ET0: round(sum/float64(n), 2), Source: source}
	cd := s.kcOn(st, s.now())
	v.Kc, v.Stage = cd.Kc, cd.Stage
	if cd.Kc != nil {
		v.ETc = ptr(round(*cd.Kc*v.ET0, 2))
	}
	return v, nil
}
