package rules

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// checkValid fails unless r holds what Validate promises of a rule it
// accepts, so that the engine can judge every expression.
func checkValid(t *testing.T, r *Rule) {
	t.Helper()
	if r.Name == "" || r.Name != strings.TrimSpace(r.Name) || utf8.RuneCountInString(r.Name) > maxName {
		t.Fatalf("name %q", r.Name)
	}
	if utf8.RuneCountInString(r.Description) > maxDesc {
		t.Fatalf("description of %d characters", utf8.RuneCountInString(r.Description))
	}
	if _, ok := devices.TypeByID(r.TypeID); !ok {
		t.Fatalf("type %d", r.TypeID)
	}
	if r.Level != LevelNormal && r.Level != LevelAlarm {
		t.Fatalf("level %q", r.Level)
	}
	if len(r.DeviceIDs) == 0 || len(r.DeviceIDs) > maxDevices || !slices.IsSorted(r.DeviceIDs) || len(slices.Compact(slices.Clone(r.DeviceIDs))) != len(r.DeviceIDs) {
		t.Fatalf("devices %v", r.DeviceIDs)
	}
	if len(r.Expressions) == 0 || len(r.Expressions) > maxExprs {
		t.Fatalf("%d expressions", len(r.Expressions))
	}
	for i := range r.Expressions {
		x := &r.Expressions[i]
		if x.ID != i+1 {
			t.Fatalf("expression %d has id %d", i, x.ID)
		}
		if x.Threshold == nil || !finite(*x.Threshold) {
			t.Fatalf("expression %d: threshold %v", x.ID, x.Threshold)
		}
		switch x.Op {
		case OpGT, OpLT, OpGTE, OpLTE:
			if x.Threshold2 != nil {
				t.Fatalf("expression %d: a second threshold on %s", x.ID, x.Op)
			}
		case OpIn, OpNotIn:
			if x.Threshold2 == nil || !finite(*x.Threshold2) || *x.Threshold >= *x.Threshold2 {
				t.Fatalf("expression %d: range %v…%v", x.ID, *x.Threshold, x.Threshold2)
			}
		default:
			t.Fatalf("expression %d: operator %q", x.ID, x.Op)
		}
		if !slices.Contains([]Agg{AggMax, AggMin, AggAvg, AggSum, AggAny, AggAll}, x.Agg) {
			t.Fatalf("expression %d: aggregation %q", x.ID, x.Agg)
		}
		if x.WindowMinutes < 0 || x.WindowMinutes > int(maxWindow.Minutes()) || x.Window() < 0 || x.Window() > maxWindow {
			t.Fatalf("expression %d: window of %d minutes (%v)", x.ID, x.WindowMinutes, x.Window())
		}
		if x.DeviceID < 0 || !slices.IsSorted(x.Nodes) || len(slices.Compact(slices.Clone(x.Nodes))) != len(x.Nodes) {
			t.Fatalf("expression %d: device %d, nodes %v", x.ID, x.DeviceID, x.Nodes)
		}
		if x.Param == ParamOffline && len(r.Expressions) > 1 {
			t.Fatal("offline with other expressions")
		}
	}
	if !slices.Contains(SilentPeriods, r.Silent()) {
		t.Fatalf("silent %d h", r.SilentHours)
	}
}

// judgeAround judges x on readings at and next to its thresholds: known,
// and never a panic.
func judgeAround(t *testing.T, x *Expression) {
	t.Helper()
	vals := []float64{*x.Threshold, math.Nextafter(*x.Threshold, math.Inf(1)), math.Nextafter(*x.Threshold, math.Inf(-1))}
	if x.Threshold2 != nil {
		vals = append(vals, *x.Threshold2, (*x.Threshold+*x.Threshold2)/2)
	}
	for i := range vals {
		if r := x.Judge(vals[:i+1]); !r.Known {
			t.Fatalf("expression %d unknown on %v", x.ID, vals[:i+1])
		}
	}
	if x.Judge(nil).Known {
		t.Fatalf("expression %d known without readings", x.ID)
	}
}

