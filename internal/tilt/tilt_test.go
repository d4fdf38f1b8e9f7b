package tilt

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// series is a store of one device's readings by parameter.
type series map[string]telemetry.Series

func (s series) Series(_ context.Context, q telemetry.Query) ([]telemetry.Series, error) {
	var out []telemetry.Series
	for _, p := range q.Params {
		if sr, ok := s[p]; ok {
			out = append(out, sr)
		}
	}
	return out, nil
}

func (series) Days(context.Context, telemetry.Query) ([]telemetry.Day, error) { return nil, nil }

func (series) Latest(context.Context, int64) ([]telemetry.Reading, error) { return nil, nil }

func TestYaw_PairsReportsAndSkipsUnpaired(t *testing.T) {
	now := time.Date(2026, 5, 30, 12, 0, 0, 0, time.UTC)
	h := func(n int) int64 { return now.Add(time.Duration(-n) * time.Hour).UnixMilli() }
	store := series{
		"tiltX": {Param: "tiltX", TS: []int64{h(3), h(2), h(1)}, V: []float64{1, 0, 3}},
		"tiltY": {Param: "tiltY", TS: []int64{h(3), h(1)}, V: []float64{0, 4}},
	}
	svc := New(readings.New(telemetry.NewHistory(telemetry.HistoryOptions{Store: store, Location: time.UTC}), func() time.Time { return now }))
	y, err := svc.Yaw(context.Background(), &devices.Device{ID: 1, TypeID: 8}, readings.Range{})
	if err != nil {
		t.Fatal(err)
	}
	if len(y.Points) != 2 || y.Latest == nil || y.Latest.Time.UnixMilli() != h(1) {
		t.Fatalf("points %+v", y.Points)
	}
	if p := y.Points[0]; p.Direction != 0 || p.Tilt != 1 {
		t.Errorf("X only: %+v", p)
	}
	if p := y.Latest; math.Abs(p.Tilt-5) > 0.01 || p.Direction <= 0 || p.Direction >= 90 {
		t.Errorf("3, 4: %+v", p)
	}
	// A soil probe has no tilt.
	if _, err := svc.Yaw(context.Background(), &devices.Device{ID: 2, TypeID: 2}, readings.Range{}); errs.As(err) == nil || errs.As(err).Code != "analysis.unsupported" {
		t.Errorf("soil probe: %v", err)
	}
}
