package httpapi

import (
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/rain"
)

// warningDTO is a rainstorm warning signal level (SPEC §4: 01–04 blue,
// yellow, orange, red; level 0 none).
type warningDTO struct {
	Level int    `json:"level"`
	Code  string `json:"code"`  // "01"–"04", "" for none
	Color string `json:"color"` // none, blue, yellow, orange, red
}

func toWarning(w agro.WarningLevel) warningDTO {
	return warningDTO{Level: int(w), Code: w.Code(), Color: w.String()}
}

// criterionDTO is one signal's rule: rain of at least MM within Hours.
type criterionDTO struct {
	warningDTO
	Hours int     `json:"hours"`
	MM    float64 `json:"mm"`
}

// rainCriteria are the rainstorm signal rules.
func rainCriteria() []criterionDTO {
	out := make([]criterionDTO, len(rain.Criteria))
	for i, c := range rain.Criteria {
		out[i] = criterionDTO{toWarning(c.Level), c.Hours, c.MM}
	}
	return out
}

// optMs is an optional time as unix ms: null for the zero time.
func optMs(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	v := t.UnixMilli()
	return &v
}

// rainWarningDTO is GET /apis/poi/{id}/pluviometer/early-warning.
type rainWarningDTO struct {
	Time     int64          `json:"time"`
	Current  warningDTO     `json:"current"`
	Rain1h   float64        `json:"rain1h"`
	Rain3h   float64        `json:"rain3h"`
	Rain6h   float64        `json:"rain6h"`
	Rain12h  float64        `json:"rain12h"`
	Rain24h  float64        `json:"rain24h"`
	Criteria []criterionDTO `json:"criteria"`
	Episodes []episodeDTO   `json:"episodes"`
	Highest  warningDTO     `json:"highest"`
}

// episodeDTO is a spell with a signal in force.
type episodeDTO struct {
	warningDTO
	Start   int64   `json:"start"`
	End     int64   `json:"end"`
	Peak3h  float64 `json:"peak3h"`
	Peak6h  float64 `json:"peak6h"`
	Peak12h float64 `json:"peak12h"`
	Ongoing bool    `json:"ongoing"`
}

func toRainWarning(w *rain.EarlyWarning) rainWarningDTO {
	out := rainWarningDTO{Time: w.Time.UnixMilli(), Current: toWarning(w.Current), Rain1h: w.Rain1h, Rain3h: w.Rain3h,
		Rain6h: w.Rain6h, Rain12h: w.Rain12h, Rain24h: w.Rain24h, Criteria: rainCriteria(), Episodes: []episodeDTO{},
		Highest: toWarning(w.Highest)}
	for _, e := range w.Episodes {
		out.Episodes = append(out.Episodes, episodeDTO{warningDTO: toWarning(e.Level), Start: e.Start.UnixMilli(), End: e.End.UnixMilli(),
			Peak3h: e.Peak3h, Peak6h: e.Peak6h, Peak12h: e.Peak12h, Ongoing: e.Ongoing})
	}
	return out
}

// rainLatestDTO is GET /apis/poi/{id}/pluviometer/latest.
type rainLatestDTO struct {
	Time     *int64     `json:"time"`     // the newest reading
	Rainfall *float64   `json:"rainfall"` // its amount, mm
	Rain1h   float64    `json:"rain1h"`
	Rain24h  float64    `json:"rain24h"`
	Today    float64    `json:"today"`
	Class1h  string     `json:"class1h"`
	Class24h string     `json:"class24h"`
	LastRain *int64     `json:"lastRain"` // the newest reading with rain in the last 7 days
	Warning  warningDTO `json:"warning"`
}

func toRainLatest(l *rain.Latest) rainLatestDTO {
	return rainLatestDTO{Time: optMs(l.Time), Rainfall: l.Rainfall, Rain1h: l.Rain1h, Rain24h: l.Rain24h, Today: l.Today,
		Class1h: l.Class1h, Class24h: l.Class24h, LastRain: optMs(l.LastRain), Warning: toWarning(l.Warning)}
}

// rainEventDTO is a storm against the I-D threshold.
type rainEventDTO struct {
	Start              int64   `json:"start"`
	End                int64   `json:"end"`
	Hours              float64 `json:"hours"`
	MM                 float64 `json:"mm"`
	Intensity          float64 `json:"intensity"`
	ThresholdIntensity float64 `json:"thresholdIntensity"`
	Ratio              float64 `json:"ratio"`
	Exceeded           bool    `json:"exceeded"`
	Ongoing            bool    `json:"ongoing"`
}

// curvePointDTO is a point of the I-D threshold curve.
type curvePointDTO struct {
	Hours     float64 `json:"hours"`
	Intensity float64 `json:"intensity"` // mm/h
}

