package agro

import "math"

// The Canadian Forest Fire Weather Index System, after Van Wagner & Pickett
// (1985, Forestry Technical Report 33: the equations and the FORTRAN program
// whose numbering is cited below as "VWP eq.") and Van Wagner (1987,
// Forestry Technical Report 35). Inputs are noon local standard time
// observations: temperature °C, relative humidity %, 10 m wind km/h and the
// rain of the previous 24 hours, mm.

// FWICodes are the three moisture codes carried from day to day.
type FWICodes struct {
	FFMC float64 `json:"ffmc"`
	DMC  float64 `json:"dmc"`
	DC   float64 `json:"dc"`
}

// FWIStartup is the standard start of a fire season after snowmelt (Van
// Wagner 1987): FFMC 85, DMC 6, DC 15.
var FWIStartup = FWICodes{FFMC: 85, DMC: 6, DC: 15}

// FireWeather is one day's noon observation.
type FireWeather struct {
	Month int     `json:"month"` // 1–12, for the day-length factors
	Temp  float64 `json:"temp"`  // °C
	RH    float64 `json:"rh"`    // %
	Wind  float64 `json:"wind"`  // km/h at 10 m
	Rain  float64 `json:"rain"`  // mm in the previous 24 h
}

// FWIDay is one day's codes and indices.
type FWIDay struct {
	FFMC float64 `json:"ffmc"`
	DMC  float64 `json:"dmc"`
	DC   float64 `json:"dc"`
	ISI  float64 `json:"isi"`
	BUI  float64 `json:"bui"`
	FWI  float64 `json:"fwi"`
}

// Codes are the day's moisture codes, to carry to the next day.
func (d FWIDay) Codes() FWICodes { return FWICodes{FFMC: d.FFMC, DMC: d.DMC, DC: d.DC} }

// Validate checks one day's weather.
func (w FireWeather) Validate() error {
	if w.Month < 1 || w.Month > 12 {
		return invalid("month", "%d is not a month (1–12)", w.Month)
	}
	if err := checkTemp("temp", w.Temp); err != nil {
		return err
	}
	if err := checkRH("rh", w.RH); err != nil {
		return err
	}
	if !(w.Wind >= 0 && w.Wind <= 300) {
		return invalid("wind", "%g km/h is not a wind speed (0–300)", w.Wind)
	}
	if !(w.Rain >= 0 && w.Rain <= 2000) {
		return invalid("rain", "%g mm is not a 24-hour rainfall (0–2000)", w.Rain)
	}
	return nil
}

// Validate checks the codes a day starts from.
func (c FWICodes) Validate() error {
	if !(c.FFMC >= 0 && c.FFMC <= 101) {
		return invalid("ffmc", "%g is not an FFMC (0–101)", c.FFMC)
	}
	if !(c.DMC >= 0 && c.DMC < 10000) {
		return invalid("dmc", "%g is not a DMC (0 or more)", c.DMC)
	}
	if !(c.DC >= 0 && c.DC < 10000) {
		return invalid("dc", "%g is not a DC (0 or more)", c.DC)
	}
	return nil
}

// Next computes a day's FWI System from yesterday's codes and today's
// weather, without rounding anything (carry the result's Codes forward).
func (c FWICodes) Next(w FireWeather) (FWIDay, error) {
	if err := c.Validate(); err != nil {
		return FWIDay{}, err
	}
	if err := w.Validate(); err != nil {
		return FWIDay{}, err
	}
	var d FWIDay
	d.FFMC = FFMC(c.FFMC, w.Temp, w.RH, w.Wind, w.Rain)
	d.DMC = DMC(c.DMC, w.Temp, w.RH, w.Rain, w.Month)
	d.DC = DC(c.DC, w.Temp, w.Rain, w.Month)
	d.ISI = ISI(d.FFMC, w.Wind)
	d.BUI = BUI(d.DMC, d.DC)
	d.FWI = FWI(d.ISI, d.BUI)
	return d, nil
}

// FWISeries runs the system over consecutive days from start.
func FWISeries(start FWICodes, days []FireWeather) ([]FWIDay, error) {
	out := make([]FWIDay, 0, len(days))
	c := start
	for _, w := range days {
		d, err := c.Next(w)
		if err != nil {
			return out, err
		}
		out = append(out, d)
		c = d.Codes()
	}
	return out, nil
}

