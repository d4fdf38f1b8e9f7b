package soil

import (
	"context"
	"sort"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// MaxCoefficientDevices bounds the fields and the meters of one calculation.
const MaxCoefficientDevices = 200

// FieldWater is one field's water over the season, by the head-and-tail
// method: its crop's ET, the rain and the part of it the crop could use,
// the water its soil profile held at the start and at the end, and the net
// irrigation the balance leaves. Missing names the inputs it lacks
// (area, crop, station, rain, soil); a field with any is left out of the
// coefficient.
type FieldWater struct {
	Device        *devices.Device
	AreaMu        *float64
	Crop          string
	Station       *readings.Station // whose readings gave ET0
	RainGauge     *readings.Station // whose readings gave the rain
	ETc           *float64          // mm
	Rain          *float64          // mm
	EffectiveRain *float64          // mm
	ProfileCM     float64           // the soil the storage covers, cm
	StorageStart  *float64          // mm, on the first day with every layer read
	StorageEnd    *float64          // mm, on the last such day
	NetMM         *float64
	NetM3         *float64
	Missing       []string
}

// MeterWater is the water an irrigation device metered over the season.
type MeterWater struct {
	Device  *devices.Device
	GrossM3 float64
	Days    int // days with a report
}

// Utilization is the effective utilization coefficient of irrigation water
// (灌溉水有效利用系数) of a set of fields and the meters at their source,
// with every input shown.
type Utilization struct {
	Begin, End  time.Time
	Fields      []FieldWater
	Meters      []MeterWater
	NetM3       float64  // over the fields without a missing input
	GrossM3     float64  // over the meters
	Coefficient *float64 // NetM3 / GrossM3; nil without gross water or a complete field
	// Warnings are what makes the coefficient doubtful: "aboveOne" (the
	// crops used more irrigation water than was metered: a source is not
	// among the meters, or a meter under-reads), "leftOut" (some fields
	// lack an input and are not counted, while the meters count all water).
	Warnings []string
}

// CoefficientInput names the devices of a calculation; each must be one the
// caller can see (ENOTFOUND otherwise, as for one that does not exist).
type CoefficientInput struct {
	Fields, Meters []*devices.Device
	Range          readings.Range
}

// Utilization works out the effective utilization coefficient of irrigation
// water over a season by the head-and-tail method (docs/analyses.md): for
// each field, net irrigation = ETc − effective rain − (storage at the
// start − storage at the end), times its area; gross water = what the
// irrigation devices metered (waterVolume); the coefficient is the net
// water over the gross. Returns EINVALID: fields/meters (required, too
// many, a device that is not a soil probe or not a water meter), begin/end.
func (s *Service) Utilization(ctx context.Context, in CoefficientInput, stations readings.Stations) (*Utilization, error) {
	switch {
	case len(in.Fields) == 0:
		return nil, errs.Invalid("fieldIds", "error.required")
	case len(in.Meters) == 0:
		return nil, errs.Invalid("meterIds", "error.required")
	case len(in.Fields) > MaxCoefficientDevices:
		return nil, errs.Invalid("fieldIds", "exper.tooMany").With(map[string]any{"max": MaxCoefficientDevices})
	case len(in.Meters) > MaxCoefficientDevices:
		return nil, errs.Invalid("meterIds", "exper.tooMany").With(map[string]any{"max": MaxCoefficientDevices})
	}
	for _, d := range in.Fields {
		if _, err := probe(d); err != nil {
			return nil, errs.Invalid("fieldIds", "exper.notField").With(map[string]any{"name": d.Name})
		}
	}
	for _, d := range in.Meters {
		if !readings.Has(d.Type(), "waterVolume") {
			return nil, errs.Invalid("meterIds", "exper.notMeter").With(map[string]any{"name": d.Name})
		}
	}
	begin, end, err := s.rd.Span(in.Range, 90*readings.Day, readings.LongestDaily)
	if err != nil {
		return nil, err
	}
	out := &Utilization{Begin: begin, End: end, Fields: []FieldWater{}, Meters: []MeterWater{}}
	complete := 0
	for _, d := range in.Fields {
		f, err := s.fieldWater(ctx, d, stations, readings.Range{Begin: begin, End: end})
		if err != nil {
			return nil, err
		}
		if len(f.Missing) == 0 {
			out.NetM3 += *f.NetM3
			complete++
		}
		out.Fields = append(out.Fields, f)
	}
	for _, d := range in.Meters {
		dt, err := s.rd.Days(ctx, d.ID, []string{"waterVolume"}, []int{0}, begin, end)
		if err != nil {
			return nil, err
		}
		m := MeterWater{Device: d}
		for day := range dt {
			if v, ok := dt.Get(day, "waterVolume", 0); ok {
				m.GrossM3 += v.Sum
				m.Days++
			}
		}
		m.GrossM3 = readings.Round(m.GrossM3, 2)
		out.GrossM3 += m.GrossM3
		out.Meters = append(out.Meters, m)
	}
	out.NetM3, out.GrossM3 = readings.Round(out.NetM3, 2), readings.Round(out.GrossM3, 2)
	out.Warnings = []string{}
	if eta, ok := agro.UtilizationCoefficient(out.NetM3, out.GrossM3); ok && complete > 0 {
		out.Coefficient = readings.Ptr(readings.Round(eta, 4))
		if eta > 1 {
			out.Warnings = append(out.Warnings, "aboveOne")
		}
	}
	if complete < len(out.Fields) {
		out.Warnings = append(out.Warnings, "leftOut")
	}
	return out, nil
}

// fieldWater gathers one field's balance over r.
func (s *Service) fieldWater(ctx context.Context, d *devices.Device, stations readings.Stations, r readings.Range) (FieldWater, error) {
	f := FieldWater{Device: d, Missing: []string{}}
	t, st, err := s.probeSettings(ctx, d)
	if err != nil {
		return f, err
	}
	if st != nil {
		f.AreaMu, f.Crop = st.AreaMu, st.CropType
	}
	if f.AreaMu == nil || *f.AreaMu <= 0 {
		f.Missing = append(f.Missing, "area")
	}
	et, err := s.ET(ctx, d, stations, r)
	if err != nil {
		return f, err
	}
	f.Station = et.Station
	switch {
	case et.Station == nil:
		f.Missing = append(f.Missing, "station")
	case et.ETcTotal == nil:
		f.Missing = append(f.Missing, "crop")
	default:
		f.ETc = et.ETcTotal
	}
	// Rain from the nearest device that measures it (the station itself,
	// or a rain gauge), which need not be the one that gave ET0.
	rainSrc, err := stations.Pick(ctx, d, "rainfall")
	if err != nil {
		return f, err
	}
	if rainSrc == nil {
		f.Missing = append(f.Missing, "rain")
	} else {
		f.RainGauge = rainSrc
		dt, err := s.rd.Days(ctx, rainSrc.Device.ID, []string{"rainfall"}, []int{0}, r.Begin, r.End)
		if err != nil {
			return f, err
		}
		var rain []agro.DayRain
		var total float64
		for day := range dt {
			if v, ok := dt.Get(day, "rainfall", 0); ok {
				rain = append(rain, agro.DayRain{Day: time.UnixMilli(day).In(s.rd.Location()), Rain: v.Sum})
				total += v.Sum
			}
		}
		f.Rain = readings.Ptr(readings.Round(total, 1))
		f.EffectiveRain = readings.Ptr(readings.Round(agro.EffectiveRain(rain), 1))
	}
	if err := s.profileStorage(ctx, d, t.Nodes, r, &f); err != nil {
		return f, err
	}
	if len(f.Missing) == 0 {
		net := agro.NetIrrigation(*f.ETc, *f.EffectiveRain, *f.StorageStart, *f.StorageEnd)
		f.NetMM = readings.Ptr(readings.Round(net, 1))
		f.NetM3 = readings.Ptr(readings.Round(agro.WaterVolume(net, *f.AreaMu), 2))
	}
	return f, nil
}

// profileStorage sets the water the probe's profile held (mm, the day's
// mean moisture of each layer times its thickness) on the first and the
// last day of r with every layer read.
func (s *Service) profileStorage(ctx context.Context, d *devices.Device, nodes []int, r readings.Range, f *FieldWater) error {
	dt, err := s.rd.Days(ctx, d.ID, []string{"soilMoisture"}, nodes, r.Begin, r.End)
	if err != nil {
		return err
	}
	thick := agro.LayerThickness(floats(nodes))
	days := make([]int64, 0, len(dt))
	for day := range dt {
		days = append(days, day)
	}
	sort.Slice(days, func(i, j int) bool { return days[i] < days[j] })
	var stored []float64
	for _, day := range days {
		var mm float64
		whole := true
		for i, n := range nodes {
			v, ok := dt.Get(day, "soilMoisture", n)
			if !ok {
				whole = false
				break
			}
			mm += agro.WaterDepth(v.Avg(), thick[i])
		}
		if whole {
			stored = append(stored, mm)
		}
	}
	for _, th := range thick {
		f.ProfileCM += th
	}
	if len(stored) < 2 {
		f.Missing = append(f.Missing, "soil")
		return nil
	}
	f.StorageStart = readings.Ptr(readings.Round(stored[0], 1))
	f.StorageEnd = readings.Ptr(readings.Round(stored[len(stored)-1], 1))
	return nil
}
