package analysis

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// SoilSettings are a soil device's settings (SPEC §3 "Soil device
// settings"): the soil at each node and the crop on the plot.
type SoilSettings struct {
	DeviceID int64        `json:"-"`
	Nodes    []NodeConfig `json:"nodes"`
	// CropType is a crop of Crops ("" when not set); CropVariety is free text.
	CropType    string `json:"cropType"`
	CropVariety string `json:"cropVariety"`
	// IrrigationMethod is one of IrrigationMethods ("" when not set).
	IrrigationMethod string     `json:"irrigationMethod"`
	PlantingTime     *time.Time `json:"-"`
	// AreaMu is the planted area in mu (亩, 666.67 m²).
	AreaMu *float64 `json:"areaMu"`
	// EnableTime is when the settings take effect for reports.
	EnableTime *time.Time `json:"-"`
	// Upload is whether the device's data go to the national network.
	Upload    bool      `json:"upload"`
	UpdatedAt time.Time `json:"-"`
}

// NodeConfig is the soil at one node depth.
type NodeConfig struct {
	Depth int `json:"depth"` // cm
	// FieldCapacity is the volumetric water content at field capacity, vol %.
	FieldCapacity float64 `json:"fieldCapacity"`
	// UnitWeight is the dry bulk density, g/cm³.
	UnitWeight float64 `json:"unitWeight"`
}

// Limits of the settings.
const (
	// MaxLayerDifference is SPEC §5's "layer moisture difference should not
	// exceed 4%", read as: the field capacities of adjacent layers differ
	// by at most 4 percentage points (vol %). Soil at neighbouring depths
	// 10 cm apart rarely differs more; a larger step is usually a typo.
	MaxLayerDifference = 4.0
	// ParticleDensity is the density of mineral soil particles, g/cm³: a
	// bulk density cannot reach it (that would be soil without pores).
	ParticleDensity = 2.65
	maxVariety      = 32
	maxAreaMu       = 1e6
)

// Saturation is the water content, vol %, at which a layer counts as
// waterlogged: 90 % of the total porosity 1 − ρb/ρs. Field soil seldom fills
// every pore; air trapped as water enters keeps roughly a tenth of them.
func (n NodeConfig) Saturation() float64 {
	return 90 * (1 - n.UnitWeight/ParticleDensity)
}

// Crop is a crop the ET analysis knows: its FAO-56 single crop coefficient
// curve. Kc ini, mid and end are FAO-56 Table 12 ("Single (time-averaged)
// crop coefficients, Kc, and mean maximum plant heights for non stressed,
// well-managed crops in subhumid climates (RHmin ≈ 45%, u2 ≈ 2 m/s)"); a
// leaf row that leaves Kc ini blank takes its group's value. Stage lengths
// (days) are one row of FAO-56 Table 11 ("Lengths of crop development
// stages for various planting periods and climatic regions"), each named
// below with its planting time and region. Where Table 12 prints a range,
// the comment says which value is taken and why; crops_test.go pins every
// number to the published rows.
type Crop struct {
	ID    string
	Names devices.Names
	Curve agro.CropCurve
}

