package httpapi

import (
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

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
