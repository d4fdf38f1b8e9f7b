package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

func f64(v float64) *float64 { return &v }

func events(t *testing.T, db *store.DB, owner int64) []*rules.Event {
	t.Helper()
	evs, _, err := db.Events(context.Background(), owner, rules.EventFilter{Page: 1, Size: 100})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestStore_RulesEngine(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		station := newDevice(t, db, "TQ0000001", 5, owner.ID)
		theirs := newDevice(t, db, "TQ0000002", 5, other.ID)
		now := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
		clock := now
		eng := rules.NewEngine(rules.EngineOptions{Store: db, Now: func() time.Time { return clock }})

		frost := &rules.Rule{OwnerID: owner.ID, Name: "Frost", Enabled: true, TypeID: 5, DeviceIDs: []int64{station.ID},
			Level: rules.LevelAlarm, Notify: []rules.Method{rules.MethodEmail, rules.MethodWeChat}, SilentHours: 24,
			Expressions: []rules.Expression{{Param: "airTemp", Agg: rules.AggMin, Op: rules.OpLTE, Threshold: f64(0)}},
			CreatedAt:   now, UpdatedAt: now}
		if err := frost.Validate(rules.RegistryCatalogue{}); err != nil {
			t.Fatal(err)
		}
		// Another account's device looks missing.
		bad := *frost
		bad.DeviceIDs = []int64{theirs.ID}
		if err := db.CreateRule(ctx, &bad); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("rule on another account's device: %v, want not found", err)
		}
		if err := db.CreateRule(ctx, frost); err != nil {
			t.Fatal(err)
		}

		temp := func(at time.Time, v float64) *telemetry.Report {
			return report(station.ID, at, telemetry.Point{Param: "airTemp", Value: v})
		}
		step := func(at time.Time, v float64) {
			t.Helper()
			r := temp(at, v)
			if _, err := db.WriteReports(ctx, []*telemetry.Report{r}, shanghai); err != nil {
				t.Fatal(err)
			}
			if err := eng.Evaluate(ctx, []*telemetry.Report{r}); err != nil {
				t.Fatal(err)
			}
		}
		t0 := now
		step(t0, 4)
		if n := len(events(t, db, owner.ID)); n != 0 {
			t.Fatalf("events above the threshold: %d", n)
		}
		step(t0.Add(10*time.Minute), -0.5) // into frost: one warning
		step(t0.Add(20*time.Minute), -2)   // still frost: nothing new
		evs := events(t, db, owner.ID)
		if len(evs) != 1 || evs[0].Kind != rules.KindWarning || evs[0].Level != rules.LevelAlarm || evs[0].SN != "TQ0000001" ||
			evs[0].RuleName != "Frost" || len(evs[0].Values) != 1 || evs[0].Values[0].Value != -0.5 {
			t.Fatalf("after the crossing: %+v", evs)
		}
		if n, _ := db.Unread(ctx, owner.ID); n != 1 {
			t.Fatalf("unread %d, want 1", n)
		}
		// The same report evaluated again (a second node, a replay) changes nothing.
		if err := eng.Evaluate(ctx, []*telemetry.Report{temp(t0.Add(10*time.Minute), -0.5)}); err != nil {
			t.Fatal(err)
		}
		step(t0.Add(30*time.Minute), 3) // back to normal: a common event
		evs = events(t, db, owner.ID)
		if len(evs) != 2 || evs[0].Kind != rules.KindCommon {
			t.Fatalf("after the return: %+v", evs)
		}
		step(t0.Add(40*time.Minute), -1) // inside the 24 h silent period: no event
		step(t0.Add(50*time.Minute), 2)  // and so no "back to normal" either
		if n := len(events(t, db, owner.ID)); n != 2 {
			t.Fatalf("silent period: %d events, want 2", n)
		}
		step(t0.Add(25*time.Hour), -3) // after it: a new warning
		if evs = events(t, db, owner.ID); len(evs) != 3 || evs[0].Kind != rules.KindWarning {
			t.Fatalf("after the silent period: %+v", evs)
		}
		// The other account sees none of it.
		if n := len(events(t, db, other.ID)); n != 0 {
			t.Fatalf("another account sees %d events", n)
		}
		if n, err := db.MarkRead(ctx, owner.ID, nil, clock); err != nil || n != 3 {
			t.Fatalf("mark read: %d %v", n, err)
		}
		if n, _ := db.Unread(ctx, owner.ID); n != 0 {
			t.Fatalf("unread after marking: %d", n)
		}

		// Disabled: nothing, and switched back on while frost holds, a new warning.
		if err := db.SetRuleEnabled(ctx, owner.ID, frost.ID, false); err != nil {
			t.Fatal(err)
		}
		step(t0.Add(26*time.Hour), 5)
		step(t0.Add(50*time.Hour), -4)
		if n := len(events(t, db, owner.ID)); n != 3 {
			t.Fatalf("disabled rule raised events: %d", n)
		}
		if err := db.SetRuleEnabled(ctx, other.ID, frost.ID, true); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another account enabling the rule: %v", err)
		}
		if err := db.SetRuleEnabled(ctx, owner.ID, frost.ID, true); err != nil {
			t.Fatal(err)
		}
		step(t0.Add(51*time.Hour), -4)
		if n := len(events(t, db, owner.ID)); n != 4 {
			t.Fatalf("re-enabled rule: %d events, want 4", n)
		}
	})
}