// Crops are the crop types of the settings. Every crop but "other" has its
// own rows in both tables; "other" has no curve: its ET analysis shows ET0
// only.
var Crops = []Crop{
	// Table 12 "Winter Wheat – with non-frozen soils": 0.7, 1.15, 0.25–0.4;
	// Kc end 0.4, the higher value, is the table's for hand-harvested crops
	// (0.25 for grain left to dry before machine harvest).
	// Table 11 "Winter Wheat": 30/140/40/30 (240), November, Mediterranean.
	{"wheat", devices.Names{ZhCN: "冬小麦", ZhTW: "冬小麥", EnUS: "Winter wheat"},
		agro.CropCurve{Initial: 30, Development: 140, Mid: 40, Late: 30, KcIni: 0.7, KcMid: 1.15, KcEnd: 0.4}},
	// Table 12 "Maize, Field (grain) (field corn)": 0.3, 1.20, 0.60–0.35;
	// Kc end 0.60 is the table's for harvest at high grain moisture (0.35
	// after the grain dries in the field).
	// Table 11 "Maize (grain)": 20/35/40/30 (125), June, Nigeria (humid).
	{"maize", devices.Names{ZhCN: "玉米", ZhTW: "玉米", EnUS: "Maize"},
		agro.CropCurve{Initial: 20, Development: 35, Mid: 40, Late: 30, KcIni: 0.3, KcMid: 1.2, KcEnd: 0.6}},
	// Table 12 "Rice": 1.05, 1.20, 0.90–0.60; Kc end 0.90, the first value
	// of the printed range.
	// Table 11 "Rice": 30/30/60/30 (150), Dec; May, Tropics; Mediterranean.
	{"rice", devices.Names{ZhCN: "水稻", ZhTW: "水稻", EnUS: "Rice"},
		agro.CropCurve{Initial: 30, Development: 30, Mid: 60, Late: 30, KcIni: 1.05, KcMid: 1.2, KcEnd: 0.9}},
	// Table 12 "Cotton": 0.35, 1.15–1.20, 0.70–0.50; Kc mid 1.20, the upper
	// value; Kc end 0.60, the middle of the printed range.
	// Table 11 "Cotton": 30/50/60/55 (195), Mar–May, Egypt; Pakistan; Calif.
	{"cotton", devices.Names{ZhCN: "棉花", ZhTW: "棉花", EnUS: "Cotton"},
		agro.CropCurve{Initial: 30, Development: 50, Mid: 60, Late: 55, KcIni: 0.35, KcMid: 1.2, KcEnd: 0.6}},
	// Table 12 "Soybeans": Kc ini blank, the legumes' 0.40; 1.15, 0.50.
	// Table 11 "Soybeans": 20/30–35/60/25 (140), May, Central USA; the
	// development stage is printed "30/35", and 35 gives the printed total.
	{"soybean", devices.Names{ZhCN: "大豆", ZhTW: "大豆", EnUS: "Soybean"},
		agro.CropCurve{Initial: 20, Development: 35, Mid: 60, Late: 25, KcIni: 0.4, KcMid: 1.15, KcEnd: 0.5}},
	// Table 12 "Potato": 0.50, 1.15, 0.75.
	// Table 11 "Potato": 25/30/45/30 (130), May, Continental Climate.
	{"potato", devices.Names{ZhCN: "马铃薯", ZhTW: "馬鈴薯", EnUS: "Potato"},
		agro.CropCurve{Initial: 25, Development: 30, Mid: 45, Late: 30, KcIni: 0.5, KcMid: 1.15, KcEnd: 0.75}},
	// Table 12 "Tomato": 0.6, 1.15, 0.70–0.90; Kc end 0.80, the middle of
	// the printed range.
	// Table 11 "Tomato": 30/40/40/25 (135), January, Arid Region.
	{"tomato", devices.Names{ZhCN: "番茄", ZhTW: "番茄", EnUS: "Tomato"},
		agro.CropCurve{Initial: 30, Development: 40, Mid: 40, Late: 25, KcIni: 0.6, KcMid: 1.15, KcEnd: 0.8}},
	{"other", devices.Names{ZhCN: "其他", ZhTW: "其他", EnUS: "Other"}, agro.CropCurve{}},
}

// CropByID returns a crop of Crops.
func CropByID(id string) (*Crop, bool) {
	for i := range Crops {
		if Crops[i].ID == id {
			return &Crops[i], true
		}
	}
	return nil, false
}

// HasCurve reports whether the crop has a Kc curve.
func (c *Crop) HasCurve() bool { return c.Curve.Length() > 0 }

// IrrigationMethods are the irrigation methods of the settings.
var IrrigationMethods = []struct {
	ID    string
	Names devices.Names
}{
	{"flood", devices.Names{ZhCN: "漫灌", ZhTW: "漫灌", EnUS: "Flood"}},
	{"furrow", devices.Names{ZhCN: "沟灌", ZhTW: "溝灌", EnUS: "Furrow"}},
	{"sprinkler", devices.Names{ZhCN: "喷灌", ZhTW: "噴灌", EnUS: "Sprinkler"}},
	{"drip", devices.Names{ZhCN: "滴灌", ZhTW: "滴灌", EnUS: "Drip"}},
	{"microSprinkler", devices.Names{ZhCN: "微喷灌", ZhTW: "微噴灌", EnUS: "Micro-sprinkler"}},
	{"none", devices.Names{ZhCN: "雨养（不灌溉）", ZhTW: "雨養（不灌溉）", EnUS: "Rain-fed"}},
}

