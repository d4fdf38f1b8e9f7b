package soil

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// maxInterp is how far around a time readings are read to interpolate it
// (agro interpolates between readings at most 3 h apart).
const maxInterp = 3 * time.Hour

// Infiltration is how each layer's moisture changed between two times.
type Infiltration struct {
	From, To time.Time
	Layers   []agro.LayerChange
	TotalMM  float64
	// Pulse is the pulse the times were taken from when none were given.
	Pulse *Pulse
}

// Infiltration returns the infiltration profile of a soil device between
// r's times; without them, across the newest pulse of the last 7 days (from
// the last reading before it began to its latest peak), or over the last 24
// hours when there was none. Rain comes as for Irrigations. Returns EINVALID.
func (s *Service) Infiltration(ctx context.Context, d *devices.Device, stations readings.Stations, r readings.Range) (*Infiltration, error) {
	t, err := probe(d)
	if err != nil {
		return nil, err
	}
	out := &Infiltration{Layers: []agro.LayerChange{}}
	var from, to time.Time
	if r.Begin.IsZero() && r.End.IsZero() {
		now := s.rd.Now()
		to, from = now, now.Add(-readings.Day)
		rec, err := s.pulses(ctx, d, t, nil, stations, now.Add(-7*readings.Day), now, DefaultMinPulse)
		if err != nil {
			return nil, err
		}
		if n := len(rec.Pulses); n > 0 {
			pl := rec.Pulses[n-1]
			out.Pulse = &pl
			from, to = pl.Start, pl.Start
			for _, l := range pl.Layers {
				if l.PeakTime.After(to) {
					to = l.PeakTime
				}
			}
		}
	} else if from, to, err = s.rd.Span(r, readings.Day, 366*readings.Day); err != nil {
		return nil, err
	}
	p, err := s.rd.Profile(ctx, d, t, "soilMoisture", from.Add(-maxInterp), to.Add(maxInterp+time.Millisecond))
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
	out.From, out.To = from, to
	if len(p) == 0 {
		return out, nil
	}
	layers, total, err := agro.MoistureChange(p, from, to, thicknessFor(p, t.Nodes))
	if err != nil {
		return nil, err
	}
	round := readings.Round
	for i := range layers {
		l := &layers[i]
		l.Before, l.After, l.Change, l.WaterMM = round(l.Before, 2), round(l.After, 2), round(l.Change, 2), round(l.WaterMM, 2)
	}
	out.Layers, out.TotalMM = layers, round(total, 2)
	return out, nil
}
