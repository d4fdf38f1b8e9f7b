package telemetry

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"time"
)

// HistoryStore is what History reads: raw series, daily rollups and the
// newest readings (package store).
type HistoryStore interface {
	// Series returns raw readings as one Series per parameter and node,
	// ordered by param, node; times ascending.
	Series(ctx context.Context, q Query) ([]Series, error)
	// Days returns daily rollups ordered by param, node, day.
	Days(ctx context.Context, q Query) ([]Day, error)
	// Latest returns each parameter's newest reading of a device.
	Latest(ctx context.Context, deviceID int64) ([]Reading, error)
}

// History is the one way stored readings are read back: charts, tables,
// the open API, exports and the analyses all go through it, so a day
// begins at the same local midnight and nodes combine the same way
// wherever history is shown.
type History struct {
	store HistoryStore
	loc   *time.Location
}

// HistoryOptions configure a History.
type HistoryOptions struct {
	Store HistoryStore
	// Location is where days begin: the --timezone daily rollups are kept
	// in (default time.Local).
	Location *time.Location
}

// NewHistory returns the history reader of o.Store.
func NewHistory(o HistoryOptions) *History {
	if o.Location == nil {
		o.Location = time.Local
	}
	return &History{store: o.Store, loc: o.Location}
}

// Combine says how the node series of a per-node parameter merge into one.
type Combine string

const (
	CombineNone    Combine = ""
	CombineAverage Combine = "average"
	CombineMax     Combine = "max"
	CombineMin     Combine = "min"
)

// HistoryQuery selects part of one device's history.
type HistoryQuery struct {
	DeviceID int64
	Params   []string // empty: every parameter
	Nodes    []int    // empty: every node; 0 is the device as a whole
	// [Begin, End). A daily query also takes the whole local day Begin
	// falls in, since a day is kept under its local midnight.
	Begin, End time.Time
	Daily      bool
	// Combine merges the nodes of each per-node parameter into one series
	// at node 0; series already at node 0 are left as they are.
	Combine Combine
	// Points, when positive, thins each raw series to at most that many
	// points with every time bucket's extremes kept (Downsample).
	Points int
}

// HistorySeries is one parameter at one node (0 for the device as a whole,
// or for nodes combined): raw readings in TS and V, or, for a daily query,
// one rollup a day in Days, days ascending.
type HistorySeries struct {
	Param string
	Node  int
	TS    []int64
	V     []float64
	// Total is how many raw readings the range holds, before any thinning.
	Total int
	Days  []Day
}

// Sampled reports whether the raw series was thinned.
func (s *HistorySeries) Sampled() bool { return len(s.TS) < s.Total }

// Read returns the series of q, ordered by param, node. A combined daily
// series holds, for each day, the combination of the nodes' minima, maxima,
// last values and means, with its mean in Sum and a Count of 1, so that
// Stat and Avg give the combined figures.
func (h *History) Read(ctx context.Context, q HistoryQuery) ([]HistorySeries, error) {
	sq := Query{DeviceID: q.DeviceID, Params: q.Params, Nodes: q.Nodes, Begin: q.Begin, End: q.End}
	if q.Daily {
		sq.Begin = h.Midnight(q.Begin)
		days, err := h.store.Days(ctx, sq)
		if err != nil {
			return nil, err
		}
		out := daySeries(days)
		if q.Combine != CombineNone {
			out = combineDaily(out, q.Combine)
		}
		return out, nil
	}
	ss, err := h.store.Series(ctx, sq)
	if err != nil {
		return nil, err
	}
	out := make([]HistorySeries, len(ss))
	for i, s := range ss {
		out[i] = HistorySeries{Param: s.Param, Node: s.Node, TS: s.TS, V: s.V, Total: len(s.TS)}
	}
	if q.Combine != CombineNone {
		out = combineRaw(out, q.Combine)
	}
	if q.Points > 0 {
		for i := range out {
			out[i].TS, out[i].V = Downsample(out[i].TS, out[i].V, q.Points)
		}
	}
	return out, nil
}

// Latest returns the newest reading of each parameter and node of a device.
func (h *History) Latest(ctx context.Context, deviceID int64) ([]Reading, error) {
	return h.store.Latest(ctx, deviceID)
}

// Location is where the history's days begin.
func (h *History) Location() *time.Location { return h.loc }

