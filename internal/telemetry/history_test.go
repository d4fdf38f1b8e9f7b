package telemetry_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// memStore answers from fixed series and days, and records the queries it got.
type memStore struct {
	series []telemetry.Series
	days   []telemetry.Day
	got    []telemetry.Query
}

func (m *memStore) Series(_ context.Context, q telemetry.Query) ([]telemetry.Series, error) {
	m.got = append(m.got, q)
	return m.series, nil
}

func (m *memStore) Days(_ context.Context, q telemetry.Query) ([]telemetry.Day, error) {
	m.got = append(m.got, q)
	return m.days, nil
}

func (m *memStore) Latest(context.Context, int64) ([]telemetry.Reading, error) { return nil, nil }

var shanghai = time.FixedZone("CST", 8*3600)

func TestHistory_Read(t *testing.T) {
	ctx := context.Background()
	at := func(h int) int64 { return time.Date(2026, 5, 1, h, 0, 0, 0, shanghai).UnixMilli() }
	raw := []telemetry.Series{
		{Param: "rainfall", Node: 0, TS: []int64{at(1), at(2)}, V: []float64{0.5, 1}},
		{Param: "soilMoisture", Node: 10, TS: []int64{at(1), at(2)}, V: []float64{20, 30}},
		{Param: "soilMoisture", Node: 20, TS: []int64{at(1), at(3)}, V: []float64{40, 50}},
	}

	t.Run("CombineRaw", func(t *testing.T) {
		for _, tc := range []struct {
			how  telemetry.Combine
			want []float64
		}{
			{telemetry.CombineAverage, []float64{30, 30, 50}},
			{telemetry.CombineMax, []float64{40, 30, 50}},
			{telemetry.CombineMin, []float64{20, 30, 50}},
		} {
			h := telemetry.NewHistory(telemetry.HistoryOptions{Store: &memStore{series: raw}, Location: shanghai})
			got, err := h.Read(ctx, telemetry.HistoryQuery{DeviceID: 1, Combine: tc.how})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0].Param != "rainfall" || got[1].Param != "soilMoisture" || got[1].Node != 0 {
				t.Fatalf("%s: got %+v, want rainfall as it was and one soilMoisture at node 0", tc.how, got)
			}
			if !slices.Equal(got[1].TS, []int64{at(1), at(2), at(3)}) || !slices.Equal(got[1].V, tc.want) {
				t.Errorf("%s: %v %v, want %v", tc.how, got[1].TS, got[1].V, tc.want)
			}
			if !slices.Equal(got[0].V, []float64{0.5, 1}) {
				t.Errorf("%s: the device-wide series changed: %v", tc.how, got[0].V)
			}
		}
	})

	t.Run("DailyStartsAtLocalMidnight", func(t *testing.T) {
		m := &memStore{}
		h := telemetry.NewHistory(telemetry.HistoryOptions{Store: m, Location: shanghai})
		begin := time.Date(2026, 5, 1, 0, 30, 0, 0, time.UTC) // 08:30 on 1 May in Shanghai
		if _, err := h.Read(ctx, telemetry.HistoryQuery{DeviceID: 1, Daily: true, Begin: begin, End: begin.AddDate(0, 0, 3)}); err != nil {
			t.Fatal(err)
		}
		if want := time.Date(2026, 5, 1, 0, 0, 0, 0, shanghai); len(m.got) != 1 || !m.got[0].Begin.Equal(want) {
			t.Errorf("store asked from %v, want %v", m.got, want)
		}
		if _, err := h.Read(ctx, telemetry.HistoryQuery{DeviceID: 1, Begin: begin, End: begin.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if !m.got[1].Begin.Equal(begin) {
			t.Errorf("a raw read was moved to %v", m.got[1].Begin)
		}
	})

	t.Run("CombineDaily", func(t *testing.T) {
		day := time.Date(2026, 5, 1, 0, 0, 0, 0, shanghai)
		m := &memStore{days: []telemetry.Day{
			{Param: "soilMoisture", Node: 10, Day: day, Min: 10, Max: 20, Sum: 30, Count: 2, Last: 12},
			{Param: "soilMoisture", Node: 20, Day: day, Min: 30, Max: 50, Sum: 160, Count: 4, Last: 44},
		}}
		h := telemetry.NewHistory(telemetry.HistoryOptions{Store: m, Location: shanghai})
		got, err := h.Read(ctx, telemetry.HistoryQuery{DeviceID: 1, Daily: true, Combine: telemetry.CombineAverage})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || len(got[0].Days) != 1 {
			t.Fatalf("got %+v", got)
		}
		d := got[0].Days[0]
		// The mean of the nodes' means (15 and 40), of their minima, maxima and last values.
		if d.Avg() != 27.5 || d.Stat("sum") != 27.5 || d.Min != 20 || d.Max != 35 || d.Last != 28 || d.Node != 0 {
			t.Errorf("combined day %+v: avg %v", d, d.Avg())
		}
		got, _ = h.Read(ctx, telemetry.HistoryQuery{DeviceID: 1, Daily: true, Combine: telemetry.CombineMax})
		if d := got[0].Days[0]; d.Max != 50 || d.Min != 30 || d.Avg() != 40 {
			t.Errorf("max-combined day %+v", d)
		}
	})

	t.Run("Points", func(t *testing.T) {
		s := telemetry.Series{Param: "airTemp"}
		for i := range 1000 {
			s.TS = append(s.TS, int64(i)*60_000)
			s.V = append(s.V, float64(i%7))
		}
		s.V[500] = 99 // a spike the chart must keep
		h := telemetry.NewHistory(telemetry.HistoryOptions{Store: &memStore{series: []telemetry.Series{s}}, Location: shanghai})
		got, err := h.Read(ctx, telemetry.HistoryQuery{DeviceID: 1, Points: 100})
		if err != nil {
			t.Fatal(err)
		}
		g := got[0]
		if len(g.TS) > 100 || g.Total != 1000 || !g.Sampled() || !slices.Contains(g.V, 99) {
			t.Errorf("%d points of %d (sampled %v), spike kept %v", len(g.TS), g.Total, g.Sampled(), slices.Contains(g.V, 99))
		}
		got, _ = h.Read(ctx, telemetry.HistoryQuery{DeviceID: 1})
		if len(got[0].TS) != 1000 || got[0].Sampled() {
			t.Errorf("without Points: %d points, sampled %v", len(got[0].TS), got[0].Sampled())
		}
	})
}
