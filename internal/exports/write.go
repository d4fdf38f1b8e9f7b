package exports

import (
	"context"
	"io"
	"math"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/sheet"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// rawWindow is how much time one read of raw readings covers: a week of
// 10-minute data of every parameter and node of the largest catalogue is
// a few hundred thousand readings, so memory stays bounded however long
// the range.
const rawWindow = 7 * 24 * time.Hour

// dailyDigits is how many decimals daily statistics keep, as in charts:
// means and sums carry floating-point noise past that.
const dailyDigits = 4

// Time layouts of the first column, in the job's location.
const (
	rawLayout   = "2006-01-02 15:04:05"
	dailyLayout = "2006-01-02"
)

// column is one column after the time: a parameter at a node (0 for the
// device as a whole) and, for daily data, one of its daily statistics.
type column struct {
	param *devices.Param
	node  int
	agg   devices.Agg
}

type seriesKey struct {
	param string
	node  int
}

// columns lists j's columns for type t: parameters in the catalogue's order,
// each per-node one at every chosen node (all of the type's when none were
// chosen), and for daily data each of the statistics its history shows.
func columns(t *devices.Type, j *Job) []column {
	var out []column
	for _, id := range j.Params {
		p, ok := t.Param(id)
		if !ok {
			continue
		}
		nodes := []int{0}
		if p.PerNode {
			nodes = j.Nodes
			if len(nodes) == 0 {
				nodes = t.Nodes
			}
		}
		aggs := []devices.Agg{""}
		if j.Dim == DimDaily {
			aggs = p.Daily
			if len(aggs) == 0 {
				aggs = []devices.Agg{devices.AggAvg}
			}
		}
		for _, n := range nodes {
			for _, a := range aggs {
				out = append(out, column{param: p, node: n, agg: a})
			}
		}
	}
	return out
}

// query is the history query of j's columns. It names every node it needs
// (0 for the device as a whole): with parameter, node and time all bound,
// each window's read seeks straight to its rows instead of scanning every
// reading of the parameter.
func query(j *Job, cols []column) telemetry.HistoryQuery {
	q := telemetry.HistoryQuery{DeviceID: j.DeviceID, Params: j.Params, Begin: j.Begin, End: j.End, Daily: j.Dim == DimDaily}
	for _, c := range cols {
		if !slices.Contains(q.Nodes, c.node) {
			q.Nodes = append(q.Nodes, c.node)
		}
	}
	slices.Sort(q.Nodes)
	return q
}

// write writes j's file to out: a header row, then one row per time at
// which any column has a reading (per day for daily data), values in their
// columns and empty cells where a series has no reading.
func (s *Service) write(ctx context.Context, out io.Writer, j *Job, t *devices.Type, p *progress) error {
	cols := columns(t, j)
	header := make([]string, 0, len(cols)+1)
	header = append(header, sheet.TimeHeader(j.Dim == DimDaily, j.Lang))
	for _, c := range cols {
		header = append(header, sheet.DataHeader(c.param, c.node, c.agg, j.Lang))
	}
	tbl, err := sheet.NewTable(j.Format, out, j.Lang, header)
	if err != nil {
		return err
	}
	if j.Dim == DimDaily {
		err = s.writeDaily(ctx, tbl, j, cols, p)
	} else {
		err = s.writeRaw(ctx, tbl, j, cols, p)
	}
	if err != nil {
		tbl.Abort()
		return err
	}
	if err := tbl.Close(); err != nil {
		return err
	}
	p.percent.Store(writtenPercent)
	return nil
}

// writeRaw reads the range a window at a time and merges each window's
// series, every one in time order, into rows.
func (s *Service) writeRaw(ctx context.Context, tbl *sheet.Table, j *Job, cols []column, p *progress) error {
	colOf := make(map[seriesKey]int, len(cols))
	for i, c := range cols {
		colOf[seriesKey{c.param.ID, c.node}] = i
	}
	type cursor struct {
		s   *telemetry.HistorySeries
		col int
		i   int
	}
	values := make([]float64, len(cols))
	span := j.End.Sub(j.Begin)
	q := query(j, cols)
	for from := j.Begin; from.Before(j.End); {
		to := from.Add(rawWindow)
		if to.After(j.End) {
			to = j.End
		}
		q.Begin, q.End = from, to
		series, err := s.o.History.Read(ctx, q)
		if err != nil {
			return err
		}
		var cur []cursor
		for i := range series {
			if c, ok := colOf[seriesKey{series[i].Param, series[i].Node}]; ok && len(series[i].TS) > 0 {
				cur = append(cur, cursor{s: &series[i], col: c})
			}
		}
		for {
			next := int64(math.MaxInt64)
			for _, c := range cur {
				if c.i < len(c.s.TS) && c.s.TS[c.i] < next {
					next = c.s.TS[c.i]
				}
			}
			if next == math.MaxInt64 {
				break
			}
			for i := range values {
				values[i] = math.NaN()
			}
			for k := range cur {
				c := &cur[k]
				if c.i < len(c.s.TS) && c.s.TS[c.i] == next {
					values[c.col] = c.s.V[c.i]
					c.i++
				}
			}
			if err := tbl.Row(time.UnixMilli(next).In(s.o.Location).Format(rawLayout), values); err != nil {
				return err
			}
			p.rows.Add(1)
		}
		p.percent.Store(int32(float64(writtenPercent) * float64(to.Sub(j.Begin)) / float64(span)))
		if err := ctx.Err(); err != nil {
			return err
		}
		from = to
	}
	return nil
}

// writeDaily writes one row per local day from the daily rollups: a year
// is at most 366 rows, read at once.
func (s *Service) writeDaily(ctx context.Context, tbl *sheet.Table, j *Job, cols []column, p *progress) error {
	colsOf := map[seriesKey][]int{}
	for i, c := range cols {
		k := seriesKey{c.param.ID, c.node}
		colsOf[k] = append(colsOf[k], i)
	}
	series, err := s.o.History.Read(ctx, query(j, cols))
	if err != nil {
		return err
	}
	rows := map[int64][]float64{}
	var order []int64
	for _, sr := range series {
		for _, day := range sr.Days {
			idx := colsOf[seriesKey{day.Param, day.Node}]
			if len(idx) == 0 || day.Count == 0 {
				continue
			}
			at := day.Day.UnixMilli()
			row, ok := rows[at]
			if !ok {
				row = make([]float64, len(cols))
				for i := range row {
					row[i] = math.NaN()
				}
				rows[at] = row
				order = append(order, at)
			}
			for _, i := range idx {
				row[i] = roundTo(day.Stat(string(cols[i].agg)), dailyDigits)
			}
		}
	}
	slices.Sort(order)
	for _, at := range order {
		if err := tbl.Row(time.UnixMilli(at).In(s.o.Location).Format(dailyLayout), rows[at]); err != nil {
			return err
		}
		p.rows.Add(1)
	}
	return nil
}

// roundTo rounds v to digits decimals.
func roundTo(v float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(v*p) / p
}
