package simulator

import (
	"math"
	"time"
)

// The regional weather: one sky over the whole region, a pure function of
// time (and of the site's coordinates only through the sun's geometry). Each
// device observes it with its own small offsets and noise.
//
// The climate is that of the North China Plain around 37.5°N (Dezhou): a
// continental monsoon climate, cold and dry in winter, hot and wet in July
// and August, about 550 mm of rain a year.

// sun is the sun's position seen from a site.
type sun struct {
	sinElev   float64 // sine of the elevation; ≤ 0 at night
	solarHour float64 // local apparent solar time, 0–24 (12 = solar noon)
	sunrise   float64 // solar hour of sunrise (sunset is 24 − sunrise)
}

// sunAt uses the NOAA approximations of declination and the equation of time,
// good to a few minutes, far better than any sensor here needs.
func sunAt(t time.Time, lat, lng float64) sun {
	u := t.UTC()
	hourUTC := float64(u.Hour()) + float64(u.Minute())/60 + float64(u.Second())/3600
	g := 2 * math.Pi / 365 * (float64(u.YearDay()) - 1 + (hourUTC-12)/24)
	decl := 0.006918 - 0.399912*math.Cos(g) + 0.070257*math.Sin(g) - 0.006758*math.Cos(2*g) +
		0.000907*math.Sin(2*g) - 0.002697*math.Cos(3*g) + 0.00148*math.Sin(3*g)
	eqt := 229.18 * (0.000075 + 0.001868*math.Cos(g) - 0.032077*math.Sin(g) -
		0.014615*math.Cos(2*g) - 0.040849*math.Sin(2*g)) // minutes
	solarMin := math.Mod(hourUTC*60+eqt+4*lng+2*24*60, 24*60)
	ha := (solarMin/4 - 180) * math.Pi / 180
	phi := lat * math.Pi / 180
	s := sun{
		sinElev:   math.Sin(phi)*math.Sin(decl) + math.Cos(phi)*math.Cos(decl)*math.Cos(ha),
		solarHour: solarMin / 60,
	}
	// Hour angle of sunrise; clamped for polar day/night, which the plain never sees.
	cosH := clamp(-math.Tan(phi)*math.Tan(decl), -1, 1)
	s.sunrise = 12 - math.Acos(cosH)*180/math.Pi/15
	return s
}

// dayOfYear is t's day of the year in CST, with the fraction of the day.
func dayOfYear(t time.Time) float64 {
	return float64(t.In(cst).YearDay()) - 1 + cstHour(t)/24
}

// wetSeason is 0 in mid-January and 1 in mid-July: the East Asian summer
// monsoon brings about 70 % of the plain's rain in June to August.
func wetSeason(doy float64) float64 {
	return 0.5 + 0.5*math.Cos(2*math.Pi*(doy-197)/365)
}

// rainEvent is one regional rain event.
type rainEvent struct {
	start, end time.Time
	peak       float64 // mm/h at the height of the event
}

// rainEventOf returns the rain event starting on CST day d, if there is one.
// About one day in seven has one in winter and one in three in midsummer, so
// a month always sees several; winter events are drizzle, most summer ones
// a few mm/h at their peak, and in the warm season about one in ten is a
// short convective downpour. That adds up to about 10 mm a month in winter,
// 150 mm in July and 700 mm a year, a wet year on the plain.
func rainEventOf(d int64) (rainEvent, bool) {
	doy := dayOfYear(dayStart(d).Add(12 * time.Hour))
	wet := wetSeason(doy)
	if unit(streamRainDay, uint64(d), 0) >= 0.15+0.15*wet {
		return rainEvent{}, false
	}
	startH := 24 * unit(streamRainDay, uint64(d), 1)
	var durH, peak float64
	if unit(streamRainDay, uint64(d), 2) < 0.15*wet*wet {
		// Convective storm: short and heavy, only in the warm season.
		durH = 1 + 2.5*unit(streamRainDay, uint64(d), 3)
		peak = 15 + 30*unit(streamRainDay, uint64(d), 4)
	} else {
		// Frontal rain: hours long, light to moderate; the power law keeps
		// most peaks at a few mm/h with an occasional 10–15 mm/h, and
		// winter's are drizzle.
		u := unit(streamRainDay, uint64(d), 3)
		durH = 2 + 10*u*u
		peak = (0.5 + 14*math.Pow(unit(streamRainDay, uint64(d), 4), 3)) * (0.15 + 0.85*wet*wet)
	}
	start := dayStart(d).Add(time.Duration(startH * float64(time.Hour)))
	return rainEvent{start: start, end: start.Add(time.Duration(durH * float64(time.Hour))), peak: peak}, true
}

