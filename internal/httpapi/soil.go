package httpapi

import (
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

// settingsDTO is a soil device's settings as the settings form shows them.
type settingsDTO struct {
	Configured       bool        `json:"configured"` // every node has its soil set
	Nodes            []nodeDTO   `json:"nodes"`
	CropType         string      `json:"cropType"`
	CropName         string      `json:"cropName"` // the crop type's name in the caller's language
	CropVariety      string      `json:"cropVariety"`
	IrrigationMethod string      `json:"irrigationMethod"`
	PlantingTime     *int64      `json:"plantingTime"`
	AreaMu           *float64    `json:"areaMu"`
	EnableTime       *int64      `json:"enableTime"`
	Upload           bool        `json:"upload"`
	UpdatedAt        *int64      `json:"updatedAt"`
	CropTypes        []optionDTO `json:"cropTypes"`
	Methods          []optionDTO `json:"irrigationMethods"`
	CanEdit          bool        `json:"canEdit"`
}

// nodeDTO is one node's soil, with what follows from it.
type nodeDTO struct {
	Depth         int      `json:"depth"`
	Thickness     float64  `json:"thickness"`
	FieldCapacity *float64 `json:"fieldCapacity"`
	UnitWeight    *float64 `json:"unitWeight"`
	Saturation    *float64 `json:"saturation"`
}

// optionDTO is one choice of a settings list.
type optionDTO struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func toNodes(ns []soil.Node) []nodeDTO {
	out := make([]nodeDTO, len(ns))
	for i, n := range ns {
		out[i] = nodeDTO(n)
	}
	return out
}

// optMsPtr is an optional time as unix ms: null for none or the zero time.
func optMsPtr(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	return optMs(*t)
}

func toSettings(cfg *soil.Config, canEdit bool, lang i18n.Lang) settingsDTO {
	v := settingsDTO{Configured: cfg.Configured, Nodes: toNodes(cfg.Nodes), CanEdit: canEdit}
	if st := cfg.Settings; st != nil {
		v.CropType, v.CropVariety, v.IrrigationMethod = st.CropType, st.CropVariety, st.IrrigationMethod
		v.AreaMu, v.Upload = st.AreaMu, st.Upload
		if c, ok := soil.CropByID(st.CropType); ok {
			v.CropName = c.Names.In(lang)
		}
		v.PlantingTime, v.EnableTime, v.UpdatedAt = optMsPtr(st.PlantingTime), optMsPtr(st.EnableTime), optMs(st.UpdatedAt)
	}
	for _, c := range soil.Crops {
		v.CropTypes = append(v.CropTypes, optionDTO{c.ID, c.Names.In(lang)})
	}
	for _, m := range soil.IrrigationMethods {
		v.Methods = append(v.Methods, optionDTO{m.ID, m.Names.In(lang)})
	}
	return v
}

// layerStateDTO is a layer's moisture at one time.
type layerStateDTO struct {
	Depth     int      `json:"depth"`
	Moisture  *float64 `json:"moisture"`
	Relative  *float64 `json:"relative"`
	Drought   string   `json:"drought"`
	WaterMM   *float64 `json:"waterMm"`
	Temp      *float64 `json:"temp"`
	EC        *float64 `json:"ec"`
	Frozen    bool     `json:"frozen"`
	Saturated bool     `json:"saturated"`
}

// profileStateDTO is the whole profile at one time.
type profileStateDTO struct {
	Time            *int64          `json:"time"`
	Layers          []layerStateDTO `json:"layers"`
	ProfileRelative *float64        `json:"profileRelative"`
	Drought         string          `json:"drought"`
	StorageMM       *float64        `json:"storageMm"`
}

func toProfileState(ps soil.ProfileState) profileStateDTO {
	out := profileStateDTO{Time: optMs(ps.Time), Layers: make([]layerStateDTO, len(ps.Layers)), ProfileRelative: ps.ProfileRelative,
		Drought: ps.Drought, StorageMM: ps.StorageMM}
	for i, l := range ps.Layers {
		out.Layers[i] = layerStateDTO(l)
	}
	return out
}

// moistureAnalysisDTO is GET /apis/poi/analysis/moisture.
type moistureAnalysisDTO struct {
	Begin      int64            `json:"begin"`
	End        int64            `json:"end"`
	Configured bool             `json:"configured"`
	Nodes      []nodeDTO        `json:"nodes"`
	Days       []moistureDayDTO `json:"days"`
	Latest     profileStateDTO  `json:"latest"`
}

// moistureDayDTO is one day's profile; its time is the day's.
type moistureDayDTO struct {
	Time int64  `json:"time"`
	Date string `json:"date"`
	profileStateDTO
}

func toMoistureAnalysis(m *soil.Moisture) moistureAnalysisDTO {
	out := moistureAnalysisDTO{Begin: m.Begin.UnixMilli(), End: m.End.UnixMilli(), Configured: m.Config.Configured,
		Nodes: toNodes(m.Config.Nodes), Days: make([]moistureDayDTO, len(m.Days)), Latest: toProfileState(m.Latest)}
	for i, d := range m.Days {
		out.Days[i] = moistureDayDTO{Time: d.Day.UnixMilli(), Date: d.Day.Format(time.DateOnly), profileStateDTO: toProfileState(d.ProfileState)}
	}
	return out
}

// soilStatusDTO is GET /apis/poi/shang/status.
type soilStatusDTO struct {
	Configured bool            `json:"configured"`
	Now        profileStateDTO `json:"now"`
	LastPulse  *pulseDTO       `json:"lastPulse"`
	Frozen     bool            `json:"frozen"`
	Saturated  bool            `json:"saturated"`
}

// moistureSeriesDTO is GET /apis/poi/data/sqy/query.
type moistureSeriesDTO struct {
	Begin int64                `json:"begin"`
	End   int64                `json:"end"`
	Dim   string               `json:"dim"`
	Nodes []nodeMoistureSetDTO `json:"nodes"`
}

// nodeMoistureSetDTO is one node's moisture series.
type nodeMoistureSetDTO struct {
	Depth         int                `json:"depth"`
	FieldCapacity *float64           `json:"fieldCapacity"`
	Points        []moisturePointDTO `json:"points"`
}

// moisturePointDTO is one moisture value.
type moisturePointDTO struct {
	Time     int64    `json:"time"`
	Moisture float64  `json:"moisture"`
	Min      *float64 `json:"min,omitempty"`
	Max      *float64 `json:"max,omitempty"`
	Relative *float64 `json:"relative"`
}

// dim names raw readings or daily values.
func dim(daily bool) string {
	if daily {
		return "daily"
	}
	return "raw"
}

func toMoistureSeries(m *soil.MoistureSeries) moistureSeriesDTO {
	out := moistureSeriesDTO{Begin: m.Begin.UnixMilli(), End: m.End.UnixMilli(), Dim: dim(m.Daily), Nodes: make([]nodeMoistureSetDTO, len(m.Nodes))}
	for i, n := range m.Nodes {
		set := nodeMoistureSetDTO{Depth: n.Depth, FieldCapacity: n.FieldCapacity, Points: make([]moisturePointDTO, len(n.Points))}
		for j, p := range n.Points {
			set.Points[j] = moisturePointDTO{Time: p.Time.UnixMilli(), Moisture: p.Moisture, Min: p.Min, Max: p.Max, Relative: p.Relative}
		}
		out.Nodes[i] = set
	}
	return out
}

// nodesViewDTO is GET /apis/poi/shang/nodes.
type nodesViewDTO struct {
	Configured bool           `json:"configured"`
	Nodes      []nodeStateDTO `json:"nodes"`
}

// nodeStateDTO is one node with its newest readings.
type nodeStateDTO struct {
	nodeDTO
	Moisture *float64 `json:"moisture"`
	Relative *float64 `json:"relative"`
	Temp     *float64 `json:"temp"`
	EC       *float64 `json:"ec"`
	Time     *int64   `json:"time"`
}

func toNodesView(ns *soil.NodeStates) nodesViewDTO {
	out := nodesViewDTO{Configured: ns.Config.Configured, Nodes: make([]nodeStateDTO, len(ns.Nodes))}
	for i, n := range ns.Nodes {
		out.Nodes[i] = nodeStateDTO{nodeDTO: nodeDTO(n.Node), Moisture: n.Moisture, Relative: n.Relative, Temp: n.Temp, EC: n.EC, Time: optMs(n.Time)}
	}
	return out
}

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

// soilDetailDTO is GET /apis/poi/shang/detail.
type soilDetailDTO struct {
	Settings             settingsDTO `json:"settings"`
	Crop                 *cropDTO    `json:"crop"`
	AreaM2               *float64    `json:"areaM2"`
	IrrigationMethodName string      `json:"irrigationMethodName"`
}

func toSoilDetail(d *soil.Detail, canEdit bool, lang i18n.Lang) soilDetailDTO {
	out := soilDetailDTO{Settings: toSettings(d.Config, canEdit, lang), Crop: toCrop(d.Crop, lang), AreaM2: d.AreaM2}
	if st := d.Config.Settings; st != nil {
		if n, ok := soil.IrrigationMethodByID(st.IrrigationMethod); ok {
			out.IrrigationMethodName = n.In(lang)
		}
	}
	return out
}

// pulseDTO is a recognised infiltration pulse (irrigation or rain).
type pulseDTO struct {
	Start      int64           `json:"start"`
	Date       string          `json:"date"`
	Source     string          `json:"source"`
	AmountMM   float64         `json:"amountMm"`
	RainMM     *float64        `json:"rainMm"`
	VolumeM3   *float64        `json:"volumeM3"`
	FrontDepth float64         `json:"frontDepth"`
	FrontSpeed float64         `json:"frontSpeed"`
	Layers     []pulseLayerDTO `json:"layers"`
}

// pulseLayerDTO is one layer's response to a pulse.
type pulseLayerDTO struct {
	Depth    float64 `json:"depth"`
	Arrival  int64   `json:"arrival"`
	LagHours float64 `json:"lagHours"`
	PeakTime int64   `json:"peakTime"`
	Before   float64 `json:"before"`
	Peak     float64 `json:"peak"`
	Rise     float64 `json:"rise"`
	WaterMM  float64 `json:"waterMm"`
}

func toPulse(p *soil.Pulse) *pulseDTO {
	if p == nil {
		return nil
	}
	out := &pulseDTO{Start: p.Start.UnixMilli(), Date: p.Start.Format(time.DateOnly), Source: p.Source, AmountMM: p.AmountMM,
		RainMM: p.RainMM, VolumeM3: p.VolumeM3, FrontDepth: p.FrontDepth, FrontSpeed: p.FrontSpeed, Layers: make([]pulseLayerDTO, len(p.Layers))}
	for i, l := range p.Layers {
		out.Layers[i] = pulseLayerDTO{Depth: l.Depth, Arrival: l.Arrival.UnixMilli(), LagHours: l.LagHours, PeakTime: l.PeakTime.UnixMilli(),
			Before: l.Before, Peak: l.Peak, Rise: l.Rise, WaterMM: l.WaterMM}
	}
	return out
}

// irrigationsDTO is GET /apis/poi/shang/irriRecognition.
type irrigationsDTO struct {
	Begin        int64       `json:"begin"`
	End          int64       `json:"end"`
	RainStation  *stationDTO `json:"rainStation"`
	Pulses       []pulseDTO  `json:"pulses"`
	IrrigationMM float64     `json:"irrigationMm"`
	RainMM       float64     `json:"rainMm"`
	Count        int         `json:"irrigationCount"`
	MinAmountMM  float64     `json:"minAmountMm"`
}

func toIrrigations(ir *soil.Irrigations) irrigationsDTO {
	out := irrigationsDTO{Begin: ir.Begin.UnixMilli(), End: ir.End.UnixMilli(), RainStation: toStation(ir.RainStation),
		Pulses: make([]pulseDTO, len(ir.Pulses)), IrrigationMM: ir.IrrigationMM, RainMM: ir.RainMM, Count: ir.Count, MinAmountMM: ir.MinAmountMM}
	for i := range ir.Pulses {
		out.Pulses[i] = *toPulse(&ir.Pulses[i])
	}
	return out
}

// infiltrationDTO is GET /apis/poi/shang/infiltration.
type infiltrationDTO struct {
	From    int64              `json:"from"`
	To      int64              `json:"to"`
	Layers  []agro.LayerChange `json:"layers"`
	TotalMM float64            `json:"totalMm"`
	Pulse   *pulseDTO          `json:"pulse"`
}

// waterloggingDTO is GET /apis/poi/shang/waterlogging.
type waterloggingDTO struct {
	Begin           int64                    `json:"begin"`
	End             int64                    `json:"end"`
	ThresholdSource string                   `json:"thresholdSource"`
	MinHours        float64                  `json:"minHours"`
	Layers          []agro.LayerWaterlogging `json:"layers"`
	Hours           float64                  `json:"hours"`
}

// freezeThawDTO is GET /apis/poi/shang/freezeThaw.
type freezeThawDTO struct {
	Begin     int64                  `json:"begin"`
	End       int64                  `json:"end"`
	Layers    []agro.LayerFreezeThaw `json:"layers"`
	Dates     []string               `json:"dates"`
	FrozenNow []float64              `json:"frozenNow"`
}

// rootDepthDTO is GET /apis/poi/shang/rootdepth.
type rootDepthDTO struct {
	Begin     int64            `json:"begin"`
	End       int64            `json:"end"`
	RootDepth float64          `json:"rootDepth"`
	Layers    []agro.RootLayer `json:"layers"`
}

func toRootDepth(r *soil.RootDepth) *rootDepthDTO {
	return &rootDepthDTO{Begin: r.Begin.UnixMilli(), End: r.End.UnixMilli(), RootDepth: r.RootDepth, Layers: r.Layers}
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

// paramListDTO is GET /apis/poi/param/list.
type paramListDTO struct {
	Nodes  []int          `json:"nodes"`
	Params []paramInfoDTO `json:"params"`
}

// paramInfoDTO is one parameter an analysis chart can show.
type paramInfoDTO struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Unit      string `json:"unit"`
	Precision int    `json:"precision"`
	PerNode   bool   `json:"perNode"`
	Derived   bool   `json:"derived"`
	DailyOnly bool   `json:"dailyOnly"`
	Available bool   `json:"available"`
}

func toParamList(pl *soil.ParamList, lang i18n.Lang) paramListDTO {
	out := paramListDTO{Nodes: pl.Nodes, Params: make([]paramInfoDTO, len(pl.Params))}
	for i, p := range pl.Params {
		out.Params[i] = paramInfoDTO{ID: p.ID, Name: p.Names.In(lang), Unit: p.Unit, Precision: p.Precision, PerNode: p.PerNode,
			Derived: p.Derived, DailyOnly: p.DailyOnly, Available: p.Available}
	}
	return out
}

// dataQueryDTO is GET /apis/poi/data/query.
type dataQueryDTO struct {
	Begin  int64           `json:"begin"`
	End    int64           `json:"end"`
	Dim    string          `json:"dim"`
	Series []dataSeriesDTO `json:"series"`
}

// dataSeriesDTO is one parameter at one node (0 for the device as a whole).
type dataSeriesDTO struct {
	Param   string       `json:"param"`
	Node    int          `json:"node"`
	Name    string       `json:"name"`
	Unit    string       `json:"unit"`
	Derived bool         `json:"derived"`
	Agg     string       `json:"agg,omitempty"`
	Points  [][2]float64 `json:"points"`
}

func toDataQuery(q *soil.DataQuery, lang i18n.Lang) dataQueryDTO {
	out := dataQueryDTO{Begin: q.Begin.UnixMilli(), End: q.End.UnixMilli(), Dim: dim(q.Daily), Series: make([]dataSeriesDTO, len(q.Series))}
	for i, s := range q.Series {
		out.Series[i] = dataSeriesDTO{Param: s.Param, Node: s.Node, Name: s.Names.In(lang), Unit: s.Unit, Derived: s.Derived, Agg: s.Agg, Points: s.Points}
	}
	return out
}

func (s *Server) soilMoisture(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	m, err := s.Soil.Moisture(c.r.Context(), c.device, q.r)
	if err != nil {
		return nil, err
	}
	return toMoistureAnalysis(m), nil
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

func (s *Server) moistureData(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	daily, err := queryDaily(c, true)
	if err != nil {
		return nil, err
	}
	m, err := s.Soil.MoistureData(c.r.Context(), c.device, q.r, daily)
	if err != nil {
		return nil, err
	}
	return toMoistureSeries(m), nil
}

func (s *Server) analysisParams(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	pl, err := s.Soil.Params(c.r.Context(), c.device, s.stations(c, q.stationID))
	if err != nil {
		return nil, err
	}
	return toParamList(pl, c.lang), nil
}

func (s *Server) analysisData(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	daily, err := queryDaily(c, true)
	if err != nil {
		return nil, err
	}
	var params []string
	if v := c.r.URL.Query().Get("params"); v != "" {
		params = strings.Split(v, ",")
	}
	dq, err := s.Soil.Data(c.r.Context(), c.device, s.stations(c, q.stationID), params, q.r, daily)
	if err != nil {
		return nil, err
	}
	return toDataQuery(dq, c.lang), nil
}

func (s *Server) soilStatus(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	st, err := s.Soil.Status(c.r.Context(), c.device, s.stations(c, q.stationID))
	if err != nil {
		return nil, err
	}
	return soilStatusDTO{Configured: st.Configured, Now: toProfileState(st.Now), LastPulse: toPulse(st.LastPulse),
		Frozen: st.Frozen, Saturated: st.Saturated}, nil
}

func (s *Server) irrigations(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	minAmount, err := queryFloat(c, "minAmount", 0.1, 500)
	if err != nil {
		return nil, err
	}
	var m float64
	if minAmount != nil {
		m = *minAmount
	}
	ir, err := s.Soil.Irrigations(c.r.Context(), c.device, s.stations(c, q.stationID), q.r, m)
	if err != nil {
		return nil, err
	}
	return toIrrigations(ir), nil
}

func (s *Server) infiltration(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	in, err := s.Soil.Infiltration(c.r.Context(), c.device, s.stations(c, q.stationID), q.r)
	if err != nil {
		return nil, err
	}
	return infiltrationDTO{From: in.From.UnixMilli(), To: in.To.UnixMilli(), Layers: in.Layers, TotalMM: in.TotalMM, Pulse: toPulse(in.Pulse)}, nil
}

func (s *Server) waterlogging(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	th, err := queryFloat(c, "threshold", 1, 100)
	if err != nil {
		return nil, err
	}
	hours, err := queryInt(c.r.URL.Query(), "minHours", 0, 1, 24*30)
	if err != nil {
		return nil, err
	}
	w, err := s.Soil.Waterlogging(c.r.Context(), c.device, q.r, th, time.Duration(hours)*time.Hour)
	if err != nil {
		return nil, err
	}
	return waterloggingDTO{Begin: w.Begin.UnixMilli(), End: w.End.UnixMilli(), ThresholdSource: w.ThresholdSource,
		MinHours: w.MinHours, Layers: w.Layers, Hours: w.Hours}, nil
}

func (s *Server) freezeThaw(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	f, err := s.Soil.FreezeThaw(c.r.Context(), c.device, q.r)
	if err != nil {
		return nil, err
	}
	return freezeThawDTO{Begin: f.Begin.UnixMilli(), End: f.End.UnixMilli(), Layers: f.Layers, Dates: f.Dates, FrozenNow: f.FrozenNow}, nil
}

func (s *Server) rootDepth(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	r, err := s.Soil.RootDepth(c.r.Context(), c.device, q.r)
	if err != nil {
		return nil, err
	}
	return toRootDepth(r), nil
}

func (s *Server) soilDetail(c *call) (any, error) {
	d, err := s.Soil.Detail(c.r.Context(), c.device)
	if err != nil {
		return nil, err
	}
	return toSoilDetail(d, c.right.Settings, c.lang), nil
}

func (s *Server) soilNodes(c *call) (any, error) {
	ns, err := s.Soil.Nodes(c.r.Context(), c.device)
	if err != nil {
		return nil, err
	}
	return toNodesView(ns), nil
}

func (s *Server) soilConfig(c *call) (any, error) {
	cfg, err := s.Soil.Settings(c.r.Context(), c.device)
	if err != nil {
		return nil, err
	}
	return toSettings(cfg, c.right.Settings, c.lang), nil
}

// soilSettingsBody is a PUT of the soil settings. Times are unix ms.
type soilSettingsBody struct {
	Nodes []struct {
		Depth         int     `json:"depth"`
		FieldCapacity float64 `json:"fieldCapacity"`
		UnitWeight    float64 `json:"unitWeight"`
	} `json:"nodes"`
	CropType         string   `json:"cropType"`
	CropVariety      string   `json:"cropVariety"`
	IrrigationMethod string   `json:"irrigationMethod"`
	PlantingTime     *int64   `json:"plantingTime"`
	AreaMu           *float64 `json:"areaMu"`
	EnableTime       *int64   `json:"enableTime"`
	Upload           bool     `json:"upload"`
}

// timeOf is an optional unix ms time.
func timeOf(v *int64) *time.Time {
	if v == nil {
		return nil
	}
	t := time.UnixMilli(*v)
	return &t
}

// settingsDevice authorizes the device a settings write names, in its body
// or its query, for the settings right.
func (s *Server) settingsDevice(c *call, id int64) (*devices.Device, error) {
	d, _, err := s.Devices.Open(c.r.Context(), c.account.ID, id, devices.NeedSettings)
	return d, err
}

func (s *Server) putSoilConfig(c *call) (any, error) {
	var in soilSettingsBody
	id, err := bodyWithID(c, &in)
	if err != nil {
		return nil, err
	}
	d, err := s.settingsDevice(c, id)
	if err != nil {
		return nil, err
	}
	st := soil.SettingsInput{CropType: in.CropType, CropVariety: in.CropVariety, IrrigationMethod: in.IrrigationMethod,
		PlantingTime: timeOf(in.PlantingTime), AreaMu: in.AreaMu, EnableTime: timeOf(in.EnableTime), Upload: in.Upload}
	if in.Nodes != nil {
		st.Nodes = make([]soil.NodeConfig, len(in.Nodes))
		for i, n := range in.Nodes {
			st.Nodes[i] = soil.NodeConfig(n)
		}
	}
	cfg, err := s.Soil.SaveSettings(c.r.Context(), d, st)
	if err != nil {
		return nil, err
	}
	return toSettings(cfg, true, c.lang), nil
}

// cropBody is the crop of POST/PUT /apis/poi/crop/update (SPEC §3 "Crop
// info: sowTime, cropName, area"); absent fields keep their value.
type cropBody struct {
	SowTime     *int64   `json:"sowTime"`
	CropName    *string  `json:"cropName"`
	CropVariety *string  `json:"cropVariety"`
	Area        *float64 `json:"area"` // mu
}

func (s *Server) updateCrop(c *call) (any, error) {
	var in cropBody
	id, err := bodyWithID(c, &in)
	if err != nil {
		return nil, err
	}
	d, err := s.settingsDevice(c, id)
	if err != nil {
		return nil, err
	}
	cfg, err := s.Soil.UpdateCrop(c.r.Context(), d, soil.CropInput{SowTime: timeOf(in.SowTime), CropName: in.CropName,
		CropVariety: in.CropVariety, Area: in.Area})
	if err != nil {
		return nil, err
	}
	return toSettings(cfg, true, c.lang), nil
}
