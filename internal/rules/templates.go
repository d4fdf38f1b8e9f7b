package rules

import (
	"slices"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// Template is a ready-made rule a user starts from. Its expressions are
// filled in for a device type; the user picks the devices (and, for
// landslide, the rain gauge) and may change anything.
type Template struct {
	ID    string
	Names devices.Names
	// Notes explains the template, in each language.
	// Needs is the parameter a type must have for the template to apply.
	Needs string
	build func(t *devices.Type) tplRule
}

// tplRule is a template's rule before it is localized.
type tplRule struct {
	Rule
	Notes devices.Names
}

// Name returns the template's name in lang.
func (t *Template) Name(lang i18n.Lang) string { return t.Names.In(lang) }

func ptr(f float64) *float64 { return &f }

// shallow returns the shallowest depth of a type with soil layers, and
// rootZone the layers down to 40 cm.
func shallow(t *devices.Type) []int { return t.Nodes[:1] }

func rootZone(t *devices.Type) []int {
	var ns []int
	for _, n := range t.Nodes {
		if n <= 40 {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		return t.Nodes[:1]
	}
	return ns
}

// Templates are the built-in rule templates.
var Templates = []*Template{
	{
		ID: "frost", Needs: "airTemp",
		Names: devices.Names{ZhCN: "霜冻风险", ZhTW: "霜凍風險", EnUS: "Frost risk"},
		build: func(*devices.Type) tplRule {
			return tplRule{Rule: Rule{Level: LevelAlarm, Expressions: []Expression{{Param: "airTemp", Agg: AggMin, Op: OpLTE, Threshold: ptr(0)}}},
				Notes: devices.Names{ZhCN: "气温降至 0 °C 及以下：霜冻会伤害花芽、花朵和幼苗。", ZhTW: "氣溫降至 0 °C 及以下：霜凍會傷害花芽、花朵和幼苗。", EnUS: "Air temperature at or below 0 °C: frost can damage buds, flowers and seedlings."}}
		},
	},
	{
		ID: "waterlogging", Needs: "soilMoisture",
		Names: devices.Names{ZhCN: "渍涝", ZhTW: "漬澇", EnUS: "Waterlogging"},
		build: func(t *devices.Type) tplRule {
			return tplRule{Rule: Rule{Level: LevelAlarm, Expressions: []Expression{{Param: "soilMoisture", Nodes: shallow(t), Agg: AggAvg, Op: OpGTE, Threshold: ptr(45)}}},
				Notes: devices.Names{ZhCN: "浅层土壤体积含水量达到 45 % 及以上（壤土接近饱和）：根系缺氧。", ZhTW: "淺層土壤體積含水量達到 45 % 及以上（壤土接近飽和）：根系缺氧。", EnUS: "Shallow soil moisture at or above 45 % by volume (near saturation for loam): roots lack air."}}
		},
	},
	{
		ID: "drought", Needs: "soilMoisture",
		Names: devices.Names{ZhCN: "干旱", ZhTW: "乾旱", EnUS: "Drought"},
		build: func(t *devices.Type) tplRule {
			return tplRule{Rule: Rule{Level: LevelNormal, Expressions: []Expression{{Param: "soilMoisture", Nodes: rootZone(t), Agg: AggAvg, Op: OpLTE, Threshold: ptr(15)}}},
				Notes: devices.Names{ZhCN: "根区土壤体积含水量降至 15 % 及以下，约为壤土田间持水量的一半（按相对湿度为轻旱，GB/T 32136）。", ZhTW: "根區土壤體積含水量降至 15 % 及以下，約為壤土田間持水量的一半（按相對濕度為輕旱，GB/T 32136）。", EnUS: "Root-zone moisture at or below 15 % by volume, about half of a loam's field capacity (light drought by relative moisture, GB/T 32136)."}}
		},
	},
	{
		ID: "heavyRain", Needs: "rainfall",
		Names: devices.Names{ZhCN: "暴雨", ZhTW: "暴雨", EnUS: "Heavy rain"},
		build: func(*devices.Type) tplRule {
			return tplRule{Rule: Rule{Level: LevelAlarm, Expressions: []Expression{{Param: "rainfall", Agg: AggSum, Op: OpGTE, Threshold: ptr(50), WindowMinutes: 24 * 60}}},
				Notes: devices.Names{ZhCN: "24 小时降雨量达到 50 mm 及以上（暴雨）。", ZhTW: "24 小時降雨量達到 50 mm 及以上（暴雨）。", EnUS: "50 mm or more of rain in 24 hours (storm class)."}}
		},
	},
	{
		ID: "landslide", Needs: "tiltAngle",
		Names: devices.Names{ZhCN: "滑坡预警", ZhTW: "滑坡預警", EnUS: "Landslide"},
		build: func(*devices.Type) tplRule {
			return tplRule{Rule: Rule{Level: LevelAlarm, Expressions: []Expression{
				{Param: "tiltAngle", Agg: AggMax, Op: OpGTE, Threshold: ptr(5)},
				// The rain gauge is chosen by the user (DeviceID).
				{Param: "rainfall", Agg: AggSum, Op: OpGTE, Threshold: ptr(50), WindowMinutes: 24 * 60},
			}}, Notes: devices.Names{ZhCN: "倾斜角达到 5° 及以上，且所选雨量计 24 小时降雨量达到 50 mm 及以上。", ZhTW: "傾斜角達到 5° 及以上，且所選雨量計 24 小時降雨量達到 50 mm 及以上。", EnUS: "Tilt of 5° or more while 50 mm or more of rain fell in 24 hours at the chosen rain gauge."}}
		},
	},
	{
		ID: "lowBattery", Needs: "battery",
		Names: devices.Names{ZhCN: "电量低", ZhTW: "電量低", EnUS: "Low battery"},
		build: func(*devices.Type) tplRule {
			return tplRule{Rule: Rule{Level: LevelNormal, Expressions: []Expression{{Param: "battery", Agg: AggMin, Op: OpLT, Threshold: ptr(devices.LowBattery)}}},
				Notes: devices.Names{ZhCN: "电池电压低于 3.2 V：请至少充电 4 小时。", ZhTW: "電池電壓低於 3.2 V：請至少充電 4 小時。", EnUS: "Battery under 3.2 V: charge for at least 4 hours."}}
		},
	},
	{
		ID: "offline", Needs: ParamOffline,
		Names: devices.Names{ZhCN: "设备离线", ZhTW: "設備離線", EnUS: "Device offline"},
		build: func(*devices.Type) tplRule {
			return tplRule{Rule: Rule{Level: LevelNormal, Expressions: []Expression{{Param: ParamOffline, Agg: AggMax, Op: OpGTE, Threshold: ptr(120)}}},
				Notes: devices.Names{ZhCN: "2 小时及以上没有上报数据。", ZhTW: "2 小時及以上沒有上報數據。", EnUS: "No report for 2 hours or more."}}
		},
	},
}

// TemplatesFor returns the templates that apply to a device type.
func TemplatesFor(t *devices.Type) []*Template {
	var out []*Template
	for _, tp := range Templates {
		if tp.Needs == ParamOffline {
			out = append(out, tp)
			continue
		}
		if _, _, ok := (RegistryCatalogue{}).Param(t.ID, tp.Needs); ok {
			out = append(out, tp)
		}
	}
	return out
}

// Build returns the template's rule for a type, named in lang.
func (tp *Template) Build(t *devices.Type, lang i18n.Lang) Rule {
	tr := tp.build(t)
	r := tr.Rule
	r.Description = tr.Notes.In(lang)
	r.Name = tp.Name(lang)
	r.TypeID = t.ID
	r.Enabled = true
	r.Template = tp.ID
	r.Notify = []Method{MethodEmail}
	for i := range r.Expressions {
		r.Expressions[i].ID = i + 1
		r.Expressions[i].Nodes = slices.Clone(r.Expressions[i].Nodes)
	}
	return r
}

// TemplateByID returns a template.
func TemplateByID(id string) (*Template, bool) {
	for _, tp := range Templates {
		if tp.ID == id {
			return tp, true
		}
	}
	return nil, false
}
