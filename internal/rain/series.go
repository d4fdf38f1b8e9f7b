package rain

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Bucket is the rain of one hour, day or month.
type Bucket struct {
	Start time.Time // local, the hour's, day's or month's beginning
	MM    *float64  // nil: no reading in the bucket
	Class string    // the 1 h class of an hour, the 24 h class of a day; "" for months
}

// Realtime is a gauge's readings of the last hours.
type Realtime struct {
	Begin, End time.Time
	Readings   []agro.RainAmount
	Cumulative []agro.RainAmount // the rain since Begin at each reading
	Hourly     []Bucket
	Total      float64
}

// Realtime returns a rain gauge's readings of the last hours (default 24,
// at most 72) with running and hourly totals. Returns EINVALID.
func (s *Service) Realtime(ctx context.Context, d *devices.Device, hours int) (*Realtime, error) {
	if err := gauge(d); err != nil {
		return nil, err
	}
	if hours == 0 {
		hours = 24
	}
	end := s.rd.Now()
	begin := end.Add(-time.Duration(hours) * time.Hour)
	amounts, err := s.rd.RainAmounts(ctx, d.ID, begin, end.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	out := &Realtime{Begin: begin, End: end, Readings: amounts, Cumulative: make([]agro.RainAmount, len(amounts))}
	for i, a := range amounts {
		out.Total += a.MM
		out.Cumulative[i] = agro.RainAmount{Time: a.Time, MM: readings.Round(out.Total, 2)}
	}
	out.Total = readings.Round(out.Total, 2)
	out.Hourly = hourBuckets(amounts, begin.Truncate(time.Hour), end, s.rd.Location())
	return out, nil
}

// hourBuckets sums readings into clock hours: a reading at 10:05 counts in
// 10:00–11:00, one at exactly 11:00 too (it measured the interval before it).
func hourBuckets(amounts []agro.RainAmount, begin, end time.Time, loc *time.Location) []Bucket {
	out := []Bucket{}
	idx := map[int64]int{}
	for h := begin; h.Before(end); h = h.Add(time.Hour) {
		idx[h.UnixMilli()] = len(out)
		out = append(out, Bucket{Start: h.In(loc)})
	}
	for _, a := range amounts {
		h := a.Time.Add(-time.Millisecond).Truncate(time.Hour)
		if i, ok := idx[h.UnixMilli()]; ok {
			b := &out[i]
			if b.MM == nil {
				b.MM = readings.Ptr(0)
			}
			*b.MM = readings.Round(*b.MM+a.MM, 2)
		}
	}
	for i := range out {
		if out[i].MM != nil {
			out[i].Class = Class(*out[i].MM, 1)
		}
	}
	return out
}

// DayAmount is one day's rain.
type DayAmount struct {
	Day   time.Time // local midnight
	MM    float64
	Class string // the 24 h class
}

// Stats are a gauge's totals over the usual periods.
type Stats struct {
	Time      time.Time
	Rain1h    float64
	Rain24h   float64
	Today     float64
	Yesterday float64
	Week      float64 // the last 7 local days, today included
	Month     float64 // this calendar month
	Year      float64 // this calendar year
	RainDays  int
	MaxDay    *DayAmount // this year's wettest day
}

// Stats returns a rain gauge's totals over the usual periods; days come
// from the daily rollups, so they survive raw retention. RainDays counts
// this month's days with at least 0.1 mm. Returns EINVALID.
func (s *Service) Stats(ctx context.Context, d *devices.Device) (*Stats, error) {
	if err := gauge(d); err != nil {
		return nil, err
	}
	loc := s.rd.Location()
	now := s.rd.Now().In(loc)
	today := s.rd.Midnight(now)
	yearStart := time.Date(now.Year(), 1, 1, 0, 0, 0, 0, loc)
	monthStart := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
	from := yearStart
	if weekAgo := today.AddDate(0, 0, -7); weekAgo.Before(from) {
		from = weekAgo
	}
	dt, err := s.rd.Days(ctx, d.ID, []string{"rainfall"}, []int{0}, from, now.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	amounts, err := s.rd.RainAmounts(ctx, d.ID, now.Add(-readings.Day), now.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	round := readings.Round
	rec := NewRecord(amounts)
	out := &Stats{Time: now, Rain1h: round(rec.Sum(now, time.Hour), 2), Rain24h: round(rec.Sum(now, readings.Day), 2)}
	weekStart := today.AddDate(0, 0, -6)
	for _, k := range readings.SortedKeys(dt) {
		r, ok := dt.Get(k, "rainfall", 0)
		if !ok {
			continue
		}
		t := time.UnixMilli(k).In(loc)
		switch {
		case k == today.UnixMilli():
			out.Today = r.Sum
		case k == today.AddDate(0, 0, -1).UnixMilli():
			out.Yesterday = r.Sum
		}
		if !t.Before(weekStart) {
			out.Week += r.Sum
		}
		if !t.Before(monthStart) {
			out.Month += r.Sum
			if r.Sum >= 0.1-1e-9 {
				out.RainDays++
			}
		}
		if !t.Before(yearStart) {
			out.Year += r.Sum
			if r.Sum > 0 && (out.MaxDay == nil || r.Sum > out.MaxDay.MM) {
				out.MaxDay = &DayAmount{Day: t, MM: round(r.Sum, 2), Class: Class(r.Sum, 24)}
			}
		}
	}
	out.Today, out.Yesterday, out.Week = round(out.Today, 2), round(out.Yesterday, 2), round(out.Week, 2)
	out.Month, out.Year = round(out.Month, 2), round(out.Year, 2)
	return out, nil
}

// Series is a gauge's rain per hour, day or month over a range.
type Series struct {
	Begin, End time.Time
	Dim        string // hour, day or month
	Buckets    []Bucket
	Total      float64
}

// Dims are the bucket sizes of Series, with their default and longest
// ranges.
var Dims = map[string][2]time.Duration{
	"hour":  {readings.Day, 31 * readings.Day},
	"day":   {30 * readings.Day, 3660 * readings.Day},
	"month": {366 * readings.Day, 3660 * readings.Day},
}

// Series returns a rain gauge's rain per hour (from readings), per day or
// per month (from daily rollups) over r. Each bucket carries its class (1 h
// or 24 h; months have none); a bucket without any reading is nil.
// Returns EINVALID.
func (s *Service) Series(ctx context.Context, d *devices.Device, dim string, r readings.Range) (*Series, error) {
	if err := gauge(d); err != nil {
		return nil, err
	}
	lim, ok := Dims[dim]
	if !ok {
		return nil, errs.Invalid("dim", "query.unknownValue")
	}
	begin, end, err := s.rd.Span(r, lim[0], lim[1])
	if err != nil {
		return nil, err
	}
	out := &Series{Begin: begin, End: end, Dim: dim}
	switch dim {
	case "hour":
		amounts, err := s.rd.RainAmounts(ctx, d.ID, begin, end.Add(time.Millisecond))
		if err != nil {
			return nil, err
		}
		out.Buckets = hourBuckets(amounts, begin.Truncate(time.Hour), end, s.rd.Location())
	default:
		if out.Buckets, err = s.dayBuckets(ctx, d, dim, begin, end); err != nil {
			return nil, err
		}
	}
	for _, b := range out.Buckets {
		if b.MM != nil {
			out.Total += *b.MM
		}
	}
	out.Total = readings.Round(out.Total, 2)
	return out, nil
}

// dayBuckets sums the daily rollups of [begin, end) into days or months.
func (s *Service) dayBuckets(ctx context.Context, d *devices.Device, dim string, begin, end time.Time) ([]Bucket, error) {
	dt, err := s.rd.Days(ctx, d.ID, []string{"rainfall"}, []int{0}, begin, end)
	if err != nil {
		return nil, err
	}
	out := []Bucket{}
	idx := map[int64]int{}
	s.rd.EachDay(begin, end, func(mid time.Time) {
		b := mid
		if dim == "month" {
			b = time.Date(mid.Year(), mid.Month(), 1, 0, 0, 0, 0, s.rd.Location())
		}
		i, ok := idx[b.UnixMilli()]
		if !ok {
			i = len(out)
			idx[b.UnixMilli()] = i
			out = append(out, Bucket{Start: b})
		}
		if r, ok := dt.Get(mid.UnixMilli(), "rainfall", 0); ok {
			bk := &out[i]
			if bk.MM == nil {
				bk.MM = readings.Ptr(0)
			}
			*bk.MM = readings.Round(*bk.MM+r.Sum, 2)
		}
	})
	if dim == "day" {
		for i := range out {
			if out[i].MM != nil {
				out[i].Class = Class(*out[i].MM, 24)
			}
		}
	}
	return out, nil
}