// FuzzRule_Validate decodes a rule as the HTTP API does and validates it.
// Validation never panics and refuses only with EINVALID; a rule it accepts
// is well-formed, validates again unchanged (also after the JSON round trip
// the store makes), and every expression can be judged.
func FuzzRule_Validate(f *testing.F) {
	for _, ty := range devices.Types() {
		for _, tp := range TemplatesFor(ty) {
			r := tp.Build(ty, i18n.ZhCN)
			r.DeviceIDs = []int64{1}
			if tp.ID == "landslide" {
				r.Expressions[1].DeviceID = 2
			}
			b, err := json.Marshal(&r)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	for _, s := range []string{
		`{"name":"Frost","typeId":5,"deviceIds":[3,1,3],"level":"alarm","notify":["email","email"],` +
			`"expressions":[{"param":"airTemp","aggregation":"min","operator":"lte","threshold":0}]}`,
		`{"name":"Dry","typeId":2,"deviceIds":[1],"silentHours":24,` +
			`"expressions":[{"param":"soilMoisture","nodes":[20,10],"aggregation":"avg","operator":"in","threshold":10,"threshold2":15}]}`,
		`{"name":" 涝 ","typeId":2,"deviceIds":[1],"expressions":[{"param":"rainfall","deviceId":9,"aggregation":"sum",` +
			`"operator":"notIn","threshold":-1e308,"threshold2":1e308,"windowMinutes":10080}]}`,
		`{"name":"Offline","typeId":5,"deviceIds":[1],"expressions":[{"param":"offline_minutes","aggregation":"max","operator":"gte","threshold":120}]}`,
		`{"name":"Window","typeId":5,"deviceIds":[1],"expressions":[{"param":"rainfall","aggregation":"sum","operator":"gt","threshold":1,"windowMinutes":10081}]}`,
		`{"name":"x","typeId":5,"deviceIds":[1],"expressions":[{"param":"airTemp","aggregation":"any","operator":"gt","threshold":1,"threshold2":0}]}`,
		`{"name":"x","typeId":999,"deviceIds":[-1],"expressions":[{}],"silentHours":48,"level":"critical"}`,
		`{"expressions":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var r Rule
		if json.Unmarshal(body, &r) != nil {
			return
		}
		if err := r.Validate(RegistryCatalogue{}); err != nil {
			if e := errs.As(err); e == nil || e.Kind != errs.EInvalid || e.Field == "" || e.Code == "" {
				t.Fatalf("refused with %v", err)
			}
			return
		}
		checkValid(t, &r)
		for i := range r.Expressions {
			judgeAround(t, &r.Expressions[i])
		}
		again := r
		again.DeviceIDs = slices.Clone(r.DeviceIDs)
		again.Expressions = slices.Clone(r.Expressions)
		if err := again.Validate(RegistryCatalogue{}); err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("validated twice: %v\n%+v\n%+v", err, r, again)
		}
		stored, err := json.Marshal(&r)
		if err != nil {
			t.Fatal(err)
		}
		var back Rule
		if err := json.Unmarshal(stored, &back); err != nil {
			t.Fatal(err)
		}
		if err := back.Validate(RegistryCatalogue{}); err != nil || !reflect.DeepEqual(back, r) {
			t.Fatalf("after a round trip: %v\n%s\n%+v\n%+v", err, stored, r, back)
		}
	})
}

// FuzzExpression_Judge builds one expression field by field, validates it
// in a rule and judges it: an accepted expression is well-formed and its
// verdict matches the comparison on a single reading.
func FuzzExpression_Judge(f *testing.F) {
	f.Add(5, "airTemp", "min", "lte", 0.0, 0.0, false, 0, int64(0), []byte{}, -0.5)
	f.Add(2, "soilMoisture", "avg", "in", 10.0, 15.0, true, 0, int64(0), []byte{10, 20}, 12.0)
	f.Add(5, "rainfall", "sum", "gte", 50.0, 0.0, false, 24*60, int64(0), []byte{}, 50.0)
	f.Add(5, "rainfall", "sum", "gte", 50.0, 0.0, false, 24*60, int64(2), []byte{}, 49.9)
	f.Add(21, "tiltAngle", "all", "notIn", -5.0, 5.0, true, 7*24*60, int64(0), []byte{}, 5.5)
	f.Add(5, ParamOffline, "max", "gte", 120.0, 0.0, false, 0, int64(0), []byte{}, 119.0)
	// Windows near where minutes overflow a time.Duration (the fuzzer moves
	// an int by at most 100 at a time).
	f.Add(5, "rainfall", "sum", "gt", 1.0, 0.0, false, math.MaxInt64/int(time.Minute)-50, int64(0), []byte{}, 2.0)
	f.Add(5, "rainfall", "sum", "gt", 1.0, 0.0, false, int(math.MaxUint64/uint64(time.Minute))-50, int64(0), []byte{}, 2.0)
	f.Fuzz(func(t *testing.T, typeID int, param, agg, op string, t1, t2 float64, hasT2 bool, window int, device int64, nodes []byte, v float64) {
		x := Expression{Param: param, Agg: Agg(agg), Op: Op(op), Threshold: &t1, WindowMinutes: window, DeviceID: device}
		if hasT2 {
			x.Threshold2 = &t2
		}
		for _, n := range nodes {
			x.Nodes = append(x.Nodes, int(n))
		}
		r := Rule{Name: "Fuzz", TypeID: typeID, DeviceIDs: []int64{1}, Expressions: []Expression{x}}
		if err := r.Validate(RegistryCatalogue{}); err != nil {
			if e := errs.As(err); e == nil || e.Kind != errs.EInvalid {
				t.Fatalf("refused with %v", err)
			}
			return
		}
		checkValid(t, &r)
		e := &r.Expressions[0]
		judgeAround(t, e)
		if math.IsNaN(v) {
			return
		}
		got := e.Judge([]float64{v})
		if !got.Known || got.Holds != e.compare(v) || got.Value != v {
			t.Fatalf("%s %s %v on %v: %+v", e.Agg, e.Op, *e.Threshold, v, got)
		}
	})
}
