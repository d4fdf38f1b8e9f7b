package agro

import (
	"math"
)

// Constants of FAO-56 chapter 3.
const (
	// SolarConstant Gsc, MJ m⁻² min⁻¹ (FAO-56 eq. 21).
	SolarConstant = 0.0820
	// Albedo of the grass reference crop (FAO-56 eq. 38).
	Albedo = 0.23
	// StefanBoltzmannDay σ, MJ K⁻⁴ m⁻² day⁻¹ (FAO-56 eq. 39).
	StefanBoltzmannDay = 4.903e-9
	// StefanBoltzmannHour σ, MJ K⁻⁴ m⁻² h⁻¹: the daily constant over 24 h,
	// the 2.043e-10 of FAO-56 eq. 39 as applied to hourly periods.
	StefanBoltzmannHour = StefanBoltzmannDay / 24
	// AngstromA and AngstromB are the Angström coefficients as and bs that
	// FAO-56 recommends where no calibration exists (eq. 35).
	AngstromA = 0.25
	AngstromB = 0.50
	// NightRsRso is the relative shortwave radiation FAO-56 Example 19
	// assumes for a night hour (Rs/Rso of the 2–3 hours before sunset).
	NightRsRso = 0.8
)

// AtmosphericPressure is P, kPa, at altitude z m above sea level (FAO-56 eq. 7):
// P = 101.3 ((293 − 0.0065 z) / 293)^5.26.
func AtmosphericPressure(z float64) float64 {
	return 101.3 * math.Pow((293-0.0065*z)/293, 5.26)
}

// PsychrometricConstant is γ, kPa °C⁻¹, at pressure p kPa (FAO-56 eq. 8):
// γ = 0.665×10⁻³ P.
func PsychrometricConstant(p float64) float64 { return 0.665e-3 * p }

// SatVapourPressure is e°(T), kPa, at air temperature t °C (FAO-56 eq. 11):
// e°(T) = 0.6108 exp(17.27 T / (T + 237.3)).
func SatVapourPressure(t float64) float64 {
	return 0.6108 * math.Exp(17.27*t/(t+237.3))
}

// SatVapourSlope is Δ, kPa °C⁻¹, the slope of the saturation vapour pressure
// curve at t °C (FAO-56 eq. 13): Δ = 4098 e°(T) / (T + 237.3)².
func SatVapourSlope(t float64) float64 {
	return 4098 * SatVapourPressure(t) / ((t + 237.3) * (t + 237.3))
}

// WindAt2m converts a wind speed u measured z m above the ground to the
// 2 m speed u2 (FAO-56 eq. 47): u2 = uz 4.87 / ln(67.8 z − 5.42).
func WindAt2m(u, z float64) float64 {
	return u * 4.87 / math.Log(67.8*z-5.42)
}

// InverseRelativeDistance is dr, the inverse relative distance Earth–Sun on
// day of year doy (FAO-56 eq. 23): dr = 1 + 0.033 cos(2π J / 365).
func InverseRelativeDistance(doy int) float64 {
	return 1 + 0.033*math.Cos(2*math.Pi*float64(doy)/365)
}

// SolarDeclination is δ, rad, on day of year doy (FAO-56 eq. 24):
// δ = 0.409 sin(2π J / 365 − 1.39).
func SolarDeclination(doy int) float64 {
	return 0.409 * math.Sin(2*math.Pi*float64(doy)/365-1.39)
}

// SunsetHourAngle is ωs, rad, at latitude lat rad for declination decl rad
// (FAO-56 eq. 25): ωs = arccos(−tan φ tan δ). Beyond the polar circles the
// argument leaves [−1, 1]: the sun does not set (ωs = π) or does not rise
// (ωs = 0).
func SunsetHourAngle(lat, decl float64) float64 {
	x := -math.Tan(lat) * math.Tan(decl)
	return math.Acos(math.Max(-1, math.Min(1, x)))
}

