package agro

import (
	"math"
	"time"
)

// Soil water contents here are volumetric percentages (m³ of water per
// 100 m³ of soil, "vol %"), as soil-moisture probes report them; depths and
// thicknesses of soil are in cm, water in mm.

// RelativeMoisture is the relative soil moisture R, % of field capacity
// (GB/T 32136-2015 §6.2): R = θ / θfc × 100, with θ and θfc in the same unit.
func RelativeMoisture(theta, fieldCapacity float64) float64 {
	return theta / fieldCapacity * 100
}

// MoistureFromRelative inverts RelativeMoisture: θ = R θfc / 100.
func MoistureFromRelative(relative, fieldCapacity float64) float64 {
	return relative * fieldCapacity / 100
}

// ProfileRelativeMoisture is the relative moisture of several layers, the
// mean of each layer's R (GB/T 32136-2015 §6.2 averages the layers of the
// depth it assesses). thetas and fieldCapacities pair up by layer.
func ProfileRelativeMoisture(thetas, fieldCapacities []float64) (float64, error) {
	if len(thetas) == 0 || len(thetas) != len(fieldCapacities) {
		return 0, invalid("theta", "need one field capacity per layer (%d layers, %d capacities)", len(thetas), len(fieldCapacities))
	}
	var sum float64
	for i, th := range thetas {
		if !(fieldCapacities[i] > 0) {
			return 0, invalid("field-capacity", "layer %d: field capacity %g must be above 0", i+1, fieldCapacities[i])
		}
		sum += RelativeMoisture(th, fieldCapacities[i])
	}
	return sum / float64(len(thetas)), nil
}

// VolumetricFromGravimetric converts a gravimetric water content w (% by
// dry mass) to volumetric (vol %) with the soil's dry bulk density ρb
// ("unit weight", g/cm³): θv = w ρb / ρw, ρw = 1 g/cm³ (e.g. Hillel,
// Introduction to Environmental Soil Physics, 2004, eq. 2.13).
func VolumetricFromGravimetric(w, bulkDensity float64) float64 { return w * bulkDensity }

// WaterDepth is the water held in a layer, mm: θ (vol %) / 100 × thickness
// (cm) × 10 — the depth of water the layer would yield if squeezed out
// (FAO-56 eq. 82 writes the same as 1000 θ Zr with θ in m³/m³ and Zr in m).
func WaterDepth(theta, thicknessCM float64) float64 { return theta / 100 * thicknessCM * 10 }

// PlantAvailableWater is the total available water TAW of a root zone, mm
// (FAO-56 eq. 82): TAW = 1000 (θFC − θWP) Zr, here with θ in vol % and the
// root depth in cm.
func PlantAvailableWater(fieldCapacity, wiltingPoint, rootDepthCM float64) float64 {
	return WaterDepth(fieldCapacity-wiltingPoint, rootDepthCM)
}

// DroughtGrade is an agricultural drought grade by relative soil moisture.
type DroughtGrade int

const (
	DroughtNone     DroughtGrade = iota // 无旱: R > 60 %
	DroughtLight                        // 轻旱: 50 < R ≤ 60
	DroughtModerate                     // 中旱: 40 < R ≤ 50
	DroughtSevere                       // 重旱: 30 < R ≤ 40
	DroughtExtreme                      // 特旱: R ≤ 30
)

var droughtNames = [...]string{"none", "light", "moderate", "severe", "extreme"}

func (g DroughtGrade) String() string { return droughtNames[g] }

// MarshalText writes the grade's name.
func (g DroughtGrade) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// DroughtByRelativeMoisture grades agricultural drought from the relative
// soil moisture R, % (GB/T 32136-2015 农业干旱等级, the soil relative
// moisture index table: no drought R > 60, light 50 < R ≤ 60, moderate
// 40 < R ≤ 50, severe 30 < R ≤ 40, extreme R ≤ 30).
func DroughtByRelativeMoisture(r float64) DroughtGrade {
	switch {
	case r > 60:
		return DroughtNone
	case r > 50:
		return DroughtLight
	case r > 40:
		return DroughtModerate
	case r > 30:
		return DroughtSevere
	default:
		return DroughtExtreme
	}
}