// FFMC is the Fine Fuel Moisture Code from yesterday's ffmc0 (VWP eq. 1–10):
// the fine-fuel moisture m0 = 147.2 (101 − F0)/(59.5 + F0) takes rain beyond
// 0.5 mm (eq. 2, 3a, 3b; at most 250), then dries towards the drying
// equilibrium Ed (eq. 4) or wets towards the wetting equilibrium Ew (eq. 5)
// at the log rates of eq. 6–9, and F = 59.5 (250 − m)/(147.2 + m) (eq. 10).
func FFMC(ffmc0, temp, rh, wind, rain float64) float64 {
	rh = math.Min(rh, 100)
	mo := 147.2 * (101 - ffmc0) / (59.5 + ffmc0) // eq. 1
	if rain > 0.5 {
		rf := rain - 0.5 // eq. 2
		gain := 42.5 * rf * math.Exp(-100/(251-mo)) * (1 - math.Exp(-6.93/rf))
		if mo > 150 {
			gain += 0.0015 * (mo - 150) * (mo - 150) * math.Sqrt(rf) // eq. 3b
		}
		mo = math.Min(mo+gain, 250) // eq. 3a
	}
	ed := 0.942*math.Pow(rh, 0.679) + 11*math.Exp((rh-100)/10) + 0.18*(21.1-temp)*(1-math.Exp(-0.115*rh)) // eq. 4
	m := mo
	if mo > ed {
		ko := 0.424*(1-math.Pow(rh/100, 1.7)) + 0.0694*math.Sqrt(wind)*(1-math.Pow(rh/100, 8)) // eq. 6a
		kd := ko * 0.581 * math.Exp(0.0365*temp)                                               // eq. 6b
		m = ed + (mo-ed)*math.Pow(10, -kd)                                                     // eq. 8
	} else {
		ew := 0.618*math.Pow(rh, 0.753) + 10*math.Exp((rh-100)/10) + 0.18*(21.1-temp)*(1-math.Exp(-0.115*rh)) // eq. 5
		if mo < ew {
			k1 := 0.424*(1-math.Pow((100-rh)/100, 1.7)) + 0.0694*math.Sqrt(wind)*(1-math.Pow((100-rh)/100, 8)) // eq. 7a
			kw := k1 * 0.581 * math.Exp(0.0365*temp)                                                           // eq. 7b
			m = ew - (ew-mo)*math.Pow(10, -kw)                                                                 // eq. 9
		}
	}
	f := 59.5 * (250 - m) / (147.2 + m) // eq. 10
	return math.Max(0, math.Min(f, 101))
}

// dmcDayLength is Le, the effective day length for the DMC by month, hours
// (VWP Table 1, for 46°N).
var dmcDayLength = [12]float64{6.5, 7.5, 9.0, 12.8, 13.9, 13.9, 12.4, 10.9, 9.4, 8.0, 7.0, 6.0}

// dcDayLength is Lf, the day-length adjustment of the DC by month (VWP
// Table 2, for 46°N).
var dcDayLength = [12]float64{-1.6, -1.6, -1.6, 0.9, 3.8, 5.8, 6.4, 5.0, 2.4, 0.4, -1.6, -1.6}

// DMC is the Duff Moisture Code from yesterday's dmc0 (VWP eq. 11–17): rain
// beyond 1.5 mm (effective re = 0.92 r − 1.27) wets the duff through the
// moisture content M0 and the slope b of eq. 13a–c; drying adds 100 K with
// K = 1.894 (T + 1.1)(100 − H) Le × 10⁻⁶ (eq. 16, T at least −1.1 °C).
//
// M0 takes the form of the 1985 FORTRAN program (kept in the C code of
// Wang, Anderson & Suddaby 2015), M0 = 20 + 280 / exp(0.023 P0); Van Wagner
// (1987) prints it as 20 + exp(5.6348 − P0/43.43), whose exponent differs in
// the fourth digit. The standard test table was made by the program: with
// the printed form the DMC after heavy rain comes out up to 0.09 high.
func DMC(dmc0, temp, rh, rain float64, month int) float64 {
	rh = math.Min(rh, 100)
	temp = math.Max(temp, -1.1)
	k := 1.894 * (temp + 1.1) * (100 - rh) * dmcDayLength[month-1] * 1e-6 // eq. 16
	po := dmc0
	if rain > 1.5 {
		re := 0.92*rain - 1.27            // eq. 11
		mo := 20 + 280/math.Exp(0.023*po) // eq. 12
		var b float64
		switch {
		case po <= 33:
			b = 100 / (0.5 + 0.3*po) // eq. 13a
		case po <= 65:
			b = 14 - 1.3*math.Log(po) // eq. 13b
		default:
			b = 6.2*math.Log(po) - 17.2 // eq. 13c
		}
		mr := mo + 1000*re/(48.77+b*re)     // eq. 14
		po = 244.72 - 43.43*math.Log(mr-20) // eq. 15
		po = math.Max(po, 0)
	}
	return math.Max(po+100*k, 0) // eq. 17
}