// ExtraterrestrialRadiation is Ra, MJ m⁻² day⁻¹, at latitude latDeg (north
// positive) on day of year doy (FAO-56 eq. 21):
// Ra = 24·60/π Gsc dr [ωs sin φ sin δ + cos φ cos δ sin ωs].
func ExtraterrestrialRadiation(latDeg float64, doy int) float64 {
	phi := latDeg * math.Pi / 180
	decl := SolarDeclination(doy)
	ws := SunsetHourAngle(phi, decl)
	ra := 24 * 60 / math.Pi * SolarConstant * InverseRelativeDistance(doy) *
		(ws*math.Sin(phi)*math.Sin(decl) + math.Cos(phi)*math.Cos(decl)*math.Sin(ws))
	return math.Max(ra, 0)
}

// DaylightHours is N, the maximum possible duration of sunshine, hours, at
// latitude latDeg on day of year doy (FAO-56 eq. 34): N = 24 ωs / π.
func DaylightHours(latDeg float64, doy int) float64 {
	return 24 / math.Pi * SunsetHourAngle(latDeg*math.Pi/180, SolarDeclination(doy))
}

// SolarRadiationFromSunshine is Rs, MJ m⁻² day⁻¹, from n hours of bright
// sunshine in a day of N daylight hours with extraterrestrial radiation ra
// (Angström, FAO-56 eq. 35): Rs = (as + bs n/N) Ra, as = 0.25, bs = 0.50.
func SolarRadiationFromSunshine(n, daylight, ra float64) float64 {
	if daylight <= 0 {
		return 0
	}
	return (AngstromA + AngstromB*n/daylight) * ra
}

// ClearSkyRadiation is Rso, in the unit of ra, at altitude z m
// (FAO-56 eq. 37): Rso = (0.75 + 2×10⁻⁵ z) Ra.
func ClearSkyRadiation(z, ra float64) float64 { return (0.75 + 2e-5*z) * ra }

// NetShortwaveRadiation is Rns = (1 − α) Rs with the grass albedo α = 0.23
// (FAO-56 eq. 38), in the unit of rs.
func NetShortwaveRadiation(rs float64) float64 { return (1 - Albedo) * rs }

// NetLongwaveRadiation is Rnl, MJ m⁻² day⁻¹ (FAO-56 eq. 39):
// Rnl = σ [(Tmax,K⁴ + Tmin,K⁴)/2] (0.34 − 0.14 √ea) (1.35 Rs/Rso − 0.35),
// with T in K = °C + 273.16 and Rs/Rso limited to at most 1.0. Where Rso is 0
// (polar night) the sky is taken as clear (Rs/Rso = 1).
func NetLongwaveRadiation(tmax, tmin, ea, rs, rso float64) float64 {
	k4 := func(t float64) float64 { k := t + 273.16; return k * k * k * k }
	return StefanBoltzmannDay * (k4(tmax) + k4(tmin)) / 2 *
		(0.34 - 0.14*math.Sqrt(ea)) * (1.35*relativeShortwave(rs, rso, 1) - 0.35)
}

// relativeShortwave is Rs/Rso, at most 1.0 (FAO-56 eq. 39), or otherwise
// when Rso is 0.
func relativeShortwave(rs, rso, otherwise float64) float64 {
	if rso <= 0 {
		return otherwise
	}
	return math.Min(rs/rso, 1)
}

// PenmanMonteithDaily is the FAO Penman-Monteith reference
// evapotranspiration ET0, mm day⁻¹ (FAO-56 eq. 6):
// ET0 = [0.408 Δ (Rn − G) + γ 900/(T + 273) u2 (es − ea)] / [Δ + γ (1 + 0.34 u2)],
// with T the mean air temperature °C, Rn and G in MJ m⁻² day⁻¹, u2 in m s⁻¹
// and vapour pressures in kPa.
func PenmanMonteithDaily(delta, gamma, rn, g, t, u2, es, ea float64) float64 {
	return (0.408*delta*(rn-g) + gamma*900/(t+273)*u2*(es-ea)) /
		(delta + gamma*(1+0.34*u2))
}

