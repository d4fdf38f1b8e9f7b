package soil

import (
	"math"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

func TestSettings_Validate(t *testing.T) {
	depths := []int{10, 20, 30}
	nodes := func(fc ...float64) []NodeConfig {
		out := make([]NodeConfig, len(fc))
		for i, v := range fc {
			out[i] = NodeConfig{Depth: depths[i], FieldCapacity: v, UnitWeight: 1.35}
		}
		return out
	}
	area := func(v float64) *float64 { return &v }
	cases := []struct {
		name   string
		s      Settings
		code   string
		field  string
		params map[string]any
	}{
		{"OK", Settings{Nodes: nodes(30, 32, 34)}, "", "", nil},
		{"ExactlyFourApart", Settings{Nodes: nodes(30, 34, 30)}, "", "", nil},
		{"MoreThanFourApart", Settings{Nodes: nodes(30, 34.01, 34)}, "soil.layerDifference", "nodes[1].fieldCapacity",
			map[string]any{"depth": 20, "above": 10, "diff": "4.01", "max": "4"}},
		{"Missing", Settings{Nodes: nodes(30, 31)}, "soil.fieldCapacity.required", "nodes[2].fieldCapacity", map[string]any{"depth": 30}},
		{"Zero", Settings{Nodes: nodes(30, 0, 31)}, "soil.fieldCapacity.required", "nodes[1].fieldCapacity", map[string]any{"depth": 20}},
		{"Negative", Settings{Nodes: nodes(-1, 30, 31)}, "soil.fieldCapacity.positive", "nodes[0].fieldCapacity", map[string]any{"depth": 10}},
		{"Over100", Settings{Nodes: nodes(101, 100, 99)}, "soil.fieldCapacity.tooHigh", "nodes[0].fieldCapacity", map[string]any{"depth": 10}},
		{"UnitWeightMissing", Settings{Nodes: []NodeConfig{{10, 30, 1.3}, {20, 30, 0}, {30, 30, 1.3}}}, "soil.unitWeight.required", "nodes[1].unitWeight", map[string]any{"depth": 20}},
		{"UnitWeightNegative", Settings{Nodes: []NodeConfig{{10, 30, 1.3}, {20, 30, 1.3}, {30, 30, -0.1}}}, "soil.unitWeight.positive", "nodes[2].unitWeight", map[string]any{"depth": 30}},
		{"UnitWeightSolidRock", Settings{Nodes: []NodeConfig{{10, 30, 2.65}, {20, 30, 1.3}, {30, 30, 1.3}}}, "soil.unitWeight.tooHigh", "nodes[0].unitWeight", map[string]any{"depth": 10, "max": 2.65}},
		{"UnknownDepth", Settings{Nodes: []NodeConfig{{10, 30, 1.3}, {25, 30, 1.3}, {30, 30, 1.3}}}, "query.unknownNode", "nodes[1].depth", map[string]any{"node": 25}},
		{"Duplicate", Settings{Nodes: []NodeConfig{{10, 30, 1.3}, {10, 30, 1.3}, {30, 30, 1.3}}}, "soil.node.duplicate", "nodes[1].depth", map[string]any{"depth": 10}},
		{"CropType", Settings{Nodes: nodes(30, 30, 30), CropType: "durian"}, "soil.cropType.unknown", "cropType", nil},
		{"Method", Settings{Nodes: nodes(30, 30, 30), IrrigationMethod: "bucket"}, "soil.irrigationMethod.unknown", "irrigationMethod", nil},
		{"Area", Settings{Nodes: nodes(30, 30, 30), AreaMu: area(-2)}, "soil.area.invalid", "areaMu", map[string]any{"max": 1000000}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.s.Validate(depths)
			if c.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			e := errs.As(err)
			if e == nil || e.Kind != errs.EInvalid || e.Code != c.code || e.Field != c.field {
				t.Fatalf("got %v, want %s on %s", err, c.code, c.field)
			}
			for k, v := range c.params {
				if e.Params[k] != v {
					t.Errorf("param %s = %v (%T), want %v", k, e.Params[k], e.Params[k], v)
				}
			}
		})
	}
}

func TestSettings_ValidateOrdersNodes(t *testing.T) {
	s := Settings{Nodes: []NodeConfig{{30, 32, 1.4}, {10, 30, 1.3}, {20, 31, 1.35}}, CropType: " maize "}
	if err := s.Validate([]int{10, 20, 30}); err != nil {
		t.Fatal(err)
	}
	if s.Nodes[0].Depth != 10 || s.Nodes[2].Depth != 30 || s.CropType != "maize" {
		t.Fatalf("%+v", s)
	}
}

func TestNodeConfig_Saturation(t *testing.T) {
	// Total porosity of a 1.325 g/cm³ soil is half its volume; 90 % of it fills.
	if got := (NodeConfig{UnitWeight: 1.325}).Saturation(); math.Abs(got-45) > 1e-9 {
		t.Fatalf("saturation %v", got)
	}
}

func TestCrops_Curves(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Crops {
		if seen[c.ID] || c.Names.ZhCN == "" || c.Names.ZhTW == "" || c.Names.EnUS == "" {
			t.Errorf("crop %q: duplicate or unnamed", c.ID)
		}
		seen[c.ID] = true
		if c.ID == "other" {
			if c.HasCurve() {
				t.Error("other has a curve")
			}
			continue
		}
		if err := c.Curve.Validate(); err != nil {
			t.Errorf("%s: %v", c.ID, err)
		}
	}
}

func TestKcOn(t *testing.T) {
	loc, _ := time.LoadLocation("Asia/Shanghai")
	s := New(Options{Readings: readings.New(telemetry.NewHistory(telemetry.HistoryOptions{Store: nil, Location: loc}), nil)})
	planted := time.Date(2026, 6, 10, 18, 0, 0, 0, loc)
	st := &Settings{CropType: "maize", PlantingTime: &planted}
	for _, c := range []struct {
		date  time.Time
		kc    float64
		stage string
	}{
		{time.Date(2026, 6, 10, 1, 0, 0, 0, loc), 0.3, "initial"},                   // day 1
		{time.Date(2026, 6, 30, 23, 0, 0, 0, loc), 0.3 + 1.0/35*0.9, "development"}, // day 21
		{time.Date(2026, 8, 4, 12, 0, 0, 0, loc), 1.2, "mid"},                       // day 56, after 20 + 35
	} {
		got := s.calendar(st).On(c.date)
		if got.Kc == nil || math.Abs(*got.Kc-readings.Round(c.kc, 3)) > 1e-9 || got.Stage != c.stage {
			t.Errorf("%s: %+v", c.date, got)
		}
	}
	if got := s.calendar(st).On(planted.AddDate(0, 0, -1)); got.Kc != nil || got.Stage != string(agro.StageOutside) {
		t.Errorf("before planting: %+v", got)
	}
	if got := s.calendar(nil).On(planted); got.Kc != nil {
		t.Errorf("no settings: %+v", got)
	}
}
