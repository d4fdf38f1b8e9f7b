package analysis

import (
	"context"
	"math"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// tiltParams are the landslide monitor's tilt readings.
var tiltParams = []string{"tiltX", "tiltY", "tiltAngle"}

// TiltTrend is GET /apis/poi/shan/trend.
type TiltTrend struct {
	Begin  int64             `json:"begin"`
	End    int64             `json:"end"`
	Series []TiltTrendSeries `json:"series"`
}

// TiltTrendSeries is one tilt reading's trend.
type TiltTrendSeries struct {
	Param  string       `json:"param"`
	Name   string       `json:"name"`
	Unit   string       `json:"unit"`
	Points [][2]float64 `json:"points"` // [time ms, value]
	// Trend is null with fewer than 2 readings.
	Trend *TrendView `json:"trend"`
}

// TrendView is a least-squares trend with its steps.
type TrendView struct {
	RatePerDay float64    `json:"ratePerDay"` // unit/day
	Intercept  float64    `json:"intercept"`  // fitted value at the first reading
	R2         float64    `json:"r2"`
	Cumulative float64    `json:"cumulative"` // last reading less the first
	Threshold  float64    `json:"threshold"`  // the step threshold used
	Steps      []StepView `json:"steps"`
}

// StepView is a jump beyond the trend: a slip.
type StepView struct {
	Time   int64   `json:"time"`
	Change float64 `json:"change"`
}

// TiltTrend returns the trend of a landslide monitor's tilt readings over r
// (default the last 30 days, at most 366). threshold is the step size (°);
// 0 takes 6 robust standard deviations of the detrended changes, at least
// agro.StepFloorResolutions × the parameter's resolution (0.025°).
// Returns ENOTFOUND, EINVALID.
func (s *Service) TiltTrend(ctx context.Context, viewer, id int64, r Range, threshold float64, lang i18n.Lang) (*TiltTrend, error) {
	d, t, _, err := s.device(ctx, viewer, id, tiltParams...)
	if err != nil {
		return nil, err
	}
	if threshold < 0 || threshold > 90 {
		return nil, errs.Invalid("threshold", "query.numberRange").With(map[string]any{"min": 0, "max": 90})
	}
	begin, end, err := s.span(r, 30*day, 366*day)
	if err != nil {
		return nil, err
	}
	out := &TiltTrend{Begin: ms(begin), End: ms(end), Series: []TiltTrendSeries{}}
	for _, param := range tiltParams {
		p, _ := t.Param(param)
		rs, err := s.readings(ctx, d.ID, param, begin, end)
		if err != nil {
			return nil, err
		}
		ts := TiltTrendSeries{Param: param, Name: p.Name(lang), Unit: p.Unit, Points: make([][2]float64, len(rs))}
		for i, r := range rs {
			ts.Points[i] = [2]float64{float64(ms(r.Time)), r.Value}
		}
		// The readings' resolution: the last decimal the device reports.
		if tr, err := agro.TrendOf(rs, threshold, math.Pow(10, -float64(p.Precision))); err == nil {
			tv := &TrendView{RatePerDay: round(tr.RatePerDay, 6), Intercept: round(tr.Intercept, 4), R2: round(tr.R2, 4),
				Cumulative: round(tr.Cumulative, 4), Threshold: round(tr.Threshold, 6), Steps: []StepView{}}
			for _, st := range tr.Steps {
				tv.Steps = append(tv.Steps, StepView{Time: ms(st.Time), Change: round(st.Change, 4)})
			}
			ts.Trend = tv
		}
		out.Series = append(out.Series, ts)
	}
	return out, nil
}

// YawPoint is the tilt's direction and size at one time.
type YawPoint struct {
	Time      int64   `json:"time"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
	Direction float64 `json:"direction"` // degrees counter-clockwise from the sensor's X axis
	Tilt      float64 `json:"tilt"`      // degrees from vertical
}

// TiltYaw is GET /apis/poi/tilt/yaw.
type TiltYaw struct {
	Begin  int64      `json:"begin"`
	End    int64      `json:"end"`
	Latest *YawPoint  `json:"latest"`
	Points []YawPoint `json:"points"`
}

// TiltYaw returns the direction and size of a landslide monitor's tilt from
// its X and Y readings of the same reports over r (default the last 7 days,
// at most 366). Returns ENOTFOUND, EINVALID.
func (s *Service) TiltYaw(ctx context.Context, viewer, id int64, r Range) (*TiltYaw, error) {
	d, _, _, err := s.device(ctx, viewer, id, "tiltX", "tiltY")
	if err != nil {
		return nil, err
	}
	begin, end, err := s.span(r, 7*day, 366*day)
	if err != nil {
		return nil, err
	}
	xs, err := s.readings(ctx, d.ID, "tiltX", begin, end)
	if err != nil {
		return nil, err
	}
	ys, err := s.readings(ctx, d.ID, "tiltY", begin, end)
	if err != nil {
		return nil, err
	}
	yAt := make(map[int64]float64, len(ys)) // Y of the same report as each X
	for _, y := range ys {
		yAt[ms(y.Time)] = y.Value
	}
	out := &TiltYaw{Begin: ms(begin), End: ms(end), Points: []YawPoint{}}
	for _, x := range xs {
		y, ok := yAt[ms(x.Time)]
		if !ok {
			continue
		}
		dir, tilt := agro.Yaw(x.Value, y)
		out.Points = append(out.Points, YawPoint{Time: ms(x.Time), X: x.Value, Y: y, Direction: round(dir, 3), Tilt: round(tilt, 4)})
	}
	if n := len(out.Points); n > 0 {
		out.Latest = &out.Points[n-1]
	}
	return out, nil
}
