package rain

import (
	"context"
	"math"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// eventGap is the dry spell that ends a rain event: the minimum inter-event
// time commonly used to separate storms in rainfall-threshold studies.
const eventGap = 6 * time.Hour

// Event is a storm: rain readings with no dry spell of 6 hours or more
// between them, with its intensity against the I-D threshold.
type Event struct {
	Start     time.Time // the beginning of the first rainy reading's interval
	End       time.Time // the last rainy reading
	Hours     float64
	MM        float64
	Intensity float64 // mean, mm/h
	// ThresholdIntensity is the threshold's intensity for the event's
	// duration; Ratio is Intensity over it, 1 or more when reached.
	ThresholdIntensity float64
	Ratio              float64
	Exceeded           bool
	Ongoing            bool // the last rain is less than 6 h old
}

// events splits a record into events, each measured against th.
func events(amounts []agro.RainAmount, interval time.Duration, th agro.IDThreshold, now time.Time) []Event {
	round := readings.Round
	out := []Event{}
	var first, last time.Time
	var sum float64
	flush := func() {
		if first.IsZero() {
			return
		}
		start := first.Add(-interval)
		h := last.Sub(start).Hours()
		e := Event{Start: start, End: last, Hours: round(h, 3), MM: round(sum, 2), Intensity: round(sum/h, 3),
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
	Hours     float64
	Intensity float64 // mm/h
}

// thresholdCurve samples I = α D^−β at 25 durations spaced evenly on a log
// scale from 6 minutes to 10 days, the span Caine fitted.
func thresholdCurve(th agro.IDThreshold) []CurvePoint {
	const n = 25
	lo, hi := math.Log10(0.1), math.Log10(240)
	out := make([]CurvePoint, n)
	for i := range out {
		h := math.Pow(10, lo+(hi-lo)*float64(i)/(n-1))
		out[i] = CurvePoint{Hours: readings.Round(h, 4), Intensity: readings.Round(th.Intensity(h), 4)}
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

// IDAnalysis is a gauge's storms against an I-D threshold.
type IDAnalysis struct {
	Begin, End time.Time
	Threshold  agro.IDThreshold
	Curve      []CurvePoint
	// Event is the newest event of the last 7 days (ID only).
	Event *Event
	// Events are every event of the range (IDRange only).
	Events []Event
}

// ID returns the newest rain event of the last 7 days at a rain gauge
// against the I-D threshold th. Returns EINVALID.
func (s *Service) ID(ctx context.Context, d *devices.Device, th agro.IDThreshold) (*IDAnalysis, error) {
	now := s.rd.Now()
	a, err := s.idEvents(ctx, d, th, now.Add(-7*readings.Day), now)
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
// 366) at a rain gauge against th. Returns EINVALID.
func (s *Service) IDRange(ctx context.Context, d *devices.Device, th agro.IDThreshold, r readings.Range) (*IDAnalysis, error) {
	begin, end, err := s.rd.Span(r, 30*readings.Day, 366*readings.Day)
	if err != nil {
		return nil, err
	}
	return s.idEvents(ctx, d, th, begin, end)
}

func (s *Service) idEvents(ctx context.Context, d *devices.Device, th agro.IDThreshold, begin, end time.Time) (*IDAnalysis, error) {
	if err := gauge(d); err != nil {
		return nil, err
	}
	amounts, err := s.rd.RainAmounts(ctx, d.ID, begin, end.Add(time.Millisecond))
	if err != nil {
		return nil, err
	}
	return &IDAnalysis{Begin: begin, End: end, Threshold: th, Curve: thresholdCurve(th),
		Events: events(amounts, d.Interval(), th, s.rd.Now())}, nil
}
