package weather

import (
	"context"
	"math"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// Assumptions of ET0 from station readings, each the FAO-56 recommendation
// for the data a station lacks.
const (
	// sensorHeight is the anemometer height, m: the console's stations are
	// agrometeorological masts measuring at the FAO-56 standard 2 m.
	sensorHeight = 2.0
	// defaultWind is FAO-56's stand-in for a missing wind speed (chapter 3,
	// "Missing wind speed data": 2 m/s, the average over 2000 stations).
	defaultWind = 2.0
	// hargreavesKRs is the adjustment coefficient of FAO-56 eq. 50 for
	// interior locations, Rs = kRs √(Tmax − Tmin) Ra, used without a
	// radiation sensor.
	hargreavesKRs = 0.16
	// wattsToMJDay turns a day's mean irradiance, W/m², into MJ m⁻² day⁻¹.
	wattsToMJDay = 0.0864
)

// ET0Day is one day's reference evapotranspiration with the weather it came
// from and how each input was obtained.
type ET0Day struct {
	Day          time.Time // local midnight
	ET0          float64   // mm
	Tmax, Tmin   float64
	RHMax, RHMin *float64
	Wind         float64 // m/s at 2 m
	Rs           float64 // MJ m⁻² day⁻¹
	Methods      Methods
}

// Methods says where each ET0 input came from.
type Methods struct {
	Humidity  string // "rhMaxMin" (eq. 17) or "tmin" (ea = e°(Tmin), eq. 48)
	Wind      string // "measured" or "default" (2 m/s)
	Radiation string // "measured" (solarRadiation) or "hargreaves" (eq. 50)
}

// ObservedET0 computes daily ET0 (FAO-56 Penman-Monteith) from a station's
// daily rollups for the complete past days in [begin, end): Tmax and Tmin
// are the day's airTemp extremes, RH max/min the airHumidity extremes, wind
// the day's mean windSpeed, Rs the mean solarRadiation. A day counts when
// its airTemp rollup holds at least half a day's readings; today never
// does until it is over. The site is the station's position (latitude for
// Ra, altitude for P, 0 m when unknown); a station without one has none.
func ObservedET0(ctx context.Context, rd *readings.Reader, st *devices.Device, begin, end time.Time) ([]ET0Day, error) {
	if st.Lat == nil {
		return nil, nil
	}
	today := rd.Midnight(rd.Now())
	if end.After(today) {
		end = today
	}
	if !begin.Before(end) {
		return []ET0Day{}, nil
	}
	dt, err := rd.Days(ctx, st.ID, ET0Params, []int{0}, begin, end)
	if err != nil {
		return nil, err
	}
	out := []ET0Day{}
	rd.EachDay(begin, end, func(mid time.Time) {
		k := mid.UnixMilli()
		if e, ok := ET0OfDay(st, mid, func(param string) (telemetry.Day, bool) { return dt.Get(k, param, 0) }); ok {
			out = append(out, e)
		}
	})
	return out, nil
}

// ET0Params are the daily series ET0OfDay reads.
var ET0Params = []string{"airTemp", "airHumidity", "windSpeed", "solarRadiation"}

// ET0OfDay computes a station's ET0 of the complete day starting at mid
// from that day's rollups (get returns the surface series of a parameter):
// false when its airTemp rollup holds fewer than half a day's readings or
// the readings are unusable. The station must have a position.
func ET0OfDay(st *devices.Device, mid time.Time, get func(param string) (telemetry.Day, bool)) (ET0Day, bool) {
	if st.Lat == nil {
		return ET0Day{}, false
	}
	temp, ok := get("airTemp")
	if !ok || !readings.Complete(temp, st) {
		return ET0Day{}, false
	}
	alt := 0.0
	if st.Altitude != nil {
		alt = *st.Altitude
	}
	round := readings.Round
	in := agro.DailyInput{Tmax: temp.Max, Tmin: temp.Min, WindHeight: sensorHeight, Lat: *st.Lat, Alt: alt, DOY: mid.YearDay()}
	e := ET0Day{Day: mid, Tmax: temp.Max, Tmin: temp.Min}
	if rh, ok := get("airHumidity"); ok {
		in.Humidity = agro.RHMaxMin(rh.Max, rh.Min)
		e.RHMax, e.RHMin, e.Methods.Humidity = readings.Ptr(rh.Max), readings.Ptr(rh.Min), "rhMaxMin"
	} else {
		in.Humidity = agro.VapourPressure(agro.SatVapourPressure(temp.Min)) // FAO-56 eq. 48
		e.Methods.Humidity = "tmin"
	}
	in.Wind, e.Methods.Wind = defaultWind, "default"
	if w, ok := get("windSpeed"); ok {
		in.Wind, e.Methods.Wind = w.Avg(), "measured"
	}
	if rs, ok := get("solarRadiation"); ok && readings.Complete(rs, st) {
		in.Radiation, e.Methods.Radiation = agro.MeasuredRs(rs.Avg()*wattsToMJDay), "measured"
	} else {
		ra := agro.ExtraterrestrialRadiation(*st.Lat, mid.YearDay())
		in.Radiation, e.Methods.Radiation = agro.MeasuredRs(hargreavesKRs*math.Sqrt(math.Max(temp.Max-temp.Min, 0))*ra), "hargreaves"
	}
	r, err := agro.ET0Daily(in)
	if err != nil {
		return ET0Day{}, false // readings the equations cannot use (e.g. RH max 0)
	}
	e.ET0, e.Wind, e.Rs = round(math.Max(r.ET0, 0), 3), round(in.Wind, 3), round(r.Rs, 3)
	return e, true
}
