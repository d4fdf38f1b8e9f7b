package analysis

import (
	"context"
	"math"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
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
	Time    int64    `json:"time"` // local midnight, unix ms
	Date    string   `json:"date"` // YYYY-MM-DD
	ET0     float64  `json:"et0"`  // mm
	Tmax    float64  `json:"tmax"`
	Tmin    float64  `json:"tmin"`
	RHMax   *float64 `json:"rhMax"`
	RHMin   *float64 `json:"rhMin"`
	Wind    float64  `json:"wind"` // m/s at 2 m
	Rs      float64  `json:"rs"`   // MJ m⁻² day⁻¹
	Methods Methods  `json:"methods"`
}

// Methods says where each ET0 input came from.
type Methods struct {
	Humidity  string `json:"humidity"`  // "rhMaxMin" (eq. 17) or "tmin" (ea = e°(Tmin), eq. 48)
	Wind      string `json:"wind"`      // "measured" or "default" (2 m/s)
	Radiation string `json:"radiation"` // "measured" (solarRadiation) or "hargreaves" (eq. 50)
}

// observedET0 computes daily ET0 (FAO-56 Penman-Monteith) from a station's
// daily rollups for the complete past days in [begin, end): Tmax and Tmin
// are the day's airTemp extremes, RH max/min the airHumidity extremes, wind
// the day's mean windSpeed, Rs the mean solarRadiation. A day counts when
// its airTemp rollup holds at least half a day's readings; today never
// does until it is over. The site is the station's position (latitude for
// Ra, altitude for P, 0 m when unknown).
func (s *Service) observedET0(ctx context.Context, st *devices.Device, begin, end time.Time) ([]ET0Day, error) {
	if st.Lat == nil {
		return nil, nil
	}
	today := s.midnight(s.now())
	if end.After(today) {
		end = today
	}
	if !begin.Before(end) {
		return []ET0Day{}, nil
	}
	dt, err := s.days(ctx, st.ID, []string{"airTemp", "airHumidity", "windSpeed", "solarRadiation"}, []int{0}, begin, end)
	if err != nil {
		return nil, err
	}
	alt := 0.0
	if st.Altitude != nil {
		alt = *st.Altitude
	}
	out := []ET0Day{}
	s.eachDay(begin, end, func(mid time.Time) {
		k := mid.UnixMilli()
		temp, ok := dt.get(k, "airTemp", 0)
		if !ok || !complete(temp, st) {
			return
		}
		in := agro.DailyInput{Tmax: temp.Max, Tmin: temp.Min, WindHeight: sensorHeight, Lat: *st.Lat, Alt: alt, DOY: mid.YearDay()}
		e := ET0Day{Time: k, Date: mid.Format(time.DateOnly), Tmax: temp.Max, Tmin: temp.Min}
		if rh, ok := dt.get(k, "airHumidity", 0); ok {
			in.Humidity = agro.RHMaxMin(rh.Max, rh.Min)
			e.RHMax, e.RHMin, e.Methods.Humidity = ptr(rh.Max), ptr(rh.Min), "rhMaxMin"
		} else {
			in.Humidity = agro.VapourPressure(agro.SatVapourPressure(temp.Min)) // FAO-56 eq. 48
			e.Methods.Humidity = "tmin"
		}
		in.Wind, e.Methods.Wind = defaultWind, "default"
		if w, ok := dt.get(k, "windSpeed", 0); ok {
			in.Wind, e.Methods.Wind = w.Avg(), "measured"
		}
		if rs, ok := dt.get(k, "solarRadiation", 0); ok && complete(rs, st) {
			in.Radiation, e.Methods.Radiation = agro.MeasuredRs(rs.Avg()*wattsToMJDay), "measured"
		} else {
			ra := agro.ExtraterrestrialRadiation(*st.Lat, mid.YearDay())
			in.Radiation, e.Methods.Radiation = agro.MeasuredRs(hargreavesKRs*math.Sqrt(math.Max(temp.Max-temp.Min, 0))*ra), "hargreaves"
		}
		r, err := agro.ET0Daily(in)
		if err != nil {
			return // readings the equations cannot use (e.g. RH max 0): no ET0 that day
		}
		e.ET0, e.Wind, e.Rs = round(math.Max(r.ET0, 0), 3), round(in.Wind, 3), round(r.Rs, 3)
		out = append(out, e)
	})
	return out, nil
}

