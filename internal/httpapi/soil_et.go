package httpapi

import (
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

// cropDTO is the crop the ET analysis uses.
type cropDTO struct {
	Type         string         `json:"type"`
	Name         string         `json:"name"`
	Variety      string         `json:"variety"`
	PlantingTime int64          `json:"plantingTime"`
	Curve        agro.CropCurve `json:"curve"`
	DayOfSeason  int            `json:"dayOfSeason"`
	Kc           *float64       `json:"kc"`
	Stage        string         `json:"stage"`
}

func toCrop(c *soil.CropToday, lang i18n.Lang) *cropDTO {
	if c == nil {
		return nil
	}
	return &cropDTO{Type: c.Crop.ID, Name: c.Crop.Names.In(lang), Variety: c.Variety, PlantingTime: c.Planted.UnixMilli(),
		Curve: c.Crop.Curve, DayOfSeason: c.DayOfSeason, Kc: c.Kc, Stage: c.Stage}
}

// etRootDTO is GET /apis/poi/analysis/et_root.
type etRootDTO struct {
	Configured bool          `json:"configured"`
	RootDepth  *rootDepthDTO `json:"rootDepth"`
	Zone       *rootZoneDTO  `json:"zone"`
	ET         *etRateDTO    `json:"et"`
	Projection *refillDTO    `json:"projection"`
}

// rootZoneDTO is the root zone now.
type rootZoneDTO struct {
	Depth          float64 `json:"depth"`
	RootDepthFound bool    `json:"rootDepthFound"`
	FieldCapacity  float64 `json:"fieldCapacity"`
	Moisture       float64 `json:"moisture"`
	Relative       float64 `json:"relative"`
	Drought        string  `json:"drought"`
	RefillRelative float64 `json:"refillRelative"`
	DeficitMM      float64 `json:"deficitMm"`
	RAWMM          float64 `json:"rawMm"`
}

// etRateDTO is the crop water use the projection runs at.
type etRateDTO struct {
	ET0    float64  `json:"et0"`
	Kc     *float64 `json:"kc"`
	Stage  string   `json:"stage,omitempty"`
	ETc    *float64 `json:"etc"`
	Source string   `json:"source"`
}

// refillDTO is the projected refill.
type refillDTO struct {
	Time         int64    `json:"time"`
	Date         string   `json:"date"`
	DaysUntil    int      `json:"daysUntil"`
	IrrigationMM float64  `json:"irrigationMm"`
	VolumeM3     *float64 `json:"volumeM3"`
}

func toETRoot(e *soil.ETRoot) etRootDTO {
	out := etRootDTO{Configured: e.Configured, RootDepth: toRootDepth(e.RootDepth)}
	if z := e.Zone; z != nil {
		zv := rootZoneDTO(*z)
		out.Zone = &zv
	}
	if r := e.ET; r != nil {
		out.ET = &etRateDTO{ET0: r.ET0, Kc: r.Kc, Stage: r.Stage, ETc: r.ETc, Source: r.Source}
	}
	if p := e.Projection; p != nil {
		out.Projection = &refillDTO{Time: p.Day.UnixMilli(), Date: p.Day.Format(time.DateOnly), DaysUntil: p.DaysUntil,
			IrrigationMM: p.IrrigationMM, VolumeM3: p.VolumeM3}
	}
	return out
}

// etAnalysisDTO is GET /apis/poi/et0_kc and /apis/poi/shang/etc_et0_kc.
type etAnalysisDTO struct {
	Begin               int64        `json:"begin"`
	End                 int64        `json:"end"`
	Station             *stationDTO  `json:"station"`
	Crop                *cropDTO     `json:"crop"`
	Days                []etDayDTO   `json:"days"`
	ET0Total            float64      `json:"et0Total"`
	ETcTotal            *float64     `json:"etcTotal"`
	ObservedUnavailable string       `json:"observedUnavailable"`
	Forecast            *forecastDTO `json:"forecast"`
	ForecastUnavailable bool         `json:"forecastUnavailable"`
}

// etDayDTO is one day of the ET analysis.
type etDayDTO struct {
	Time  int64    `json:"time"`
	Date  string   `json:"date"`
	ET0   *float64 `json:"et0"`
	Kc    *float64 `json:"kc"`
	Stage string   `json:"stage,omitempty"`
	ETc   *float64 `json:"etc"`
}

func toETAnalysis(e *soil.ET, lang i18n.Lang) etAnalysisDTO {
	f := toForecast(e.Forecast)
	out := etAnalysisDTO{Begin: e.Begin.UnixMilli(), End: e.End.UnixMilli(), Station: toStation(e.Station), Crop: toCrop(e.Crop, lang),
		Days: make([]etDayDTO, len(e.Days)), ET0Total: e.ET0Total, ETcTotal: e.ETcTotal, ObservedUnavailable: e.ObservedUnavailable,
		Forecast: f, ForecastUnavailable: f == nil}
	for i, d := range e.Days {
		et0 := d.ET0
		out.Days[i] = etDayDTO{Time: d.Day.UnixMilli(), Date: d.Day.Format(time.DateOnly), ET0: &et0, Kc: d.Kc, Stage: d.Stage, ETc: d.ETc}
	}
	return out
}

func (s *Server) etRoot(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	e, err := s.Soil.ETRoot(c.r.Context(), c.device, s.stations(c, q.stationID))
	if err != nil {
		return nil, err
	}
	return toETRoot(e), nil
}

func (s *Server) etAnalysis(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	e, err := s.Soil.ET(c.r.Context(), c.device, s.stations(c, q.stationID), q.r)
	if err != nil {
		return nil, err
	}
	return toETAnalysis(e, c.lang), nil
}
