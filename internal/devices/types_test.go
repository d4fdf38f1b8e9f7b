package devices

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// specIDs are the type ids SPEC §3 lists.
var specIDs = []int{1, 2, 3, 21, 5, 7, 14, 4, 9, 6, 10, 8, 17, 19, 20, 22}

// unitless are the parameters that are counts or states, with no unit.
var unitless = map[string]bool{"insectCount": true, "valveState": true, "detectCount": true}

var paramID = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)

// checkTypes returns every rule of the registry that types break.
func checkTypes(types []*Type) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	seenID := map[int]bool{}
	seenModel := map[string]bool{}
	model := func(t *Type, m string) {
		if m == "" {
			bad("type %d: empty model", t.ID)
		} else if seenModel[m] {
			bad("type %d: model %s used twice", t.ID, m)
		}
		seenModel[m] = true
	}
	for i, t := range types {
		if seenID[t.ID] {
			bad("type %d: id used twice", t.ID)
		}
		seenID[t.ID] = true
		if i > 0 && types[i-1].ID >= t.ID {
			bad("type %d: not sorted after %d", t.ID, types[i-1].ID)
		}
		model(t, t.Model)
		checkNames(bad, fmt.Sprintf("type %d", t.ID), t.Names)
		if !slices.Contains(Categories, t.Category) {
			bad("type %d: unknown category %q", t.ID, t.Category)
		}
		if !slices.Contains(Pages, t.Page) {
			bad("type %d: unknown page %q", t.ID, t.Page)
		}
		if t.Interval < time.Minute || t.Interval > 24*time.Hour {
			bad("type %d: implausible interval %v", t.ID, t.Interval)
		}
		for j, d := range t.Nodes {
			if d <= 0 || d > 100 || (j > 0 && t.Nodes[j-1] >= d) {
				bad("type %d: node depths %v not increasing within 1-100 cm", t.ID, t.Nodes)
				break
			}
		}
		where := fmt.Sprintf("type %d", t.ID)
		checkParams(bad, where, t.Params, len(t.Nodes) > 0)
		if len(t.Nodes) > 0 && !slices.ContainsFunc(t.Params, func(p Param) bool { return p.PerNode }) {
			bad("type %d: node depths but no per-node parameter", t.ID)
		}
		if s := t.Slave; s != nil {
			model(t, s.Model)
			checkNames(bad, where+" slave", s.Names)
			checkParams(bad, where+" slave", s.Params, false)
		}
	}
	return problems
}

func checkNames(bad func(string, ...any), where string, n Names) {
	for _, l := range i18n.Langs {
		if strings.TrimSpace(n.In(l)) == "" {
			bad("%s: no %s name", where, l)
		}
	}
}

func checkParams(bad func(string, ...any), where string, ps []Param, hasNodes bool) {
	if len(ps) == 0 {
		bad("%s: no parameters", where)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		at := where + " " + p.ID
		if !paramID.MatchString(p.ID) {
			bad("%s: identifier is not lower camelCase", at)
		}
		if seen[p.ID] {
			bad("%s: parameter listed twice", at)
		}
		seen[p.ID] = true
		checkNames(bad, at, p.Names)
		if (p.Unit == "") != unitless[p.ID] {
			bad("%s: unit %q, but unitless is %v", at, p.Unit, unitless[p.ID])
		}
		if p.Precision < 0 || p.Precision > 4 {
			bad("%s: precision %d", at, p.Precision)
		}
		if !(p.Min < p.Max) {
			bad("%s: range %v..%v is empty", at, p.Min, p.Max)
		}
		if len(p.Daily) == 0 {
			bad("%s: no daily aggregation", at)
		}
		for i, a := range p.Daily {
			if !slices.Contains(Aggs, a) || slices.Contains(p.Daily[:i], a) {
				bad("%s: daily aggregations %v", at, p.Daily)
				break
			}
		}
		if p.PerNode && !hasNodes {
			bad("%s: per node on a type without node depths", at)
		}
	}
}

func TestRegistry_EveryTypeOfTheSpec(t *testing.T) {
	types := Types()
	for _, id := range specIDs {
		n := 0
		for _, ty := range types {
			if ty.ID == id {
				n++
			}
		}
		if n != 1 {
			t.Errorf("type %d: present %d times, want once", id, n)
		}
	}
	if len(types) != len(specIDs) {
		t.Errorf("got %d types, the spec has %d", len(types), len(specIDs))
	}
}

func TestRegistry_Rules(t *testing.T) {
	for _, p := range checkTypes(Types()) {
		t.Error(p)
	}
}