// PenmanMonteithHourly is the FAO Penman-Monteith ET0 for hourly periods,
// mm h⁻¹ (FAO-56 eq. 53): the daily form with 37/(Thr + 273) in place of
// 900/(T + 273), Rn and G in MJ m⁻² h⁻¹.
func PenmanMonteithHourly(delta, gamma, rn, g, t, u2, es, ea float64) float64 {
	return (0.408*delta*(rn-g) + gamma*37/(t+273)*u2*(es-ea)) /
		(delta + gamma*(1+0.34*u2))
}

// Humidity is the humidity input of an ET0 calculation: RH max and min, RH
// mean (for an hourly period, the hour's RH), or the actual vapour pressure.
// Build one with RHMaxMin, RHMean or VapourPressure.
type Humidity struct {
	kind   humidityKind
	a, b   float64
	hasAny bool
}

type humidityKind int

const (
	humidityMaxMin humidityKind = iota
	humidityMean
	humidityEa
)

// RHMaxMin is daily maximum and minimum relative humidity, % (FAO-56 eq. 17).
func RHMaxMin(max, min float64) Humidity {
	return Humidity{kind: humidityMaxMin, a: max, b: min, hasAny: true}
}

// RHMean is mean relative humidity, % (FAO-56 eq. 19; for an hourly period
// the hour's RH, eq. 54).
func RHMean(mean float64) Humidity { return Humidity{kind: humidityMean, a: mean, hasAny: true} }

// VapourPressure is the actual vapour pressure ea, kPa, known directly (e.g.
// from the dew point, FAO-56 eq. 14).
func VapourPressure(ea float64) Humidity { return Humidity{kind: humidityEa, a: ea, hasAny: true} }

func (h Humidity) validate() error {
	if !h.hasAny {
		return invalid("rhmax", "give RH max and min, RH mean or ea")
	}
	switch h.kind {
	case humidityMaxMin:
		if err := checkRH("rhmax", h.a); err != nil {
			return err
		}
		if err := checkRH("rhmin", h.b); err != nil {
			return err
		}
		if h.b > h.a {
			return invalid("rhmin", "%g %% is above RH max %g %%", h.b, h.a)
		}
	case humidityMean:
		return checkRH("rhmean", h.a)
	case humidityEa:
		if !(h.a > 0) || h.a > 20 {
			return invalid("ea", "%g kPa is not a vapour pressure (0 < ea ≤ 20)", h.a)
		}
	}
	return nil
}

func checkRH(field string, rh float64) error {
	if !(rh >= 0 && rh <= 100) {
		return invalid(field, "%g %% is not a relative humidity (0–100)", rh)
	}
	return nil
}

// Radiation is the solar radiation input of a daily ET0 calculation: hours
// of bright sunshine, or measured Rs. Build one with Sunshine or MeasuredRs.
type Radiation struct {
	sunshine bool
	v        float64
	set      bool
}

// Sunshine is n, the actual hours of bright sunshine in the day (FAO-56 eq. 35).
func Sunshine(hours float64) Radiation { return Radiation{sunshine: true, v: hours, set: true} }

// MeasuredRs is measured incoming solar radiation Rs, MJ m⁻² day⁻¹.
func MeasuredRs(mj float64) Radiation { return Radiation{v: mj, set: true} }

// DailyInput is one day's weather at a site.
type DailyInput struct {
	Tmax, Tmin float64 // °C
	Humidity   Humidity
	Wind       float64 // m s⁻¹, measured WindHeight m above the ground
	WindHeight float64 // m; 0 means 2 m
	Radiation  Radiation
	Lat        float64 // degrees, north positive
	Alt        float64 // m above sea level
	DOY        int     // day of year, 1–366
	G          float64 // soil heat flux, MJ m⁻² day⁻¹; FAO-56 takes 0 for a day (eq. 42)
}

