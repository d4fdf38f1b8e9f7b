package httpapi

import (
	"context"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
	"github.com/fieldwatch/fieldwatch/internal/weather"
)

// OverviewStore answers the overview's questions (store.DB).
type OverviewStore interface {
	FleetCounts(ctx context.Context, viewer int64, now, gapSince time.Time) ([]store.FleetCount, error)
	Attention(ctx context.Context, viewer int64, now, gapSince time.Time, limit int) ([]store.AttentionDevice, error)
	FleetDays(ctx context.Context, viewer int64, typeIDs []int, days []time.Time, params []string) ([]*devices.Device, map[store.DeviceDay]map[string]telemetry.Day, error)
	AlertsSince(ctx context.Context, owner int64, now time.Time, hours int) (store.AlertCounts, error)
	PushHealth(ctx context.Context, owner int64, now, since time.Time) ([]store.ChannelHealth, error)
}

// overviewAttention is how many devices needing attention the overview
// lists; the counts cover them all.
const overviewAttention = 20

// overviewHours is the overview's window: alerts, data gaps and push
// failures of the last day.
const overviewHours = 24

type overviewTypeDTO struct {
	TypeID   int            `json:"typeId"`
	Slave    bool           `json:"slave"`
	Name     string         `json:"name"`
	Model    string         `json:"model"`
	Category string         `json:"category"`
	Total    int            `json:"total"`
	Status   map[string]int `json:"status"`
}

type attentionDTO struct {
	deviceDTO
	Reasons []string `json:"reasons"`
	GapFrom *int64   `json:"gapFrom"`
	GapTo   *int64   `json:"gapTo"`
}

type placeDTO struct {
	ID     int64   `json:"id"`
	HashID string  `json:"hashId"`
	Page   string  `json:"page"`
	Name   string  `json:"name"`
	Value  float64 `json:"value"`
}

type amountDTO struct {
	Day      string    `json:"day"`
	Devices  int       `json:"devices"`
	Mean     *float64  `json:"mean"`
	Min      *placeDTO `json:"min"`
	Max      *placeDTO `json:"max"`
	Wet      int       `json:"wet,omitempty"` // devices with any rain
	Complete bool      `json:"complete"`      // the day is over
}

type channelHealthDTO struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Enabled   bool   `json:"enabled"`
	Pending   int    `json:"pending"`
	Overdue   int    `json:"overdue"`
	Failed    int    `json:"failed"`
	LastError string `json:"lastError"`
	LastFail  *int64 `json:"lastFail"`
	Health    string `json:"health"` // ok, failing, late, off
}

