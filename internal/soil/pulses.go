package soil

import (
	"context"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/rain"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Pulse is a recognised infiltration pulse (irrigation or rain).
type Pulse struct {
	Start      time.Time // local
	Source     string    // irrigation, rain, or unknown (no rain record)
	AmountMM   float64
	RainMM     *float64 // rain from 12 h before the start until the first layer peaked
	VolumeM3   *float64 // amount over the planted area
	FrontDepth float64
	FrontSpeed float64 // cm/h
	Layers     []agro.PulseLayer
}

// Irrigations are the pulses that reached a profile over a range.
type Irrigations struct {
	Begin, End time.Time
	// RainStation is whose rain readings told rain from irrigation; nil
	// when none (every pulse is then "unknown").
	RainStation *readings.Station
	Pulses      []Pulse
	// IrrigationMM and RainMM total the pulses of each source; Count
	// counts the irrigations.
	IrrigationMM, RainMM float64
	Count                int
	// MinAmountMM is the least water a listed pulse stored.
	MinAmountMM float64
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
func (s *Service) pulses(ctx context.Context, d *devices.Device, t *devices.Type, st *Settings, stations readings.Stations, begin, end time.Time, minAmount float64) (*Irrigations, error) {
	out := &Irrigations{Begin: begin, End: end, MinAmountMM: minAmount, Pulses: []Pulse{}}
	p, err := s.rd.Profile(ctx, d, t, "soilMoisture", begin.Add(-pulseMargin), end)
	if err != nil || len(p) == 0 {
		return out, err
	}
	found, err := agro.DetectPulses(p, agro.PulseOptions{Thickness: thicknessFor(p, t.Nodes)})
	if err != nil {
		return nil, err
	}
	src, err := stations.Pick(ctx, d, "rainfall")
	if err != nil {
		return nil, err
	}
	var rec *rain.Record
	if src != nil {
		out.RainStation = src
		amounts, err := s.rd.RainAmounts(ctx, src.Device.ID, begin.Add(-pulseMargin-12*time.Hour), end.Add(2*readings.Day))
		if err != nil {
			return nil, err
		}
		rec = rain.NewRecord(amounts)
	}
	round, ptr := readings.Round, readings.Ptr
	for _, pl := range found {
		if pl.Start.Before(begin) || pl.AmountMM < minAmount {
			continue
		}
		v := Pulse{Start: pl.Start.In(s.rd.Location()), Source: "unknown", AmountMM: round(pl.AmountMM, 2), FrontDepth: pl.FrontDepth,
			FrontSpeed: round(pl.FrontSpeed, 2), Layers: []agro.PulseLayer{}}
		last := pl.Start
		if len(pl.Layers) > 0 && pl.Layers[0].PeakTime.After(last) {
			last = pl.Layers[0].PeakTime
		}
		for _, l := range pl.Layers {
			l.LagHours, l.Before, l.Rise, l.WaterMM = round(l.LagHours, 2), round(l.Before, 2), round(l.Rise, 2), round(l.WaterMM, 2)
			v.Layers = append(v.Layers, l)
		}
		if rec != nil {
			mm := rec.Sum(last, last.Sub(pl.Start)+12*time.Hour)
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
// device's own, or the named station's, or the nearest visible gauge's
// within 30 km. Returns EINVALID.
func (s *Service) Irrigations(ctx context.Context, d *devices.Device, stations readings.Stations, r readings.Range, minAmount float64) (*Irrigations, error) {
	t, err := probe(d)
	if err != nil {
		return nil, err
	}
	begin, end, err := s.rd.Span(r, 30*readings.Day, 366*readings.Day)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	if minAmount <= 0 {
		minAmount = DefaultMinPulse
	}
	return s.pulses(ctx, d, t, st, stations, begin, end, minAmount)
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