// DailyET0 is a daily reference evapotranspiration with every intermediate of
// FAO-56 chapter 3 and 4.
type DailyET0 struct {
	ET0         float64 `json:"et0"`         // mm day⁻¹ (eq. 6)
	Tmean       float64 `json:"tmean"`       // °C (eq. 9)
	Pressure    float64 `json:"pressure"`    // P, kPa (eq. 7)
	Gamma       float64 `json:"gamma"`       // γ, kPa °C⁻¹ (eq. 8)
	Delta       float64 `json:"delta"`       // Δ at Tmean, kPa °C⁻¹ (eq. 13)
	EsTmax      float64 `json:"esTmax"`      // e°(Tmax), kPa (eq. 11)
	EsTmin      float64 `json:"esTmin"`      // e°(Tmin), kPa (eq. 11)
	Es          float64 `json:"es"`          // kPa (eq. 12)
	Ea          float64 `json:"ea"`          // kPa (eq. 17, 19 or given)
	VPD         float64 `json:"vpd"`         // es − ea, kPa
	U2          float64 `json:"u2"`          // m s⁻¹ (eq. 47)
	Dr          float64 `json:"dr"`          // (eq. 23)
	Declination float64 `json:"declination"` // δ, rad (eq. 24)
	SunsetAngle float64 `json:"sunsetAngle"` // ωs, rad (eq. 25)
	Ra          float64 `json:"ra"`          // MJ m⁻² day⁻¹ (eq. 21)
	N           float64 `json:"daylightHours"`
	Rs          float64 `json:"rs"`  // MJ m⁻² day⁻¹ (eq. 35 or measured)
	Rso         float64 `json:"rso"` // (eq. 37)
	Rns         float64 `json:"rns"` // (eq. 38)
	Rnl         float64 `json:"rnl"` // (eq. 39)
	Rn          float64 `json:"rn"`  // (eq. 40)
	G           float64 `json:"g"`
}

// ET0Daily computes the FAO-56 Penman-Monteith reference evapotranspiration
// of one day (FAO-56 chapter 4, "Calculation procedure", Box 11), with every
// intermediate. The same procedure serves monthly means (Example 17) with the
// month's mean values, its middle day and the monthly G of eq. 43 or 44.
// Returns an *InputError for unusable inputs.
func ET0Daily(in DailyInput) (DailyET0, error) {
	if err := in.validate(); err != nil {
		return DailyET0{}, err
	}
	var r DailyET0
	r.Tmean = (in.Tmax + in.Tmin) / 2
	r.Pressure = AtmosphericPressure(in.Alt)
	r.Gamma = PsychrometricConstant(r.Pressure)
	r.Delta = SatVapourSlope(r.Tmean)
	r.EsTmax, r.EsTmin = SatVapourPressure(in.Tmax), SatVapourPressure(in.Tmin)
	r.Es = (r.EsTmax + r.EsTmin) / 2
	switch h := in.Humidity; h.kind {
	case humidityMaxMin:
		r.Ea = (r.EsTmin*h.a/100 + r.EsTmax*h.b/100) / 2 // eq. 17
	case humidityMean:
		r.Ea = h.a / 100 * r.Es // eq. 19
	case humidityEa:
		r.Ea = h.a
	}
	r.VPD = r.Es - r.Ea
	r.U2 = WindAt2m(in.Wind, windHeight(in.WindHeight))

	phi := in.Lat * math.Pi / 180
	r.Dr = InverseRelativeDistance(in.DOY)
	r.Declination = SolarDeclination(in.DOY)
	r.SunsetAngle = SunsetHourAngle(phi, r.Declination)
	r.Ra = ExtraterrestrialRadiation(in.Lat, in.DOY)
	r.N = DaylightHours(in.Lat, in.DOY)
	if in.Radiation.sunshine {
		if in.Radiation.v > r.N+0.05 {
			return DailyET0{}, invalid("sunshine", "%g h is longer than the day's %.2f daylight hours", in.Radiation.v, r.N)
		}
		r.Rs = SolarRadiationFromSunshine(math.Min(in.Radiation.v, r.N), r.N, r.Ra)
	} else {
		r.Rs = in.Radiation.v
	}
	r.Rso = ClearSkyRadiation(in.Alt, r.Ra)
	r.Rns = NetShortwaveRadiation(r.Rs)
	r.Rnl = NetLongwaveRadiation(in.Tmax, in.Tmin, r.Ea, r.Rs, r.Rso)
	r.Rn = r.Rns - r.Rnl // eq. 40
	r.G = in.G
	r.ET0 = PenmanMonteithDaily(r.Delta, r.Gamma, r.Rn, r.G, r.Tmean, r.U2, r.Es, r.Ea)
	return r, nil
}

