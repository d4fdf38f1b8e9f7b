// Package rules holds alert rules: what a rule is, how it is validated, how
// its expressions are evaluated against a report, and the engine that turns
// crossings into events.
package rules

import (
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/text"
)

// Level is how serious a rule's events are.
type Level string

const (
	LevelNormal Level = "normal"
	LevelAlarm  Level = "alarm"
)

// Method is a notification channel.
type Method string

const (
	MethodEmail  Method = "email"
	MethodWeChat Method = "wechat"
)

// Agg combines the readings of the selected nodes of one report (or of a
// time window) into the value an expression compares.
type Agg string

const (
	AggMax Agg = "max"
	AggMin Agg = "min"
	AggAvg Agg = "avg"
	AggSum Agg = "sum"
	AggAny Agg = "any" // true when the comparison holds for any reading
	AggAll Agg = "all" // true when it holds for every reading
)

// Op is a comparison.
type Op string

const (
	OpGT       Op = "gt"
	OpLT       Op = "lt"
	OpGTE      Op = "gte"
	OpLTE      Op = "lte"
	OpIn       Op = "in"    // Threshold ≤ v ≤ Threshold2
	OpNotIn    Op = "notIn" // outside that range
	maxName       = 15
	maxDesc       = 200
	maxExprs      = 10
	maxDevices    = 500
	maxWindow     = 7 * 24 * time.Hour
)

// Silent periods a rule may choose (SPEC: none, 24 hours, 48 hours).
var SilentPeriods = []time.Duration{0, 24 * time.Hour, 48 * time.Hour}

// Expression is one condition of a rule. All of a rule's expressions must
// hold (AND).
type Expression struct {
	ID int `json:"expressionId"`
	// Nodes are the depths (cm) whose readings are combined; empty means
	// the surface (a parameter without nodes).
	Nodes []int  `json:"nodes"`
	Param string `json:"param"`
	Agg   Agg    `json:"aggregation"`
	Op    Op     `json:"operator"`
	// Threshold and, for range operators, Threshold2 (which must be greater).
	Threshold  *float64 `json:"threshold"`
	Threshold2 *float64 `json:"threshold2,omitempty"`
	// Window, when set, aggregates the readings of that long a period
	// ending at the report (e.g. rain summed over 24 h) instead of the
	// report's own readings. An advanced option; 0 is the report itself.
	WindowMinutes int `json:"windowMinutes,omitempty"`
	// DeviceID, when set, reads this expression's parameter from another
	// device (e.g. the rain gauge of a landslide rule) instead of the device
	// the rule is evaluated for. An advanced option; the caller must be
	// able to read that device.
	DeviceID int64 `json:"deviceId,omitempty"`
}

// Window returns the expression's window.
func (e *Expression) Window() time.Duration { return time.Duration(e.WindowMinutes) * time.Minute }

// Rule is an alert rule.
type Rule struct {
	ID          int64        `json:"id"`
	OwnerID     int64        `json:"-"`
	Name        string       `json:"name"`
	Enabled     bool         `json:"enabled"`
	TypeID      int          `json:"typeId"`
	DeviceIDs   []int64      `json:"deviceIds"`
	Level       Level        `json:"level"`
	Expressions []Expression `json:"expressions"`
	Notify      []Method     `json:"notify"`
	// SilentHours is 0, 24 or 48: after an event, the same rule stays quiet
	// for the same device this long.
	SilentHours int    `json:"silentHours"`
	Description string `json:"description"`
	Template    string `json:"template,omitempty"`
	// Lang is the language its owner used when saving it, the language of
	// its notifications.
	Lang      i18n.Lang `json:"-"`
	CreatedAt time.Time `json:"-"`
	UpdatedAt time.Time `json:"-"`
}

// Silent returns the rule's silent period.
func (r *Rule) Silent() time.Duration { return time.Duration(r.SilentHours) * time.Hour }

// Catalogue tells validation which parameters and nodes a device type has.
type Catalogue interface {
	// Param returns the parameter and the nodes it may be read at (none
	// for surface parameters), or false when the type has no such parameter.
	Param(typeID int, param string) (p *devices.Param, nodes []int, ok bool)
}

// Validate checks r and normalises it (trimmed name, sorted unique device
// ids and nodes, expression ids 1…n). Messages are the SPEC's where it has
// them. It does not check that the devices are the caller's: the service
// does, since that needs the store. Returns EINVALID naming the field
// (name, description, typeId, level, deviceIds, expressions, notify or
// silentHours) with a rule.* code.
func (r *Rule) Validate(cat Catalogue) error {
	r.Name = strings.TrimSpace(r.Name)
	if r.Name == "" {
		return errs.Invalid("name", "rule.name.required")
	}
	if utf8.RuneCountInString(r.Name) > maxName {
		return errs.Invalid("name", "rule.name.tooLong").With(map[string]any{"max": maxName})
	}
	if err := text.CheckName("name", r.Name); err != nil {
		return err
	}
	r.Description = strings.TrimSpace(r.Description)
	if utf8.RuneCountInString(r.Description) > maxDesc {
		return errs.Invalid("description", "rule.description.tooLong").With(map[string]any{"max": maxDesc})
	}
	if _, ok := devices.TypeByID(r.TypeID); !ok {
		return errs.Invalid("typeId", "rule.type.unknown")
	}
	if r.Level == "" {
		r.Level = LevelNormal
	}
	if r.Level != LevelNormal && r.Level != LevelAlarm {
		return errs.Invalid("level", "rule.level.invalid")
	}
	slices.Sort(r.DeviceIDs)
	r.DeviceIDs = slices.Compact(r.DeviceIDs)
	if len(r.DeviceIDs) == 0 {
		return errs.Invalid("deviceIds", "rule.devices.required")
	}
	if len(r.DeviceIDs) > maxDevices {
		return errs.Invalid("deviceIds", "rule.devices.tooMany").With(map[string]any{"max": maxDevices})
	}
	if len(r.Expressions) == 0 {
		return errs.Invalid("expressions", "rule.expressions.required")
	}
	if len(r.Expressions) > maxExprs {
		return errs.Invalid("expressions", "rule.expressions.tooMany").With(map[string]any{"max": maxExprs})
	}
	for i := range r.Expressions {
		e := &r.Expressions[i]
		e.ID = i + 1
		if err := e.validate(cat, r.TypeID); err != nil {
			return err
		}
		// Offline is judged by the clock, not by reports: it cannot be
		// combined with conditions on readings.
		if e.Param == ParamOffline && len(r.Expressions) > 1 {
			return errs.Invalid("expressions", "rule.expression.offlineAlone")
		}
	}
	seen := map[Method]bool{}
	var notify []Method
	for _, m := range r.Notify {
		if m != MethodEmail && m != MethodWeChat {
			return errs.Invalid("notify", "rule.notify.invalid")
		}
		if !seen[m] {
			seen[m] = true
			notify = append(notify, m)
		}
	}
	r.Notify = notify
	if !slices.Contains(SilentPeriods, r.Silent()) {
		return errs.Invalid("silentHours", "rule.silent.invalid")
	}
	return nil
}

