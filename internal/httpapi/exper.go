package httpapi

import (
	"bytes"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/sheet"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

// utilizationBody is POST /apis/exper/coefficient: the fields (soil
// probes), the meters (irrigation devices) and the season (ms; default the
// last 90 days).
type utilizationBody struct {
	FieldIDs []int64 `json:"fieldIds"`
	MeterIDs []int64 `json:"meterIds"`
	Begin    *int64  `json:"begin"`
	End      *int64  `json:"end"`
}

func (s *Server) utilizationOf(c *call) (*soil.Utilization, error) {
	var b utilizationBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	open := func(field string, ids []int64) ([]*devices.Device, error) {
		if len(ids) > soil.MaxCoefficientDevices {
			return nil, errs.Invalid(field, "exper.tooMany").With(map[string]any{"max": soil.MaxCoefficientDevices})
		}
		out := make([]*devices.Device, 0, len(ids))
		seen := map[int64]bool{}
		for _, id := range ids {
			if seen[id] {
				continue
			}
			seen[id] = true
			d, _, err := s.Devices.Open(c.r.Context(), c.account.ID, id, devices.NeedRead)
			if err != nil {
				return nil, errs.OnField(err, field)
			}
			out = append(out, d)
		}
		return out, nil
	}
	in := soil.CoefficientInput{}
	var err error
	if in.Fields, err = open("fieldIds", b.FieldIDs); err != nil {
		return nil, err
	}
	if in.Meters, err = open("meterIds", b.MeterIDs); err != nil {
		return nil, err
	}
	if b.Begin != nil {
		in.Range.Begin = time.UnixMilli(*b.Begin)
	}
	if b.End != nil {
		in.Range.End = time.UnixMilli(*b.End)
	}
	return s.Soil.Utilization(c.r.Context(), in, s.stations(c, 0))
}

type fieldWaterDTO struct {
	ID            int64       `json:"id"`
	Name          string      `json:"name"`
	SN            string      `json:"sn"`
	AreaMu        *float64    `json:"areaMu"`
	Crop          string      `json:"crop"`
	Station       *stationDTO `json:"station"`
	RainGauge     *stationDTO `json:"rainGauge"`
	ETc           *float64    `json:"etc"`
	Rain          *float64    `json:"rain"`
	EffectiveRain *float64    `json:"effectiveRain"`
	ProfileCM     float64     `json:"profileCm"`
	StorageStart  *float64    `json:"storageStart"`
	StorageEnd    *float64    `json:"storageEnd"`
	NetMM         *float64    `json:"netMm"`
	NetM3         *float64    `json:"netM3"`
	Missing       []string    `json:"missing"`
	MissingText   []string    `json:"missingText"`
}

type meterWaterDTO struct {
	ID      int64   `json:"id"`
	Name    string  `json:"name"`
	SN      string  `json:"sn"`
	GrossM3 float64 `json:"grossM3"`
	Days    int     `json:"days"`
}

// utilization serves POST /apis/exper/coefficient: the effective
// utilization coefficient of irrigation water of the fields and meters
// named, with every input (docs/analyses.md).
func (s *Server) utilization(c *call) (any, error) {
	u, err := s.utilizationOf(c)
	if err != nil {
		return nil, err
	}
	out := struct {
		Begin       int64           `json:"begin"`
		End         int64           `json:"end"`
		Fields      []fieldWaterDTO `json:"fields"`
		Meters      []meterWaterDTO `json:"meters"`
		NetM3       float64         `json:"netM3"`
		GrossM3     float64         `json:"grossM3"`
		Coefficient *float64        `json:"coefficient"`
		Warnings    []string        `json:"warnings"`
		WarningText []string        `json:"warningText"`
	}{Begin: u.Begin.UnixMilli(), End: u.End.UnixMilli(), Fields: []fieldWaterDTO{}, Meters: []meterWaterDTO{},
		NetM3: u.NetM3, GrossM3: u.GrossM3, Coefficient: u.Coefficient, Warnings: u.Warnings, WarningText: []string{}}
	for _, w := range u.Warnings {
		out.WarningText = append(out.WarningText, i18n.T(c.lang, "exper.warning."+w, nil))
	}
	for _, f := range u.Fields {
		dto := fieldWaterDTO{ID: f.Device.ID, Name: f.Device.Name, SN: f.Device.SN, AreaMu: f.AreaMu, Crop: f.Crop, Station: toStation(f.Station), RainGauge: toStation(f.RainGauge),
			ETc: f.ETc, Rain: f.Rain, EffectiveRain: f.EffectiveRain, ProfileCM: readings.Round(f.ProfileCM, 1), StorageStart: f.StorageStart,
			StorageEnd: f.StorageEnd, NetMM: f.NetMM, NetM3: f.NetM3, Missing: f.Missing, MissingText: []string{}}
		for _, m := range f.Missing {
			dto.MissingText = append(dto.MissingText, i18n.T(c.lang, "exper.missing."+m, nil))
		}
		out.Fields = append(out.Fields, dto)
	}
	for _, m := range u.Meters {
		out.Meters = append(out.Meters, meterWaterDTO{ID: m.Device.ID, Name: m.Device.Name, SN: m.Device.SN, GrossM3: m.GrossM3, Days: m.Days})
	}
	return out, nil
}

// utilizationExport serves POST /apis/exper/coefficient/export: the same
// as XLSX, one sheet each for the result, the fields and the meters.
func (s *Server) utilizationExport(c *call) (any, error) {
	u, err := s.utilizationOf(c)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := sheet.Utilization(&buf, c.lang, u, s.location()); err != nil {
		return nil, errs.Internal("utilization sheet: %w", err)
	}
	name := i18n.T(c.lang, "exper.fileName", nil) + "-" + u.Begin.In(s.location()).Format("20060102") + ".xlsx"
	return &download{contentType: sheet.XLSX.ContentType(), filename: name, body: buf.Bytes(), cache: "no-store"}, nil
}