func irrigationMethod(id string) (devices.Names, bool) {
	for _, m := range IrrigationMethods {
		if m.ID == id {
			return m.Names, true
		}
	}
	return devices.Names{}, false
}

// Validate checks the settings for a device with the given node depths:
// every node has a field capacity and a unit weight above 0 (SPEC §5),
// adjacent layers' field capacities differ by at most 4 points, and the crop
// fields name known values. Errors name the field as the JSON path of the
// PUT body (nodes[1].fieldCapacity) and carry the depth.
func (s *SoilSettings) Validate(depths []int) error {
	given := map[int]int{}
	for i, n := range s.Nodes {
		if !contains(depths, n.Depth) {
			return errs.Invalid(fmt.Sprintf("nodes[%d].depth", i), "query.unknownNode").With(map[string]any{"node": n.Depth})
		}
		if _, dup := given[n.Depth]; dup {
			return errs.Invalid(fmt.Sprintf("nodes[%d].depth", i), "soil.node.duplicate").With(map[string]any{"depth": n.Depth})
		}
		given[n.Depth] = i
	}
	ordered := make([]NodeConfig, 0, len(depths))
	for i, d := range depths {
		j, ok := given[d]
		if !ok {
			return errs.Invalid(fmt.Sprintf("nodes[%d].fieldCapacity", i), "soil.fieldCapacity.required").With(map[string]any{"depth": d})
		}
		n := s.Nodes[j]
		fc, uw := fmt.Sprintf("nodes[%d].fieldCapacity", j), fmt.Sprintf("nodes[%d].unitWeight", j)
		p := map[string]any{"depth": d}
		switch {
		case n.FieldCapacity == 0:
			return errs.Invalid(fc, "soil.fieldCapacity.required").With(p)
		case !(n.FieldCapacity > 0):
			return errs.Invalid(fc, "soil.fieldCapacity.positive").With(p)
		case n.FieldCapacity > 100:
			return errs.Invalid(fc, "soil.fieldCapacity.tooHigh").With(p)
		case n.UnitWeight == 0:
			return errs.Invalid(uw, "soil.unitWeight.required").With(p)
		case !(n.UnitWeight > 0):
			return errs.Invalid(uw, "soil.unitWeight.positive").With(p)
		case n.UnitWeight >= ParticleDensity:
			return errs.Invalid(uw, "soil.unitWeight.tooHigh").With(map[string]any{"depth": d, "max": ParticleDensity})
		}
		if len(ordered) > 0 {
			above := ordered[len(ordered)-1]
			if diff := math.Abs(n.FieldCapacity - above.FieldCapacity); diff > MaxLayerDifference+1e-9 {
				return errs.Invalid(fc, "soil.layerDifference").With(map[string]any{
					"depth": d, "above": above.Depth, "diff": trimFloat(diff), "max": trimFloat(MaxLayerDifference)})
			}
		}
		ordered = append(ordered, n)
	}
	s.Nodes = ordered
	return s.validateCrop()
}

// validateCrop checks the crop fields, trimming text.
func (s *SoilSettings) validateCrop() error {
	s.CropType, s.CropVariety = strings.TrimSpace(s.CropType), strings.TrimSpace(s.CropVariety)
	if _, ok := CropByID(s.CropType); s.CropType != "" && !ok {
		return errs.Invalid("cropType", "soil.cropType.unknown")
	}
	if utf8.RuneCountInString(s.CropVariety) > maxVariety {
		return errs.Invalid("cropVariety", "soil.cropVariety.tooLong").With(map[string]any{"max": maxVariety})
	}
	if _, ok := irrigationMethod(s.IrrigationMethod); s.IrrigationMethod != "" && !ok {
		return errs.Invalid("irrigationMethod", "soil.irrigationMethod.unknown")
	}
	if s.AreaMu != nil && !(*s.AreaMu > 0 && *s.AreaMu <= maxAreaMu) {
		return errs.Invalid("areaMu", "soil.area.invalid").With(map[string]any{"max": int(maxAreaMu)})
	}
	return nil
}