// TestCheckTypes_CatchesFaults proves the rules above can fail.
func TestCheckTypes_CatchesFaults(t *testing.T) {
	good := func() *Type {
		return &Type{ID: 1, Model: "X1", Names: Names{"甲", "甲", "A"}, Category: CategorySoil,
			Page: PageMoisture, Interval: time.Hour, Nodes: []int{10, 20},
			Params: []Param{soilMoisture, battery}}
	}
	if p := checkTypes([]*Type{good()}); len(p) != 0 {
		t.Fatalf("valid fixture rejected: %v", p)
	}
	for _, tc := range []struct {
		name   string
		mutate func(*Type)
		want   string
	}{
		{"ErrNoEnglishName", func(ty *Type) { ty.Names.EnUS = "" }, "no en_US name"},
		{"ErrUnknownCategory", func(ty *Type) { ty.Category = "forestry" }, "unknown category"},
		{"ErrUnknownPage", func(ty *Type) { ty.Page = "moisture2" }, "unknown page"},
		{"ErrNoInterval", func(ty *Type) { ty.Interval = 0 }, "implausible interval"},
		{"ErrDepthsOutOfOrder", func(ty *Type) { ty.Nodes = []int{20, 10} }, "not increasing"},
		{"ErrPerNodeWithoutNodes", func(ty *Type) { ty.Nodes = nil }, "per node on a type without"},
		{"ErrNodesWithoutPerNode", func(ty *Type) { ty.Params = []Param{battery} }, "no per-node parameter"},
		{"ErrDuplicateParam", func(ty *Type) { ty.Params = append(ty.Params, battery) }, "listed twice"},
		{"ErrBadIdentifier", func(ty *Type) { ty.Params[1].ID = "Battery_V" }, "not lower camelCase"},
		{"ErrNoUnit", func(ty *Type) { ty.Params[1].Unit = "" }, "unit"},
		{"ErrEmptyRange", func(ty *Type) { ty.Params[1].Min = 20 }, "is empty"},
		{"ErrNoDaily", func(ty *Type) { ty.Params[1].Daily = nil }, "no daily aggregation"},
		{"ErrUnknownDaily", func(ty *Type) { ty.Params[1].Daily = []Agg{"median"} }, "daily aggregations"},
		{"ErrNoParamName", func(ty *Type) { ty.Params[1].Names.ZhTW = "" }, "no zh_TW name"},
		{"ErrSlaveModelReused", func(ty *Type) { ty.Slave = &Slave{Model: "X1", Names: ty.Names, Params: []Param{battery}} }, "used twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ty := good()
			ty.Params = slices.Clone(ty.Params)
			tc.mutate(ty)
			p := checkTypes([]*Type{ty})
			if !slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, tc.want) }) {
				t.Errorf("problems %v, want one containing %q", p, tc.want)
			}
		})
	}
	t.Run("ErrDuplicateID", func(t *testing.T) {
		a, b := good(), good()
		b.Model = "X2"
		if p := checkTypes([]*Type{a, b}); !slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, "id used twice") }) {
			t.Errorf("problems %v", p)
		}
	})
}

func TestRegistry_EveryCategoryAndPageUsed(t *testing.T) {
	for _, c := range Categories {
		if !slices.ContainsFunc(Types(), func(ty *Type) bool { return ty.Category == c }) {
			t.Errorf("category %s: no type", c)
		}
	}
	for _, p := range Pages {
		if !slices.ContainsFunc(Types(), func(ty *Type) bool { return ty.Page == p }) {
			t.Errorf("page %s: no type", p)
		}
	}
}

// TestRegistry_WhatTheSpecSays pins the facts SPEC §2 and §3 state outright.
func TestRegistry_WhatTheSpecSays(t *testing.T) {
	for _, tc := range []struct {
		ids      []int
		category Category
	}{
		{[]int{1, 2, 3, 21}, CategorySoil},
		{[]int{5, 7, 14, 4}, CategoryMeteorology},
		{[]int{17, 19, 20, 22}, CategoryEcology},
		{[]int{8}, CategoryDisaster},
	} {
		for _, id := range tc.ids {
			if ty, _ := TypeByID(id); ty == nil || ty.Category != tc.category {
				t.Errorf("type %d: want category %s", id, tc.category)
			}
		}
	}
	for id, page := range map[int]Page{8: PageShanJing, 17: PageLiquidometer, 19: PageLiquidometer} {
		if ty, _ := TypeByID(id); ty == nil || ty.Page != page {
			t.Errorf("type %d: want page %s", id, page)
		}
	}
	host, _ := TypeByID(19)
	if host == nil || host.Model != "LQM001" || host.Slave == nil || host.Slave.Model != "LQS001" {
		t.Errorf("type 19: want host LQM001 with slave LQS001, got %+v", host)
	}
	for _, ty := range Types() {
		if ty.ID != 19 && ty.Slave != nil {
			t.Errorf("type %d: unexpected slave", ty.ID)
		}
	}
	// 9 and 6 are one family: same page, same parameters.
	a, _ := TypeByID(9)
	b, _ := TypeByID(6)
	if a == nil || b == nil || a.Page != b.Page || a.Category != b.Category ||
		!slices.EqualFunc(a.Params, b.Params, func(x, y Param) bool { return x.ID == y.ID }) {
		t.Error("types 9 and 6: not one family")
	}
}

func TestTypeByID(t *testing.T) {
	for _, id := range specIDs {
		ty, ok := TypeByID(id)
		if !ok || ty.ID != id {
			t.Errorf("TypeByID(%d) = %v, %v", id, ty, ok)
		}
	}
	for _, id := range []int{0, -1, 11, 18, 23, 1000} {
		if ty, ok := TypeByID(id); ok || ty != nil {
			t.Errorf("TypeByID(%d) = %v, %v; want nil, false", id, ty, ok)
		}
	}
}

