package soil

import (
	"context"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// FreezeThaw is where each depth's soil temperature crossed 0 °C.
type FreezeThaw struct {
	Begin, End time.Time
	Layers     []agro.LayerFreezeThaw
	// Dates are the local days with a crossing at any depth.
	Dates []string
	// FrozenNow lists the depths at or below 0 °C at their newest reading.
	FrozenNow []float64
}

// FreezeThaw finds where each depth's soil temperature crossed 0 °C over r
// (default the last 30 days, at most 366). Returns EINVALID.
func (s *Service) FreezeThaw(ctx context.Context, d *devices.Device, r readings.Range) (*FreezeThaw, error) {
	t, err := probe(d, "soilTemp")
	if err != nil {
		return nil, err
	}
	begin, end, err := s.rd.Span(r, 30*readings.Day, 366*readings.Day)
	if err != nil {
		return nil, err
	}
	out := &FreezeThaw{Begin: begin, End: end, Layers: []agro.LayerFreezeThaw{}, Dates: []string{}, FrozenNow: []float64{}}
	p, err := s.rd.Profile(ctx, d, t, "soilTemp", begin, end)
	if err != nil || len(p) == 0 {
		return out, err
	}
	layers, err := agro.DetectFreezeThaw(p)
	if err != nil {
		return nil, err
	}
	for i, l := range layers {
		layers[i].FrozenHours = readings.Round(l.FrozenHours, 2)
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
