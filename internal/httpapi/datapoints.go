package httpapi

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// History bounds: a raw query may span the raw retention, a daily one ten
// years; a chart gets at most maxPoints points per series.
const (
	maxRawRange   = 400 * 24 * time.Hour
	maxDailyRange = 3660 * 24 * time.Hour
	defaultPoints = 1000
	maxPoints     = 10000
)

type paramDTO struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Unit      string   `json:"unit"`
	Precision int      `json:"precision"`
	PerNode   bool     `json:"perNode"`
	Daily     []string `json:"daily"`
	Min       float64  `json:"min"`
	Max       float64  `json:"max"`
}

// metadata serves GET /apis/poi/{id}/datapoints/v2/metadata: the device's
// parameter catalogue in the caller's language.
func (s *Server) metadata(c *call) (any, error) {
	d := c.device
	t := d.Type()
	out := struct {
		TypeID int        `json:"typeId"`
		Page   string     `json:"page"`
		Nodes  []int      `json:"nodes"`
		Params []paramDTO `json:"params"`
	}{TypeID: t.ID, Page: string(t.Page), Nodes: nonNil(t.Nodes)}
	for _, p := range t.Params {
		daily := make([]string, len(p.Daily))
		for i, a := range p.Daily {
			daily[i] = string(a)
		}
		out.Params = append(out.Params, paramDTO{ID: p.ID, Name: p.Name(c.lang), Unit: p.Unit, Precision: p.Precision,
			PerNode: p.PerNode, Daily: daily, Min: p.Min, Max: p.Max})
	}
	return out, nil
}

// historyQuery is a parsed datapoints request.
type historyQuery struct {
	dev        *devices.Device
	typ        *devices.Type
	begin, end time.Time
	params     []string
	nodes      []int
	daily      bool
	aggregated string // none, average, max, min
	points     int
}

// parseTime accepts unix milliseconds, RFC 3339 or a date (local midnight).
func (s *Server) parseTime(v, field string) (time.Time, error) {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return time.UnixMilli(n), nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, v, s.location()); err == nil {
		return t, nil
	}
	return time.Time{}, errs.Invalid(field, "query.time")
}

func (s *Server) parseHistory(c *call) (*historyQuery, error) {
	d := c.device
	q := c.r.URL.Query()
	h := &historyQuery{dev: d, typ: d.Type(), aggregated: "none"}
	switch q.Get("dim") {
	case "", "raw":
	case "daily":
		h.daily = true
	default:
		return nil, errs.Invalid("dim", "query.unknownValue")
	}
	switch a := q.Get("aggregated"); a {
	case "", "none":
	case "average", "max", "min":
		h.aggregated = a
	default:
		return nil, errs.Invalid("aggregated", "query.unknownValue")
	}
	var err error
	h.end = time.Now()
	if v := q.Get("end"); v != "" {
		if h.end, err = s.parseTime(v, "end"); err != nil {
			return nil, err
		}
	}
	h.begin = h.end.AddDate(0, 0, -7)
	if h.daily {
		h.begin = h.end.AddDate(0, 0, -30)
	}
	if v := q.Get("begin"); v != "" {
		if h.begin, err = s.parseTime(v, "begin"); err != nil {
			return nil, err
		}
	}
	if !h.begin.Before(h.end) {
		return nil, errs.Invalid("end", "query.endBeforeBegin")
	}
	limit := maxRawRange
	if h.daily {
		limit = maxDailyRange
	}
	if h.end.Sub(h.begin) > limit {
		return nil, errs.Invalid("begin", "query.rangeTooLong").With(map[string]any{"days": int(limit.Hours() / 24)})
	}
	if v := q.Get("params"); v != "" {
		for p := range strings.SplitSeq(v, ",") {
			if _, ok := h.typ.Param(p); !ok {
				return nil, errs.Invalid("params", "query.unknownParam").With(map[string]any{"param": p})
			}
			h.params = append(h.params, p)
		}
	}
	if v := q.Get("nodes"); v != "" {
		for n := range strings.SplitSeq(v, ",") {
			depth, err := strconv.Atoi(n)
			if err != nil || !slices.Contains(h.typ.Nodes, depth) {
				return nil, errs.Invalid("nodes", "query.unknownNode").With(map[string]any{"node": n})
			}
			h.nodes = append(h.nodes, depth)
		}
	}
	if h.points, err = queryInt(q, "points", defaultPoints, 10, maxPoints); err != nil {
		return nil, err
	}
	return h, nil
}

