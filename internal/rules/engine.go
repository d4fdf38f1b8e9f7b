package rules

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// EngineOptions configure an Engine.
type EngineOptions struct {
	Store Store
	Now   func() time.Time
	Log   *slog.Logger
	// OnEvent, if set, is called for each new event (to wake the notifier).
	OnEvent func(*Event)
	// OfflineEvery is how often devices under offline rules are checked
	// (default one minute).
	OfflineEvery time.Duration
}

// Engine evaluates the rules of every committed report. It keeps nothing
// between reports but a queue: windows are read from the store and each
// rule's state lives there too, so any number of engines (one per server
// node) may see the same report and it still raises one event.
type Engine struct {
	EngineOptions

	mu    sync.Mutex
	queue []*telemetry.Report
	wake  chan struct{}
	once  sync.Once
}

// NewEngine returns an engine; Run evaluates what Enqueue queues.
func NewEngine(o EngineOptions) *Engine { return &Engine{EngineOptions: o} }

func (e *Engine) init() {
	e.once.Do(func() {
		e.wake = make(chan struct{}, 1)
		if e.Now == nil {
			e.Now = time.Now
		}
		if e.Log == nil {
			e.Log = slog.New(slog.DiscardHandler)
		}
		if e.OfflineEvery == 0 {
			e.OfflineEvery = time.Minute
		}
	})
}

