package soil

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// RootDepth is the active root depth over a range.
type RootDepth struct {
	Begin, End time.Time
	RootDepth  float64 // cm; 0 when no layer shows roots at work
	Layers     []agro.RootLayer
}

// RootDepth finds the active root depth of a soil device over r (default
// the last 14 days, at most 60). Returns EINVALID.
func (s *Service) RootDepth(ctx context.Context, d *devices.Device, r readings.Range) (*RootDepth, error) {
	t, err := probe(d)
	if err != nil {
		return nil, err
	}
	begin, end, err := s.rd.Span(r, 14*readings.Day, 60*readings.Day)
	if err != nil {
		return nil, err
	}
	return s.rootDepth(ctx, d, t, begin, end)
}

func (s *Service) rootDepth(ctx context.Context, d *devices.Device, t *devices.Type, begin, end time.Time) (*RootDepth, error) {
	out := &RootDepth{Begin: begin, End: end, Layers: []agro.RootLayer{}}
	p, err := s.rd.Profile(ctx, d, t, "soilMoisture", begin, end)
	if err != nil || len(p) == 0 {
		return out, err
	}
	depth, layers, err := agro.ActiveRootDepth(p, agro.RootDepthOptions{Location: s.rd.Location()})
	if err != nil {
		return nil, err
	}
	for i := range layers {
		layers[i].MeanDayDrop, layers[i].MeanNightDrop = readings.Round(layers[i].MeanDayDrop, 3), readings.Round(layers[i].MeanNightDrop, 3)
	}
	out.RootDepth, out.Layers = depth, layers
	return out, nil
}