func trimFloat(v float64) string { return fmt.Sprintf("%g", round(v, 2)) }

func contains[T comparable](xs []T, x T) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// node returns the settings of the node at depth.
func (s *SoilSettings) node(depth int) (NodeConfig, bool) {
	if s == nil {
		return NodeConfig{}, false
	}
	for _, n := range s.Nodes {
		if n.Depth == depth {
			return n, true
		}
	}
	return NodeConfig{}, false
}

// configured reports whether every node of depths has its soil set.
func (s *SoilSettings) configured(depths []int) bool {
	if s == nil {
		return false
	}
	for _, d := range depths {
		if _, ok := s.node(d); !ok {
			return false
		}
	}
	return len(depths) > 0
}

// crop returns the crop with a Kc curve and its planting day, if both are set.
func (s *SoilSettings) crop() (*Crop, time.Time, bool) {
	if s == nil || s.PlantingTime == nil {
		return nil, time.Time{}, false
	}
	c, ok := CropByID(s.CropType)
	if !ok || !c.HasCurve() {
		return nil, time.Time{}, false
	}
	return c, *s.PlantingTime, true
}

// settings returns a device's settings, or nil when it has none.
func (s *Service) settings(ctx context.Context, deviceID int64) (*SoilSettings, error) {
	st, err := s.store.SoilSettings(ctx, deviceID)
	if errs.KindOf(err) == errs.ENotFound {
		return nil, nil
	}
	return st, err
}

// SettingsView is the settings as the settings form shows them.
type SettingsView struct {
	Configured       bool         `json:"configured"` // every node has its soil set
	Nodes            []NodeView   `json:"nodes"`
	CropType         string       `json:"cropType"`
	CropName         string       `json:"cropName"` // the crop type's name in the caller's language
	CropVariety      string       `json:"cropVariety"`
	IrrigationMethod string       `json:"irrigationMethod"`
	PlantingTime     *int64       `json:"plantingTime"`
	AreaMu           *float64     `json:"areaMu"`
	EnableTime       *int64       `json:"enableTime"`
	Upload           bool         `json:"upload"`
	UpdatedAt        *int64       `json:"updatedAt"`
	CropTypes        []OptionView `json:"cropTypes"`
	Methods          []OptionView `json:"irrigationMethods"`
	CanEdit          bool         `json:"canEdit"`
}

// NodeView is one node's soil, with what follows from it.
type NodeView struct {
	Depth         int      `json:"depth"`
	Thickness     float64  `json:"thickness"`     // cm of soil the node stands for
	FieldCapacity *float64 `json:"fieldCapacity"` // vol %
	UnitWeight    *float64 `json:"unitWeight"`    // g/cm³
	Saturation    *float64 `json:"saturation"`    // vol %, the waterlogging threshold
}

// OptionView is one choice of a settings list.
type OptionView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func (s *Service) settingsView(st *SoilSettings, t *devices.Type, r devices.Right, lang i18n.Lang) SettingsView {
	v := SettingsView{Configured: st.configured(t.Nodes), Nodes: []NodeView{}, CanEdit: r.Settings}
	thick := agro.LayerThickness(floats(t.Nodes))
	for i, d := range t.Nodes {
		nv := NodeView{Depth: d, Thickness: thick[i]}
		if n, ok := st.node(d); ok {
			nv.FieldCapacity, nv.UnitWeight, nv.Saturation = ptr(n.FieldCapacity), ptr(n.UnitWeight), ptr(round(n.Saturation(), 1))
		}
		v.Nodes = append(v.Nodes, nv)
	}
	if st != nil {
		v.CropType, v.CropVariety, v.IrrigationMethod = st.CropType, st.CropVariety, st.IrrigationMethod
		v.AreaMu, v.Upload = st.AreaMu, st.Upload
		if c, ok := CropByID(st.CropType); ok {
			v.CropName = c.Names.In(lang)
		}
		if st.PlantingTime != nil {
			v.PlantingTime = msPtr(*st.PlantingTime)
		}
		if st.EnableTime != nil {
			v.EnableTime = msPtr(*st.EnableTime)
		}
		v.UpdatedAt = msPtr(st.UpdatedAt)
	}
	for _, c := range Crops {
		v.CropTypes = append(v.CropTypes, OptionView{c.ID, c.Names.In(lang)})
	}
	for _, m := range IrrigationMethods {
		v.Methods = append(v.Methods, OptionView{m.ID, m.Names.In(lang)})
	}
	return v
}