// idAnalysisDTO is GET /apis/poi/{id}/pluviometer/i-d and …/i-d/range.
type idAnalysisDTO struct {
	Begin     int64            `json:"begin"`
	End       int64            `json:"end"`
	Threshold agro.IDThreshold `json:"threshold"`
	Curve     []curvePointDTO  `json:"curve"`
	Event     *rainEventDTO    `json:"event,omitempty"`
	Events    []rainEventDTO   `json:"events,omitempty"`
}

func toRainEvent(e rain.Event) rainEventDTO {
	return rainEventDTO{Start: e.Start.UnixMilli(), End: e.End.UnixMilli(), Hours: e.Hours, MM: e.MM, Intensity: e.Intensity,
		ThresholdIntensity: e.ThresholdIntensity, Ratio: e.Ratio, Exceeded: e.Exceeded, Ongoing: e.Ongoing}
}

func toIDAnalysis(a *rain.IDAnalysis) idAnalysisDTO {
	out := idAnalysisDTO{Begin: a.Begin.UnixMilli(), End: a.End.UnixMilli(), Threshold: a.Threshold, Curve: make([]curvePointDTO, len(a.Curve))}
	for i, p := range a.Curve {
		out.Curve[i] = curvePointDTO(p)
	}
	if a.Event != nil {
		e := toRainEvent(*a.Event)
		out.Event = &e
	}
	for _, e := range a.Events {
		out.Events = append(out.Events, toRainEvent(e))
	}
	return out
}

// rainRealtimeDTO is GET /apis/poi/{id}/pluviometer/realtime.
type rainRealtimeDTO struct {
	Begin      int64           `json:"begin"`
	End        int64           `json:"end"`
	Points     [][2]float64    `json:"points"`     // [time ms, mm]
	Cumulative [][2]float64    `json:"cumulative"` // [time ms, mm since begin]
	Hourly     []rainBucketDTO `json:"hourly"`
	Total      float64         `json:"total"`
}

// rainBucketDTO is the rain of one hour, day or month.
type rainBucketDTO struct {
	Time  int64    `json:"time"` // its beginning
	Label string   `json:"label"`
	MM    *float64 `json:"mm"` // null: no reading in the bucket
	Class string   `json:"class,omitempty"`
}

// bucketLabels are the labels of each bucket size.
var bucketLabels = map[string]string{"hour": "2006-01-02 15:00", "day": time.DateOnly, "month": "2006-01"}

func toRainBuckets(bs []rain.Bucket, dim string) []rainBucketDTO {
	out := make([]rainBucketDTO, len(bs))
	for i, b := range bs {
		out[i] = rainBucketDTO{Time: b.Start.UnixMilli(), Label: b.Start.Format(bucketLabels[dim]), MM: b.MM, Class: b.Class}
	}
	return out
}

func rainPoints(as []agro.RainAmount) [][2]float64 {
	out := make([][2]float64, len(as))
	for i, a := range as {
		out[i] = [2]float64{float64(a.Time.UnixMilli()), a.MM}
	}
	return out
}

func toRainRealtime(r *rain.Realtime) rainRealtimeDTO {
	return rainRealtimeDTO{Begin: r.Begin.UnixMilli(), End: r.End.UnixMilli(), Points: rainPoints(r.Readings),
		Cumulative: rainPoints(r.Cumulative), Hourly: toRainBuckets(r.Hourly, "hour"), Total: r.Total}
}

// dayAmountDTO is one day's amount, mm.
type dayAmountDTO struct {
	Time  int64    `json:"time"`
	Date  string   `json:"date"`
	MM    *float64 `json:"mm"`
	Class string   `json:"class,omitempty"` // rain: the 24 h class
}

// rainStatsDTO is GET /apis/poi/{id}/pluviometer/stats.
type rainStatsDTO struct {
	Time      int64         `json:"time"`
	Rain1h    float64       `json:"rain1h"`
	Rain24h   float64       `json:"rain24h"`
	Today     float64       `json:"today"`
	Yesterday float64       `json:"yesterday"`
	Week      float64       `json:"week"`
	Month     float64       `json:"month"`
	Year      float64       `json:"year"`
	RainDays  int           `json:"rainDays"`
	MaxDay    *dayAmountDTO `json:"maxDay"` // this year's wettest day
}