// Two engines (two server nodes) evaluating the same reports at the same
// time store each crossing once.
func TestStore_RulesTwoEngines(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		gauge := newDevice(t, db, "RG0000001", 6, owner.ID)
		now := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
		rule := &rules.Rule{OwnerID: owner.ID, Name: "Storm", Enabled: true, TypeID: 6, DeviceIDs: []int64{gauge.ID},
			Level: rules.LevelAlarm, Notify: []rules.Method{rules.MethodEmail},
			Expressions: []rules.Expression{{Param: "rainfall", Agg: rules.AggSum, Op: rules.OpGTE, Threshold: f64(50), WindowMinutes: 24 * 60}},
			CreatedAt:   now, UpdatedAt: now}
		if err := rule.Validate(rules.RegistryCatalogue{}); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateRule(ctx, rule); err != nil {
			t.Fatal(err)
		}
		// 10 mm an hour for 8 hours: the 24 h sum crosses 50 mm at the 5th.
		var reps []*telemetry.Report
		for i := range 8 {
			reps = append(reps, report(gauge.ID, now.Add(time.Duration(i)*time.Hour), telemetry.Point{Param: "rainfall", Value: 10}))
		}
		if _, err := db.WriteReports(ctx, reps, shanghai); err != nil {
			t.Fatal(err)
		}
		engines := []*rules.Engine{rules.NewEngine(rules.EngineOptions{Store: db}), rules.NewEngine(rules.EngineOptions{Store: db})}
		var wg sync.WaitGroup
		for _, e := range engines {
			for _, r := range reps {
				wg.Go(func() {
					if err := e.Evaluate(ctx, []*telemetry.Report{r}); err != nil {
						t.Error(err)
					}
				})
			}
		}
		wg.Wait()
		evs := events(t, db, owner.ID)
		if len(evs) != 1 || evs[0].Kind != rules.KindWarning {
			t.Fatalf("two engines: %d events, want exactly one warning: %+v", len(evs), evs)
		}
	})
}