// cropDay is the crop coefficient on a date: Kc and the growth stage, or
// nil outside the season or without a crop.
type cropDay struct {
	Kc    *float64
	Stage string
}

func (s *Service) kcOn(st *SoilSettings, date time.Time) cropDay {
	c, planted, ok := st.crop()
	if !ok {
		return cropDay{}
	}
	n := int(math.Round(s.midnight(date).Sub(s.midnight(planted)).Hours()/24)) + 1 // planting day is day 1
	kc, stage := c.Curve.Kc(n)
	if stage == agro.StageOutside {
		return cropDay{Stage: string(stage)}
	}
	return cropDay{Kc: ptr(round(kc, 3)), Stage: string(stage)}
}

// ETDay is one day of the ET analysis.
type ETDay struct {
	Time  int64    `json:"time"`
	Date  string   `json:"date"`
	ET0   *float64 `json:"et0"` // mm
	Kc    *float64 `json:"kc"`
	Stage string   `json:"stage,omitempty"` // initial, development, mid, late, outside
	ETc   *float64 `json:"etc"`             // mm, Kc × ET0
	Rain  *float64 `json:"rain,omitempty"`  // forecast days: mm
}

// CropView is the crop the ET analysis uses.
type CropView struct {
	Type         string         `json:"type"`
	Name         string         `json:"name"`
	Variety      string         `json:"variety"`
	PlantingTime int64          `json:"plantingTime"`
	Curve        agro.CropCurve `json:"curve"`
	DayOfSeason  int            `json:"dayOfSeason"` // today; 1 on the planting day
	Kc           *float64       `json:"kc"`          // today
	Stage        string         `json:"stage"`       // today
}

func (s *Service) cropView(st *SoilSettings, lang i18n.Lang) *CropView {
	c, planted, ok := st.crop()
	if !ok {
		return nil
	}
	today := s.kcOn(st, s.now())
	return &CropView{Type: c.ID, Name: c.Names.In(lang), Variety: st.CropVariety, PlantingTime: ms(planted), Curve: c.Curve,
		DayOfSeason: int(math.Round(s.midnight(s.now()).Sub(s.midnight(planted)).Hours()/24)) + 1, Kc: today.Kc, Stage: today.Stage}
}

// ForecastView is the 7-day forecast for a device's position.
type ForecastView struct {
	Provider  string        `json:"provider"`
	FetchedAt int64         `json:"fetchedAt"`
	Latitude  float64       `json:"latitude"`
	Longitude float64       `json:"longitude"`
	Days      []ForecastDay `json:"days"`
	RainTotal float64       `json:"rainTotal"` // mm over the days
	ET0Total  float64       `json:"et0Total"`  // mm over the days
	ETcTotal  *float64      `json:"etcTotal"`  // mm, when a crop is set
}

// ForecastDay is one forecast day.
type ForecastDay struct {
	Time      int64    `json:"time"`
	Date      string   `json:"date"`
	TempMax   *float64 `json:"tempMax"`
	TempMin   *float64 `json:"tempMin"`
	Rain      *float64 `json:"rain"`
	RainClass string   `json:"rainClass,omitempty"` // GB/T 28592-2012 24 h class of the day's rain
	ET0       *float64 `json:"et0"`
	Kc        *float64 `json:"kc"`
	Stage     string   `json:"stage,omitempty"`
	ETc       *float64 `json:"etc"`
	WindMax   *float64 `json:"windMax"`   // m/s at 10 m
	WindLevel *int     `json:"windLevel"` // of WindMax
}

// forecastFor fetches the forecast at d's position, with Kc and ETc from st.
// It answers nil when there is no provider, d has no position or the
// provider failed (logged): the views then show observations only.
func (s *Service) forecastFor(ctx context.Context, d *devices.Device, st *SoilSettings) *ForecastView {
	if s.forecast == nil || !s.forecast.Enabled() || d.Lat == nil || d.Lng == nil {
		return nil
	}
	f, err := s.forecast.Daily(ctx, *d.Lat, *d.Lng)
	if err != nil {
		s.log.WarnContext(ctx, "forecast unavailable", "device", d.ID, "err", err)
		return nil
	}
	return s.forecastView(f, st)
}