func toRainStats(st *rain.Stats) rainStatsDTO {
	out := rainStatsDTO{Time: st.Time.UnixMilli(), Rain1h: st.Rain1h, Rain24h: st.Rain24h, Today: st.Today, Yesterday: st.Yesterday,
		Week: st.Week, Month: st.Month, Year: st.Year, RainDays: st.RainDays}
	if m := st.MaxDay; m != nil {
		mm := m.MM
		out.MaxDay = &dayAmountDTO{Time: m.Day.UnixMilli(), Date: m.Day.Format(time.DateOnly), MM: &mm, Class: m.Class}
	}
	return out
}

// rainSeriesDTO is GET /apis/poi/{id}/pluviometer/stats_data.
type rainSeriesDTO struct {
	Begin   int64           `json:"begin"`
	End     int64           `json:"end"`
	Dim     string          `json:"dim"` // hour, day or month
	Buckets []rainBucketDTO `json:"list"`
	Total   float64         `json:"total"`
}

func toRainSeries(sr *rain.Series) rainSeriesDTO {
	return rainSeriesDTO{Begin: sr.Begin.UnixMilli(), End: sr.End.UnixMilli(), Dim: sr.Dim, Buckets: toRainBuckets(sr.Buckets, sr.Dim), Total: sr.Total}
}

// installationDTO is GET /apis/poi/{id}/pluviometer/installing.
type installationDTO struct {
	SN              string           `json:"sn"`
	Name            string           `json:"name"`
	Model           string           `json:"model"`
	Location        string           `json:"location"`
	Lng             *float64         `json:"lng"`
	Lat             *float64         `json:"lat"`
	Altitude        *float64         `json:"altitude"`
	InstallTime     *int64           `json:"installTime"`
	DaysInstalled   *int             `json:"daysInstalled"`
	IntervalMinutes int              `json:"intervalMinutes"`
	LastReport      *int64           `json:"lastReport"`
	Criteria        []criterionDTO   `json:"criteria"`
	Threshold       agro.IDThreshold `json:"threshold"` // the default I-D threshold (Caine 1980)
}

func toInstallation(in *rain.Installation) installationDTO {
	d := in.Device
	out := installationDTO{SN: d.SN, Name: d.Name, Location: d.Location, Lng: d.Lng, Lat: d.Lat, Altitude: d.Altitude,
		InstallTime: ms(d.InstallAt), DaysInstalled: in.DaysInstalled, IntervalMinutes: int(d.Interval().Minutes()),
		LastReport: ms(d.LastReportAt), Criteria: rainCriteria(), Threshold: agro.CaineThreshold}
	if t := d.Type(); t != nil {
		out.Model = t.Model
	}
	return out
}

func (s *Server) rainWarning(c *call) (any, error) {
	days, err := queryInt(c.r.URL.Query(), "days", 7, 1, 90)
	if err != nil {
		return nil, err
	}
	w, err := s.Rain.EarlyWarning(c.r.Context(), c.device, days)
	if err != nil {
		return nil, err
	}
	return toRainWarning(w), nil
}

func (s *Server) rainLatest(c *call) (any, error) {
	l, err := s.Rain.Latest(c.r.Context(), c.device)
	if err != nil {
		return nil, err
	}
	return toRainLatest(l), nil
}

func (s *Server) rainID(c *call) (any, error) {
	th, err := idThreshold(c)
	if err != nil {
		return nil, err
	}
	a, err := s.Rain.ID(c.r.Context(), c.device, th)
	if err != nil {
		return nil, err
	}
	return toIDAnalysis(a), nil
}

func (s *Server) rainIDRange(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	th, err := idThreshold(c)
	if err != nil {
		return nil, err
	}
	a, err := s.Rain.IDRange(c.r.Context(), c.device, th, q.r)
	if err != nil {
		return nil, err
	}
	return toIDAnalysis(a), nil
}

func (s *Server) rainRealtime(c *call) (any, error) {
	hours, err := queryInt(c.r.URL.Query(), "hours", 24, 1, 72)
	if err != nil {
		return nil, err
	}
	r, err := s.Rain.Realtime(c.r.Context(), c.device, hours)
	if err != nil {
		return nil, err
	}
	return toRainRealtime(r), nil
}

func (s *Server) rainStats(c *call) (any, error) {
	st, err := s.Rain.Stats(c.r.Context(), c.device)
	if err != nil {
		return nil, err
	}
	return toRainStats(st), nil
}

func (s *Server) rainSeries(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	dim := c.r.URL.Query().Get("dim")
	if dim == "" {
		dim = "day"
	}
	sr, err := s.Rain.Series(c.r.Context(), c.device, dim, q.r)
	if err != nil {
		return nil, err
	}
	return toRainSeries(sr), nil
}

func (s *Server) rainInstallation(c *call) (any, error) {
	in, err := s.Rain.Installation(c.r.Context(), c.device)
	if err != nil {
		return nil, err
	}
	return toInstallation(in), nil
}