// Enqueue hands the engine committed reports. It never blocks (it runs on
// the telemetry writer's goroutine).
func (e *Engine) Enqueue(reports []*telemetry.Report) {
	e.init()
	e.mu.Lock()
	e.queue = append(e.queue, reports...)
	e.mu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// catchUpGrace is how old a last report must be before CatchUp judges it:
// a node's own queue judges its reports within moments of the commit, and
// CatchUp judging a newer report first would make an older one's verdict
// too late to apply.
const catchUpGrace = time.Minute

// catchUpSpan is how far back CatchUp looks.
const catchUpSpan = 24 * time.Hour

// CatchUp judges the last reports that no engine judged: committed on a
// node that was killed before its queue reached them (the queue is in
// memory). Run calls it at start and with each offline check, so another
// node catches up within a minute. A report judged twice applies once.
func (e *Engine) CatchUp(ctx context.Context) error {
	e.init()
	now := e.Now()
	reports, err := e.Store.Unevaluated(ctx, now.Add(-catchUpSpan), now.Add(-catchUpGrace))
	if err != nil || len(reports) == 0 {
		return err
	}
	e.Log.Info("rules: judging reports left unjudged", "reports", len(reports))
	return e.Evaluate(ctx, reports)
}

// Run evaluates queued reports and checks offline rules until ctx ends.
func (e *Engine) Run(ctx context.Context) {
	e.init()
	t := time.NewTicker(e.OfflineEvery)
	defer t.Stop()
	// Judging goes on for drainFor after ctx ends: the batch under way and
	// what is queued are finished when the node stops.
	work, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	go func() {
		<-ctx.Done()
		select {
		case <-time.After(drainFor):
			stop()
		case <-work.Done():
		}
	}()
	if err := e.CatchUp(work); err != nil && ctx.Err() == nil {
		e.Log.Error("rules: catch up", "err", err)
	}
	for {
		select {
		case <-ctx.Done():
			e.drain(work)
			return
		case <-e.wake:
			for {
				e.mu.Lock()
				batch := e.queue
				e.queue = nil
				e.mu.Unlock()
				if len(batch) == 0 {
					break
				}
				if err := e.Evaluate(work, batch); err != nil {
					e.Log.Error("rules: evaluate", "err", err, "reports", len(batch))
				}
			}
		case <-t.C:
			if err := e.CheckOffline(work); err != nil {
				e.Log.Error("rules: offline check", "err", err)
			}
			if err := e.CatchUp(work); err != nil {
				e.Log.Error("rules: catch up", "err", err)
			}
		}
	}
}

// drainFor bounds how long a stopping engine goes on judging its queue.
const drainFor = 10 * time.Second

// drain judges what is still queued when the engine stops (a node shutting
// down) until ctx ends (drainFor after the stop); what is left then,
// CatchUp judges later on some node.
func (e *Engine) drain(ctx context.Context) {
	for ctx.Err() == nil {
		e.mu.Lock()
		batch := e.queue
		e.queue = nil
		e.mu.Unlock()
		if len(batch) == 0 {
			return
		}
		if err := e.Evaluate(ctx, batch); err != nil {
			e.Log.Error("rules: evaluate while stopping", "err", err, "reports", len(batch))
		}
	}
}

// Evaluate judges reports against their devices' enabled rules and
// applies each verdict. A failure on one rule does not stop the others: it
// returns the first error met, EINTERNAL, or ENOTFOUND when a rule or
// device was deleted meanwhile.
func (e *Engine) Evaluate(ctx context.Context, reports []*telemetry.Report) error {
	e.init()
	var ids []int64
	for _, r := range reports {
		ids = append(ids, r.DeviceID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	byDevice, err := e.Store.RulesForDevices(ctx, ids)
	if err != nil {
		return err
	}
	between, err := e.between(ctx, reports, byDevice)
	if err != nil {
		return err
	}
	// Oldest first per device, so states move forward in time.
	sorted := append(slices.Clone(reports), between...)
	slices.SortStableFunc(sorted, func(a, b *telemetry.Report) int {
		return cmp.Or(cmp.Compare(a.DeviceID, b.DeviceID), a.Time.Compare(b.Time))
	})
	var firstErr error
	stale := map[staleKey]time.Time{} // the oldest firing report each rule judged too late
	for _, rep := range sorted {
		for _, rule := range byDevice[rep.DeviceID] {
			t, ok, err := e.judge(ctx, rule, rep)
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
				continue
			}
			t.Unknown = !ok // recorded as evaluated, so CatchUp passes it by
			err = e.apply(ctx, t)
			if errors.Is(err, ErrStale) {
				k := staleKey{rule, rep.DeviceID}
				if _, seen := stale[k]; t.Firing && ok && !seen {
					stale[k] = rep.Time
				}
				continue
			}
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
			}
		}
	}
	for k, from := range stale {
		if err := e.episodes(ctx, k.rule, k.device, from); err != nil {
			firstErr = cmp.Or(firstErr, err)
		}
	}
	return firstErr
}

// backfillSpan bounds how far back before a report between looks.
const backfillSpan = 24 * time.Hour

// between returns the stored reports of the devices with rules that lie
// between their rules' last judged report and the newest of reports, and
// are not among reports. Nodes judge what they commit, each from its own
// queue: one node may judge a device's newer report while another still
// has the older one queued, and a state applies no report older than its
// last, so each batch judges the reports before it too, in time order.
func (e *Engine) between(ctx context.Context, reports []*telemetry.Report, byDevice map[int64][]*Rule) ([]*telemetry.Report, error) {
	newest := map[int64]time.Time{}
	have := map[int64]map[int64]bool{}
	for _, r := range reports {
		if len(byDevice[r.DeviceID]) == 0 {
			continue
		}
		if r.Time.After(newest[r.DeviceID]) {
			newest[r.DeviceID] = r.Time
		}
		if have[r.DeviceID] == nil {
			have[r.DeviceID] = map[int64]bool{}
		}
		have[r.DeviceID][r.Time.UnixMilli()] = true
	}
	if len(newest) == 0 {
		return nil, nil
	}
	ids := slices.Sorted(maps.Keys(newest))
	judged, err := e.Store.JudgedUntil(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []*telemetry.Report
	for _, dev := range ids {
		// Without a state the rules have judged none of the device's
		// reports: those since the newest rule was made.
		from, ok := judged[dev]
		if !ok {
			for _, r := range byDevice[dev] {
				from = later(from, r.CreatedAt.Add(-time.Millisecond))
			}
		}
		if !from.Before(newest[dev]) {
			continue
		}
		from = later(from, newest[dev].Add(-backfillSpan))
		rs, err := e.Store.Readings(ctx, telemetry.Query{DeviceID: dev, Begin: from.Add(time.Millisecond), End: newest[dev]})
		if err != nil {
			return nil, err
		}
		out = append(out, groupReports(dev, rs, have[dev])...)
	}
	return out, nil
}

// groupReports makes a device's readings into its reports, in time order,
// leaving out the times in skip.
func groupReports(device int64, rs []telemetry.Reading, skip map[int64]bool) []*telemetry.Report {
	byTime := map[int64]*telemetry.Report{}
	var out []*telemetry.Report
	for _, r := range rs {
		ms := r.Time.UnixMilli()
		if skip[ms] {
			continue
		}
		rep := byTime[ms]
		if rep == nil {
			rep = &telemetry.Report{DeviceID: device, Time: r.Time}
			byTime[ms] = rep
			out = append(out, rep)
		}
		rep.Points = append(rep.Points, telemetry.Point{Param: r.Param, Node: r.Node, Value: r.Value})
	}
	slices.SortFunc(out, func(a, b *telemetry.Report) int { return a.Time.Compare(b.Time) })
	return out
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// ErrStale is Store.Apply's answer to a report older than the last one
// judged for the rule and device.
var ErrStale = errors.New("rules: a newer report was judged already")

type staleKey struct {
	rule   *Rule
	device int64
}

// episodes handles firing reports judged after a newer report of their
// device (another node's): their verdict cannot change the state, which
// has moved past them, so the stored reports from the first of them on are
// judged again in time order, and each run of firing reports that a clear
// one ended is recorded as a warning and its return unless events already
// tell of it (Store.Episode).
func (e *Engine) episodes(ctx context.Context, rule *Rule, device int64, from time.Time) error {
	rs, err := e.Store.Readings(ctx, telemetry.Query{DeviceID: device, Begin: from, End: from.Add(backfillSpan)})
	if err != nil {
		return err
	}
	var start *Transition
	for _, rep := range groupReports(device, rs, nil) {
		t, ok, err := e.judge(ctx, rule, rep)
		if err != nil {
			return err
		}
		switch {
		case !ok:
		case t.Firing && start == nil:
			start = &t
		case !t.Firing && start != nil:
			ev, err := e.Store.Episode(ctx, *start, t, e.Now())
			if err != nil {
				return err
			}
			if ev != nil {
				e.Log.Info("rules: raised a warning its reports, judged out of order, had hidden", "rule", rule.ID, "device", device, "at", ev.At)
				if e.OnEvent != nil {
					e.OnEvent(ev)
				}
			}
			start = nil
		}
	}
	return nil
}

func (e *Engine) apply(ctx context.Context, t Transition) error {
	ev, err := e.Store.Apply(ctx, t, e.Now())
	if err != nil {
		return err
	}
	if ev != nil && e.OnEvent != nil {
		e.OnEvent(ev)
	}
	return nil
}

// judge evaluates one rule on one report; ok is false when the outcome is
// unknown.
func (e *Engine) judge(ctx context.Context, rule *Rule, rep *telemetry.Report) (Transition, bool, error) {
	t := Transition{Rule: rule, DeviceID: rep.DeviceID, At: rep.Time}
	if rule.isOffline() {
		// A report ends "offline".
		t.Firing = false
		return t, true, nil
	}
	results := make([]Result, len(rule.Expressions))
	for i := range rule.Expressions {
		x := &rule.Expressions[i]
		vals, err := e.values(ctx, x, rep)
		if err != nil {
			return t, false, err
		}
		results[i] = x.Judge(vals)
		if results[i].Known {
			t.Values = append(t.Values, Judged{ExpressionID: x.ID, Param: x.Param, Nodes: x.Nodes, DeviceID: x.DeviceID, Value: results[i].Value})
		}
	}
	switch Combine(results) {
	case Firing:
		t.Firing = true
	case Clear:
		t.Firing = false
	default:
		return t, false, nil
	}
	return t, true, nil
}

// latestWindow is how far back an expression on another device looks for
// that device's latest reading.
const latestWindow = 3 * time.Hour

// values returns the readings an expression judges for a report: the
// report's own, or a window (or another device's latest) from the store.
func (e *Engine) values(ctx context.Context, x *Expression, rep *telemetry.Report) ([]float64, error) {
	dev := rep.DeviceID
	if x.DeviceID != 0 {
		dev = x.DeviceID
	}
	nodes := x.Nodes
	if len(nodes) == 0 {
		nodes = []int{0}
	}
	if x.WindowMinutes == 0 && dev == rep.DeviceID {
		var out []float64
		for _, p := range rep.Points {
			if p.Param == x.Param && slices.Contains(nodes, p.Node) {
				out = append(out, p.Value)
			}
		}
		return out, nil
	}
	window := x.Window()
	if window == 0 {
		window = latestWindow
	}
	rs, err := e.Store.Readings(ctx, telemetry.Query{DeviceID: dev, Params: []string{x.Param}, Nodes: nodes,
		Begin: rep.Time.Add(-window).Add(time.Millisecond), End: rep.Time.Add(time.Millisecond)})
	if err != nil {
		return nil, err
	}
	if x.WindowMinutes > 0 {
		out := make([]float64, len(rs))
		for i, r := range rs {
			out[i] = r.Value
		}
		return out, nil
	}
	// The latest reading of each node.
	latest := map[int]telemetry.Reading{}
	for _, r := range rs {
		if l, ok := latest[r.Node]; !ok || r.Time.After(l.Time) {
			latest[r.Node] = r
		}
	}
	var out []float64
	for _, n := range nodes {
		if r, ok := latest[n]; ok {
			out = append(out, r.Value)
		}
	}
	return out, nil
}

func (r *Rule) isOffline() bool {
	return len(r.Expressions) == 1 && r.Expressions[0].Param == ParamOffline
}

// CheckOffline judges every device under an offline rule by the minutes
// since its last report (or since it was registered, if it never
// reported). Verdicts are stamped with the current minute, so engines on
// several nodes checking in the same minute apply one. Errors are as
// Evaluate's.
func (e *Engine) CheckOffline(ctx context.Context) error {
	e.init()
	cs, err := e.Store.OfflineCandidates(ctx)
	if err != nil {
		return err
	}
	now := e.Now().Truncate(time.Minute)
	var firstErr error
	for _, c := range cs {
		if !c.Rule.isOffline() {
			continue
		}
		since := c.Created
		if c.LastReport != nil {
			since = *c.LastReport
		}
		minutes := now.Sub(since).Minutes()
		x := &c.Rule.Expressions[0]
		res := x.Judge([]float64{minutes})
		t := Transition{Rule: c.Rule, DeviceID: c.DeviceID, At: now, Firing: res.Holds,
			Values: []Judged{{ExpressionID: x.ID, Param: x.Param, Value: minutes}}}
		if err := e.apply(ctx, t); err != nil && !errors.Is(err, ErrStale) {
			firstErr = cmp.Or(firstErr, err)
		}
	}
	return firstErr
}