func windHeight(z float64) float64 {
	if z == 0 {
		return 2
	}
	return z
}

func (in DailyInput) validate() error {
	if err := checkTemp("tmax", in.Tmax); err != nil {
		return err
	}
	if err := checkTemp("tmin", in.Tmin); err != nil {
		return err
	}
	if in.Tmin > in.Tmax {
		return invalid("tmin", "%g °C is above Tmax %g °C", in.Tmin, in.Tmax)
	}
	if err := in.Humidity.validate(); err != nil {
		return err
	}
	if err := checkWind(in.Wind, in.WindHeight); err != nil {
		return err
	}
	if !in.Radiation.set {
		return invalid("sunshine", "give the hours of sunshine or measured Rs")
	}
	if in.Radiation.sunshine && !(in.Radiation.v >= 0) {
		return invalid("sunshine", "%g h is negative", in.Radiation.v)
	}
	if !in.Radiation.sunshine && !(in.Radiation.v >= 0 && in.Radiation.v <= 50) {
		return invalid("rs", "%g MJ/m²/day is not a daily solar radiation (0–50)", in.Radiation.v)
	}
	if err := checkSite(in.Lat, in.Alt, in.DOY); err != nil {
		return err
	}
	if math.IsNaN(in.G) || math.Abs(in.G) > 10 {
		return invalid("g", "%g MJ/m²/day is not a soil heat flux (|G| ≤ 10)", in.G)
	}
	return nil
}

func checkTemp(field string, t float64) error {
	if !(t >= -60 && t <= 60) {
		return invalid(field, "%g °C is not an air temperature (−60 to 60)", t)
	}
	return nil
}

// checkWind refuses heights where eq. 47's logarithm is not positive
// (below about 0.1 m), where the log-profile has no meaning.
func checkWind(u, z float64) error {
	if !(u >= 0 && u <= 100) {
		return invalid("wind", "%g m/s is not a wind speed (0–100)", u)
	}
	if z = windHeight(z); !(z >= 0.5 && z <= 100) {
		return invalid("wind-height", "%g m is not an anemometer height (0.5–100)", z)
	}
	return nil
}

func checkSite(lat, alt float64, doy int) error {
	if !(lat >= -90 && lat <= 90) {
		return invalid("lat", "%g is not a latitude (−90 to 90)", lat)
	}
	if !(alt >= -500 && alt <= 9000) {
		return invalid("alt", "%g m is not an altitude (−500 to 9000)", alt)
	}
	if doy < 1 || doy > 366 {
		return invalid("doy", "%d is not a day of the year (1–366)", doy)
	}
	return nil
}

// HourlyInput is one hour's weather at a site.
type HourlyInput struct {
	T          float64  // mean air temperature of the period, °C
	Humidity   Humidity // RHMean (the period's RH, eq. 54) or VapourPressure
	Wind       float64  // m s⁻¹ at WindHeight
	WindHeight float64  // m; 0 means 2 m
	Rs         float64  // measured solar radiation, MJ m⁻² h⁻¹
	Lat        float64  // degrees, north positive
	Lon        float64  // degrees, east positive
	TZ         float64  // the site's standard time, hours east of UTC (China: 8)
	Alt        float64  // m
	DOY        int
	Hour       float64 // standard clock time at the midpoint of the hour, 0–24 (14.5 for 14:00–15:00)
	// NightRsRso is Rs/Rso used for Rnl while the sun is down; FAO-56 says
	// to take that of the 2–3 hours before sunset. 0 means NightRsRso (0.8,
	// as Example 19 assumes).
	NightRsRso float64
}