// RootZone is the soil a crop draws on, for the daily water balance.
type RootZone struct {
	DepthCM       float64 // root depth Zr, cm
	FieldCapacity float64 // θFC, vol %
	WiltingPoint  float64 // θWP, vol %
	// RefillRelative is the relative moisture (% of field capacity) at
	// which the zone needs irrigation, e.g. 60, where light drought begins.
	RefillRelative float64
}

// Validate checks the zone's parameters.
func (z RootZone) Validate() error {
	if !(z.DepthCM > 0 && z.DepthCM <= 500) {
		return invalid("depth", "%g cm is not a root depth (0–500)", z.DepthCM)
	}
	if !(z.FieldCapacity > 0 && z.FieldCapacity <= 100) {
		return invalid("field-capacity", "%g vol %% is not a field capacity (0–100)", z.FieldCapacity)
	}
	if !(z.WiltingPoint >= 0 && z.WiltingPoint < z.FieldCapacity) {
		return invalid("wilting-point", "%g vol %% must be at least 0 and below field capacity %g", z.WiltingPoint, z.FieldCapacity)
	}
	if refill := MoistureFromRelative(z.RefillRelative, z.FieldCapacity); !(refill > z.WiltingPoint && z.RefillRelative < 100) {
		return invalid("refill", "%g %% of field capacity must lie between the wilting point and field capacity", z.RefillRelative)
	}
	return nil
}

// TAW is the zone's total available water, mm (FAO-56 eq. 82).
func (z RootZone) TAW() float64 {
	return PlantAvailableWater(z.FieldCapacity, z.WiltingPoint, z.DepthCM)
}

// RAW is the readily available water, mm: the depletion at which the
// refill point is reached (FAO-56 eq. 83, RAW = p TAW, with p the fraction
// of TAW used by then).
func (z RootZone) RAW() float64 {
	return WaterDepth(z.FieldCapacity-MoistureFromRelative(z.RefillRelative, z.FieldCapacity), z.DepthCM)
}

// WaterDay is one day's water in and out of a root zone, mm.
type WaterDay struct {
	Date       time.Time `json:"date"`
	Rain       float64   `json:"rain"`
	Irrigation float64   `json:"irrigation"`
	ETc        float64   `json:"etc"` // crop ET under standard conditions (Kc ET0)
}

// BalanceDay is the state of a root zone at the end of a day.
type BalanceDay struct {
	Date      time.Time    `json:"date"`
	ETa       float64      `json:"eta"`       // ET after water stress, Ks ETc, mm
	Drainage  float64      `json:"drainage"`  // deep percolation beyond field capacity, mm
	Depletion float64      `json:"depletion"` // Dr, mm below field capacity
	Theta     float64      `json:"theta"`     // mean θ of the zone, vol %
	Relative  float64      `json:"relative"`  // % of field capacity
	Drought   DroughtGrade `json:"drought"`
	Refill    bool         `json:"refill"` // at or below the refill point
}

// WaterBalance is a run of the daily root-zone balance.
type WaterBalance struct {
	Days []BalanceDay `json:"days"`
	// RefillDate is the first day that ends at or below the refill point;
	// IrrigationDepth is the water, mm, that brings the zone back to field
	// capacity at the end of that day. Both are zero when it never does.
	RefillDate      time.Time `json:"refillDate"`
	IrrigationDepth float64   `json:"irrigationDepth"`
}

