package soil

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// LayerState is a layer's moisture at one time, with what follows from the
// soil settings.
type LayerState struct {
	Depth     int
	Moisture  *float64 // vol %
	Relative  *float64 // % of field capacity
	Drought   string   // GB/T 32136-2015 grade by relative moisture: none, light, moderate, severe, extreme ("" without settings)
	WaterMM   *float64 // water held by the layer's thickness
	Temp      *float64 // °C (newest readings only)
	EC        *float64 // µS/cm (newest readings only)
	Frozen    bool     // soil temperature at or below 0 °C
	Saturated bool     // moisture at or above the waterlogging threshold
}

// ProfileState is the whole profile at one time.
type ProfileState struct {
	Time            time.Time // the newest reading (newest readings only)
	Layers          []LayerState
	ProfileRelative *float64 // mean of the layers' relative moisture
	Drought         string   // of ProfileRelative
	StorageMM       *float64 // water over every layer with a reading
}

// profileState builds the state of the layers from their moisture (absent
// where a node has no reading).
func profileState(nodes []int, moisture map[int]float64, st *Settings) ProfileState {
	round, ptr := readings.Round, readings.Ptr
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

// latestState is the profile at the newest readings, with temperature and EC.
func (s *Service) latestState(ctx context.Context, d *devices.Device, t *devices.Type, st *Settings) (ProfileState, error) {
	lt, err := s.rd.Latest(ctx, d.ID)
	if err != nil {
		return ProfileState{}, err
	}
	m := map[int]float64{}
	var newest time.Time
	for _, n := range t.Nodes {
		if r, ok := lt[readings.Key{Param: "soilMoisture", Node: n}]; ok {
			m[n] = r.Value
			if r.Time.After(newest) {
				newest = r.Time
			}
		}
	}
	ps := profileState(t.Nodes, m, st)
	ps.Time = newest
	for i := range ps.Layers {
		l := &ps.Layers[i]
		if r, ok := lt[readings.Key{Param: "soilTemp", Node: l.Depth}]; ok {
			l.Temp, l.Frozen = readings.Ptr(r.Value), r.Value <= 0
		}
		if r, ok := lt[readings.Key{Param: "ec", Node: l.Depth}]; ok {
			l.EC = readings.Ptr(r.Value)
		}
	}
	return ps, nil
}
