package analysis

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// eventGap is the dry spell that ends a rain event: the minimum inter-event
// time commonly used to separate storms in rainfall-threshold studies.
const eventGap = 6 * time.Hour

// Warning is a rainstorm warning signal level (SPEC §4: 01–04 blue, yellow,
// orange, red; level 0 none).
type Warning struct {
	Level int    `json:"level"`
	Code  string `json:"code"`  // "01"–"04", "" for none
	Color string `json:"color"` // none, blue, yellow, orange, red
}

func warningOf(w agro.WarningLevel) Warning {
	return Warning{Level: int(w), Code: w.Code(), Color: w.String()}
}

// WarningCriterion is one signal's rule: rain of at least MM within Hours.
type WarningCriterion struct {
	Warning
	Hours int     `json:"hours"`
	MM    float64 `json:"mm"`
}

// Criteria are the rainstorm signal rules of agro.RainstormWarning.
var Criteria = []WarningCriterion{
	{warningOf(agro.WarningBlue), 12, 50},
	{warningOf(agro.WarningYellow), 6, 50},
	{warningOf(agro.WarningOrange), 3, 50},
	{warningOf(agro.WarningRed), 3, 100},
}

// rainRecord is a device's rainfall readings with running sums.
type rainRecord struct {
	amounts []agro.RainAmount
	prefix  []float64 // prefix[i] is the sum of the first i amounts
}

func newRainRecord(amounts []agro.RainAmount) *rainRecord {
	r := &rainRecord{amounts: amounts, prefix: make([]float64, len(amounts)+1)}
	for i, a := range amounts {
		r.prefix[i+1] = r.prefix[i] + a.MM
	}
	return r
}

// sum is the rain of the readings at times in (to − window, to].
func (r *rainRecord) sum(to time.Time, window time.Duration) float64 {
	hi := sort.Search(len(r.amounts), func(i int) bool { return r.amounts[i].Time.After(to) })
	lo := sort.Search(len(r.amounts), func(i int) bool { return r.amounts[i].Time.After(to.Add(-window)) })
	if lo >= hi {
		return 0
	}
	return math.Max(0, r.prefix[hi]-r.prefix[lo])
}

func (r *rainRecord) warningAt(t time.Time) (agro.WarningLevel, [3]float64) {
	s := [3]float64{r.sum(t, 3*time.Hour), r.sum(t, 6*time.Hour), r.sum(t, 12*time.Hour)}
	return agro.RainstormWarning(s[0], s[1], s[2]), s
}

// lastRain is the time of the newest reading with rain.
func (r *rainRecord) lastRain() time.Time {
	for i := len(r.amounts) - 1; i >= 0; i-- {
		if r.amounts[i].MM > 0 {
			return r.amounts[i].Time
		}
	}
	return time.Time{}
}

func (s *Service) rainDevice(ctx context.Context, viewer, id int64) (*devices.Device, error) {
	d, _, _, err := s.device(ctx, viewer, id, "rainfall")
	return d, err
}

// rainClass names the class of mm over hours (1, 12 or 24).
func rainClass(mm float64, hours int) string {
	c, err := agro.RainClassOf(mm, hours)
	if err != nil {
		return ""
	}
	return c.String()
}

// RainWarning is GET /apis/poi/{id}/pluviometer/early-warning.
type RainWarning struct {
	Time int64 `json:"time"`
	// Current is the signal the rain of the last 3, 6 and 12 hours calls for.
	Current  Warning            `json:"current"`
	Rain1h   float64            `json:"rain1h"`
	Rain3h   float64            `json:"rain3h"`
	Rain6h   float64            `json:"rain6h"`
	Rain12h  float64            `json:"rain12h"`
	Rain24h  float64            `json:"rain24h"`
	Criteria []WarningCriterion `json:"criteria"`
	// Episodes are the spells of the range when a signal was called for,
	// each with its highest level, newest first.
	Episodes []WarningEpisode `json:"episodes"`
	Highest  Warning          `json:"highest"`
}