// overview serves GET /apis/overview: the caller's fleet at a glance in one
// answer (docs/overview.md). Its parts are read at once, each one query.
func (s *Server) overview(c *call) (any, error) {
	ctx, viewer := c.r.Context(), c.account.ID
	loc := s.location()
	now := time.Now().In(loc)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	yesterday := today.AddDate(0, 0, -1)
	since := now.Add(-overviewHours * time.Hour)
	st := s.Overview
	if st == nil {
		return nil, errs.NotFound()
	}

	var (
		counts    []store.FleetCount
		attention []store.AttentionDevice
		rainDevs  []*devices.Device
		rainDays  map[store.DeviceDay]map[string]telemetry.Day
		etVals    []placeDTO
		alerts    store.AlertCounts
		channels  []store.ChannelHealth
	)
	fails := make([]error, 6)
	var wg sync.WaitGroup
	run := func(i int, f func() error) {
		wg.Add(1)
		go func() { defer wg.Done(); fails[i] = f() }()
	}
	run(0, func() (err error) { counts, err = st.FleetCounts(ctx, viewer, now, since); return })
	run(1, func() (err error) { attention, err = st.Attention(ctx, viewer, now, since, overviewAttention); return })
	run(2, func() (err error) {
		rainDevs, rainDays, err = st.FleetDays(ctx, viewer, typesWith("rainfall"), []time.Time{today}, []string{"rainfall"})
		return
	})
	run(3, func() (err error) { etVals, err = s.yesterdayET0(ctx, viewer, yesterday); return })
	run(4, func() (err error) { alerts, err = st.AlertsSince(ctx, viewer, now, overviewHours); return })
	run(5, func() (err error) { channels, err = st.PushHealth(ctx, viewer, now, since); return })
	wg.Wait()
	for _, err := range fails {
		if err != nil {
			return nil, err
		}
	}

	// Devices by status and type.
	statuses := map[string]int{}
	reasons := map[string]int{}
	for _, r := range store.AttentionReasons {
		reasons[r] = 0
	}
	byType := map[[2]int]*overviewTypeDTO{}
	total, needing := 0, 0
	for _, fc := range counts {
		key := [2]int{fc.TypeID, 0}
		if fc.Slave {
			key[1] = 1
		}
		t := byType[key]
		if t == nil {
			t = &overviewTypeDTO{TypeID: fc.TypeID, Slave: fc.Slave, Status: map[string]int{}}
			d := devices.Device{TypeID: fc.TypeID, Slave: fc.Slave}
			if dt := d.Type(); dt != nil {
				t.Name, t.Model, t.Category = dt.Name(c.lang), dt.Model, string(dt.Category)
			}
			byType[key] = t
		}
		t.Total += fc.N
		for _, r := range fc.Reasons {
			reasons[r] += fc.N
		}
		if len(fc.Reasons) > 0 {
			needing += fc.N
		}
		t.Status[string(fc.Status)] += fc.N
		statuses[string(fc.Status)] += fc.N
		total += fc.N
	}
	types := make([]overviewTypeDTO, 0, len(byType))
	for _, t := range byType {
		types = append(types, *t)
	}
	slices.SortFunc(types, func(a, b overviewTypeDTO) int {
		if a.Total != b.Total {
			return b.Total - a.Total
		}
		if a.TypeID != b.TypeID {
			return a.TypeID - b.TypeID
		}
		if a.Slave {
			return 1
		}
		return -1
	})

	att := make([]attentionDTO, len(attention))
	for i, a := range attention {
		att[i] = attentionDTO{deviceDTO: s.toDevice(c, a.Device, now), Reasons: a.Reasons}
		if a.GapTo != nil && !a.GapTo.Before(since) {
			att[i].GapFrom, att[i].GapTo = ms(a.GapFrom), ms(a.GapTo)
		}
	}

	// Today's rain: each gauge's sum since midnight.
	rain := amountDTO{Day: today.Format(time.DateOnly)}
	var rainVals []placeDTO
	for _, d := range rainDevs {
		r, ok := rainDays[store.DeviceDay{Device: d.ID, Day: today.UnixMilli()}]["rainfall"]
		if !ok {
			continue
		}
		rainVals = append(rainVals, place(d, readings.Round(r.Sum, 1)))
		if r.Sum > 0 {
			rain.Wet++
		}
	}
	rain.Devices, rain.Mean, rain.Min, rain.Max = summarize(rainVals, 1)

	// Yesterday's ET0: FAO-56 from each station's complete day.
	et0 := amountDTO{Day: yesterday.Format(time.DateOnly), Complete: true}
	et0.Devices, et0.Mean, et0.Min, et0.Max = summarize(etVals, 2)

	pushes := make([]channelHealthDTO, len(channels))
	failing := 0
	for i, h := range channels {
		p := channelHealthDTO{ID: h.ID, Name: h.Name, Kind: h.Kind, Enabled: h.Enabled, Pending: h.Pending,
			Overdue: h.Overdue, Failed: h.Failed, LastError: h.LastError, LastFail: ms(h.LastFail), Health: "ok"}
		switch {
		case !h.Enabled:
			p.Health = "off"
		case h.Failed > 0:
			p.Health = "failing"
			failing++
		case h.Overdue > 0:
			p.Health = "late"
			failing++
		}
		pushes[i] = p
	}

	levels := map[string]int{}
	alertTotal := 0
	for _, l := range []rules.Level{rules.LevelNormal, rules.LevelAlarm} {
		levels[string(l)] = alerts.ByLevel[l]
		alertTotal += alerts.ByLevel[l]
	}
	return map[string]any{
		"generatedAt": now.UnixMilli(),
		"hours":       overviewHours,
		"devices":     map[string]any{"total": total, "status": statuses, "types": types},
		"attention":   map[string]any{"total": needing, "counts": reasons, "devices": att},
		"alerts":      map[string]any{"total": alertTotal, "levels": levels, "devices": alerts.Devices, "hourly": alerts.Hourly},
		"rain":        rain,
		"et0":         et0,
		"push":        map[string]any{"channels": pushes, "failing": failing},
	}, nil
}

