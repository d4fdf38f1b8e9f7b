package soil

import (
	"context"
	"math"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Waterlogging is the spells each layer spent at or above saturation.
type Waterlogging struct {
	Begin, End time.Time
	// ThresholdSource is "query" (the threshold given), "settings" (each
	// layer's saturation from its unit weight) or "" (no settings: no layers).
	ThresholdSource string
	MinHours        float64
	Layers          []agro.LayerWaterlogging
	Hours           float64 // the longest total of any layer
}

// defaultMinWaterlogging is the shortest spell that counts: roots of field
// crops start to suffer after about half a day without air.
const defaultMinWaterlogging = 12 * time.Hour

// Waterlogging finds the spells each layer of a soil device spent at or
// above saturation over r (default the last 30 days, at most 366): threshold
// (vol %) when given, else each layer's saturation from its settings.
// Returns EINVALID.
func (s *Service) Waterlogging(ctx context.Context, d *devices.Device, r readings.Range, threshold *float64, minDuration time.Duration) (*Waterlogging, error) {
	t, err := probe(d)
	if err != nil {
		return nil, err
	}
	begin, end, err := s.rd.Span(r, 30*readings.Day, 366*readings.Day)
	if err != nil {
		return nil, err
	}
	if minDuration <= 0 {
		minDuration = defaultMinWaterlogging
	}
	out := &Waterlogging{Begin: begin, End: end, MinHours: minDuration.Hours(), Layers: []agro.LayerWaterlogging{}}
	st, err := s.settings(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	p, err := s.rd.Profile(ctx, d, t, "soilMoisture", begin, end)
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
			thresholds = append(thresholds, readings.Round(n.Saturation(), 1))
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
		layers[i].Hours = readings.Round(layers[i].Hours, 2)
		for j := range layers[i].Periods {
			layers[i].Periods[j].Hours = readings.Round(layers[i].Periods[j].Hours, 2)
		}
		out.Hours = math.Max(out.Hours, layers[i].Hours)
	}
	out.Layers = layers
	return out, nil
}