func (e *Expression) validate(cat Catalogue, typeID int) error {
	field := "expressions"
	incomplete := errs.Invalid(field, "rule.expression.incomplete")
	if e.Param == "" || e.Agg == "" || e.Op == "" || e.Threshold == nil {
		return incomplete
	}
	if (e.Op == OpIn || e.Op == OpNotIn) && e.Threshold2 == nil {
		return incomplete
	}
	if !finite(*e.Threshold) || (e.Threshold2 != nil && !finite(*e.Threshold2)) {
		return errs.Invalid(field, "rule.expression.threshold")
	}
	switch e.Op {
	case OpGT, OpLT, OpGTE, OpLTE:
		e.Threshold2 = nil
	case OpIn, OpNotIn:
		if *e.Threshold >= *e.Threshold2 {
			return errs.Invalid(field, "rule.expression.range")
		}
	default:
		return errs.Invalid(field, "rule.expression.operator")
	}
	switch e.Agg {
	case AggMax, AggMin, AggAvg, AggSum, AggAny, AggAll:
	default:
		return errs.Invalid(field, "rule.expression.aggregation")
	}
	// Compared in minutes: a huge count would overflow Window().
	if e.WindowMinutes < 0 || e.WindowMinutes > int(maxWindow/time.Minute) {
		return errs.Invalid(field, "rule.expression.window").With(map[string]any{"max": int(maxWindow.Hours())})
	}
	if e.DeviceID < 0 {
		return errs.Invalid(field, "rule.expression.device")
	}
	// A parameter of another device is checked against that device's type
	// by the service; here only the rule's own type.
	if e.DeviceID != 0 {
		slices.Sort(e.Nodes)
		e.Nodes = slices.Compact(e.Nodes)
		return nil
	}
	return e.checkParam(cat, typeID)
}

// checkParam checks the expression's parameter and nodes against a type.
func (e *Expression) checkParam(cat Catalogue, typeID int) error {
	_, nodes, ok := cat.Param(typeID, e.Param)
	if !ok {
		return errs.Invalid("expressions", "rule.expression.param").With(map[string]any{"param": e.Param})
	}
	slices.Sort(e.Nodes)
	e.Nodes = slices.Compact(e.Nodes)
	if len(nodes) == 0 {
		if len(e.Nodes) > 0 {
			return errs.Invalid("expressions", "rule.expression.nodes")
		}
		return nil
	}
	if len(e.Nodes) == 0 {
		return errs.Invalid("expressions", "rule.expression.incomplete")
	}
	for _, n := range e.Nodes {
		if !slices.Contains(nodes, n) {
			return errs.Invalid("expressions", "rule.expression.nodes")
		}
	}
	return nil
}

// CheckForeign checks an expression that reads another device against
// that device's type. Returns EINVALID (expressions): rule.expression.param,
// rule.expression.nodes, or rule.expression.incomplete for a per-node
// parameter without nodes.
func (e *Expression) CheckForeign(cat Catalogue, typeID int) error { return e.checkParam(cat, typeID) }

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// RegistryCatalogue is the Catalogue of the device type registry.
type RegistryCatalogue struct{}

// Param implements Catalogue. Offline minutes is a virtual parameter every
// type has: minutes since the device's last report.
func (RegistryCatalogue) Param(typeID int, param string) (*devices.Param, []int, bool) {
	t, ok := devices.TypeByID(typeID)
	if !ok {
		return nil, nil, false
	}
	if param == ParamOffline {
		return &offlineParam, nil, true
	}
	p, ok := t.Param(param)
	if !ok {
		if st := t.SlaveType(); st != nil {
			if p, ok = st.Param(param); ok {
				return p, nodesOf(st, p), true
			}
		}
		return nil, nil, false
	}
	return p, nodesOf(t, p), true
}

func nodesOf(t *devices.Type, p *devices.Param) []int {
	if !p.PerNode {
		return nil
	}
	return slices.Clone(t.Nodes)
}

// ParamOffline is the virtual parameter "minutes since the last report",
// evaluated by the engine's clock rather than by reports.
const ParamOffline = "offline_minutes"

var offlineParam = devices.Param{ID: ParamOffline, Unit: "min", Min: 0, Max: math.MaxFloat64,
	Names: devices.Names{ZhCN: "离线时长", ZhTW: "離線時長", EnUS: "Offline for"}}