// HourlyET0 is an hourly reference evapotranspiration with its intermediates.
type HourlyET0 struct {
	ET0          float64 `json:"et0"` // mm h⁻¹ (eq. 53)
	Pressure     float64 `json:"pressure"`
	Gamma        float64 `json:"gamma"`
	Delta        float64 `json:"delta"`
	Es           float64 `json:"es"` // e°(Thr), kPa
	Ea           float64 `json:"ea"` // kPa (eq. 54 or given)
	VPD          float64 `json:"vpd"`
	U2           float64 `json:"u2"`
	Dr           float64 `json:"dr"`
	Declination  float64 `json:"declination"`
	SunsetAngle  float64 `json:"sunsetAngle"`
	SeasonalCorr float64 `json:"seasonalCorrection"` // Sc, hours (eq. 32)
	HourAngle    float64 `json:"hourAngle"`          // ω at the midpoint, rad (eq. 31)
	HourAngle1   float64 `json:"hourAngle1"`         // ω1 (eq. 29)
	HourAngle2   float64 `json:"hourAngle2"`         // ω2 (eq. 30)
	Daytime      bool    `json:"daytime"`            // the sun is above the horizon at the midpoint
	Ra           float64 `json:"ra"`                 // MJ m⁻² h⁻¹ (eq. 28)
	Rs           float64 `json:"rs"`
	Rso          float64 `json:"rso"`
	RsRso        float64 `json:"rsRso"` // the ratio used for Rnl
	Rns          float64 `json:"rns"`
	Rnl          float64 `json:"rnl"`
	Rn           float64 `json:"rn"`
	G            float64 `json:"g"` // 0.1 Rn by day, 0.5 Rn by night (eq. 45, 46)
}

// ET0Hourly computes the FAO-56 Penman-Monteith reference evapotranspiration
// of one hour (FAO-56 chapter 4, "Hourly time step", eq. 53), with every
// intermediate:
//
//   - Ra by eq. 28 with ω from eq. 31 (solar time, seasonal correction Sc of
//     eq. 32–33) and ω1, ω2 from eq. 29–30; Ra = 0 when ω lies outside
//     ±ωs (the sun is below the horizon). In the period holding sunrise or
//     sunset ω1 and ω2 are limited to ±ωs (ASCE-EWRI 2005 eq. 56–58), so
//     that Ra counts only the sunlit part.
//   - Rso = (0.75 + 2×10⁻⁵ z) Ra (eq. 37); Rnl by eq. 39 with the hourly σ and
//     the hour's temperature; Rs/Rso by night from NightRsRso.
//   - G = 0.1 Rn in daylight (eq. 45), 0.5 Rn at night (eq. 46).
//
// Returns an *InputError for unusable inputs.
func ET0Hourly(in HourlyInput) (HourlyET0, error) {
	if err := in.validate(); err != nil {
		return HourlyET0{}, err
	}
	var r HourlyET0
	r.Pressure = AtmosphericPressure(in.Alt)
	r.Gamma = PsychrometricConstant(r.Pressure)
	r.Delta = SatVapourSlope(in.T)
	r.Es = SatVapourPressure(in.T)
	if in.Humidity.kind == humidityMean {
		r.Ea = r.Es * in.Humidity.a / 100 // eq. 54
	} else {
		r.Ea = in.Humidity.a
	}
	r.VPD = r.Es - r.Ea
	r.U2 = WindAt2m(in.Wind, windHeight(in.WindHeight))

	phi := in.Lat * math.Pi / 180
	r.Dr = InverseRelativeDistance(in.DOY)
	r.Declination = SolarDeclination(in.DOY)
	r.SunsetAngle = SunsetHourAngle(phi, r.Declination)
	b := 2 * math.Pi * float64(in.DOY-81) / 364                                    // eq. 33
	r.SeasonalCorr = 0.1645*math.Sin(2*b) - 0.1255*math.Cos(b) - 0.025*math.Sin(b) // eq. 32
	// Eq. 31 takes Lz and Lm in degrees west of Greenwich; with east
	// longitudes and the zone's offset east of UTC, Lz − Lm = lon − 15 tz.
	r.HourAngle = math.Pi / 12 * ((in.Hour + 0.06667*(in.Lon-15*in.TZ) + r.SeasonalCorr) - 12)
	r.HourAngle = wrapAngle(r.HourAngle)
	r.HourAngle1 = r.HourAngle - math.Pi/24 // eq. 29 with t1 = 1 h
	r.HourAngle2 = r.HourAngle + math.Pi/24 // eq. 30
	ws := r.SunsetAngle
	r.Daytime = r.HourAngle >= -ws && r.HourAngle <= ws
	if r.Daytime {
		w1, w2 := math.Max(r.HourAngle1, -ws), math.Min(r.HourAngle2, ws)
		r.Ra = 12 * 60 / math.Pi * SolarConstant * r.Dr *
			((w2-w1)*math.Sin(phi)*math.Sin(r.Declination) +
				math.Cos(phi)*math.Cos(r.Declination)*(math.Sin(w2)-math.Sin(w1))) // eq. 28
		r.Ra = math.Max(r.Ra, 0)
	}
	r.Rs = in.Rs
	r.Rso = ClearSkyRadiation(in.Alt, r.Ra)
	night := in.NightRsRso
	if night == 0 {
		night = NightRsRso
	}
	if r.Daytime {
		r.RsRso = relativeShortwave(r.Rs, r.Rso, night)
	} else {
		r.RsRso = night
	}
	r.Rns = NetShortwaveRadiation(r.Rs)
	k := in.T + 273.16
	r.Rnl = StefanBoltzmannHour * k * k * k * k * (0.34 - 0.14*math.Sqrt(r.Ea)) * (1.35*r.RsRso - 0.35)
	r.Rn = r.Rns - r.Rnl
	if r.Daytime {
		r.G = 0.1 * r.Rn
	} else {
		r.G = 0.5 * r.Rn
	}
	r.ET0 = PenmanMonteithHourly(r.Delta, r.Gamma, r.Rn, r.G, in.T, r.U2, r.Es, r.Ea)
	return r, nil
}

