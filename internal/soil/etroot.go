package soil

import (
	"context"
	"math"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/weather"
)

// Defaults of the root-zone projection.
const (
	// refillRelative is the relative moisture (% of field capacity) at which
	// a root zone needs water: where light drought begins (GB/T 32136-2015).
	refillRelative = 60
	// fallbackRootDepth is the root zone, cm, when no active root depth shows
	// in the readings: 0–40 cm, the two upper bands of the soil briefing.
	fallbackRootDepth = 40
)

// ETRoot is the root zone's water and when it will need irrigation at the
// crop's ET.
type ETRoot struct {
	Configured bool
	RootDepth  *RootDepth
	Zone       *RootZone // nil without settings or a reading in every layer of the zone
	ET         *ETRate   // nil without ET0
	// Projection is when the zone reaches the refill point without rain or
	// irrigation at the ET rate, and the water that brings it back to field
	// capacity then; nil without settings, a crop or ET.
	Projection *Refill
}

// RootZone is the root zone now.
type RootZone struct {
	Depth          float64 // cm of soil: the layers down to the root depth
	RootDepthFound bool    // false: the 0–40 cm fallback
	FieldCapacity  float64 // vol %, thickness-weighted
	Moisture       float64 // vol %, thickness-weighted, newest readings
	Relative       float64
	Drought        string
	RefillRelative float64 // % of field capacity
	DeficitMM      float64 // water to field capacity
	RAWMM          float64 // readily available water: field capacity to refill point
}

// ETRate is the crop water use the projection runs at.
type ETRate struct {
	ET0 float64 // mm/day
	weather.CropDay
	ETc    *float64 // mm/day
	Source string   // forecast (the next 7 days' mean) or observed (the last 7 days' mean)
}

// Refill is the projected refill.
type Refill struct {
	Day          time.Time // local midnight
	DaysUntil    int
	IrrigationMM float64
	VolumeM3     *float64
}

// ETRoot combines the active root depth (last 14 days), the root zone's
// water now, the crop's ET and the projected refill (FAO-56 chapter 8 daily
// balance, no rain). ET0 comes as for ET. Returns EINVALID.
func (s *Service) ETRoot(ctx context.Context, d *devices.Device, stations readings.Stations) (*ETRoot, error) {
	t, st, err := s.probeSettings(ctx, d)
	if err != nil {
		return nil, err
	}
	out := &ETRoot{Configured: st.configured(t.Nodes)}
	now := s.rd.Now()
	if out.RootDepth, err = s.rootDepth(ctx, d, t, now.Add(-14*readings.Day), now); err != nil {
		return nil, err
	}
	if out.Zone, err = s.rootZone(ctx, d, t, st, out.RootDepth.RootDepth); err != nil {
		return nil, err
	}
	if out.ET, err = s.etRate(ctx, d, st, stations); err != nil {
		return nil, err
	}
	if out.Zone == nil || out.ET == nil || out.ET.ETc == nil {
		return out, nil
	}
	z := agro.RootZone{DepthCM: out.Zone.Depth, FieldCapacity: out.Zone.FieldCapacity, RefillRelative: refillRelative}
	// The wilting point is not among the settings. The projection stops at
	// the refill point, before water stress would slow ET (Ks = 1 until
	// then), so it does not depend on it; 0 passes validation.
	today := s.rd.Midnight(now)
	date, depth, ok, err := z.ProjectRefill(out.Zone.Moisture, *out.ET.ETc, today, 60)
	if err != nil || !ok {
		return out, nil
	}
	out.Projection = &Refill{Day: date, DaysUntil: int(math.Round(date.Sub(today).Hours() / 24)), IrrigationMM: readings.Round(depth, 1)}
	if st.AreaMu != nil {
		out.Projection.VolumeM3 = readings.Ptr(readings.Round(depth/1000**st.AreaMu*muM2, 1))
	}
	return out, nil
}

// rootZone is the zone of the layers down to rootDepth (fallback 40 cm).
func (s *Service) rootZone(ctx context.Context, d *devices.Device, t *devices.Type, st *Settings, rootDepth float64) (*RootZone, error) {
	if !st.configured(t.Nodes) {
		return nil, nil
	}
	lt, err := s.rd.Latest(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	z := &RootZone{RootDepthFound: rootDepth > 0, RefillRelative: refillRelative}
	if rootDepth == 0 {
		rootDepth = fallbackRootDepth
	}
	thick := agro.LayerThickness(floats(t.Nodes))
	var fc, theta float64
	for i, depth := range t.Nodes {
		if float64(depth) > rootDepth {
			break
		}
		r, ok := lt[readings.Key{Param: "soilMoisture", Node: depth}]
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
	round := readings.Round
	z.FieldCapacity, z.Moisture = round(fc/z.Depth, 2), round(theta/z.Depth, 2)
	z.Relative = round(agro.RelativeMoisture(z.Moisture, z.FieldCapacity), 1)
	z.Drought = agro.DroughtByRelativeMoisture(z.Relative).String()
	z.DeficitMM = round(math.Max(0, agro.WaterDepth(z.FieldCapacity-z.Moisture, z.Depth)), 1)
	z.RAWMM = round(agro.WaterDepth(z.FieldCapacity*(1-refillRelative/100.0), z.Depth), 1)
	return z, nil
}

// etRate is the mean ET0 of the forecast's days, or else of the last 7
// observed days, with today's Kc.
func (s *Service) etRate(ctx context.Context, d *devices.Device, st *Settings, stations readings.Stations) (*ETRate, error) {
	var sum float64
	var n int
	source := "forecast"
	cal := s.calendar(st)
	if f := s.forecasts.At(ctx, d, cal); f != nil {
		for _, fd := range f.Days {
			if fd.ET0 != nil {
				sum += *fd.ET0
				n++
			}
		}
	}
	if n == 0 {
		source = "observed"
		src, err := stations.Pick(ctx, d, "airTemp")
		if err != nil || src == nil {
			return nil, err
		}
		today := s.rd.Midnight(s.rd.Now())
		days, err := weather.ObservedET0(ctx, s.rd, src.Device, today.AddDate(0, 0, -7), today)
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
	v := &ETRate{ET0: readings.Round(sum/float64(n), 2), Source: source, CropDay: cal.On(s.rd.Now())}
	if v.Kc != nil {
		v.ETc = readings.Ptr(readings.Round(*v.Kc*v.ET0, 2))
	}
	return v, nil
}