// et0DayTTL is how long an account's ET0 of yesterday is reused: the day
// is over, and only readings a station kept while out of reach can still
// change it; they show within this time.
const et0DayTTL = 10 * time.Minute

// yesterdayET0 is each of viewer's weather stations' FAO-56 ET0 of the
// complete day beginning at day, computed at most once per et0DayTTL.
func (s *Server) yesterdayET0(ctx context.Context, viewer int64, day time.Time) ([]placeDTO, error) {
	key := dayKey{viewer, day.UnixMilli()}
	if v, ok := s.et0Days.get(key, time.Now()); ok {
		return v, nil
	}
	stations, days, err := s.Overview.FleetDays(ctx, viewer, typesWith("airTemp", "airHumidity"), []time.Time{day}, weather.ET0Params)
	if err != nil {
		return nil, err
	}
	vals := []placeDTO{}
	for _, d := range stations {
		m := days[store.DeviceDay{Device: d.ID, Day: day.UnixMilli()}]
		if e, ok := weather.ET0OfDay(d, day, func(p string) (telemetry.Day, bool) { v, ok := m[p]; return v, ok }); ok {
			vals = append(vals, place(d, readings.Round(e.ET0, 2)))
		}
	}
	s.et0Days.put(key, vals, time.Now().Add(et0DayTTL))
	return vals, nil
}

// dayKey names an account's day (local midnight, unix ms).
type dayKey struct{ account, day int64 }

// dayCache keeps a figure per account and day until it expires; entries
// are dropped as they expire, so it holds at most the accounts of the
// last TTL.
type dayCache struct {
	mu sync.Mutex
	m  map[dayKey]dayEntry
}

type dayEntry struct {
	vals    []placeDTO
	expires time.Time
}

func (c *dayCache) get(k dayKey, now time.Time) ([]placeDTO, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || now.After(e.expires) {
		return nil, false
	}
	return e.vals, true
}

func (c *dayCache) put(k dayKey, vals []placeDTO, expires time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[dayKey]dayEntry{}
	}
	now := time.Now()
	for old, e := range c.m {
		if now.After(e.expires) {
			delete(c.m, old)
		}
	}
	c.m[k] = dayEntry{vals, expires}
}

// typesWith lists the device types (a host's id stands for its slaves)
// whose catalogue, or their slaves', has every parameter.
func typesWith(params ...string) []int {
	var out []int
	for _, t := range devices.Types() {
		has := func(tt *devices.Type) bool {
			for _, p := range params {
				if !readings.Has(tt, p) {
					return false
				}
			}
			return true
		}
		if has(t) || (t.Slave != nil && has(t.SlaveType())) {
			out = append(out, t.ID)
		}
	}
	return out
}

func place(d *devices.Device, v float64) placeDTO {
	p := placeDTO{ID: d.ID, HashID: d.HashID, Name: d.Name, Value: v}
	if t := d.Type(); t != nil {
		p.Page = string(t.Page)
	}
	return p
}

// summarize returns how many values there are, their mean (rounded to
// digits) and the lowest and highest.
func summarize(vs []placeDTO, digits int) (int, *float64, *placeDTO, *placeDTO) {
	if len(vs) == 0 {
		return 0, nil, nil, nil
	}
	sum := 0.0
	lo, hi := vs[0], vs[0]
	for _, v := range vs {
		sum += v.Value
		if v.Value < lo.Value {
			lo = v
		}
		if v.Value > hi.Value {
			hi = v
		}
	}
	mean := readings.Round(sum/float64(len(vs)), digits)
	if math.IsNaN(mean) {
		return len(vs), nil, &lo, &hi
	}
	return len(vs), &mean, &lo, &hi
}