// rainBin is the width over which the rain rate is constant. Rain comes in
// showers within an event; 5 minutes is the finest step any gauge reports at.
const rainBin = 300 // seconds

// rainRateBin is the regional rain rate (mm/h) during bin b (seconds b·rainBin
// since the epoch onwards).
func rainRateBin(b int64) float64 {
	mid := time.Unix(b*rainBin+rainBin/2, 0)
	d := cstDay(mid)
	rate := 0.0
	// An event starts at any hour and lasts at most 12 h, so only events of
	// this day and the previous one can be under way.
	for _, day := range [2]int64{d - 1, d} {
		ev, ok := rainEventOf(day)
		if !ok || mid.Before(ev.start) || !mid.Before(ev.end) {
			continue
		}
		f := float64(mid.Sub(ev.start)) / float64(ev.end.Sub(ev.start))
		// A bell over the event, broken into showers by per-bin noise.
		rate += ev.peak * math.Pow(math.Sin(math.Pi*f), 1.2) * (0.55 + 0.9*unit(streamRainBin, uint64(b)))
	}
	return rate
}

// rainBetween is the regional rainfall (mm) in (a, b]. The rate is constant
// within each bin, so amounts add up exactly across consecutive reports.
func rainBetween(a, b time.Time) float64 {
	if !b.After(a) {
		return 0
	}
	as, bs := float64(a.UnixMilli())/1000, float64(b.UnixMilli())/1000
	total := 0.0
	for bin := floorDiv(int64(math.Floor(as)), rainBin); float64(bin*rainBin) < bs; bin++ {
		lo := math.Max(as, float64(bin*rainBin))
		hi := math.Min(bs, float64((bin+1)*rainBin))
		if hi > lo {
			if r := rainRateBin(bin); r > 0 {
				total += r * (hi - lo) / 3600
			}
		}
	}
	return total
}

// rainInfluence is 1 during a rain event, ramping from 0 over the two hours
// before it (clouds thicken, the pressure falls) and the three after it (the
// air stays saturated, the ground wet). It drives everything that rain
// changes besides the rain itself.
func rainInfluence(t time.Time) float64 {
	d := cstDay(t)
	infl := 0.0
	for day := d - 1; day <= d+1; day++ {
		ev, ok := rainEventOf(day)
		if !ok {
			continue
		}
		var v float64
		switch {
		case t.Before(ev.start):
			v = 1 - ev.start.Sub(t).Hours()/2
		case t.After(ev.end):
			v = 1 - t.Sub(ev.end).Hours()/3
		default:
			v = 1
		}
		infl = math.Max(infl, v)
	}
	return clamp(infl, 0, 1)
}

// weather is the regional state of the air at one instant and site.
type weather struct {
	sun
	doy       float64
	temp      float64 // air temperature, °C
	dailyMean float64 // the day's mean air temperature, °C
	rh        float64 // relative humidity, %
	pressure  float64 // station pressure, hPa
	wind      float64 // 10-minute mean wind speed, m/s
	windDir   float64 // direction the wind blows from, degrees
	cloud     float64 // cloud cover, 0–1
	solar     float64 // global horizontal irradiance, W/m²
	rainInfl  float64 // see rainInfluence
	raining   bool    // regional rain rate above zero
	haze      float64 // 1 on a clean day, up to 4 in a winter haze episode
	nightCalm float64 // 0–1, how far a stable night layer has built up (CO₂, PM)
}