func (s *Service) forecastView(f *forecast.Forecast, st *SoilSettings) *ForecastView {
	v := &ForecastView{Provider: f.Provider, FetchedAt: ms(f.FetchedAt), Latitude: f.Latitude, Longitude: f.Longitude, Days: []ForecastDay{}}
	v.RainTotal, v.ET0Total = f.Totals()
	v.RainTotal, v.ET0Total = round(v.RainTotal, 2), round(v.ET0Total, 2)
	var etcTotal float64
	withETc := false
	for _, d := range f.Days {
		fd := ForecastDay{Time: ms(d.Date), Date: d.Date.Format(time.DateOnly), TempMax: d.TempMax, TempMin: d.TempMin,
			Rain: d.Rain, ET0: d.ET0, WindMax: roundPtr(d.WindMax, 2)}
		if d.Rain != nil {
			if c, err := agro.RainClassOf(*d.Rain, 24); err == nil {
				fd.RainClass = c.String()
			}
		}
		if d.WindMax != nil {
			lvl := agro.WindLevel(*d.WindMax)
			fd.WindLevel = &lvl
		}
		cd := s.kcOn(st, d.Date)
		fd.Kc, fd.Stage = cd.Kc, cd.Stage
		if cd.Kc != nil && d.ET0 != nil {
			fd.ETc = ptr(round(agro.ETc(*cd.Kc, *d.ET0), 3))
			etcTotal += *fd.ETc
			withETc = true
		}
		v.Days = append(v.Days, fd)
	}
	if withETc {
		v.ETcTotal = ptr(round(etcTotal, 2))
	}
	return v
}

// ETAnalysis is the ET analysis of a device (GET /apis/poi/et0_kc and
// /apis/poi/shang/etc_et0_kc): daily ET0 observed at its weather station,
// with Kc and ETc when a crop and planting time are set, and the forecast.
type ETAnalysis struct {
	Begin   int64     `json:"begin"`
	End     int64     `json:"end"`
	Station *Station  `json:"station"` // whose readings gave ET0; null when none
	Crop    *CropView `json:"crop"`    // null without a crop with a Kc curve and a planting time
	Days    []ETDay   `json:"days"`
	// ET0Total and ETcTotal sum the observed days (ETc over days with a Kc).
	ET0Total float64  `json:"et0Total"`
	ETcTotal *float64 `json:"etcTotal"`
	// ObservedUnavailable says why there are no observed days: "noStation"
	// (no weather readings here or within 30 km), "noLocation" (the station
	// has no coordinates for its latitude), or "".
	ObservedUnavailable string        `json:"observedUnavailable"`
	Forecast            *ForecastView `json:"forecast"`
	ForecastUnavailable bool          `json:"forecastUnavailable"`
}

// maxETRange is the longest ET analysis: SPEC §5 lets its export span 3 years.
const maxETRange = 3*366*day + day