// Midnight is the local midnight that begins t's day: the time its daily
// rollup is kept under.
func (h *History) Midnight(t time.Time) time.Time {
	y, m, d := t.In(h.loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, h.loc)
}

// daySeries cuts rollups ordered by param, node, day into one series each.
func daySeries(days []Day) []HistorySeries {
	var out []HistorySeries
	for i := 0; i < len(days); {
		j := i + 1
		for j < len(days) && days[j].Param == days[i].Param && days[j].Node == days[i].Node {
			j++
		}
		out = append(out, HistorySeries{Param: days[i].Param, Node: days[i].Node, Days: days[i:j:j], Total: j - i})
		i = j
	}
	return out
}

// byParam splits series into those already at node 0 and, in first-seen
// order, each parameter's node series.
func byParam(in []HistorySeries) (whole []HistorySeries, order []string, nodes map[string][]HistorySeries) {
	nodes = map[string][]HistorySeries{}
	for _, s := range in {
		if s.Node == 0 {
			whole = append(whole, s)
			continue
		}
		if _, ok := nodes[s.Param]; !ok {
			order = append(order, s.Param)
		}
		nodes[s.Param] = append(nodes[s.Param], s)
	}
	return whole, order, nodes
}

func sortSeries(out []HistorySeries) {
	slices.SortStableFunc(out, func(a, b HistorySeries) int {
		return cmp.Or(strings.Compare(a.Param, b.Param), cmp.Compare(a.Node, b.Node))
	})
}

// combineRaw merges the node series of each per-node parameter into one,
// combining the readings of one report (same time) with how.
func combineRaw(in []HistorySeries, how Combine) []HistorySeries {
	out, order, nodes := byParam(in)
	for _, p := range order {
		type acc struct {
			sum, min, max float64
			n             int
		}
		at := map[int64]*acc{}
		for _, s := range nodes[p] {
			for i, t := range s.TS {
				a := at[t]
				if a == nil {
					at[t] = &acc{sum: s.V[i], min: s.V[i], max: s.V[i], n: 1}
					continue
				}
				a.sum, a.n = a.sum+s.V[i], a.n+1
				a.min, a.max = math.Min(a.min, s.V[i]), math.Max(a.max, s.V[i])
			}
		}
		m := HistorySeries{Param: p}
		for t := range at {
			m.TS = append(m.TS, t)
		}
		slices.Sort(m.TS)
		m.V = make([]float64, len(m.TS))
		for i, t := range m.TS {
			a := at[t]
			switch how {
			case CombineMax:
				m.V[i] = a.max
			case CombineMin:
				m.V[i] = a.min
			default:
				m.V[i] = a.sum / float64(a.n)
			}
		}
		m.Total = len(m.TS)
		out = append(out, m)
	}
	sortSeries(out)
	return out
}

// combineDaily merges per-node daily series: each statistic of a day is
// combined across nodes with how (the average of the nodes' averages, the
// largest of their maxima, …).
func combineDaily(in []HistorySeries, how Combine) []HistorySeries {
	out, order, nodes := byParam(in)
	combine := func(a, b float64, n int) float64 {
		switch how {
		case CombineMax:
			return math.Max(a, b)
		case CombineMin:
			return math.Min(a, b)
		}
		return a + (b-a)/float64(n) // running mean
	}
	for _, p := range order {
		type acc struct {
			d Day
			n int
		}
		at := map[int64]*acc{}
		for _, s := range nodes[p] {
			for _, d := range s.Days {
				k := d.Day.UnixMilli()
				a := at[k]
				avg := d.Avg()
				if a == nil {
					x := d
					x.Node, x.Sum, x.Count = 0, avg, 1 // Sum holds the combined mean from here on
					at[k] = &acc{d: x, n: 1}
					continue
				}
				a.n++
				a.d.Min, a.d.Max = combine(a.d.Min, d.Min, a.n), combine(a.d.Max, d.Max, a.n)
				a.d.Last, a.d.Sum = combine(a.d.Last, d.Last, a.n), combine(a.d.Sum, avg, a.n)
			}
		}
		m := HistorySeries{Param: p}
		for _, a := range at {
			m.Days = append(m.Days, a.d)
		}
		slices.SortFunc(m.Days, func(a, b Day) int { return a.Day.Compare(b.Day) })
		m.Total = len(m.Days)
		out = append(out, m)
	}
	sortSeries(out)
	return out
}
