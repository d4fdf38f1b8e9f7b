package soil

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/text"
)

// Settings are a soil device's settings (SPEC §3 "Soil device
// settings"): the soil at each node and the crop on the plot.
type Settings struct {
	DeviceID int64
	Nodes    []NodeConfig
	// CropType is a crop of Crops ("" when not set); CropVariety is free text.
	CropType    string
	CropVariety string
	// IrrigationMethod is one of IrrigationMethods ("" when not set).
	IrrigationMethod string
	PlantingTime     *time.Time
	// AreaMu is the planted area in mu (亩, 666.67 m²).
	AreaMu *float64
	// EnableTime is when the settings take effect for reports.
	EnableTime *time.Time
	// Upload is whether the device's data go to the national network.
	Upload    bool
	UpdatedAt time.Time
}

// NodeConfig is the soil at one node depth.
type NodeConfig struct {
	Depth int // cm
	// FieldCapacity is the volumetric water content at field capacity, vol %.
	FieldCapacity float64
	// UnitWeight is the dry bulk density, g/cm³.
	UnitWeight float64
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

// Validate checks the settings for a device with the given node depths:
// every node has a field capacity and a unit weight above 0 (SPEC §5),
// adjacent layers' field capacities differ by at most 4 points, and the crop
// fields name known values. Errors name the field as the JSON path of the
// PUT body (nodes[1].fieldCapacity) and carry the depth.
func (s *Settings) Validate(depths []int) error {
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
func (s *Settings) validateCrop() error {
	s.CropType, s.CropVariety = strings.TrimSpace(s.CropType), strings.TrimSpace(s.CropVariety)
	if _, ok := CropByID(s.CropType); s.CropType != "" && !ok {
		return errs.Invalid("cropType", "soil.cropType.unknown")
	}
	if utf8.RuneCountInString(s.CropVariety) > maxVariety {
		return errs.Invalid("cropVariety", "soil.cropVariety.tooLong").With(map[string]any{"max": maxVariety})
	}
	if err := text.CheckName("cropVariety", s.CropVariety); err != nil {
		return err
	}
	if _, ok := IrrigationMethodByID(s.IrrigationMethod); s.IrrigationMethod != "" && !ok {
		return errs.Invalid("irrigationMethod", "soil.irrigationMethod.unknown")
	}
	if s.AreaMu != nil && !(*s.AreaMu > 0 && *s.AreaMu <= maxAreaMu) {
		return errs.Invalid("areaMu", "soil.area.invalid").With(map[string]any{"max": int(maxAreaMu)})
	}
	return nil
}

func trimFloat(v float64) string { return fmt.Sprintf("%g", readings.Round(v, 2)) }

func contains[T comparable](xs []T, x T) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// node returns the settings of the node at depth.
func (s *Settings) node(depth int) (NodeConfig, bool) {
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
func (s *Settings) configured(depths []int) bool {
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
func (s *Settings) crop() (*Crop, time.Time, bool) {
	if s == nil || s.PlantingTime == nil {
		return nil, time.Time{}, false
	}
	c, ok := CropByID(s.CropType)
	if !ok || !c.HasCurve() {
		return nil, time.Time{}, false
	}
	return c, *s.PlantingTime, true
}
