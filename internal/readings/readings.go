// Package readings reads what the soil, weather, rain-gauge and tilt
// analyses are computed from: a device's stored readings in the site's
// local days, over a range checked against each call's limits, as agro
// readings, depth profiles, daily tables or newest values; and it picks the
// device whose readings stand for a place's weather. The analyses of
// internal/soil, internal/weather, internal/rain and internal/tilt share it.
package readings

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// Day is a calendar day's length.
const Day = 24 * time.Hour

// Reader reads devices' readings through the history service, in the
// site's days.
type Reader struct {
	history *telemetry.History
	loc     *time.Location
	now     func() time.Time
}

// New returns a Reader of history, whose days are the history's, and whose
// "now" is now (nil: time.Now).
func New(history *telemetry.History, now func() time.Time) *Reader {
	if now == nil {
		now = time.Now
	}
	return &Reader{history: history, loc: history.Location(), now: now}
}

// Now is the current time.
func (r *Reader) Now() time.Time { return r.now() }

// Location is where days begin.
func (r *Reader) Location() *time.Location { return r.loc }

// Midnight is the local midnight beginning t's day.
func (r *Reader) Midnight(t time.Time) time.Time { return r.history.Midnight(t) }

// EachDay calls fn for every local midnight from begin's day up to end (exclusive).
func (r *Reader) EachDay(begin, end time.Time, fn func(midnight time.Time)) {
	for d := r.Midnight(begin); d.Before(end); d = time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, r.loc) {
		fn(d)
	}
}

// Series reads raw readings of params (all nodes when nodes is nil) in [begin, end).
func (r *Reader) Series(ctx context.Context, deviceID int64, params []string, nodes []int, begin, end time.Time) ([]telemetry.HistorySeries, error) {
	return r.history.Read(ctx, telemetry.HistoryQuery{DeviceID: deviceID, Params: params, Nodes: nodes, Begin: begin, End: end})
}

// Readings reads one surface parameter as agro readings in the site's zone.
func (r *Reader) Readings(ctx context.Context, deviceID int64, param string, begin, end time.Time) ([]agro.Reading, error) {
	ss, err := r.Series(ctx, deviceID, []string{param}, []int{0}, begin, end)
	if err != nil {
		return nil, err
	}
	for _, sr := range ss {
		if sr.Param == param && sr.Node == 0 {
			return r.toReadings(sr), nil
		}
	}
	return []agro.Reading{}, nil
}

func (r *Reader) toReadings(sr telemetry.HistorySeries) []agro.Reading {
	out := make([]agro.Reading, len(sr.TS))
	for i, ts := range sr.TS {
		out[i] = agro.Reading{Time: time.UnixMilli(ts).In(r.loc), Value: sr.V[i]}
	}
	return out
}

// Profile reads a per-node parameter as a depth profile, one series per
// node of the type that has readings, shallowest first.
func (r *Reader) Profile(ctx context.Context, d *devices.Device, t *devices.Type, param string, begin, end time.Time) (agro.Profile, error) {
	ss, err := r.Series(ctx, d.ID, []string{param}, t.Nodes, begin, end)
	if err != nil {
		return nil, err
	}
	byNode := map[int]telemetry.HistorySeries{}
	for _, sr := range ss {
		if sr.Param == param && sr.Node > 0 {
			byNode[sr.Node] = sr
		}
	}
	var p agro.Profile
	for _, n := range t.Nodes {
		if sr, ok := byNode[n]; ok && len(sr.TS) > 0 {
			p = append(p, agro.DepthSeries{Depth: float64(n), Readings: r.toReadings(sr)})
		}
	}
	return p, nil
}

// RainAmounts reads a device's rainfall readings.
func (r *Reader) RainAmounts(ctx context.Context, deviceID int64, begin, end time.Time) ([]agro.RainAmount, error) {
	rs, err := r.Readings(ctx, deviceID, "rainfall", begin, end)
	if err != nil {
		return nil, err
	}
	out := make([]agro.RainAmount, len(rs))
	for i, rd := range rs {
		out[i] = agro.RainAmount{Time: rd.Time, MM: rd.Value}
	}
	return out, nil
}

// Key names one parameter at one node.
type Key struct {
	Param string
	Node  int
}

// DayTable is daily rollups by local day (its midnight, unix ms) and series.
type DayTable map[int64]map[Key]telemetry.Day

// Get returns the rollup of param at node on the day beginning dayMs, if
// it holds a reading.
func (dt DayTable) Get(dayMs int64, param string, node int) (telemetry.Day, bool) {
	d, ok := dt[dayMs][Key{param, node}]
	return d, ok && d.Count > 0
}

// Days reads the daily rollups of params (nodes: nil for all) for the local
// days from begin's day up to end.
func (r *Reader) Days(ctx context.Context, deviceID int64, params []string, nodes []int, begin, end time.Time) (DayTable, error) {
	ss, err := r.history.Read(ctx, telemetry.HistoryQuery{DeviceID: deviceID, Params: params, Nodes: nodes,
		Begin: begin, End: end, Daily: true})
	if err != nil {
		return nil, err
	}
	out := DayTable{}
	for _, s := range ss {
		for _, d := range s.Days {
			k := r.Midnight(d.Day).UnixMilli()
			if out[k] == nil {
				out[k] = map[Key]telemetry.Day{}
			}
			out[k][Key{d.Param, d.Node}] = d
		}
	}
	return out, nil
}

// Latest returns the newest reading of each series of a device.
func (r *Reader) Latest(ctx context.Context, deviceID int64) (map[Key]telemetry.Reading, error) {
	rs, err := r.history.Latest(ctx, deviceID)
	if err != nil {
		return nil, err
	}
	out := make(map[Key]telemetry.Reading, len(rs))
	for _, rd := range rs {
		out[Key{rd.Param, rd.Node}] = rd
	}
	return out, nil
}

// Complete reports whether a day's rollup of a parameter holds at least
// half the readings the device sends in a day: a day with a long outage
// would make daily extremes, sums and ET0 wrong.
func Complete(d telemetry.Day, dev *devices.Device) bool {
	want := float64(Day) / float64(dev.Interval())
	return float64(d.Count) >= want/2
}

// SortedKeys returns a map's keys in order.
func SortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
