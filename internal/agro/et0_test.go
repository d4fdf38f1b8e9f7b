package agro

import (
	"errors"
	"math"
	"testing"
)

// near fails the test when got is further than tol from the published want.
func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %.6g, want %g ± %g", name, got, want, tol)
	}
}

// FAO-56 chapter 3 examples of single quantities, each as the paper states
// it; tolerances are half a unit of the last digit printed there, or where
// the paper rounds intermediates before going on, the rounding it carries.
func TestFAO56_Chapter3Examples(t *testing.T) {
	t.Run("Ex2_Pressure", func(t *testing.T) {
		p := AtmosphericPressure(1800)
		near(t, "P", p, 81.8, 0.05)
		near(t, "γ", PsychrometricConstant(p), 0.054, 0.0005)
	})
	t.Run("Ex3_MeanSaturationVapourPressure", func(t *testing.T) {
		near(t, "e°(24.5)", SatVapourPressure(24.5), 3.075, 0.0005)
		near(t, "e°(15)", SatVapourPressure(15), 1.705, 0.0005)
		near(t, "es", (SatVapourPressure(24.5)+SatVapourPressure(15))/2, 2.39, 0.005)
	})
	t.Run("Ex5_ActualVapourPressure", func(t *testing.T) {
		r, err := ET0Daily(DailyInput{Tmax: 25, Tmin: 18, Humidity: RHMaxMin(82, 54), Wind: 2, Radiation: MeasuredRs(20), Lat: 45, Alt: 0, DOY: 180})
		if err != nil {
			t.Fatal(err)
		}
		near(t, "e°(Tmin)", r.EsTmin, 2.064, 0.0005)
		near(t, "e°(Tmax)", r.EsTmax, 3.168, 0.0005)
		near(t, "ea (RH max/min)", r.Ea, 1.70, 0.005)
		r, _ = ET0Daily(DailyInput{Tmax: 25, Tmin: 18, Humidity: RHMean(68), Wind: 2, Radiation: MeasuredRs(20), Lat: 45, Alt: 0, DOY: 180})
		near(t, "ea (RH mean)", r.Ea, 1.78, 0.005)
	})
	t.Run("Ex8_ExtraterrestrialRadiation", func(t *testing.T) {
		// 20°S on 3 September (J = 246).
		near(t, "dr", InverseRelativeDistance(246), 0.985, 0.0005)
		near(t, "δ", SolarDeclination(246), 0.120, 0.0005)
		near(t, "ωs", SunsetHourAngle(-20*math.Pi/180, SolarDeclination(246)), 1.527, 0.0005)
		near(t, "Ra", ExtraterrestrialRadiation(-20, 246), 32.2, 0.05)
	})
	t.Run("Ex9_DaylightHours", func(t *testing.T) {
		near(t, "N", DaylightHours(-20, 246), 11.7, 0.05)
	})
	t.Run("Ex10_SolarRadiationFromSunshine", func(t *testing.T) {
		// Rio de Janeiro, 22°54'S, May: 220 h of sunshine, 15 May (J = 135).
		lat := -(22 + 54.0/60)
		ra, n := ExtraterrestrialRadiation(lat, 135), DaylightHours(lat, 135)
		near(t, "Ra", ra, 25.1, 0.05)
		near(t, "N", n, 10.9, 0.05)
		near(t, "Rs", SolarRadiationFromSunshine(220.0/31, n, ra), 14.5, 0.05)
	})
	t.Run("Ex11_NetLongwaveRadiation", func(t *testing.T) {
		// Rio de Janeiro in May: Tmax 25.1, Tmin 19.1 °C, ea 2.1 kPa,
		// Rs 14.5 and (sea level) Rso = 0.75 × 25.1 = 18.8 MJ/m²/day.
		near(t, "Rso", ClearSkyRadiation(0, 25.1), 18.8, 0.05)
		near(t, "Rnl", NetLongwaveRadiation(25.1, 19.1, 2.1, 14.5, 18.8), 3.5, 0.05)
	})
	t.Run("Ex12_NetRadiation", func(t *testing.T) {
		// Rn = Rns − Rnl with Rns = 0.77 × 14.5 = 11.165, which the paper
		// prints as 11.1; unrounded, Rn is 7.63.
		rns := NetShortwaveRadiation(14.5)
		near(t, "Rns", rns, 11.1, 0.07)
		near(t, "Rn", rns-NetLongwaveRadiation(25.1, 19.1, 2.1, 14.5, 18.8), 7.6, 0.05)
	})
	t.Run("Ex14_WindAt2m", func(t *testing.T) {
		near(t, "u2", WindAt2m(3.2, 10), 2.4, 0.05)
	})
}