func TestTypes_Sorted(t *testing.T) {
	types := Types()
	if !slices.IsSortedFunc(types, func(a, b *Type) int { return a.ID - b.ID }) {
		t.Error("not sorted by id")
	}
	types[0] = nil
	if Types()[0] == nil {
		t.Error("Types returns the registry itself")
	}
}

func TestType_Param(t *testing.T) {
	ty, _ := TypeByID(5)
	p, ok := ty.Param("rainfall")
	if !ok || p.ID != "rainfall" || p.Unit != "mm" || !slices.Equal(p.Daily, []Agg{AggSum}) {
		t.Errorf("Param(rainfall) = %+v, %v", p, ok)
	}
	for _, id := range []string{"", "soilMoisture", "Rainfall", "nope"} {
		if p, ok := ty.Param(id); ok || p != nil {
			t.Errorf("Param(%q) = %+v, %v; want nil, false", id, p, ok)
		}
	}
	host, _ := TypeByID(19)
	if _, ok := host.Slave.Param("waterLevel"); !ok {
		t.Error("slave Param(waterLevel) not found")
	}
	if _, ok := host.Slave.Param("waterTemp"); ok {
		t.Error("slave Param(waterTemp) found")
	}
}

func TestParam_Name(t *testing.T) {
	ty, _ := TypeByID(2)
	p, _ := ty.Param("soilTemp")
	for lang, want := range map[i18n.Lang]string{
		i18n.ZhCN: "土壤温度", i18n.ZhTW: "土壤溫度", i18n.EnUS: "Soil temperature", "fr_FR": "土壤温度",
	} {
		if got := p.Name(lang); got != want {
			t.Errorf("Name(%s) = %q, want %q", lang, got, want)
		}
	}
	if got := ty.Name(i18n.EnUS); got != "Zhishang soil moisture station" {
		t.Errorf("type Name(en_US) = %q", got)
	}
}

func TestParam_InRange(t *testing.T) {
	ty, _ := TypeByID(5)
	p, _ := ty.Param("airHumidity")
	for v, want := range map[float64]bool{
		0: true, 55.5: true, 100: true, -0.1: false, 100.1: false,
		math.NaN(): false, math.Inf(1): false, math.Inf(-1): false,
	} {
		if got := p.InRange(v); got != want {
			t.Errorf("InRange(%v) = %v, want %v", v, got, want)
		}
	}
}

// TestDoc_DescribesEveryType keeps docs/device-types.md in step with the
// registry: a row per type, and a section per type naming each parameter.
func TestDoc_DescribesEveryType(t *testing.T) {
	b, err := os.ReadFile("../../docs/device-types.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	sections := map[int]string{}
	for _, s := range strings.Split(doc, "\n### ")[1:] {
		head, _, _ := strings.Cut(s, " ")
		if id, err := strconv.Atoi(head); err == nil {
			sections[id] = s
		}
	}
	for _, ty := range Types() {
		row := ""
		for _, line := range strings.Split(doc, "\n") {
			if strings.HasPrefix(line, "| "+strconv.Itoa(ty.ID)+" |") {
				row = line
				break
			}
		}
		if row == "" {
			t.Errorf("type %d: no row in the type table", ty.ID)
			continue
		}
		for _, want := range []string{ty.Model, string(ty.Category), string(ty.Page), ty.Names.ZhCN, ty.Names.EnUS} {
			if !strings.Contains(row, want) {
				t.Errorf("type %d: row %q lacks %q", ty.ID, row, want)
			}
		}
		s, ok := sections[ty.ID]
		if !ok {
			t.Errorf("type %d: no section \"### %d …\"", ty.ID, ty.ID)
			continue
		}
		params := ty.Params
		if ty.Slave != nil {
			params = append(slices.Clone(params), ty.Slave.Params...)
			if !strings.Contains(s, ty.Slave.Model) {
				t.Errorf("type %d: section lacks slave model %s", ty.ID, ty.Slave.Model)
			}
		}
		for _, p := range params {
			if !strings.Contains(s, "`"+p.ID+"`") {
				t.Errorf("type %d: section lacks parameter `%s`", ty.ID, p.ID)
			}
		}
	}
}

// A tilt monitor's daily chart shows each day's mean with its extremes, as
// every other reading does: the first daily statistic is what charts draw.
func TestTilt_DailyMeanFirst(t *testing.T) {
	typ, ok := TypeByID(8)
	if !ok {
		t.Fatal("no type 8")
	}
	for _, id := range []string{"tiltX", "tiltY", "tiltAngle"} {
		p, ok := typ.Param(id)
		if !ok || len(p.Daily) == 0 || p.Daily[0] != AggAvg || !slices.Contains(p.Daily, AggMin) || !slices.Contains(p.Daily, AggMax) {
			t.Errorf("%s daily %v, want the mean first, with min and max", id, p.Daily)
		}
	}
}