// ET returns the ET analysis of a device over r (default the last 30 days),
// its weather from the device itself, the station stationID, or the nearest
// visible one within 30 km. Returns ENOTFOUND, EINVALID.
func (s *Service) ET(ctx context.Context, viewer, id, stationID int64, r Range, lang i18n.Lang) (*ETAnalysis, error) {
	d, _, _, err := s.device(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	begin, end, err := s.span(r, 30*day, maxETRange)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	out := &ETAnalysis{Begin: ms(begin), End: ms(end), Days: []ETDay{}, Crop: s.cropView(st, lang)}
	src, station, err := s.station(ctx, viewer, d, stationID, "airTemp")
	if err != nil {
		return nil, err
	}
	out.Station = station
	switch {
	case src == nil:
		out.ObservedUnavailable = "noStation"
	case src.Lat == nil:
		out.ObservedUnavailable = "noLocation"
	default:
		days, err := s.observedET0(ctx, src, begin, end)
		if err != nil {
			return nil, err
		}
		var etc float64
		withETc := false
		for _, e := range days {
			cd := s.kcOn(st, time.UnixMilli(e.Time))
			day := ETDay{Time: e.Time, Date: e.Date, ET0: ptr(e.ET0), Kc: cd.Kc, Stage: cd.Stage}
			out.ET0Total += e.ET0
			if cd.Kc != nil {
				day.ETc = ptr(round(agro.ETc(*cd.Kc, e.ET0), 3))
				etc += *day.ETc
				withETc = true
			}
			out.Days = append(out.Days, day)
		}
		out.ET0Total = round(out.ET0Total, 2)
		if withETc {
			out.ETcTotal = ptr(round(etc, 2))
		}
	}
	out.Forecast = s.forecastFor(ctx, d, st)
	out.ForecastUnavailable = out.Forecast == nil
	return out, nil
}

// WeatherDay is one day of observed weather at a station.
type WeatherDay struct {
	Time        int64    `json:"time"`
	Date        string   `json:"date"`
	Complete    bool     `json:"complete"` // the day is over and has most of its readings
	TempMax     *float64 `json:"tempMax"`
	TempMin     *float64 `json:"tempMin"`
	TempAvg     *float64 `json:"tempAvg"`
	HumidityAvg *float64 `json:"humidityAvg"`
	HumidityMin *float64 `json:"humidityMin"`
	HumidityMax *float64 `json:"humidityMax"`
	Rain        *float64 `json:"rain"`
	RainClass   string   `json:"rainClass,omitempty"`
	WindAvg     *float64 `json:"windAvg"`
	WindMax     *float64 `json:"windMax"`
	WindLevel   *int     `json:"windLevel"` // of WindMax
	Direction   *float64 `json:"windDirection"`
	Sector      string   `json:"windSector,omitempty"`
	PressureAvg *float64 `json:"pressureAvg"`
	Radiation   *float64 `json:"radiation"` // mean W/m²
	PM25Avg     *float64 `json:"pm25Avg"`
	PM10Avg     *float64 `json:"pm10Avg"`
	TVOCAvg     *float64 `json:"tvocAvg"`
	AirQuality  *int     `json:"airQuality"` // SPEC §9 grade 1–6 of the day's means
	ET0         *float64 `json:"et0"`
	ET0Methods  *Methods `json:"et0Methods"` // where ET0's inputs came from
}

var weatherParams = []string{"airTemp", "airHumidity", "rainfall", "windSpeed", "windDirection", "pressure", "solarRadiation", "pm25", "pm10", "tvoc"}

// weatherDays summarizes a station's weather per local day of [begin, end).
func (s *Service) weatherDays(ctx context.Context, st *devices.Device, begin, end time.Time) ([]WeatherDay, error) {
	dt, err := s.days(ctx, st.ID, weatherParams, []int{0}, begin, end)
	if err != nil {
		return nil, err
	}
	et0, err := s.observedET0(ctx, st, begin, end)
	if err != nil {
		return nil, err
	}
	et0By := map[int64]ET0Day{}
	for _, e := range et0 {
		et0By[e.Time] = e
	}
	today := s.midnight(s.now())
	out := []WeatherDay{}
	s.eachDay(begin, end, func(mid time.Time) {
		k := mid.UnixMilli()
		if len(dt[k]) == 0 {
			return
		}
		w := WeatherDay{Time: k, Date: mid.Format(time.DateOnly)}
		if t, ok := dt.get(k, "airTemp", 0); ok {
			w.TempMax, w.TempMin, w.TempAvg = ptr(t.Max), ptr(t.Min), ptr(round(t.Avg(), 2))
			w.Complete = mid.Before(today) && complete(t, st)
		}
		if h, ok := dt.get(k, "airHumidity", 0); ok {
			w.HumidityAvg, w.HumidityMin, w.HumidityMax = ptr(round(h.Avg(), 1)), ptr(h.Min), ptr(h.Max)
		}
		if r, ok := dt.get(k, "rainfall", 0); ok {
			w.Rain = ptr(round(r.Sum, 2))
			if c, err := agro.RainClassOf(r.Sum, 24); err == nil {
				w.RainClass = c.String()
			}
		}
		if ws, ok := dt.get(k, "windSpeed", 0); ok {
			w.WindAvg, w.WindMax = ptr(round(ws.Avg(), 2)), ptr(ws.Max)
			lvl := agro.WindLevel(ws.Max)
			w.WindLevel = &lvl
		}
		if wd, ok := dt.get(k, "windDirection", 0); ok {
			w.Direction, w.Sector = ptr(wd.Last), agro.WindSector(wd.Last)
		}
		if p, ok := dt.get(k, "pressure", 0); ok {
			w.PressureAvg = ptr(round(p.Avg(), 1))
		}
		if rs, ok := dt.get(k, "solarRadiation", 0); ok {
			w.Radiation = ptr(round(rs.Avg(), 1))
		}
		pm25, ok25 := dt.get(k, "pm25", 0)
		pm10, ok10 := dt.get(k, "pm10", 0)
		if ok25 && ok10 {
			w.PM25Avg, w.PM10Avg = ptr(round(pm25.Avg(), 1)), ptr(round(pm10.Avg(), 1))
			var tvoc *float64
			if tv, ok := dt.get(k, "tvoc", 0); ok {
				tvoc = ptr(tv.Avg())
				w.TVOCAvg = ptr(round(tv.Avg(), 1))
			}
			if q, err := agro.AirQualityOf(pm25.Avg(), pm10.Avg(), tvoc); err == nil {
				g := int(q.Grade)
				w.AirQuality = &g
			}
		}
		if e, ok := et0By[k]; ok {
			w.ET0, w.ET0Methods = ptr(e.ET0), &e.Methods
		}
		out = append(out, w)
	})
	return out, nil
}

// WeekWeather is GET /apis/poi/week/weather: the 7-day forecast at a device
// and the weather observed over the last 7 days.
type WeekWeather struct {
	Station             *Station      `json:"station"`
	Observed            []WeatherDay  `json:"observed"`
	Forecast            *ForecastView `json:"forecast"`
	ForecastUnavailable bool          `json:"forecastUnavailable"`
}

// observedWeek is the weather of the last 7 local days and today so far at
// d's station.
func (s *Service) observedWeek(ctx context.Context, viewer int64, d *devices.Device, stationID int64) (*Station, []WeatherDay, error) {
	src, station, err := s.station(ctx, viewer, d, stationID, "airTemp")
	if err != nil || src == nil {
		return station, []WeatherDay{}, err
	}
	today := s.midnight(s.now())
	days, err := s.weatherDays(ctx, src, today.AddDate(0, 0, -7), s.now())
	return station, days, err
}

// WeekWeather returns a device's forecast and last week's weather.
// Returns ENOTFOUND, EINVALID.
func (s *Service) WeekWeather(ctx context.Context, viewer, id, stationID int64) (*WeekWeather, error) {
	d, _, _, err := s.device(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	st, err := s.settings(ctx, id)
	if err != nil {
		return nil, err
	}
	out := &WeekWeather{}
	if out.Station, out.Observed, err = s.observedWeek(ctx, viewer, d, stationID); err != nil {
		return nil, err
	}
	out.Forecast = s.forecastFor(ctx, d, st)
	out.ForecastUnavailable = out.Forecast == nil
	return out, nil
}

// SevenMete is GET /apis/poi/seven/mete: the weather of the last seven days
// (and today so far) at a device's station, each day with its ET0.
type SevenMete struct {
	Station *Station     `json:"station"`
	Days    []WeatherDay `json:"days"`
}

// SevenMete returns last week's weather at a device. Returns ENOTFOUND, EINVALID.
func (s *Service) SevenMete(ctx context.Context, viewer, id, stationID int64) (*SevenMete, error) {
	d, _, _, err := s.device(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	out := &SevenMete{}
	out.Station, out.Days, err = s.observedWeek(ctx, viewer, d, stationID)
	return out, err
}

// DayAmount is one day's amount, mm.
type DayAmount struct {
	Time  int64    `json:"time"`
	Date  string   `json:"date"`
	MM    *float64 `json:"mm"`
	Class string   `json:"class,omitempty"` // rain: the 24 h class
}

// WeekAmounts is GET /apis/poi/rainfall and /apis/poi/et0: the last 7 days
// observed and the 7-day forecast, each with its total (SPEC §9: "Forecast:
// 7-day ET0 and rainfall totals").
type WeekAmounts struct {
	Station             *Station    `json:"station"`
	Observed            []DayAmount `json:"observed"`
	ObservedTotal       float64     `json:"observedTotal"`
	Forecast            []DayAmount `json:"forecast"` // null when unavailable
	ForecastTotal       *float64    `json:"forecastTotal"`
	ForecastUnavailable bool        `json:"forecastUnavailable"`
	Provider            string      `json:"provider,omitempty"`
}

// WeekRain returns the rain of the last 7 days at a device (its own gauge, or
// a station's) and the forecast rain. Returns ENOTFOUND, EINVALID.
func (s *Service) WeekRain(ctx context.Context, viewer, id, stationID int64) (*WeekAmounts, error) {
	d, _, _, err := s.device(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	out := &WeekAmounts{Observed: []DayAmount{}}
	src, station, err := s.station(ctx, viewer, d, stationID, "rainfall")
	if err != nil {
		return nil, err
	}
	out.Station = station
	if src != nil {
		today := s.midnight(s.now())
		dt, err := s.days(ctx, src.ID, []string{"rainfall"}, []int{0}, today.AddDate(0, 0, -7), s.now())
		if err != nil {
			return nil, err
		}
		s.eachDay(today.AddDate(0, 0, -7), s.now(), func(mid time.Time) {
			a := DayAmount{Time: ms(mid), Date: mid.Format(time.DateOnly)}
			if r, ok := dt.get(ms(mid), "rainfall", 0); ok {
				a.MM = ptr(round(r.Sum, 2))
				out.ObservedTotal += r.Sum
				if c, err := agro.RainClassOf(r.Sum, 24); err == nil {
					a.Class = c.String()
				}
			}
			out.Observed = append(out.Observed, a)
		})
		out.ObservedTotal = round(out.ObservedTotal, 2)
	}
	if f := s.forecastFor(ctx, d, nil); f != nil {
		out.Provider, out.ForecastTotal = f.Provider, ptr(f.RainTotal)
		out.Forecast = []DayAmount{}
		for _, fd := range f.Days {
			out.Forecast = append(out.Forecast, DayAmount{Time: fd.Time, Date: fd.Date, MM: fd.Rain, Class: fd.RainClass})
		}
	}
	out.ForecastUnavailable = out.Forecast == nil
	return out, nil
}

// WeekET0 returns the ET0 of the last 7 complete days at a device's station
// and the forecast ET0. Returns ENOTFOUND, EINVALID.
func (s *Service) WeekET0(ctx context.Context, viewer, id, stationID int64) (*WeekAmounts, error) {
	d, _, _, err := s.device(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	out := &WeekAmounts{Observed: []DayAmount{}}
	src, station, err := s.station(ctx, viewer, d, stationID, "airTemp")
	if err != nil {
		return nil, err
	}
	out.Station = station
	if src != nil {
		today := s.midnight(s.now())
		days, err := s.observedET0(ctx, src, today.AddDate(0, 0, -7), today)
		if err != nil {
			return nil, err
		}
		for _, e := range days {
			out.Observed = append(out.Observed, DayAmount{Time: e.Time, Date: e.Date, MM: ptr(e.ET0)})
			out.ObservedTotal += e.ET0
		}
		out.ObservedTotal = round(out.ObservedTotal, 2)
	}
	if f := s.forecastFor(ctx, d, nil); f != nil {
		out.Provider, out.ForecastTotal = f.Provider, ptr(f.ET0Total)
		out.Forecast = []DayAmount{}
		for _, fd := range f.Days {
			out.Forecast = append(out.Forecast, DayAmount{Time: fd.Time, Date: fd.Date, MM: fd.ET0})
		}
	}
	out.ForecastUnavailable = out.Forecast == nil
	return out, nil
}
