package agro

// GrowthStage is one of the four FAO-56 crop growth stages (FAO-56
// chapter 6, Figure 25).
type GrowthStage string

const (
	StageInitial     GrowthStage = "initial"
	StageDevelopment GrowthStage = "development"
	StageMid         GrowthStage = "mid"
	StageLate        GrowthStage = "late"
	StageOutside     GrowthStage = "outside" // before planting or after harvest
)

// CropCurve is a single crop coefficient curve (FAO-56 chapter 6): Kc ini
// through the initial stage, a straight line to Kc mid over the development
// stage, Kc mid through mid-season and a straight line to Kc end over the
// late season. Stage lengths are in days (FAO-56 Table 11 lists typical ones,
// Table 12 typical Kc values).
type CropCurve struct {
	Initial, Development, Mid, Late int     // stage lengths, days
	KcIni, KcMid, KcEnd             float64 // Kc at the three corners
}

// Validate checks the curve can be evaluated.
func (c CropCurve) Validate() error {
	for _, s := range []struct {
		name string
		days int
	}{{"initial", c.Initial}, {"development", c.Development}, {"mid", c.Mid}, {"late", c.Late}} {
		if s.days < 0 || s.days > 400 {
			return invalid(s.name, "%d days is not a stage length (0–400)", s.days)
		}
	}
	if c.Initial+c.Development+c.Mid+c.Late == 0 {
		return invalid("initial", "the season has no days")
	}
	for _, k := range []struct {
		name string
		kc   float64
	}{{"kc-ini", c.KcIni}, {"kc-mid", c.KcMid}, {"kc-end", c.KcEnd}} {
		if !(k.kc >= 0 && k.kc <= 2) {
			return invalid(k.name, "%g is not a crop coefficient (0–2)", k.kc)
		}
	}
	return nil
}

// Length is the season's length in days.
func (c CropCurve) Length() int { return c.Initial + c.Development + c.Mid + c.Late }

// Kc is the crop coefficient on day i of the season (day 1 is the planting
// day) and the stage that day falls in. Within the development and late
// stages it interpolates linearly (FAO-56 eq. 66):
// Kc i = Kc prev + [(i − Σ L prev) / L stage] (Kc next − Kc prev).
// Outside the season it returns 0 and StageOutside.
func (c CropCurve) Kc(i int) (float64, GrowthStage) {
	if i < 1 || i > c.Length() {
		return 0, StageOutside
	}
	day := float64(i)
	switch ini, dev, mid := c.Initial, c.Initial+c.Development, c.Initial+c.Development+c.Mid; {
	case i <= ini:
		return c.KcIni, StageInitial
	case i <= dev:
		return c.KcIni + (day-float64(ini))/float64(c.Development)*(c.KcMid-c.KcIni), StageDevelopment
	case i <= mid:
		return c.KcMid, StageMid
	default:
		return c.KcMid + (day-float64(mid))/float64(c.Late)*(c.KcEnd-c.KcMid), StageLate
	}
}

// ETc is the crop evapotranspiration under standard conditions, in the unit
// of et0 (FAO-56 eq. 56): ETc = Kc ET0.
func ETc(kc, et0 float64) float64 { return kc * et0 }
