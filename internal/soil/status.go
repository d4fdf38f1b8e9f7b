package soil

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// muM2 is one mu (亩) in square metres.
const muM2 = 10000.0 / 15

// Status is a soil device's profile now and the last water that reached it.
type Status struct {
	Configured bool
	Now        ProfileState
	// LastPulse is the newest infiltration pulse of the last 7 days.
	LastPulse *Pulse
	Frozen    bool // some layer at or below 0 °C
	Saturated bool // some layer waterlogged
}

// Status returns a soil device's state now; rain comes as for Irrigations.
// Returns EINVALID.
func (s *Service) Status(ctx context.Context, d *devices.Device, stations readings.Stations) (*Status, error) {
	t, st, err := s.probeSettings(ctx, d)
	if err != nil {
		return nil, err
	}
	out := &Status{Configured: st.configured(t.Nodes)}
	if out.Now, err = s.latestState(ctx, d, t, st); err != nil {
		return nil, err
	}
	for _, l := range out.Now.Layers {
		out.Frozen = out.Frozen || l.Frozen
		out.Saturated = out.Saturated || l.Saturated
	}
	now := s.rd.Now()
	rec, err := s.pulses(ctx, d, t, st, stations, now.Add(-7*readings.Day), now, DefaultMinPulse)
	if err != nil {
		return nil, err
	}
	if n := len(rec.Pulses); n > 0 {
		out.LastPulse = &rec.Pulses[n-1]
	}
	return out, nil
}

// NodeStates are each node's soil and newest readings.
type NodeStates struct {
	Config *Config
	Nodes  []NodeState
}

// NodeState is one node.
type NodeState struct {
	Node
	Moisture, Relative, Temp, EC *float64
	Time                         time.Time // of the moisture reading; zero without one
}

// Nodes returns a soil device's nodes. Returns EINVALID.
func (s *Service) Nodes(ctx context.Context, d *devices.Device) (*NodeStates, error) {
	t, st, err := s.probeSettings(ctx, d)
	if err != nil {
		return nil, err
	}
	lt, err := s.rd.Latest(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	cfg := config(st, t)
	out := &NodeStates{Config: cfg, Nodes: []NodeState{}}
	for _, nd := range cfg.Nodes {
		n := NodeState{Node: nd}
		if r, ok := lt[readings.Key{Param: "soilMoisture", Node: nd.Depth}]; ok {
			n.Moisture, n.Time = readings.Ptr(r.Value), r.Time
			if nd.FieldCapacity != nil {
				n.Relative = readings.Ptr(readings.Round(agro.RelativeMoisture(r.Value, *nd.FieldCapacity), 1))
			}
		}
		if r, ok := lt[readings.Key{Param: "soilTemp", Node: nd.Depth}]; ok {
			n.Temp = readings.Ptr(r.Value)
		}
		if r, ok := lt[readings.Key{Param: "ec", Node: nd.Depth}]; ok {
			n.EC = readings.Ptr(r.Value)
		}
		out.Nodes = append(out.Nodes, n)
	}
	return out, nil
}

// Detail is a soil device's settings and where the crop stands today.
type Detail struct {
	Config *Config
	Crop   *CropToday
	// AreaM2 is the planted area in square metres.
	AreaM2 *float64
}

// Detail returns a soil device's settings and crop. Returns EINVALID.
func (s *Service) Detail(ctx context.Context, d *devices.Device) (*Detail, error) {
	t, st, err := s.probeSettings(ctx, d)
	if err != nil {
		return nil, err
	}
	out := &Detail{Config: config(st, t), Crop: s.cropToday(st)}
	if st != nil && st.AreaMu != nil {
		out.AreaM2 = readings.Ptr(readings.Round(*st.AreaMu*muM2, 1))
	}
	return out, nil
}