// FAO-56 Example 17: ET0 from the monthly means of April in Bangkok,
// 13°44'N, 2 m, with ea given and G from the March and April means (eq. 44).
func TestET0Daily_FAO56Example17(t *testing.T) {
	g := 0.14 * (30.2 - 29.2) // eq. 44
	r, err := ET0Daily(DailyInput{
		Tmax: 34.8, Tmin: 25.6, Humidity: VapourPressure(2.85), Wind: 2,
		Radiation: Sunshine(8.5), Lat: 13 + 44.0/60, Alt: 2, DOY: 105, G: g,
	})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Tmean", r.Tmean, 30.2, 1e-9)
	near(t, "Δ", r.Delta, 0.246, 0.0005)
	near(t, "P", r.Pressure, 101.3, 0.05)
	near(t, "γ", r.Gamma, 0.0674, 0.0001) // the paper takes γ from P rounded to 101.3
	near(t, "es", r.Es, 4.42, 0.005)
	near(t, "es − ea", r.VPD, 1.57, 0.005)
	near(t, "Ra", r.Ra, 38.06, 0.005)
	near(t, "N", r.N, 12.31, 0.005)
	near(t, "Rs", r.Rs, 22.65, 0.005)
	near(t, "Rso", r.Rso, 28.54, 0.005)
	near(t, "Rns", r.Rns, 17.44, 0.005)
	near(t, "Rnl", r.Rnl, 3.11, 0.005)
	near(t, "Rn", r.Rn, 14.33, 0.005)
	near(t, "G", r.G, 0.14, 1e-9)
	near(t, "ET0", r.ET0, 5.72, 0.005)
}

// FAO-56 Example 18: daily ET0 at Uccle (Brussels), 50°48'N, 100 m, on
// 6 July, wind 10 km/h measured at 10 m, 9.25 h of sunshine.
func TestET0Daily_FAO56Example18(t *testing.T) {
	r, err := ET0Daily(DailyInput{
		Tmax: 21.5, Tmin: 12.3, Humidity: RHMaxMin(84, 63), Wind: 10 / 3.6, WindHeight: 10,
		Radiation: Sunshine(9.25), Lat: 50 + 48.0/60, Alt: 100, DOY: 187,
	})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Tmean", r.Tmean, 16.9, 1e-9)
	near(t, "Δ", r.Delta, 0.122, 0.0005)
	near(t, "P", r.Pressure, 100.1, 0.05)
	near(t, "γ", r.Gamma, 0.0666, 0.00005)
	near(t, "e°(Tmax)", r.EsTmax, 2.564, 0.0005)
	near(t, "e°(Tmin)", r.EsTmin, 1.431, 0.0005)
	near(t, "es", r.Es, 1.997, 0.0005)
	near(t, "ea", r.Ea, 1.409, 0.0005)
	near(t, "es − ea", r.VPD, 0.589, 0.0005)
	near(t, "u2", r.U2, 2.078, 0.0015) // the paper converts 10 km/h to 2.78 m/s first
	near(t, "Ra", r.Ra, 41.09, 0.005)
	near(t, "N", r.N, 16.1, 0.05)
	near(t, "Rs", r.Rs, 22.07, 0.005)
	near(t, "Rso", r.Rso, 30.90, 0.005)
	near(t, "Rns", r.Rns, 17.00, 0.005)
	near(t, "Rnl", r.Rnl, 3.71, 0.005)
	near(t, "Rn", r.Rn, 13.28, 0.005)
	near(t, "ET0", r.ET0, 3.9, 0.05)
	near(t, "ET0 (unrounded)", r.ET0, 3.88, 0.005)
}

// FAO-56 Example 19: hourly ET0 at N'Diaye (Senegal), 16°13'N, 16°15'W,
// 8 m, on 1 October, for 14:00–15:00 and 02:00–03:00. The example puts the
// centre of the local time zone at Lz = 15°W, a zone one hour behind UTC.
func TestET0Hourly_FAO56Example19(t *testing.T) {
	site := HourlyInput{Lat: 16 + 13.0/60, Lon: -(16 + 15.0/60), TZ: -1, Alt: 8, DOY: 274}

	day := site
	day.T, day.Humidity, day.Wind, day.Rs, day.Hour = 38, RHMean(52), 3.3, 2.450, 14.5
	r, err := ET0Hourly(day)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "e°(T)", r.Es, 6.625, 0.0005)
	near(t, "ea", r.Ea, 3.445, 0.0005)
	near(t, "es − ea", r.VPD, 3.180, 0.0005)
	near(t, "Δ", r.Delta, 0.358, 0.0005)
	near(t, "P", r.Pressure, 101.2, 0.05)
	near(t, "γ", r.Gamma, 0.0673, 0.00005)
	near(t, "Sc", r.SeasonalCorr, 0.1889, 0.0005)
	near(t, "ω", r.HourAngle, 0.682, 0.0005)
	near(t, "Ra", r.Ra, 3.543, 0.0015)
	near(t, "Rso", r.Rso, 2.658, 0.0015)
	near(t, "Rs/Rso", r.RsRso, 0.92, 0.005)
	near(t, "Rns", r.Rns, 1.887, 0.0005)
	near(t, "Rnl", r.Rnl, 0.137, 0.0015)
	near(t, "Rn", r.Rn, 1.749, 0.0015)
	near(t, "G", r.G, 0.175, 0.0005)
	near(t, "ET0", r.ET0, 0.63, 0.005)

	night := site
	night.T, night.Humidity, night.Wind, night.Rs, night.Hour = 28, RHMean(90), 1.9, 0, 2.5
	r, err = ET0Hourly(night)
	if err != nil {
		t.Fatal(err)
	}
	if r.Daytime || r.Ra != 0 {
		t.Errorf("02:30 is daytime %v with Ra %g", r.Daytime, r.Ra)
	}
	near(t, "e°(T)", r.Es, 3.780, 0.0005)
	near(t, "ea", r.Ea, 3.402, 0.0005)
	near(t, "es − ea", r.VPD, 0.378, 0.0005)
	near(t, "Δ", r.Delta, 0.220, 0.0005)
	near(t, "Rs/Rso", r.RsRso, 0.8, 1e-9)
	near(t, "Rnl", r.Rnl, 0.100, 0.0015)
	near(t, "Rn", r.Rn, -0.100, 0.0015)
	near(t, "G", r.G, -0.050, 0.0005)
	near(t, "ET0", r.ET0, 0.0, 0.005)
}