func floats(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// Settings returns a soil device's settings (GET /apis/poi/shang/config).
// Returns ENOTFOUND, EINVALID (not a soil device).
func (s *Service) Settings(ctx context.Context, viewer, id int64, lang i18n.Lang) (*SettingsView, error) {
	_, t, r, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	v := s.settingsView(st, t, r, lang)
	return &v, nil
}

// SettingsInput is a PUT of the settings. Times are unix ms.
type SettingsInput struct {
	Nodes            []NodeConfig `json:"nodes"`
	CropType         string       `json:"cropType"`
	CropVariety      string       `json:"cropVariety"`
	IrrigationMethod string       `json:"irrigationMethod"`
	PlantingTime     *int64       `json:"plantingTime"`
	AreaMu           *float64     `json:"areaMu"`
	EnableTime       *int64       `json:"enableTime"`
	Upload           bool         `json:"upload"`
}

// SaveSettings replaces a soil device's settings (PUT /apis/poi/shang/config).
// Only the owner or a user with the settings right may. Returns ENOTFOUND,
// EFORBIDDEN, EINVALID.
func (s *Service) SaveSettings(ctx context.Context, viewer, id int64, in SettingsInput, lang i18n.Lang) (*SettingsView, error) {
	_, t, r, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	if !r.Settings {
		return nil, errs.New(errs.EForbidden, "device.noModifyRight")
	}
	st := &SoilSettings{DeviceID: id, Nodes: in.Nodes, CropType: in.CropType, CropVariety: in.CropVariety,
		IrrigationMethod: in.IrrigationMethod, AreaMu: in.AreaMu, Upload: in.Upload, UpdatedAt: s.now()}
	st.PlantingTime, st.EnableTime = timePtr(in.PlantingTime), timePtr(in.EnableTime)
	if err := st.Validate(t.Nodes); err != nil {
		return nil, err
	}
	if err := s.store.SaveSoilSettings(ctx, st); err != nil {
		return nil, err
	}
	v := s.settingsView(st, t, r, lang)
	return &v, nil
}

func timePtr(v *int64) *time.Time {
	if v == nil {
		return nil
	}
	t := time.UnixMilli(*v)
	return &t
}

// CropInput is the crop of POST/PUT /apis/poi/crop/update (SPEC §3 "Crop
// info: sowTime, cropName, area"): cropName is a crop type id of Crops.
// Absent fields keep their value.
type CropInput struct {
	SowTime     *int64   `json:"sowTime"`
	CropName    *string  `json:"cropName"`
	CropVariety *string  `json:"cropVariety"`
	Area        *float64 `json:"area"` // mu
}

// UpdateCrop changes the crop of a soil device's settings, keeping the soil.
// Returns ENOTFOUND, EFORBIDDEN, EINVALID.
func (s *Service) UpdateCrop(ctx context.Context, viewer, id int64, in CropInput, lang i18n.Lang) (*SettingsView, error) {
	_, t, r, err := s.soilDevice(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	if !r.Settings {
		return nil, errs.New(errs.EForbidden, "device.noModifyRight")
	}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	if st == nil {
		st = &SoilSettings{DeviceID: id}
	}
	if in.SowTime != nil {
		st.PlantingTime = timePtr(in.SowTime)
	}
	if in.CropName != nil {
		st.CropType = *in.CropName
	}
	if in.CropVariety != nil {
		st.CropVariety = *in.CropVariety
	}
	if in.Area != nil {
		st.AreaMu = in.Area
	}
	if err := st.validateCrop(); err != nil {
		if e := errs.As(err); e != nil && e.Field == "cropType" {
			return nil, errs.Invalid("cropName", e.Code)
		}
		if e := errs.As(err); e != nil && e.Field == "areaMu" {
			return nil, errs.Invalid("area", e.Code).With(e.Params)
		}
		return nil, err
	}
	st.UpdatedAt = s.now()
	if err := s.store.SaveSoilSettings(ctx, st); err != nil {
		return nil, err
	}
	v := s.settingsView(st, t, r, lang)
	return &v, nil
}