// Balance runs the FAO-56 daily root-zone water balance (chapter 8,
// eq. 85) from a start moisture theta0 (vol %) over days:
//
//	Dr,i = Dr,i−1 − P − I + ETa,i + DPi,  with Dr ≥ 0,
//
// where all rain infiltrates (runoff and capillary rise are taken as 0),
// water beyond field capacity drains the same day (DP, eq. 88), and below
// the refill point the crop transpires less, ETa = Ks ETc with
// Ks = (TAW − Dr)/((1 − p) TAW) (eq. 84), so the zone approaches but never
// passes the wilting point.
func (z RootZone) Balance(theta0 float64, days []WaterDay) (WaterBalance, error) {
	if err := z.Validate(); err != nil {
		return WaterBalance{}, err
	}
	if !(theta0 >= 0 && theta0 <= 100) {
		return WaterBalance{}, invalid("theta", "%g vol %% is not a water content (0–100)", theta0)
	}
	taw, raw := z.TAW(), z.RAW()
	dr := math.Max(0, WaterDepth(z.FieldCapacity-theta0, z.DepthCM))
	dr = math.Min(dr, taw)
	var wb WaterBalance
	for _, d := range days {
		if !(d.Rain >= 0 && d.Irrigation >= 0 && d.ETc >= 0) {
			return WaterBalance{}, invalid("days", "%s: rain, irrigation and ETc must not be negative", d.Date.Format(time.DateOnly))
		}
		ks := 1.0
		if dr > raw {
			ks = (taw - dr) / (taw - raw) // eq. 84
		}
		eta := ks * d.ETc
		next := dr - d.Rain - d.Irrigation + eta
		drainage := 0.0
		if next < 0 {
			drainage, next = -next, 0 // eq. 88
		}
		dr = math.Min(next, taw)
		theta := z.FieldCapacity - dr/(z.DepthCM*10)*100
		rel := RelativeMoisture(theta, z.FieldCapacity)
		day := BalanceDay{
			Date: d.Date, ETa: eta, Drainage: drainage, Depletion: dr,
			Theta: theta, Relative: rel, Drought: DroughtByRelativeMoisture(rel),
			Refill: dr >= raw-1e-9,
		}
		wb.Days = append(wb.Days, day)
		if day.Refill && wb.RefillDate.IsZero() {
			wb.RefillDate, wb.IrrigationDepth = d.Date, dr
		}
	}
	return wb, nil
}

// ProjectRefill projects the balance forward from today's moisture theta0
// with a constant daily ETc (mm/day) and no rain, for at most maxDays days
// after from: the first date the zone reaches the refill point and the
// irrigation depth, mm, that returns it to field capacity that day. ok is
// false when it does not get there within maxDays (or ETc is 0). A zone
// already at or below the refill point answers from itself, with the depth
// it needs now.
func (z RootZone) ProjectRefill(theta0, etcPerDay float64, from time.Time, maxDays int) (date time.Time, depth float64, ok bool, err error) {
	if err := z.Validate(); err != nil {
		return time.Time{}, 0, false, err
	}
	if !(etcPerDay >= 0 && etcPerDay <= 30) {
		return time.Time{}, 0, false, invalid("etc", "%g mm/day is not a crop ET (0–30)", etcPerDay)
	}
	if !(theta0 >= 0 && theta0 <= 100) {
		return time.Time{}, 0, false, invalid("theta", "%g vol %% is not a water content (0–100)", theta0)
	}
	if dr := WaterDepth(z.FieldCapacity-theta0, z.DepthCM); dr >= z.RAW()-1e-9 {
		return from, math.Min(dr, z.TAW()), true, nil
	}
	days := make([]WaterDay, maxDays)
	for i := range days {
		days[i] = WaterDay{Date: from.AddDate(0, 0, i+1), ETc: etcPerDay}
	}
	wb, err := z.Balance(theta0, days)
	if err != nil || wb.RefillDate.IsZero() {
		return time.Time{}, 0, false, err
	}
	return wb.RefillDate, wb.IrrigationDepth, true, nil
}
