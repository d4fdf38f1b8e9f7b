package tilt

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// YawPoint is the tilt's direction and size at one time.
type YawPoint struct {
	Time      time.Time
	X, Y      float64
	Direction float64 // degrees counter-clockwise from the sensor's X axis
	Tilt      float64 // degrees from vertical
}

// Yaw is the tilt's direction and size over a range.
type Yaw struct {
	Begin, End time.Time
	Latest     *YawPoint
	Points     []YawPoint
}

// Yaw returns the direction and size of a landslide monitor's tilt from its
// X and Y readings of the same reports over r (default the last 7 days, at
// most 366). Returns EINVALID.
func (s *Service) Yaw(ctx context.Context, d *devices.Device, r readings.Range) (*Yaw, error) {
	if _, err := readings.Measures(d, "tiltX", "tiltY"); err != nil {
		return nil, err
	}
	begin, end, err := s.rd.Span(r, 7*readings.Day, 366*readings.Day)
	if err != nil {
		return nil, err
	}
	xs, err := s.rd.Readings(ctx, d.ID, "tiltX", begin, end)
	if err != nil {
		return nil, err
	}
	ys, err := s.rd.Readings(ctx, d.ID, "tiltY", begin, end)
	if err != nil {
		return nil, err
	}
	yAt := make(map[int64]float64, len(ys)) // Y of the same report as each X
	for _, y := range ys {
		yAt[y.Time.UnixMilli()] = y.Value
	}
	out := &Yaw{Begin: begin, End: end, Points: []YawPoint{}}
	for _, x := range xs {
		y, ok := yAt[x.Time.UnixMilli()]
		if !ok {
			continue
		}
		dir, tilt := agro.Yaw(x.Value, y)
		out.Points = append(out.Points, YawPoint{Time: x.Time, X: x.Value, Y: y, Direction: readings.Round(dir, 3), Tilt: readings.Round(tilt, 4)})
	}
	if n := len(out.Points); n > 0 {
		out.Latest = &out.Points[n-1]
	}
	return out, nil
}
