package tilt

import (
	"context"
	"math"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// Trend is the trend of each tilt reading over a range.
type Trend struct {
	Begin, End time.Time
	Series     []TrendSeries
}

// TrendSeries is one tilt reading's trend.
type TrendSeries struct {
	Param    *devices.Param
	Readings []agro.Reading
	// Trend is nil with fewer than 2 readings.
	Trend *agro.TiltTrend
}

// Trend returns the trend of a landslide monitor's tilt readings over r
// (default the last 30 days, at most 366). threshold is the step size (°);
// 0 takes 6 robust standard deviations of the detrended changes, at least
// agro.StepFloorResolutions × the parameter's resolution (0.025°).
// Returns EINVALID.
func (s *Service) Trend(ctx context.Context, d *devices.Device, r readings.Range, threshold float64) (*Trend, error) {
	t, err := readings.Measures(d, params...)
	if err != nil {
		return nil, err
	}
	if threshold < 0 || threshold > 90 {
		return nil, errs.Invalid("threshold", "query.numberRange").With(map[string]any{"min": 0, "max": 90})
	}
	begin, end, err := s.rd.Span(r, 30*readings.Day, 366*readings.Day)
	if err != nil {
		return nil, err
	}
	out := &Trend{Begin: begin, End: end, Series: []TrendSeries{}}
	for _, param := range params {
		p, _ := t.Param(param)
		rs, err := s.rd.Readings(ctx, d.ID, param, begin, end)
		if err != nil {
			return nil, err
		}
		ts := TrendSeries{Param: p, Readings: rs}
		// The readings' resolution: the last decimal the device reports.
		if tr, err := agro.TrendOf(rs, threshold, math.Pow(10, -float64(p.Precision))); err == nil {
			round := readings.Round
			tr.RatePerDay, tr.Intercept, tr.R2 = round(tr.RatePerDay, 6), round(tr.Intercept, 4), round(tr.R2, 4)
			tr.Cumulative, tr.Threshold = round(tr.Cumulative, 4), round(tr.Threshold, 6)
			for i := range tr.Steps {
				tr.Steps[i].Change = round(tr.Steps[i].Change, 4)
			}
			ts.Trend = &tr
		}
		out.Series = append(out.Series, ts)
	}
	return out, nil
}
