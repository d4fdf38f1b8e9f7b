package httpapi

import (
	"cmp"
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

// storeQuery is the store query for h: surface readings are node 0, so a
// node filter must let them through.
func (h *historyQuery) storeQuery() telemetry.Query {
	q := telemetry.Query{DeviceID: h.dev.ID, Params: h.params, Begin: h.begin, End: h.end}
	if len(h.nodes) > 0 {
		q.Nodes = append([]int{0}, h.nodes...)
	}
	return q
}

// series is one parameter at one node (or aggregated across nodes, Node 0).
type series struct {
	param string
	node  int
	ts    []int64
	v     []float64
}

func (s *Server) rawSeries(c *call, h *historyQuery) ([]*series, error) {
	rs, err := s.Telemetry.Series(c.r.Context(), h.storeQuery())
	if err != nil {
		return nil, err
	}
	out := make([]*series, len(rs))
	for i := range rs {
		out[i] = &series{param: rs[i].Param, node: rs[i].Node, ts: rs[i].TS, v: rs[i].V}
	}
	if h.aggregated != "none" {
		out = aggregateRaw(out, h.aggregated)
	}
	return out, nil
}

// aggregateRaw merges the node series of each per-node parameter into one,
// combining the readings of one report (same time) with how.
func aggregateRaw(in []*series, how string) []*series {
	var out []*series
	byParam := map[string][]*series{}
	var order []string
	for _, s := range in {
		if s.node == 0 {
			out = append(out, s)
			continue
		}
		if _, ok := byParam[s.param]; !ok {
			order = append(order, s.param)
		}
		byParam[s.param] = append(byParam[s.param], s)
	}
	for _, p := range order {
		type acc struct {
			sum, min, max float64
			n             int
		}
		at := map[int64]*acc{}
		for _, s := range byParam[p] {
			for i, t := range s.ts {
				a := at[t]
				if a == nil {
					at[t] = &acc{sum: s.v[i], min: s.v[i], max: s.v[i], n: 1}
					continue
				}
				a.sum, a.n = a.sum+s.v[i], a.n+1
				a.min, a.max = math.Min(a.min, s.v[i]), math.Max(a.max, s.v[i])
			}
		}
		m := &series{param: p}
		for t := range at {
			m.ts = append(m.ts, t)
		}
		slices.Sort(m.ts)
		m.v = make([]float64, len(m.ts))
		for i, t := range m.ts {
			a := at[t]
			switch how {
			case "max":
				m.v[i] = a.max
			case "min":
				m.v[i] = a.min
			default:
				m.v[i] = a.sum / float64(a.n)
			}
		}
		out = append(out, m)
	}
	slices.SortStableFunc(out, func(a, b *series) int {
		return cmp.Or(strings.Compare(a.param, b.param), cmp.Compare(a.node, b.node))
	})
	return out
}

// daySeries is one parameter's daily rollups at one node.
type daySeries struct {
	param string
	node  int
	days  []telemetry.Day
}

func (s *Server) dailySeries(c *call, h *historyQuery) ([]*daySeries, error) {
	q := h.storeQuery()
	// A day is stored under its local midnight: start at the midnight of the
	// day begin falls in, so that day is included.
	y, m, d := h.begin.In(s.location()).Date()
	q.Begin = time.Date(y, m, d, 0, 0, 0, 0, s.location())
	days, err := s.Telemetry.Days(c.r.Context(), q)
	if err != nil {
		return nil, err
	}
	// days come series by series: each series is a slice of them.
	var out []*daySeries
	for i := 0; i < len(days); {
		j := i + 1
		for j < len(days) && days[j].Param == days[i].Param && days[j].Node == days[i].Node {
			j++
		}
		out = append(out, &daySeries{param: days[i].Param, node: days[i].Node, days: days[i:j:j]})
		i = j
	}
	if h.aggregated != "none" {
		out = aggregateDaily(out, h.aggregated)
	}
	return out, nil
}

// aggregateDaily merges per-node daily series: each statistic of a day is
// combined across nodes with how (the average of the nodes' averages, the
// largest of their maxima, …).
func aggregateDaily(in []*daySeries, how string) []*daySeries {
	var out []*daySeries
	byParam := map[string][]*daySeries{}
	var order []string
	for _, s := range in {
		if s.node == 0 {
			out = append(out, s)
			continue
		}
		if _, ok := byParam[s.param]; !ok {
			order = append(order, s.param)
		}
		byParam[s.param] = append(byParam[s.param], s)
	}
	combine := func(a, b float64, n int) float64 {
		switch how {
		case "max":
			return math.Max(a, b)
		case "min":
			return math.Min(a, b)
		}
		return a + (b-a)/float64(n) // running mean
	}
	for _, p := range order {
		type acc struct {
			d telemetry.Day
			n int
		}
		at := map[int64]*acc{}
		for _, s := range byParam[p] {
			for _, d := range s.days {
				k := d.Day.UnixMilli()
				a := at[k]
				avg := d.Avg()
				if a == nil {
					x := d
					x.Node, x.Sum, x.Count = 0, avg, 1 // Sum holds the combined average from here on
					at[k] = &acc{d: x, n: 1}
					continue
				}
				a.n++
				a.d.Min, a.d.Max = combine(a.d.Min, d.Min, a.n), combine(a.d.Max, d.Max, a.n)
				a.d.Last, a.d.Sum = combine(a.d.Last, d.Last, a.n), combine(a.d.Sum, avg, a.n)
			}
		}
		m := &daySeries{param: p}
		for _, a := range at {
			m.days = append(m.days, a.d)
		}
		slices.SortFunc(m.days, func(a, b telemetry.Day) int { return a.Day.Compare(b.Day) })
		out = append(out, m)
	}
	slices.SortStableFunc(out, func(a, b *daySeries) int {
		return cmp.Or(strings.Compare(a.param, b.param), cmp.Compare(a.node, b.node))
	})
	return out
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

// dayValue returns a day's statistic by aggregation name.
func dayValue(d telemetry.Day, agg devices.Agg, aggregated bool) float64 {
	if aggregated {
		// Sum is the nodes' mean daily average here.
		switch agg {
		case devices.AggSum:
			return d.Sum * float64(d.Count)
		case devices.AggAvg:
			return d.Sum
		}
	}
	return d.Stat(string(agg))
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
		ss, err := s.rawSeries(c, h)
		if err != nil {
			return nil, err
		}
		out := make([]rawOut, 0, len(ss))
		for _, sr := range ss {
			o := rawOut{seriesHead: h.head(c, sr.param, sr.node), Points: make([][2]float64, len(sr.ts))}
			for i := range sr.ts {
				o.Points[i] = [2]float64{float64(sr.ts[i]), sr.v[i]}
			}
			out = append(out, o)
		}
		resp.Series = out
		return resp, nil
	}
	resp.Dim = "daily"
	ds, err := s.dailySeries(c, h)
	if err != nil {
		return nil, err
	}
	out := make([]dailyOut, 0, len(ds))
	for _, sr := range ds {
		head := h.head(c, sr.param, sr.node)
		o := dailyOut{seriesHead: head, Daily: h.dailyAggs(sr.param), Points: make([]dayDTO, len(sr.days))}
		agg := head.Aggregated != ""
		for i, d := range sr.days {
			o.Points[i] = dayDTO{Time: d.Day.UnixMilli(), Avg: dayValue(d, devices.AggAvg, agg), Min: d.Min, Max: d.Max,
				Sum: dayValue(d, devices.AggSum, agg), Last: d.Last, Count: d.Count,
				Value: dayValue(d, h.primary(sr.param), agg)}
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
		ss, err := s.rawSeries(c, h)
		if err != nil {
			return nil, err
		}
		for _, sr := range ss {
			t, v := telemetry.Downsample(sr.ts, sr.v, h.points)
			out.Series = append(out.Series, col{seriesHead: h.head(c, sr.param, sr.node), Total: len(sr.ts),
				T: t, V: v, Sampled: len(t) < len(sr.ts)})
		}
		return out, nil
	}
	out.Dim = "daily"
	ds, err := s.dailySeries(c, h)
	if err != nil {
		return nil, err
	}
	for _, sr := range ds {
		head := h.head(c, sr.param, sr.node)
		agg := h.primary(sr.param)
		o := col{seriesHead: head, Agg: string(agg), Total: len(sr.days),
			T: make([]int64, len(sr.days)), V: make([]float64, len(sr.days)),
			Min: make([]float64, len(sr.days)), Max: make([]float64, len(sr.days))}
		for i, d := range sr.days {
			o.T[i], o.V[i], o.Min[i], o.Max[i] = d.Day.UnixMilli(), roundTo(dayValue(d, agg, head.Aggregated != ""), dailyDigits), roundTo(d.Min, dailyDigits), roundTo(d.Max, dailyDigits)
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