// read reads h's series through the history service. Device-wide
// readings are node 0, so a node filter lets them through.
func (s *Server) read(c *call, h *historyQuery, points int) ([]telemetry.HistorySeries, error) {
	q := telemetry.HistoryQuery{DeviceID: h.dev.ID, Params: h.params, Begin: h.begin, End: h.end,
		Daily: h.daily, Points: points}
	if h.aggregated != "none" {
		q.Combine = telemetry.Combine(h.aggregated)
	}
	if len(h.nodes) > 0 {
		q.Nodes = append([]int{0}, h.nodes...)
	}
	return s.History.Read(c.r.Context(), q)
}

type seriesHead struct {
	Param      string `json:"param"`
	Node       int    `json:"node"`
	Aggregated string `json:"aggregated,omitempty"`
	Name       string `json:"name"`
	Unit       string `json:"unit"`
	Precision  int    `json:"precision"`
}

func (h *historyQuery) head(c *call, param string, node int) seriesHead {
	sh := seriesHead{Param: param, Node: node}
	if p, ok := h.typ.Param(param); ok {
		sh.Name, sh.Unit, sh.Precision = p.Name(c.lang), p.Unit, p.Precision
		if p.PerNode && h.aggregated != "none" {
			sh.Aggregated = h.aggregated
		}
	}
	return sh
}

