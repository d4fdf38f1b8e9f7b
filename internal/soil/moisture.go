package soil

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Moisture is a soil device's moisture per day over a range and now.
type Moisture struct {
	Begin, End time.Time
	Config     *Config
	Days       []MoistureDay
	Latest     ProfileState
}

// MoistureDay is one day's profile from the nodes' daily mean moisture.
type MoistureDay struct {
	Day time.Time // local midnight
	ProfileState
}

// Moisture analyses a soil device's moisture per day over r (default the
// last 7 days, at most 366) and now: relative moisture and drought grade per
// layer and for the profile, water stored. Returns EINVALID.
func (s *Service) Moisture(ctx context.Context, d *devices.Device, r readings.Range) (*Moisture, error) {
	t, err := probe(d)
	if err != nil {
		return nil, err
	}
	begin, end, err := s.rd.Span(r, 7*readings.Day, 366*readings.Day)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	out := &Moisture{Begin: begin, End: end, Config: config(st, t), Days: []MoistureDay{}}
	dt, err := s.rd.Days(ctx, d.ID, []string{"soilMoisture"}, t.Nodes, begin, end)
	if err != nil {
		return nil, err
	}
	s.rd.EachDay(begin, end, func(mid time.Time) {
		m := map[int]float64{}
		for _, n := range t.Nodes {
			if day, ok := dt.Get(mid.UnixMilli(), "soilMoisture", n); ok {
				m[n] = day.Avg()
			}
		}
		if len(m) > 0 {
			out.Days = append(out.Days, MoistureDay{Day: mid, ProfileState: profileState(t.Nodes, m, st)})
		}
	})
	if out.Latest, err = s.latestState(ctx, d, t, st); err != nil {
		return nil, err
	}
	return out, nil
}

// MoistureSeries is each node's moisture over a range, with relative
// moisture.
type MoistureSeries struct {
	Begin, End time.Time
	Daily      bool // daily means, not readings
	Nodes      []NodeMoisture
}

// NodeMoisture is one node's moisture series.
type NodeMoisture struct {
	Depth         int
	FieldCapacity *float64
	Points        []MoisturePoint
}

// MoisturePoint is one moisture value: a reading, or a day's mean with its
// minimum and maximum.
type MoisturePoint struct {
	Time     time.Time
	Moisture float64
	Min, Max *float64 // daily only
	Relative *float64
}

// MoistureData returns a soil device's moisture per node over r (default
// the last 7 days; at most 366 days raw, 3 years daily). Returns EINVALID.
func (s *Service) MoistureData(ctx context.Context, d *devices.Device, r readings.Range, daily bool) (*MoistureSeries, error) {
	t, err := probe(d)
	if err != nil {
		return nil, err
	}
	max := 366 * readings.Day
	if daily {
		max = readings.LongestDaily
	}
	begin, end, err := s.rd.Span(r, 7*readings.Day, max)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	round, ptr := readings.Round, readings.Ptr
	out := &MoistureSeries{Begin: begin, End: end, Daily: daily, Nodes: []NodeMoisture{}}
	rel := func(depth int, v float64) *float64 {
		if n, ok := st.node(depth); ok {
			return ptr(round(agro.RelativeMoisture(v, n.FieldCapacity), 1))
		}
		return nil
	}
	sets := map[int]*NodeMoisture{}
	for _, n := range t.Nodes {
		set := &NodeMoisture{Depth: n, Points: []MoisturePoint{}}
		if c, ok := st.node(n); ok {
			set.FieldCapacity = ptr(c.FieldCapacity)
		}
		sets[n] = set
	}
	if daily {
		dt, err := s.rd.Days(ctx, d.ID, []string{"soilMoisture"}, t.Nodes, begin, end)
		if err != nil {
			return nil, err
		}
		for _, k := range readings.SortedKeys(dt) {
			for _, n := range t.Nodes {
				if day, ok := dt.Get(k, "soilMoisture", n); ok {
					avg := round(day.Avg(), 2)
					sets[n].Points = append(sets[n].Points, MoisturePoint{Time: time.UnixMilli(k), Moisture: avg, Min: ptr(day.Min), Max: ptr(day.Max), Relative: rel(n, avg)})
				}
			}
		}
	} else {
		p, err := s.rd.Profile(ctx, d, t, "soilMoisture", begin, end)
		if err != nil {
			return nil, err
		}
		for _, ds := range p {
			set := sets[int(ds.Depth)]
			for _, r := range ds.Readings {
				set.Points = append(set.Points, MoisturePoint{Time: r.Time, Moisture: r.Value, Relative: rel(set.Depth, r.Value)})
			}
		}
	}
	for _, n := range t.Nodes {
		out.Nodes = append(out.Nodes, *sets[n])
	}
	return out, nil
}