// DC is the Drought Code from yesterday's dc0 (VWP eq. 18–23): rain beyond
// 2.8 mm (effective rd = 0.83 r − 1.27) raises the moisture equivalent
// Q0 = 800 exp(−D0/400) by 3.937 rd; drying adds 0.5 V with the potential
// evapotranspiration V = 0.36 (T + 2.8) + Lf (eq. 22, T at least −2.8 °C,
// V at least 0).
func DC(dc0, temp, rain float64, month int) float64 {
	temp = math.Max(temp, -2.8)
	v := math.Max(0.36*(temp+2.8)+dcDayLength[month-1], 0) // eq. 22
	do := dc0
	if rain > 2.8 {
		rd := 0.83*rain - 1.27                 // eq. 18
		qo := 800 * math.Exp(-do/400)          // eq. 19
		qr := qo + 3.937*rd                    // eq. 20
		do = math.Max(400*math.Log(800/qr), 0) // eq. 21
	}
	return do + 0.5*v // eq. 23
}

// ISI is the Initial Spread Index (VWP eq. 24–26): R = 0.208 f(W) f(F) with
// f(W) = exp(0.05039 W) and f(F) = 91.9 exp(−0.1386 m)(1 + m^5.31 / 4.93×10⁷),
// m the fine-fuel moisture of eq. 1.
func ISI(ffmc, wind float64) float64 {
	m := 147.2 * (101 - ffmc) / (59.5 + ffmc)
	fw := math.Exp(0.05039 * wind)                                    // eq. 24
	ff := 91.9 * math.Exp(-0.1386*m) * (1 + math.Pow(m, 5.31)/4.93e7) // eq. 25
	return 0.208 * fw * ff                                            // eq. 26
}

// BUI is the Buildup Index (VWP eq. 27a, 27b):
// U = 0.8 P D / (P + 0.4 D) when P ≤ 0.4 D, else
// U = P − [1 − 0.8 D / (P + 0.4 D)](0.92 + (0.0114 P)^1.7); at least 0.
func BUI(dmc, dc float64) float64 {
	if dmc == 0 && dc == 0 {
		return 0
	}
	var u float64
	if dmc <= 0.4*dc {
		u = 0.8 * dmc * dc / (dmc + 0.4*dc) // eq. 27a
	} else {
		u = dmc - (1-0.8*dc/(dmc+0.4*dc))*(0.92+math.Pow(0.0114*dmc, 1.7)) // eq. 27b
	}
	return math.Max(u, 0)
}

// FWI is the Fire Weather Index (VWP eq. 28–30): B = 0.1 R f(D) with
// f(D) = 0.626 U^0.809 + 2 for U ≤ 80, else 1000 / (25 + 108.64 exp(−0.023 U));
// S = exp(2.72 (0.434 ln B)^0.647) when B > 1, else S = B.
func FWI(isi, bui float64) float64 {
	var fd float64
	if bui <= 80 {
		fd = 0.626*math.Pow(bui, 0.809) + 2 // eq. 28a
	} else {
		fd = 1000 / (25 + 108.64*math.Exp(-0.023*bui)) // eq. 28b
	}
	b := 0.1 * isi * fd // eq. 29
	if b <= 1 {
		return b // eq. 30b
	}
	return math.Exp(2.72 * math.Pow(0.434*math.Log(b), 0.647)) // eq. 30a
}

// FireLevel is the fire danger level of SPEC.md §4: levels 1–5 plus normal.
type FireLevel int

const (
	FireNormal   FireLevel = 0
	FireLow      FireLevel = 1
	FireModerate FireLevel = 2
	FireHigh     FireLevel = 3
	FireVeryHigh FireLevel = 4
	FireExtreme  FireLevel = 5
)

var fireNames = [...]string{"normal", "low", "moderate", "high", "very high", "extreme"}

func (l FireLevel) String() string { return fireNames[l] }

// fireLevelFloors are the lowest FWI of levels 1–5. SPEC.md §4 names the
// six levels but not their bounds; these are the six FWI danger classes of
// the European Forest Fire Information System (very low < 5.2, low
// 5.2–11.2, moderate 11.2–21.3, high 21.3–38.0, very high 38.0–50.0,
// extreme ≥ 50.0, upper bounds excluded), with "very low" as normal.
var fireLevelFloors = [...]float64{5.2, 11.2, 21.3, 38.0, 50.0}

// FireLevelOf is the fire danger level of an FWI value.
func FireLevelOf(fwi float64) FireLevel {
	l := FireNormal
	for _, floor := range fireLevelFloors {
		if fwi >= floor {
			l++
		}
	}
	return l
}
