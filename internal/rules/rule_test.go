package rules

import (
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

func p(f float64) *float64 { return &f }

func valid() Rule {
	return Rule{Name: "Frost", TypeID: 5, DeviceIDs: []int64{3, 1, 3}, Level: LevelAlarm, Notify: []Method{MethodEmail, MethodEmail},
		Expressions: []Expression{{Param: "airTemp", Agg: AggMin, Op: OpLTE, Threshold: p(0)}}}
}

func TestValidate(t *testing.T) {
	r := valid()
	if err := r.Validate(RegistryCatalogue{}); err != nil {
		t.Fatal(err)
	}
	if len(r.DeviceIDs) != 2 || r.DeviceIDs[0] != 1 || len(r.Notify) != 1 || r.Expressions[0].ID != 1 {
		t.Fatalf("not normalised: %+v", r)
	}
	cases := []struct {
		name, field, code string
		edit              func(r *Rule)
	}{
		{"empty name", "name", "rule.name.required", func(r *Rule) { r.Name = "  " }},
		{"name of 16", "name", "rule.name.tooLong", func(r *Rule) { r.Name = "一二三四五六七八九十一二三四五六" }},
		{"no device", "deviceIds", "rule.devices.required", func(r *Rule) { r.DeviceIDs = nil }},
		{"no expression", "expressions", "rule.expressions.required", func(r *Rule) { r.Expressions = nil }},
		{"no threshold", "expressions", "rule.expression.incomplete", func(r *Rule) { r.Expressions[0].Threshold = nil }},
		{"no operator", "expressions", "rule.expression.incomplete", func(r *Rule) { r.Expressions[0].Op = "" }},
		{"range without second", "expressions", "rule.expression.incomplete", func(r *Rule) { r.Expressions[0].Op = OpIn }},
		{"range reversed", "expressions", "rule.expression.range", func(r *Rule) {
			r.Expressions[0].Op, r.Expressions[0].Threshold, r.Expressions[0].Threshold2 = OpNotIn, p(5), p(5)
		}},
		{"unknown parameter", "expressions", "rule.expression.param", func(r *Rule) { r.Expressions[0].Param = "soilMoisture" }},
		{"surface parameter with nodes", "expressions", "rule.expression.nodes", func(r *Rule) { r.Expressions[0].Nodes = []int{10} }},
		{"bad aggregation", "expressions", "rule.expression.aggregation", func(r *Rule) { r.Expressions[0].Agg = "median" }},
		{"window too long", "expressions", "rule.expression.window", func(r *Rule) { r.Expressions[0].WindowMinutes = 8 * 24 * 60 }},
		{"window a minute too long", "expressions", "rule.expression.window", func(r *Rule) { r.Expressions[0].WindowMinutes = 7*24*60 + 1 }},
		{"window overflowing a duration", "expressions", "rule.expression.window", func(r *Rule) { r.Expressions[0].WindowMinutes = 153722892 }},
		{"window wrapping to a short one", "expressions", "rule.expression.window", func(r *Rule) { r.Expressions[0].WindowMinutes = 307445735 }},
		{"silent 12 h", "silentHours", "rule.silent.invalid", func(r *Rule) { r.SilentHours = 12 }},
		{"bad method", "notify", "rule.notify.invalid", func(r *Rule) { r.Notify = []Method{"sms"} }},
		{"bad level", "level", "rule.level.invalid", func(r *Rule) { r.Level = "critical" }},
		{"unknown type", "typeId", "rule.type.unknown", func(r *Rule) { r.TypeID = 999 }},
		{"offline with another", "expressions", "rule.expression.offlineAlone", func(r *Rule) {
			r.Expressions = append(r.Expressions, Expression{Param: ParamOffline, Agg: AggMax, Op: OpGTE, Threshold: p(60)})
		}},
	}
	for _, c := range cases {
		r := valid()
		c.edit(&r)
		e := errs.As(r.Validate(RegistryCatalogue{}))
		if e == nil || e.Kind != errs.EInvalid || e.Field != c.field || e.Code != c.code {
			t.Errorf("%s: got %v, want %s on %s", c.name, e, c.code, c.field)
		}
	}
	// Soil parameters need depths, and only the type's.
	soil := Rule{Name: "Dry", TypeID: 2, DeviceIDs: []int64{1},
		Expressions: []Expression{{Param: "soilMoisture", Agg: AggAvg, Op: OpLT, Threshold: p(15)}}}
	if e := errs.As(soil.Validate(RegistryCatalogue{})); e == nil || e.Code != "rule.expression.incomplete" {
		t.Errorf("soil without nodes: %v", e)
	}
	soil.Expressions[0].Nodes = []int{10, 15}
	if e := errs.As(soil.Validate(RegistryCatalogue{})); e == nil || e.Code != "rule.expression.nodes" {
		t.Errorf("soil at 15 cm: %v", e)
	}
	soil.Expressions[0].Nodes = []int{20, 10}
	if err := soil.Validate(RegistryCatalogue{}); err != nil {
		t.Errorf("soil at 10 and 20 cm: %v", err)
	}
}

func TestHolds(t *testing.T) {
	x := func(agg Agg, op Op, a float64, b *float64) Expression {
		return Expression{Agg: agg, Op: op, Threshold: &a, Threshold2: b}
	}
	vals := []float64{10, 20, 30}
	cases := []struct {
		e    Expression
		want bool
	}{
		{x(AggMax, OpGT, 29, nil), true}, {x(AggMax, OpGT, 30, nil), false}, {x(AggMax, OpGTE, 30, nil), true},
		{x(AggMin, OpLT, 10, nil), false}, {x(AggMin, OpLTE, 10, nil), true},
		{x(AggAvg, OpGTE, 20, nil), true}, {x(AggSum, OpGT, 59.9, nil), true}, {x(AggSum, OpGT, 60, nil), false},
		{x(AggAny, OpGT, 25, nil), true}, {x(AggAll, OpGT, 15, nil), false}, {x(AggAll, OpGT, 5, nil), true},
		{x(AggAvg, OpIn, 20, p(25)), true}, {x(AggAvg, OpIn, 21, p(25)), false},
		{x(AggAvg, OpNotIn, 21, p(25)), true}, {x(AggAll, OpNotIn, 15, p(25)), false}, {x(AggAny, OpNotIn, 15, p(25)), true},
	}
	for i, c := range cases {
		got, ok := c.e.Holds(vals)
		if !ok || got != c.want {
			t.Errorf("case %d (%s %s): got %v, want %v", i, c.e.Agg, c.e.Op, got, c.want)
		}
	}
	e := x(AggMax, OpGT, 0, nil)
	if _, ok := e.Holds(nil); ok {
		t.Error("no readings must be unknown")
	}
	if Combine([]Result{{Holds: true, Known: true}, {Known: false}}) != Unknown ||
		Combine([]Result{{Holds: false, Known: true}, {Known: false}}) != Clear ||
		Combine([]Result{{Holds: true, Known: true}, {Holds: true, Known: true}}) != Firing {
		t.Error("Combine")
	}
}

func TestTemplates(t *testing.T) {
	for _, ty := range devices.Types() {
		for _, tp := range TemplatesFor(ty) {
			r := tp.Build(ty, i18n.EnUS)
			r.DeviceIDs = []int64{1}
			if tp.ID == "landslide" {
				r.Expressions[1].DeviceID = 2 // the rain gauge the user picks
			}
			if err := r.Validate(RegistryCatalogue{}); err != nil {
				t.Errorf("template %s on type %d: %v", tp.ID, ty.ID, err)
			}
		}
	}
	weather, _ := devices.TypeByID(5)
	ids := map[string]bool{}
	for _, tp := range TemplatesFor(weather) {
		ids[tp.ID] = true
	}
	if !ids["frost"] || !ids["heavyRain"] || !ids["lowBattery"] || !ids["offline"] || ids["waterlogging"] {
		t.Errorf("weather station templates: %v", ids)
	}
}
