package agro

import "math"

// DroughtStage is the crop development stage that GB/T 32136-2015 §6.2
// adjusts the soil relative humidity index for.
type DroughtStage string

const (
	DroughtSeedling   DroughtStage = "seedling" // 苗期
	DroughtCritical   DroughtStage = "critical" // 水分临界期, the stage most sensitive to water shortage
	DroughtOtherStage DroughtStage = "other"    // 其余发育期
)

// ParseDroughtStage reads a stage name; "" is DroughtOtherStage.
func ParseDroughtStage(s string) (DroughtStage, error) {
	switch DroughtStage(s) {
	case "", DroughtOtherStage:
		return DroughtOtherStage, nil
	case DroughtSeedling, DroughtCritical:
		return DroughtStage(s), nil
	}
	return "", invalid("stage", "%q is not a growth stage (seedling, critical or other)", s)
}

// Coefficient is the stage's adjustment coefficient a of GB/T 32136-2015
// §6.2 for dryland crops: 1.1 at the seedling stage (shallow roots tolerate
// a drier soil), 0.9 in the critical water period, 1 otherwise.
func (s DroughtStage) Coefficient() float64 {
	switch s {
	case DroughtSeedling:
		return 1.1
	case DroughtCritical:
		return 0.9
	}
	return 1
}

// WaterloggedRelative is the relative moisture, %, above which a layer
// counts as waterlogged (渍涝, 过湿) in a briefing. GB/T 32136-2015 grades
// only drought; moisture-monitoring practice in China (NY/T 1782-2009
// 农田土壤墒情监测技术规范 and the provincial briefings built on it) calls
// the soil too wet above 90 % of field capacity, where air is short in the
// root zone.
const WaterloggedRelative = 90

// Waterlogged reports whether a relative moisture R, %, is above
// WaterloggedRelative.
func Waterlogged(r float64) bool { return r > WaterloggedRelative }

// DroughtAssessment is the drought grade of a soil column.
type DroughtAssessment struct {
	Relative    float64      `json:"relative"`    // mean relative moisture of the layers, % of field capacity
	Stage       DroughtStage `json:"stage"`       // growth stage
	Coefficient float64      `json:"coefficient"` // its a
	Index       float64      `json:"index"`       // soil relative humidity index Rsm = a × Relative
	Grade       DroughtGrade `json:"grade"`       // grade of Index
	Waterlogged bool         `json:"waterlogged"` // Relative above WaterloggedRelative
}

// AssessDrought grades agricultural drought from the relative soil
// moisture of the layers of a soil column (GB/T 32136-2015 §5.2 and §6.2):
//
//	Rsm = a × (Σ θi / θfc,i × 100) / n
//
// with θi the water content of layer i, θfc,i its field capacity (same
// unit), n the number of layers and a the stage's Coefficient; the grade is
// DroughtByRelativeMoisture(Rsm). The waterlogging flag looks at the
// unadjusted mean relative moisture: it describes the soil, not the crop.
// thetas and fieldCapacities pair up by layer.
func AssessDrought(thetas, fieldCapacities []float64, stage DroughtStage) (DroughtAssessment, error) {
	if _, err := ParseDroughtStage(string(stage)); err != nil {
		return DroughtAssessment{}, err
	}
	if stage == "" {
		stage = DroughtOtherStage
	}
	for i, th := range thetas {
		if !(th >= 0) || math.IsInf(th, 0) {
			return DroughtAssessment{}, invalid("theta", "layer %d: %g is not a water content (0 or more)", i+1, th)
		}
	}
	r, err := ProfileRelativeMoisture(thetas, fieldCapacities)
	if err != nil {
		return DroughtAssessment{}, err
	}
	for i, fc := range fieldCapacities {
		if thetas[i] > fc*2 {
			return DroughtAssessment{}, invalid("theta", "layer %d: %g is more than twice the field capacity %g: check the units", i+1, thetas[i], fc)
		}
	}
	return assess(r, stage), nil
}

// AssessRelative is AssessDrought for a relative moisture already computed.
func AssessRelative(relative float64, stage DroughtStage) DroughtAssessment {
	if stage == "" {
		stage = DroughtOtherStage
	}
	return assess(relative, stage)
}

func assess(r float64, stage DroughtStage) DroughtAssessment {
	a := stage.Coefficient()
	idx := a * r
	return DroughtAssessment{
		Relative: r, Stage: stage, Coefficient: a, Index: idx,
		Grade: DroughtByRelativeMoisture(idx), Waterlogged: Waterlogged(r),
	}
}