// wrapAngle brings an hour angle into (−π, π], so a site far from its time
// zone's meridian near midnight still compares correctly with ±ωs.
func wrapAngle(w float64) float64 {
	for w > math.Pi {
		w -= 2 * math.Pi
	}
	for w <= -math.Pi {
		w += 2 * math.Pi
	}
	return w
}

func (in HourlyInput) validate() error {
	if err := checkTemp("t", in.T); err != nil {
		return err
	}
	if in.Humidity.hasAny && in.Humidity.kind == humidityMaxMin {
		return invalid("rh", "an hourly period takes its RH or ea, not RH max and min")
	}
	if err := in.Humidity.validate(); err != nil {
		if e, ok := err.(*InputError); ok && (e.Field == "rhmean" || e.Field == "rhmax") {
			e.Field = "rh"
		}
		return err
	}
	if err := checkWind(in.Wind, in.WindHeight); err != nil {
		return err
	}
	if !(in.Rs >= 0 && in.Rs <= 5) {
		return invalid("rs", "%g MJ/m²/h is not an hourly solar radiation (0–5)", in.Rs)
	}
	if !(in.Lon >= -180 && in.Lon <= 180) {
		return invalid("lon", "%g is not a longitude (−180 to 180)", in.Lon)
	}
	if !(in.TZ >= -12 && in.TZ <= 14) {
		return invalid("tz", "%g is not a UTC offset in hours (−12 to 14)", in.TZ)
	}
	if err := checkSite(in.Lat, in.Alt, in.DOY); err != nil {
		return err
	}
	if !(in.Hour >= 0 && in.Hour <= 24) {
		return invalid("hour", "%g is not a clock time in hours (0–24)", in.Hour)
	}
	if !(in.NightRsRso >= 0 && in.NightRsRso <= 1) {
		return invalid("night-rs-rso", "%g is not a ratio Rs/Rso (0–1)", in.NightRsRso)
	}
	return nil
}