// WarningEpisode is a spell with a signal in force.
type WarningEpisode struct {
	Warning
	Start   int64   `json:"start"`
	End     int64   `json:"end"` // the last reading with the signal in force
	Peak3h  float64 `json:"peak3h"`
	Peak6h  float64 `json:"peak6h"`
	Peak12h float64 `json:"peak12h"`
	Ongoing bool    `json:"ongoing"`
}

// RainWarning returns the rainstorm signal a rain gauge's readings call for
// now, and the spells over the last days (default 7, at most 90) when one
// was. Returns ENOTFOUND, EINVALID.
func (s *Service) RainWarning(ctx context.Context, viewer, id int64, days int) (*RainWarning, error) {
	d, err := s.rainDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	if days == 0 {
		days = 7
	}
	now := s.now()
	begin := now.Add(-time.Duration(days) * day)
	amounts, err := s.rainAmounts(ctx, d.ID, begin.Add(-12*time.Hour), now.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	rec := newRainRecord(amounts)
	lvl, sums := rec.warningAt(now)
	out := &RainWarning{Time: ms(now), Current: warningOf(lvl), Rain1h: round(rec.sum(now, time.Hour), 2),
		Rain3h: round(sums[0], 2), Rain6h: round(sums[1], 2), Rain12h: round(sums[2], 2), Rain24h: round(rec.sum(now, day), 2),
		Criteria: Criteria, Episodes: []WarningEpisode{}}
	var cur *WarningEpisode
	highest := agro.WarningNone
	for _, a := range amounts {
		if a.Time.Before(begin) {
			continue
		}
		l, sm := rec.warningAt(a.Time)
		if l == agro.WarningNone {
			cur = nil
			continue
		}
		if cur == nil {
			out.Episodes = append(out.Episodes, WarningEpisode{Start: ms(a.Time)})
			cur = &out.Episodes[len(out.Episodes)-1]
		}
		if int(l) > cur.Level {
			cur.Warning = warningOf(l)
		}
		highest = max(highest, l)
		cur.End = ms(a.Time)
		cur.Peak3h, cur.Peak6h, cur.Peak12h = math.Max(cur.Peak3h, round(sm[0], 2)), math.Max(cur.Peak6h, round(sm[1], 2)), math.Max(cur.Peak12h, round(sm[2], 2))
	}
	if n := len(out.Episodes); n > 0 && lvl != agro.WarningNone {
		out.Episodes[n-1].Ongoing = true
	}
	for i, j := 0, len(out.Episodes)-1; i < j; i, j = i+1, j-1 {
		out.Episodes[i], out.Episodes[j] = out.Episodes[j], out.Episodes[i]
	}
	out.Highest = warningOf(highest)
	return out, nil
}

// RainLatest is GET /apis/poi/{id}/pluviometer/latest.
type RainLatest struct {
	Time     *int64   `json:"time"`     // the newest reading
	Rainfall *float64 `json:"rainfall"` // its amount, mm
	Rain1h   float64  `json:"rain1h"`
	Rain24h  float64  `json:"rain24h"`
	Today    float64  `json:"today"`
	Class1h  string   `json:"class1h"`
	Class24h string   `json:"class24h"`
	LastRain *int64   `json:"lastRain"` // the newest reading with rain in the last 7 days
	Warning  Warning  `json:"warning"`
}

// RainLatest returns a rain gauge's newest reading and the totals around it.
// Returns ENOTFOUND, EINVALID.
func (s *Service) RainLatest(ctx context.Context, viewer, id int64) (*RainLatest, error) {
	d, err := s.rainDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	now := s.now()
	amounts, err := s.rainAmounts(ctx, d.ID, now.Add(-7*day), now.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	rec := newRainRecord(amounts)
	lvl, _ := rec.warningAt(now)
	out := &RainLatest{Rain1h: round(rec.sum(now, time.Hour), 2), Rain24h: round(rec.sum(now, day), 2),
		Today: round(rec.sum(now, now.Sub(s.midnight(now))+time.Nanosecond), 2), LastRain: msPtr(rec.lastRain()), Warning: warningOf(lvl)}
	out.Class1h, out.Class24h = rainClass(out.Rain1h, 1), rainClass(out.Rain24h, 24)
	if n := len(amounts); n > 0 {
		out.Time, out.Rainfall = msPtr(amounts[n-1].Time), ptr(amounts[n-1].MM)
	}
	return out, nil
}

// RainEvent is a storm: rain readings with no dry spell of 6 hours or more
// between them, with its intensity against the I-D threshold.
type RainEvent struct {
	Start     int64   `json:"start"` // the beginning of the first rainy reading's interval
	End       int64   `json:"end"`   // the last rainy reading
	Hours     float64 `json:"hours"`
	MM        float64 `json:"mm"`
	Intensity float64 `json:"intensity"` // mean, mm/h
	// ThresholdIntensity is the threshold's intensity for the event's
	// duration; Ratio is Intensity over it, 1 or more when reached.
	ThresholdIntensity float64 `json:"thresholdIntensity"`
	Ratio              float64 `json:"ratio"`
	Exceeded           bool    `json:"exceeded"`
	Ongoing            bool    `json:"ongoing"` // the last rain is less than 6 h old
}

// rainEvents splits a record into events, each measured against th.
func rainEvents(amounts []agro.RainAmount, interval time.Duration, th agro.IDThreshold, now time.Time) []RainEvent {
	out := []RainEvent{}
	var first, last time.Time
	var sum float64
	flush := func() {
		if first.IsZero() {
			return
		}
		start := first.Add(-interval)
		h := last.Sub(start).Hours()
		e := RainEvent{Start: ms(start), End: ms(last), Hours: round(h, 3), MM: round(sum, 2), Intensity: round(sum/h, 3),
			ThresholdIntensity: round(th.Intensity(h), 3), Ratio: round(th.Ratio(sum, h), 3), Ongoing: now.Sub(last) < eventGap}
		e.Exceeded = th.Ratio(sum, h) >= 1
		out = append(out, e)
		first, sum = time.Time{}, 0
	}
	for _, a := range amounts {
		if a.MM <= 0 {
			continue
		}
		if !first.IsZero() && a.Time.Sub(last) >= eventGap {
			flush()
		}
		if first.IsZero() {
			first = a.Time
		}
		last, sum = a.Time, sum+a.MM
	}
	flush()
	return out
}

// CurvePoint is a point of the I-D threshold curve.
type CurvePoint struct {
	Hours     float64 `json:"hours"`
	Intensity float64 `json:"intensity"` // mm/h
}

// thresholdCurve samples I = α D^−β at 25 durations spaced evenly on a log
// scale from 6 minutes to 10 days, the span Caine fitted.
func thresholdCurve(th agro.IDThreshold) []CurvePoint {
	const n = 25
	lo, hi := math.Log10(0.1), math.Log10(240)
	out := make([]CurvePoint, n)
	for i := range out {
		h := math.Pow(10, lo+(hi-lo)*float64(i)/(n-1))
		out[i] = CurvePoint{Hours: round(h, 4), Intensity: round(th.Intensity(h), 4)}
	}
	return out
}

// CheckThreshold checks I-D coefficients; nil values take Caine's (1980).
// Returns EINVALID naming alpha or beta.
func CheckThreshold(alpha, beta *float64) (agro.IDThreshold, error) {
	th := agro.CaineThreshold
	if alpha != nil {
		th.Alpha = *alpha
	}
	if beta != nil {
		th.Beta = *beta
	}
	if err := th.Validate(); err != nil {
		field := "alpha"
		if ie, ok := err.(*agro.InputError); ok && ie.Field == "beta" {
			field = "beta"
		}
		return th, errs.Invalid(field, "analysis.idThreshold")
	}
	return th, nil
}

// IDAnalysis is GET /apis/poi/{id}/pluviometer/i-d and …/i-d/range.
type IDAnalysis struct {
	Begin     int64            `json:"begin"`
	End       int64            `json:"end"`
	Threshold agro.IDThreshold `json:"threshold"`
	Curve     []CurvePoint     `json:"curve"`
	// Event is the newest event of the last 7 days (i-d only).
	Event *RainEvent `json:"event,omitempty"`
	// Events are every event of the range (i-d/range only).
	Events []RainEvent `json:"events,omitempty"`
}

// ID returns the newest rain event of the last 7 days at a rain gauge
// against the I-D threshold th. Returns ENOTFOUND, EINVALID.
func (s *Service) ID(ctx context.Context, viewer, id int64, th agro.IDThreshold) (*IDAnalysis, error) {
	now := s.now()
	a, err := s.idEvents(ctx, viewer, id, th, now.Add(-7*day), now)
	if err != nil {
		return nil, err
	}
	if n := len(a.Events); n > 0 {
		a.Event = &a.Events[n-1]
	}
	a.Events = nil
	return a, nil
}

// IDRange returns every rain event of r (default the last 30 days, at most
// 366) at a rain gauge against th. Returns ENOTFOUND, EINVALID.
func (s *Service) IDRange(ctx context.Context, viewer, id int64, th agro.IDThreshold, r Range) (*IDAnalysis, error) {
	begin, end, err := s.span(r, 30*day, 366*day)
	if err != nil {
		return nil, err
	}
	return s.idEvents(ctx, viewer, id, th, begin, end)
}

func (s *Service) idEvents(ctx context.Context, viewer, id int64, th agro.IDThreshold, begin, end time.Time) (*IDAnalysis, error) {
	d, err := s.rainDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	amounts, err := s.rainAmounts(ctx, d.ID, begin, end.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	return &IDAnalysis{Begin: ms(begin), End: ms(end), Threshold: th, Curve: thresholdCurve(th),
		Events: rainEvents(amounts, d.Interval(), th, s.now())}, nil
}

// RainRealtime is GET /apis/poi/{id}/pluviometer/realtime.
type RainRealtime struct {
	Begin      int64        `json:"begin"`
	End        int64        `json:"end"`
	Points     [][2]float64 `json:"points"`     // [time ms, mm]
	Cumulative [][2]float64 `json:"cumulative"` // [time ms, mm since begin]
	Hourly     []RainBucket `json:"hourly"`
	Total      float64      `json:"total"`
}

// RainBucket is the rain of one hour, day or month.
type RainBucket struct {
	Time  int64    `json:"time"` // its beginning
	Label string   `json:"label"`
	MM    *float64 `json:"mm"` // null: no reading in the bucket
	Class string   `json:"class,omitempty"`
}

// RainRealtime returns a rain gauge's readings of the last hours (default
// 24, at most 72) with running and hourly totals. Returns ENOTFOUND, EINVALID.
func (s *Service) RainRealtime(ctx context.Context, viewer, id int64, hours int) (*RainRealtime, error) {
	d, err := s.rainDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	if hours == 0 {
		hours = 24
	}
	end := s.now()
	begin := end.Add(-time.Duration(hours) * time.Hour)
	amounts, err := s.rainAmounts(ctx, d.ID, begin, end.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	out := &RainRealtime{Begin: ms(begin), End: ms(end), Points: [][2]float64{}, Cumulative: [][2]float64{}}
	for _, a := range amounts {
		out.Total += a.MM
		out.Points = append(out.Points, [2]float64{float64(ms(a.Time)), a.MM})
		out.Cumulative = append(out.Cumulative, [2]float64{float64(ms(a.Time)), round(out.Total, 2)})
	}
	out.Total = round(out.Total, 2)
	out.Hourly = hourBuckets(amounts, begin.Truncate(time.Hour), end, s.loc)
	return out, nil
}

// hourBuckets sums readings into clock hours: a reading at 10:05 counts in
// 10:00–11:00, one at exactly 11:00 too (it measured the interval before it).
func hourBuckets(amounts []agro.RainAmount, begin, end time.Time, loc *time.Location) []RainBucket {
	out := []RainBucket{}
	idx := map[int64]int{}
	for h := begin; h.Before(end); h = h.Add(time.Hour) {
		idx[ms(h)] = len(out)
		out = append(out, RainBucket{Time: ms(h), Label: h.In(loc).Format("2006-01-02 15:00")})
	}
	for _, a := range amounts {
		h := a.Time.Add(-time.Millisecond).Truncate(time.Hour)
		if i, ok := idx[ms(h)]; ok {
			b := &out[i]
			if b.MM == nil {
				b.MM = ptr(0)
			}
			*b.MM = round(*b.MM+a.MM, 2)
		}
	}
	for i := range out {
		if out[i].MM != nil {
			out[i].Class = rainClass(*out[i].MM, 1)
		}
	}
	return out
}

// RainStats is GET /apis/poi/{id}/pluviometer/stats.
type RainStats struct {
	Time      int64      `json:"time"`
	Rain1h    float64    `json:"rain1h"`
	Rain24h   float64    `json:"rain24h"`
	Today     float64    `json:"today"`
	Yesterday float64    `json:"yesterday"`
	Week      float64    `json:"week"`  // the last 7 local days, today included
	Month     float64    `json:"month"` // this calendar month
	Year      float64    `json:"year"`  // this calendar year
	RainDays  int        `json:"rainDays"`
	MaxDay    *DayAmount `json:"maxDay"` // this year's wettest day
}

// RainStats returns a rain gauge's totals over the usual periods; days come
// from the daily rollups, so they survive raw retention. RainDays counts
// this month's days with at least 0.1 mm. Returns ENOTFOUND, EINVALID.
func (s *Service) RainStats(ctx context.Context, viewer, id int64) (*RainStats, error) {
	d, err := s.rainDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	now := s.now().In(s.loc)
	today := s.midnight(now)
	yearStart := time.Date(now.Year(), 1, 1, 0, 0, 0, 0, s.loc)
	monthStart := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, s.loc)
	from := yearStart
	if weekAgo := today.AddDate(0, 0, -7); weekAgo.Before(from) {
		from = weekAgo
	}
	dt, err := s.days(ctx, d.ID, []string{"rainfall"}, []int{0}, from, now.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	amounts, err := s.rainAmounts(ctx, d.ID, now.Add(-day), now.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	rec := newRainRecord(amounts)
	out := &RainStats{Time: ms(now), Rain1h: round(rec.sum(now, time.Hour), 2), Rain24h: round(rec.sum(now, day), 2)}
	weekStart := today.AddDate(0, 0, -6)
	for _, k := range sortedKeys(dt) {
		r, ok := dt.get(k, "rainfall", 0)
		if !ok {
			continue
		}
		t := time.UnixMilli(k).In(s.loc)
		switch {
		case k == ms(today):
			out.Today = r.Sum
		case k == ms(today.AddDate(0, 0, -1)):
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
			if r.Sum > 0 && (out.MaxDay == nil || r.Sum > *out.MaxDay.MM) {
				out.MaxDay = &DayAmount{Time: k, Date: t.Format(time.DateOnly), MM: ptr(round(r.Sum, 2)), Class: rainClass(r.Sum, 24)}
			}
		}
	}
	out.Today, out.Yesterday, out.Week = round(out.Today, 2), round(out.Yesterday, 2), round(out.Week, 2)
	out.Month, out.Year = round(out.Month, 2), round(out.Year, 2)
	return out, nil
}

// RainSeries is GET /apis/poi/{id}/pluviometer/stats_data.
type RainSeries struct {
	Begin   int64        `json:"begin"`
	End     int64        `json:"end"`
	Dim     string       `json:"dim"` // hour, day or month
	Buckets []RainBucket `json:"list"`
	Total   float64      `json:"total"`
}

// RainDims are the bucket sizes of RainSeries, with their default and
// longest ranges.
var RainDims = map[string][2]time.Duration{
	"hour":  {day, 31 * day},
	"day":   {30 * day, 3660 * day},
	"month": {366 * day, 3660 * day},
}

// RainSeries returns a rain gauge's rain per hour (from readings), per day or
// per month (from daily rollups) over r. Each bucket carries its class (1 h
// or 24 h; months have none); a bucket without any reading is null.
// Returns ENOTFOUND, EINVALID.
func (s *Service) RainSeries(ctx context.Context, viewer, id int64, dim string, r Range) (*RainSeries, error) {
	d, err := s.rainDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	lim, ok := RainDims[dim]
	if !ok {
		return nil, errs.Invalid("dim", "query.unknownValue")
	}
	begin, end, err := s.span(r, lim[0], lim[1])
	if err != nil {
		return nil, err
	}
	out := &RainSeries{Begin: ms(begin), End: ms(end), Dim: dim}
	switch dim {
	case "hour":
		amounts, err := s.rainAmounts(ctx, d.ID, begin, end.Add(time.Millisecond))
		if err != nil {
			return nil, err
		}
		out.Buckets = hourBuckets(amounts, begin.Truncate(time.Hour), end, s.loc)
	default:
		dt, err := s.days(ctx, d.ID, []string{"rainfall"}, []int{0}, begin, end)
		if err != nil {
			return nil, err
		}
		idx := map[int64]int{}
		bucketOf := func(mid time.Time) time.Time {
			if dim == "month" {
				return time.Date(mid.Year(), mid.Month(), 1, 0, 0, 0, 0, s.loc)
			}
			return mid
		}
		s.eachDay(begin, end, func(mid time.Time) {
			b := bucketOf(mid)
			i, ok := idx[ms(b)]
			if !ok {
				label := b.Format(time.DateOnly)
				if dim == "month" {
					label = b.Format("2006-01")
				}
				i = len(out.Buckets)
				idx[ms(b)] = i
				out.Buckets = append(out.Buckets, RainBucket{Time: ms(b), Label: label})
			}
			if r, ok := dt.get(ms(mid), "rainfall", 0); ok {
				bk := &out.Buckets[i]
				if bk.MM == nil {
					bk.MM = ptr(0)
				}
				*bk.MM = round(*bk.MM+r.Sum, 2)
			}
		})
		if dim == "day" {
			for i := range out.Buckets {
				if out.Buckets[i].MM != nil {
					out.Buckets[i].Class = rainClass(*out.Buckets[i].MM, 24)
				}
			}
		}
	}
	if out.Buckets == nil {
		out.Buckets = []RainBucket{}
	}
	for _, b := range out.Buckets {
		if b.MM != nil {
			out.Total += *b.MM
		}
	}
	out.Total = round(out.Total, 2)
	return out, nil
}

// Installation is GET /apis/poi/{id}/pluviometer/installing: where and since
// when the gauge measures, and the rules its warnings follow.
type Installation struct {
	SN              string             `json:"sn"`
	Name            string             `json:"name"`
	Model           string             `json:"model"`
	Location        string             `json:"location"`
	Lng             *float64           `json:"lng"`
	Lat             *float64           `json:"lat"`
	Altitude        *float64           `json:"altitude"`
	InstallTime     *int64             `json:"installTime"`
	DaysInstalled   *int               `json:"daysInstalled"`
	IntervalMinutes int                `json:"intervalMinutes"`
	LastReport      *int64             `json:"lastReport"`
	Criteria        []WarningCriterion `json:"criteria"`
	Threshold       agro.IDThreshold   `json:"threshold"` // the default I-D threshold (Caine 1980)
}

// Installation returns a rain gauge's installation. Returns ENOTFOUND, EINVALID.
func (s *Service) Installation(ctx context.Context, viewer, id int64) (*Installation, error) {
	d, err := s.rainDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	out := &Installation{SN: d.SN, Name: d.Name, Location: d.Location, Lng: d.Lng, Lat: d.Lat, Altitude: d.Altitude,
		IntervalMinutes: int(d.Interval().Minutes()), Criteria: Criteria, Threshold: agro.CaineThreshold}
	if t := d.Type(); t != nil {
		out.Model = t.Model
	}
	if d.InstallAt != nil {
		out.InstallTime = msPtr(*d.InstallAt)
		n := int(s.midnight(s.now()).Sub(s.midnight(*d.InstallAt)).Hours()/24) + 1
		out.DaysInstalled = &n
	}
	if d.LastReportAt != nil {
		out.LastReport = msPtr(*d.LastReportAt)
	}
	return out, nil
}