// A node killed between a report's commit and its rules' evaluation (the
// engine's queue is in memory) leaves the report unjudged: CatchUp, at the
// next start or another node's next minute, judges it, once. Reports still
// inside the grace minute, judged ones and ones that could not be judged
// are left alone.
func TestStore_RulesCatchUp(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		station := newDevice(t, db, "TQ0000001", 5, owner.ID)
		t0 := time.Now().UTC().Truncate(time.Minute).Add(-time.Hour)
		clock := t0
		eng := rules.NewEngine(rules.EngineOptions{Store: db, Now: func() time.Time { return clock }})
		frost := &rules.Rule{OwnerID: owner.ID, Name: "Frost", Enabled: true, TypeID: 5, DeviceIDs: []int64{station.ID},
			Level: rules.LevelAlarm, Notify: []rules.Method{rules.MethodEmail},
			Expressions: []rules.Expression{{Param: "airTemp", Agg: rules.AggMin, Op: rules.OpLTE, Threshold: f64(0)}},
			CreatedAt:   t0, UpdatedAt: t0}
		if err := frost.Validate(rules.RegistryCatalogue{}); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateRule(ctx, frost); err != nil {
			t.Fatal(err)
		}
		write := func(r *telemetry.Report) {
			t.Helper()
			if _, err := db.WriteReports(ctx, []*telemetry.Report{r}, shanghai); err != nil {
				t.Fatal(err)
			}
		}
		catchUp := func(at time.Time) {
			t.Helper()
			clock = at
			if err := eng.CatchUp(ctx); err != nil {
				t.Fatal(err)
			}
		}

		// Committed, never judged: the node died.
		write(report(station.ID, t0, telemetry.Point{Param: "airTemp", Value: -1.5}, telemetry.Point{Param: "airHumidity", Value: 80}))
		catchUp(t0.Add(30 * time.Second)) // inside the grace minute: the node's own queue has it
		if n := len(events(t, db, owner.ID)); n != 0 {
			t.Fatalf("judged inside the grace minute: %d events", n)
		}
		catchUp(t0.Add(2 * time.Minute))
		evs := events(t, db, owner.ID)
		if len(evs) != 1 || evs[0].Kind != rules.KindWarning || len(evs[0].Values) != 1 || evs[0].Values[0].Value != -1.5 {
			t.Fatalf("after catching up: %+v", evs)
		}
		catchUp(t0.Add(3 * time.Minute)) // judged now: nothing twice
		if n := len(events(t, db, owner.ID)); n != 1 {
			t.Fatalf("caught up twice: %d events", n)
		}
		if left, err := db.Unevaluated(ctx, t0.Add(-time.Hour), t0.Add(time.Hour)); err != nil || len(left) != 0 {
			t.Fatalf("left unjudged: %v %v", left, err)
		}

		// Judged by the queue as usual: CatchUp has nothing to do.
		r := report(station.ID, t0.Add(10*time.Minute), telemetry.Point{Param: "airTemp", Value: 2})
		write(r)
		if err := eng.Evaluate(ctx, []*telemetry.Report{r}); err != nil {
			t.Fatal(err)
		}
		catchUp(t0.Add(12 * time.Minute))
		if evs := events(t, db, owner.ID); len(evs) != 2 || evs[0].Kind != rules.KindCommon {
			t.Fatalf("back to normal: %+v", evs)
		}

		// A report without the rule's parameter cannot be judged; once
		// evaluated it is not looked at again.
		r = report(station.ID, t0.Add(20*time.Minute), telemetry.Point{Param: "airHumidity", Value: 70})
		write(r)
		if left, err := db.Unevaluated(ctx, t0, t0.Add(time.Hour)); err != nil || len(left) != 1 || len(left[0].Points) != 1 || left[0].Points[0].Param != "airHumidity" {
			t.Fatalf("the unjudged report: %+v %v", left, err)
		}
		if err := eng.Evaluate(ctx, []*telemetry.Report{r}); err != nil {
			t.Fatal(err)
		}
		if left, err := db.Unevaluated(ctx, t0, t0.Add(time.Hour)); err != nil || len(left) != 0 {
			t.Fatalf("a report that cannot be judged comes back: %+v %v", left, err)
		}
	})
}