type dayDTO struct {
	Time  int64   `json:"time"`
	Avg   float64 `json:"avg"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Sum   float64 `json:"sum"`
	Last  float64 `json:"last"`
	Count int     `json:"count"`
	Value float64 `json:"value"` // the parameter's first daily aggregation
}

func (h *historyQuery) primary(param string) devices.Agg {
	if p, ok := h.typ.Param(param); ok && len(p.Daily) > 0 {
		return p.Daily[0]
	}
	return devices.AggAvg
}

// datapointsV2 serves GET /apis/poi/{id}/datapoints/v2: readings as rows.
func (s *Server) datapointsV2(c *call) (any, error) {
	h, err := s.parseHistory(c)
	if err != nil {
		return nil, err
	}
	type rawOut struct {
		seriesHead
		Points [][2]float64 `json:"points"` // [time ms, value]
	}
	type dailyOut struct {
		seriesHead
		Daily  []string `json:"daily"`
		Points []dayDTO `json:"points"`
	}
	resp := struct {
		Begin      int64  `json:"begin"`
		End        int64  `json:"end"`
		Dim        string `json:"dim"`
		Aggregated string `json:"aggregated"`
		Series     any    `json:"series"`
	}{Begin: h.begin.UnixMilli(), End: h.end.UnixMilli(), Dim: "raw", Aggregated: h.aggregated}
	if !h.daily {
		ss, err := s.read(c, h, 0)
		if err != nil {
			return nil, err
		}
		out := make([]rawOut, 0, len(ss))
		for _, sr := range ss {
			o := rawOut{seriesHead: h.head(c, sr.Param, sr.Node), Points: make([][2]float64, len(sr.TS))}
			for i := range sr.TS {
				o.Points[i] = [2]float64{float64(sr.TS[i]), sr.V[i]}
			}
			out = append(out, o)
		}
		resp.Series = out
		return resp, nil
	}
	resp.Dim = "daily"
	ds, err := s.read(c, h, 0)
	if err != nil {
		return nil, err
	}
	out := make([]dailyOut, 0, len(ds))
	for _, sr := range ds {
		o := dailyOut{seriesHead: h.head(c, sr.Param, sr.Node), Daily: h.dailyAggs(sr.Param), Points: make([]dayDTO, len(sr.Days))}
		for i, d := range sr.Days {
			o.Points[i] = dayDTO{Time: d.Day.UnixMilli(), Avg: d.Avg(), Min: d.Min, Max: d.Max, Sum: d.Sum, Last: d.Last,
				Count: d.Count, Value: d.Stat(string(h.primary(sr.Param)))}
		}
		out = append(out, o)
	}
	resp.Series = out
	return resp, nil
}

func (h *historyQuery) dailyAggs(param string) []string {
	p, ok := h.typ.Param(param)
	if !ok {
		return []string{}
	}
	out := make([]string, len(p.Daily))
	for i, a := range p.Daily {
		out[i] = string(a)
	}
	return out
}

// datapointsV3 serves GET /apis/poi/{id}/datapoints/v3: columnar arrays
// ready for a chart, each series reduced to at most `points` points with
// its peaks kept.
func (s *Server) datapointsV3(c *call) (any, error) {
	h, err := s.parseHistory(c)
	if err != nil {
		return nil, err
	}
	type col struct {
		seriesHead
		Agg     string    `json:"agg,omitempty"` // daily: which statistic V holds
		Total   int       `json:"total"`         // points before downsampling
		T       []int64   `json:"t"`
		V       []float64 `json:"v"`
		Min     []float64 `json:"min,omitempty"`
		Max     []float64 `json:"max,omitempty"`
		Sampled bool      `json:"sampled"`
	}
	out := struct {
		Begin      int64  `json:"begin"`
		End        int64  `json:"end"`
		Dim        string `json:"dim"`
		Aggregated string `json:"aggregated"`
		Points     int    `json:"points"`
		Series     []col  `json:"series"`
	}{Begin: h.begin.UnixMilli(), End: h.end.UnixMilli(), Dim: "raw", Aggregated: h.aggregated, Points: h.points, Series: []col{}}
	if !h.daily {
		ss, err := s.read(c, h, h.points)
		if err != nil {
			return nil, err
		}
		for _, sr := range ss {
			out.Series = append(out.Series, col{seriesHead: h.head(c, sr.Param, sr.Node), Total: sr.Total,
				T: sr.TS, V: sr.V, Sampled: sr.Sampled()})
		}
		return out, nil
	}
	out.Dim = "daily"
	ds, err := s.read(c, h, 0)
	if err != nil {
		return nil, err
	}
	for _, sr := range ds {
		agg := h.primary(sr.Param)
		n := len(sr.Days)
		o := col{seriesHead: h.head(c, sr.Param, sr.Node), Agg: string(agg), Total: n,
			T: make([]int64, n), V: make([]float64, n), Min: make([]float64, n), Max: make([]float64, n)}
		for i, d := range sr.Days {
			o.T[i], o.V[i], o.Min[i], o.Max[i] = d.Day.UnixMilli(), roundTo(d.Stat(string(agg)), dailyDigits), roundTo(d.Min, dailyDigits), roundTo(d.Max, dailyDigits)
		}
		// Ten years of days is 3,650 points: thin only the value column when
		// asked for fewer; min and max bands stay whole days.
		if len(o.T) > h.points {
			o.T, o.V = telemetry.Downsample(o.T, o.V, h.points)
			o.Min, o.Max, o.Sampled = nil, nil, true
		}
		out.Series = append(out.Series, o)
	}
	return out, nil
}

// images serves GET /apis/poi/{id}/images: a camera device's newest images.
func (s *Server) images(c *call) (any, error) {
	d := c.device
	limit, err := queryInt(c.r.URL.Query(), "size", 20, 1, 100)
	if err != nil {
		return nil, err
	}
	list, err := s.Images.Images(c.r.Context(), d.ID, limit)
	if err != nil {
		return nil, err
	}
	type imageDTO struct {
		telemetry.Image
		Time int64  `json:"time"`
		URL  string `json:"url"`
	}
	out := make([]imageDTO, len(list))
	for i, im := range list {
		out[i] = imageDTO{Image: im, Time: im.Time.UnixMilli(),
			URL: "/apis/poi/" + strconv.FormatInt(d.ID, 10) + "/images/" + strconv.FormatInt(im.ID, 10)}
	}
	return out, nil
}

// image serves GET /apis/poi/{id}/images/{imageId}: the image itself.
func (s *Server) image(c *call) (any, error) {
	d := c.device
	id, err := pathID(c, "imageId")
	if err != nil {
		return nil, err
	}
	im, data, err := s.Images.ImageData(c.r.Context(), d.ID, id)
	if err != nil {
		return nil, err
	}
	return &download{contentType: im.ContentType, body: data, cache: "private, max-age=86400, immutable"}, nil
}

// dailyDigits is how many decimals daily statistics keep in a chart answer:
// means of hundreds of readings carry fifteen digits of noise, which make
// the answer long and slow to encode; four decimals is finer than any
// sensor the catalogue lists.
const dailyDigits = 4

// roundTo rounds v to digits decimals.
func roundTo(v float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(v*p) / p
}