// The hour holding sunrise counts only its sunlit part, never a negative Ra.
func TestET0Hourly_SunriseHour(t *testing.T) {
	base := HourlyInput{T: 15, Humidity: RHMean(60), Wind: 2, Lat: 36.5, Lon: 116.5, TZ: 8, Alt: 40, DOY: 172}
	var sum float64
	for h := 0; h < 24; h++ {
		in := base
		in.Hour = float64(h) + 0.5
		r, err := ET0Hourly(in)
		if err != nil {
			t.Fatal(err)
		}
		if r.Ra < 0 {
			t.Fatalf("hour %d: Ra %g", h, r.Ra)
		}
		sum += r.Ra
	}
	// The hours add up to the day's Ra (eq. 21) within the part of the
	// sunrise and sunset hours that the midpoint rule drops or keeps.
	near(t, "Σ hourly Ra", sum, ExtraterrestrialRadiation(36.5, 172), 0.6)
}

func TestET0_InvalidInput(t *testing.T) {
	good := DailyInput{Tmax: 25, Tmin: 15, Humidity: RHMean(60), Wind: 2, Radiation: Sunshine(8), Lat: 36, Alt: 50, DOY: 150}
	for name, tc := range map[string]struct {
		change func(*DailyInput)
		field  string
	}{
		"TminAboveTmax":   {func(in *DailyInput) { in.Tmin = 30 }, "tmin"},
		"RHOver100":       {func(in *DailyInput) { in.Humidity = RHMean(101) }, "rhmean"},
		"RHMinAboveMax":   {func(in *DailyInput) { in.Humidity = RHMaxMin(50, 60) }, "rhmin"},
		"NoHumidity":      {func(in *DailyInput) { in.Humidity = Humidity{} }, "rhmax"},
		"NegativeEa":      {func(in *DailyInput) { in.Humidity = VapourPressure(-1) }, "ea"},
		"NegativeWind":    {func(in *DailyInput) { in.Wind = -1 }, "wind"},
		"LowAnemometer":   {func(in *DailyInput) { in.WindHeight = 0.05 }, "wind-height"},
		"NoRadiation":     {func(in *DailyInput) { in.Radiation = Radiation{} }, "sunshine"},
		"SunshineTooLong": {func(in *DailyInput) { in.Radiation = Sunshine(20) }, "sunshine"},
		"NegativeRs":      {func(in *DailyInput) { in.Radiation = MeasuredRs(-2) }, "rs"},
		"Latitude":        {func(in *DailyInput) { in.Lat = 91 }, "lat"},
		"DayOfYear":       {func(in *DailyInput) { in.DOY = 0 }, "doy"},
		"NaNTemperature":  {func(in *DailyInput) { in.Tmax = math.NaN() }, "tmax"},
	} {
		t.Run(name, func(t *testing.T) {
			in := good
			tc.change(&in)
			_, err := ET0Daily(in)
			var ie *InputError
			if !errors.As(err, &ie) || ie.Field != tc.field {
				t.Fatalf("err = %v, want an InputError for %s", err, tc.field)
			}
		})
	}
	if _, err := ET0Daily(good); err != nil {
		t.Fatalf("good input: %v", err)
	}
	_, err := ET0Hourly(HourlyInput{T: 20, Humidity: RHMaxMin(90, 50), Wind: 2, Lat: 30, DOY: 100, Hour: 12})
	var ie *InputError
	if !errors.As(err, &ie) || ie.Field != "rh" {
		t.Fatalf("hourly with RH max/min: %v", err)
	}
}