// Two nodes, one device: node B commits and judges a newer report (back to
// normal) before node A commits the older ones that crossed. A's verdicts
// cannot move the state back, so A judges the stored reports again and
// records the warning and its return that they hid, once, whichever engine
// sees them; inside the silent period it records none.
func TestStore_RulesOutOfOrder(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		station := newDevice(t, db, "TQ0000001", 5, owner.ID)
		t0 := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
		var raised []*rules.Event
		engine := func() *rules.Engine {
			return rules.NewEngine(rules.EngineOptions{Store: db, Now: func() time.Time { return t0.Add(time.Hour) },
				OnEvent: func(ev *rules.Event) { raised = append(raised, ev) }})
		}
		a, b := engine(), engine()
		frost := &rules.Rule{OwnerID: owner.ID, Name: "Frost", Enabled: true, TypeID: 5, DeviceIDs: []int64{station.ID},
			Level: rules.LevelAlarm, Notify: []rules.Method{rules.MethodEmail}, SilentHours: 24,
			Expressions: []rules.Expression{{Param: "airTemp", Agg: rules.AggMin, Op: rules.OpLTE, Threshold: f64(0)}},
			CreatedAt:   t0, UpdatedAt: t0}
		if err := frost.Validate(rules.RegistryCatalogue{}); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateRule(ctx, frost); err != nil {
			t.Fatal(err)
		}
		temp := func(minutes int, v float64) *telemetry.Report {
			return report(station.ID, t0.Add(time.Duration(minutes)*time.Minute), telemetry.Point{Param: "airTemp", Value: v})
		}
		commitAndJudge := func(e *rules.Engine, reps ...*telemetry.Report) {
			t.Helper()
			if _, err := db.WriteReports(ctx, reps, shanghai); err != nil {
				t.Fatal(err)
			}
			if err := e.Evaluate(ctx, reps); err != nil {
				t.Fatal(err)
			}
		}
		commitAndJudge(a, temp(0, 4))
		commitAndJudge(b, temp(30, 3)) // B is ahead
		if n := len(events(t, db, owner.ID)); n != 0 {
			t.Fatalf("before the late reports: %d events", n)
		}
		late := []*telemetry.Report{temp(10, -1), temp(20, -2)}
		commitAndJudge(a, late...)
		evs := events(t, db, owner.ID) // newest first
		if len(evs) != 2 || evs[1].Kind != rules.KindWarning || !evs[1].At.Equal(t0.Add(10*time.Minute)) || evs[1].Values[0].Value != -1 ||
			evs[0].Kind != rules.KindCommon || !evs[0].At.Equal(t0.Add(30*time.Minute)) {
			t.Fatalf("the hidden crossing: %+v", evs)
		}
		if len(raised) != 1 || raised[0].Kind != rules.KindWarning || raised[0].SN != "TQ0000001" {
			t.Fatalf("told the notifier: %+v", raised)
		}
		if ds, err := db.ClaimNotifications(ctx, t0.Add(2*time.Hour), time.Minute, 10); err != nil || len(ds) != 1 || ds[0].Event.ID != evs[1].ID {
			t.Fatalf("notifications: %+v %v, want one of the warning", ds, err)
		}
		// The same late reports judged again, by either engine: nothing more.
		if err := b.Evaluate(ctx, late); err != nil {
			t.Fatal(err)
		}
		if err := a.Evaluate(ctx, late[1:]); err != nil {
			t.Fatal(err)
		}
		if n := len(events(t, db, owner.ID)); n != 2 {
			t.Fatalf("judged again: %d events, want 2", n)
		}
		// Another hidden crossing, inside the 24 h silent period: none.
		commitAndJudge(b, temp(50, 6))
		commitAndJudge(a, temp(40, -3))
		if n := len(events(t, db, owner.ID)); n != 2 {
			t.Fatalf("inside the silent period: %d events, want 2", n)
		}
	})
}
