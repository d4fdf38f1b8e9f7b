package httpapi

import (
	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/tilt"
)

// tiltTrendDTO is GET /apis/poi/shan/trend.
type tiltTrendDTO struct {
	Begin  int64                `json:"begin"`
	End    int64                `json:"end"`
	Series []tiltTrendSeriesDTO `json:"series"`
}

// tiltTrendSeriesDTO is one tilt reading's trend.
type tiltTrendSeriesDTO struct {
	Param  string       `json:"param"`
	Name   string       `json:"name"`
	Unit   string       `json:"unit"`
	Points [][2]float64 `json:"points"` // [time ms, value]
	// Trend is null with fewer than 2 readings.
	Trend *trendDTO `json:"trend"`
}

// trendDTO is a least-squares trend with its steps.
type trendDTO struct {
	RatePerDay float64   `json:"ratePerDay"` // unit/day
	Intercept  float64   `json:"intercept"`  // fitted value at the first reading
	R2         float64   `json:"r2"`
	Cumulative float64   `json:"cumulative"` // last reading less the first
	Threshold  float64   `json:"threshold"`  // the step threshold used
	Steps      []stepDTO `json:"steps"`
}

// stepDTO is a jump beyond the trend: a slip.
type stepDTO struct {
	Time   int64   `json:"time"`
	Change float64 `json:"change"`
}

func toTiltTrend(tr *tilt.Trend, lang i18n.Lang) tiltTrendDTO {
	out := tiltTrendDTO{Begin: tr.Begin.UnixMilli(), End: tr.End.UnixMilli(), Series: []tiltTrendSeriesDTO{}}
	for _, s := range tr.Series {
		ts := tiltTrendSeriesDTO{Param: s.Param.ID, Name: s.Param.Name(lang), Unit: s.Param.Unit, Points: points(s.Readings)}
		if t := s.Trend; t != nil {
			ts.Trend = &trendDTO{RatePerDay: t.RatePerDay, Intercept: t.Intercept, R2: t.R2, Cumulative: t.Cumulative,
				Threshold: t.Threshold, Steps: []stepDTO{}}
			for _, st := range t.Steps {
				ts.Trend.Steps = append(ts.Trend.Steps, stepDTO{Time: st.Time.UnixMilli(), Change: st.Change})
			}
		}
		out.Series = append(out.Series, ts)
	}
	return out
}

// points are readings as [time ms, value] pairs.
func points(rs []agro.Reading) [][2]float64 {
	out := make([][2]float64, len(rs))
	for i, r := range rs {
		out[i] = [2]float64{float64(r.Time.UnixMilli()), r.Value}
	}
	return out
}

// yawPointDTO is the tilt's direction and size at one time.
type yawPointDTO struct {
	Time      int64   `json:"time"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
	Direction float64 `json:"direction"` // degrees counter-clockwise from the sensor's X axis
	Tilt      float64 `json:"tilt"`      // degrees from vertical
}

// tiltYawDTO is GET /apis/poi/tilt/yaw.
type tiltYawDTO struct {
	Begin  int64         `json:"begin"`
	End    int64         `json:"end"`
	Latest *yawPointDTO  `json:"latest"`
	Points []yawPointDTO `json:"points"`
}

func toYawPoint(p tilt.YawPoint) yawPointDTO {
	return yawPointDTO{Time: p.Time.UnixMilli(), X: p.X, Y: p.Y, Direction: p.Direction, Tilt: p.Tilt}
}

func toTiltYaw(y *tilt.Yaw) tiltYawDTO {
	out := tiltYawDTO{Begin: y.Begin.UnixMilli(), End: y.End.UnixMilli(), Points: []yawPointDTO{}}
	for _, p := range y.Points {
		out.Points = append(out.Points, toYawPoint(p))
	}
	if y.Latest != nil {
		l := toYawPoint(*y.Latest)
		out.Latest = &l
	}
	return out
}

func (s *Server) tiltYaw(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	y, err := s.Tilt.Yaw(c.r.Context(), c.device, q.r)
	if err != nil {
		return nil, err
	}
	return toTiltYaw(y), nil
}

func (s *Server) tiltTrend(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	th, err := queryFloat(c, "threshold", 0, 90)
	if err != nil {
		return nil, err
	}
	var threshold float64
	if th != nil {
		threshold = *th
	}
	tr, err := s.Tilt.Trend(c.r.Context(), c.device, q.r, threshold)
	if err != nil {
		return nil, err
	}
	return toTiltTrend(tr, c.lang), nil
}