// weatherAt returns the regional weather at t at a site.
func weatherAt(t time.Time, lat, lng float64) weather {
	h := hours(t)
	days := h / 24
	w := weather{sun: sunAt(t, lat, lng), doy: dayOfYear(t)}
	wet := wetSeason(w.doy)
	w.rainInfl = rainInfluence(t)
	w.raining = rainRateBin(floorDiv(t.Unix(), rainBin)) > 0

	// Cloud: a slowly changing daily cover, faster broken cloud, and full
	// overcast with rain.
	c := 0.3 + 0.4*smooth(streamCloud, days) + 0.15*smooth(streamCloudFast, h/1.5)
	c = clamp(c, 0, 1)
	w.cloud = c + (1-c)*w.rainInfl

	// Seasonal mean for Dezhou: an annual mean of 13.5 °C, about −1.5 °C in
	// mid-January and 28 °C in mid-July, the coldest day lagging the solstice
	// by three weeks; 0.7 °C cooler per degree of latitude further north.
	seasonal := 13.5 - 14.8*math.Cos(2*math.Pi*(w.doy-15)/365) - 0.7*(lat-37.45)
	// Synoptic swings of ±3 °C over a few days (cold fronts, warm spells).
	w.dailyMean = seasonal + 3*smooth(streamTemp, days/2.5) - 2.5*w.rainInfl
	// Diurnal range of 8–12 °C under a clear sky; cloud halves it by
	// cutting both daytime heating and night-time radiative cooling.
	amp := (10 + 2*smooth(streamAmp, days)) * (1 - 0.5*w.cloud)
	w.temp = w.dailyMean + amp*diurnalShape(w.solarHour, w.sunrise)

	// Humidity from the dew point: the air mass keeps its moisture through
	// the day, so relative humidity falls as the air warms (the inverse
	// relation with temperature) and nears saturation at dawn. Summer
	// monsoon air is moister (a smaller dew-point depression).
	dep := 8 + 2.5*smooth(streamDew, days/2) - 3.5*wet
	dew := w.dailyMean - dep
	// In rain the air is saturated; the 0.6 °C depression leaves 95–97 %.
	dew += (w.temp - 0.6 - dew) * w.rainInfl
	dew = math.Min(dew, w.temp-0.2)
	w.rh = clamp(100*magnus(dew)/magnus(w.temp), 8, 100)

	// Station pressure near sea level (Dezhou is ~20 m up): the winter
	// Siberian high and the summer monsoon low, synoptic systems passing
	// every few days, a fall ahead of and during rain, and the semidiurnal
	// atmospheric tide (maxima near 10 and 22 h local time).
	w.pressure = 1011 + 10*math.Cos(2*math.Pi*(w.doy-15)/365) + 6*smooth(streamPressure, days/1.5) -
		4*w.rainInfl + 0.8*math.Cos(2*math.Pi*(w.solarHour-10)/12)

	// Wind: calmer at night when the surface layer is stable, stronger in
	// the afternoon when convection mixes momentum down, windier in spring
	// (the dusty season of the plain) and with fronts and showers.
	spring := math.Max(0, math.Cos(2*math.Pi*(w.doy-100)/365))
	base := 2.2 + 1.3*smooth(streamWind, days/1.3) + 1.0*spring
	mixing := 0.65 + 0.7*math.Max(0, w.sinElev)
	w.wind = math.Max(0.3, base*mixing+2.5*w.rainInfl)
	// Direction: the winter monsoon blows from the north-north-west, the
	// summer monsoon from the south-south-east; synoptic systems swing it
	// around that over a day or so, with faster wandering on top.
	prevailing := 250 + 90*math.Cos(2*math.Pi*(w.doy-15)/365)
	w.windDir = math.Mod(prevailing+80*smooth(streamDirSlow, h/10)+25*smooth(streamDirFast, h/1.5)+720, 360)

	// Haze episodes of a few days, mostly in winter when heating and the
	// stable air trap fine particles.
	hz := smooth(streamHaze, days/2) + 0.3*(1-wet)
	w.haze = 1 + 3*clamp((hz-0.35)/0.65, 0, 1)

	// Solar irradiance: the Haurwitz clear-sky model (about 1000 W/m² with
	// the sun high in summer), the Kasten–Czeplak cloud attenuation, and a
	// little extra extinction in haze.
	if w.sinElev > 0 {
		clear := 1098 * w.sinElev * math.Exp(-0.057/w.sinElev)
		w.solar = clear * (1 - 0.75*math.Pow(w.cloud, 3.4)) * (1 - 0.06*(w.haze-1))
	}

	// A stable layer forms after sunset and traps what the ground and
	// plants breathe out; it breaks up within a couple of hours of sunrise.
	sunset := 24 - w.sunrise
	if w.sinElev <= 0 {
		since := math.Mod(w.solarHour-sunset+24, 24)
		w.nightCalm = math.Min(1, since/6)
	} else {
		w.nightCalm = math.Exp(-(w.solarHour - w.sunrise) / 1.5)
	}
	return w
}

// diurnalShape is the daily temperature curve in [−0.5, 0.5]: the minimum at
// sunrise, the maximum at 15:00 solar time, a faster rise than fall.
func diurnalShape(hour, sunrise float64) float64 {
	const tmax = 15.0
	if hour >= sunrise && hour <= tmax {
		return -0.5 * math.Cos(math.Pi*(hour-sunrise)/(tmax-sunrise))
	}
	since := math.Mod(hour-tmax+24, 24)
	return 0.5 * math.Cos(math.Pi*since/(24-(tmax-sunrise)))
}

// magnus is the saturation vapour pressure over water (hPa) at T °C.
func magnus(t float64) float64 {
	return 6.112 * math.Exp(17.62*t/(243.12+t))
}
