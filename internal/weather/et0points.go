package weather

import (
	"context"
	"fmt"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/et0grid"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// MinStations is how many stations in or near an area make forecast points
// unnecessary: fewer, and the forecast's ET0 at the area's corners and
// centre joins the stations' (a day to come always uses the forecast).
const MinStations = 3

// ET0Points are the values an ET0 grid of day is interpolated from: each
// station's ET0 of the day — observed (FAO-56 from its daily readings) for
// a past day, the forecast at its position for today and after — and, where
// stations are sparse or the day is to come, the forecast at the box's four
// corners and its centre. Stations without a position or without the day's
// readings are skipped. With no provider configured, days to come have only
// what the stations observed (nothing).
func (s *Service) ET0Points(ctx context.Context, stations []*devices.Device, box et0grid.Box, day time.Time) ([]et0grid.Point, error) {
	day = s.rd.Midnight(day)
	today := s.rd.Midnight(s.rd.Now())
	past := day.Before(today)
	out := []et0grid.Point{}
	for _, st := range stations {
		if st.Lat == nil || st.Lng == nil {
			continue
		}
		if past {
			days, err := ObservedET0(ctx, s.rd, st, day, day.AddDate(0, 0, 1))
			if err != nil {
				return nil, err
			}
			if len(days) == 1 {
				out = append(out, et0grid.Point{Lat: *st.Lat, Lng: *st.Lng, Value: readings.Round(days[0].ET0, 2), Source: "station", ID: st.ID, Name: st.Name})
			}
			continue
		}
		if v, ok := s.forecastET0(ctx, *st.Lat, *st.Lng, day); ok {
			out = append(out, et0grid.Point{Lat: *st.Lat, Lng: *st.Lng, Value: v, Source: "forecast", ID: st.ID, Name: st.Name})
		}
	}
	if !past || len(out) < MinStations {
		midLat, midLng := (box.North+box.South)/2, (box.West+box.East)/2
		for i, p := range [][2]float64{{box.North, box.West}, {box.North, box.East}, {box.South, box.West}, {box.South, box.East}, {midLat, midLng}} {
			if !past || s.forecasts.Source != nil {
				if v, ok := s.forecastET0(ctx, p[0], p[1], day); ok {
					out = append(out, et0grid.Point{Lat: p[0], Lng: p[1], Value: v, Source: "forecast", Name: fmt.Sprintf("forecast %d", i+1)})
				}
			}
		}
	}
	return out, nil
}

// forecastET0 is the forecast's ET0 of day at a place, when the provider has it.
func (s *Service) forecastET0(ctx context.Context, lat, lng float64, day time.Time) (float64, bool) {
	src := s.forecasts.Source
	if src == nil || !src.Enabled() {
		return 0, false
	}
	f, err := src.Daily(ctx, lat, lng)
	if err != nil || f == nil {
		return 0, false
	}
	for _, d := range f.Days {
		if d.Date.Equal(day) && d.ET0 != nil {
			return readings.Round(*d.ET0, 2), true
		}
	}
	return 0, false
}
