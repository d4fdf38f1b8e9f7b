package httpapi

import (
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/weather"
)

// methodsDTO says where each ET0 input came from.
type methodsDTO struct {
	Humidity  string `json:"humidity"`
	Wind      string `json:"wind"`
	Radiation string `json:"radiation"`
}

// weatherDayDTO is one day of observed weather at a station.
type weatherDayDTO struct {
	Time        int64       `json:"time"`
	Date        string      `json:"date"`
	Complete    bool        `json:"complete"`
	TempMax     *float64    `json:"tempMax"`
	TempMin     *float64    `json:"tempMin"`
	TempAvg     *float64    `json:"tempAvg"`
	HumidityAvg *float64    `json:"humidityAvg"`
	HumidityMin *float64    `json:"humidityMin"`
	HumidityMax *float64    `json:"humidityMax"`
	Rain        *float64    `json:"rain"`
	RainClass   string      `json:"rainClass,omitempty"`
	WindAvg     *float64    `json:"windAvg"`
	WindMax     *float64    `json:"windMax"`
	WindLevel   *int        `json:"windLevel"`
	Direction   *float64    `json:"windDirection"`
	Sector      string      `json:"windSector,omitempty"`
	PressureAvg *float64    `json:"pressureAvg"`
	Radiation   *float64    `json:"radiation"`
	PM25Avg     *float64    `json:"pm25Avg"`
	PM10Avg     *float64    `json:"pm10Avg"`
	TVOCAvg     *float64    `json:"tvocAvg"`
	AirQuality  *int        `json:"airQuality"`
	ET0         *float64    `json:"et0"`
	ET0Methods  *methodsDTO `json:"et0Methods"`
}

func toWeatherDays(ds []weather.Day) []weatherDayDTO {
	out := make([]weatherDayDTO, len(ds))
	for i, d := range ds {
		out[i] = weatherDayDTO{Time: d.Day.UnixMilli(), Date: d.Day.Format(time.DateOnly), Complete: d.Complete,
			TempMax: d.TempMax, TempMin: d.TempMin, TempAvg: d.TempAvg, HumidityAvg: d.HumidityAvg, HumidityMin: d.HumidityMin,
			HumidityMax: d.HumidityMax, Rain: d.Rain, RainClass: d.RainClass, WindAvg: d.WindAvg, WindMax: d.WindMax,
			WindLevel: d.WindLevel, Direction: d.Direction, Sector: d.Sector, PressureAvg: d.PressureAvg, Radiation: d.Radiation,
			PM25Avg: d.PM25Avg, PM10Avg: d.PM10Avg, TVOCAvg: d.TVOCAvg, AirQuality: d.AirQuality, ET0: d.ET0}
		if m := d.ET0Methods; m != nil {
			out[i].ET0Methods = &methodsDTO{Humidity: m.Humidity, Wind: m.Wind, Radiation: m.Radiation}
		}
	}
	return out
}

// forecastDTO is the 7-day forecast for a device's position.
type forecastDTO struct {
	Provider  string           `json:"provider"`
	FetchedAt int64            `json:"fetchedAt"`
	Latitude  float64          `json:"latitude"`
	Longitude float64          `json:"longitude"`
	Days      []forecastDayDTO `json:"days"`
	RainTotal float64          `json:"rainTotal"`
	ET0Total  float64          `json:"et0Total"`
	ETcTotal  *float64         `json:"etcTotal"`
}

// forecastDayDTO is one forecast day.
type forecastDayDTO struct {
	Time      int64    `json:"time"`
	Date      string   `json:"date"`
	TempMax   *float64 `json:"tempMax"`
	TempMin   *float64 `json:"tempMin"`
	Rain      *float64 `json:"rain"`
	RainClass string   `json:"rainClass,omitempty"`
	ET0       *float64 `json:"et0"`
	Kc        *float64 `json:"kc"`
	Stage     string   `json:"stage,omitempty"`
	ETc       *float64 `json:"etc"`
	WindMax   *float64 `json:"windMax"`
	WindLevel *int     `json:"windLevel"`
}

func toForecast(f *weather.Forecast) *forecastDTO {
	if f == nil {
		return nil
	}
	out := &forecastDTO{Provider: f.Provider, FetchedAt: f.FetchedAt.UnixMilli(), Latitude: f.Latitude, Longitude: f.Longitude,
		Days: make([]forecastDayDTO, len(f.Days)), RainTotal: f.RainTotal, ET0Total: f.ET0Total, ETcTotal: f.ETcTotal}
	for i, d := range f.Days {
		out.Days[i] = forecastDayDTO{Time: d.Day.UnixMilli(), Date: d.Day.Format(time.DateOnly), TempMax: d.TempMax, TempMin: d.TempMin,
			Rain: d.Rain, RainClass: d.RainClass, ET0: d.ET0, Kc: d.Kc, Stage: d.Stage, ETc: d.ETc, WindMax: d.WindMax, WindLevel: d.WindLevel}
	}
	return out
}

// weekWeatherDTO is GET /apis/poi/week/weather.
type weekWeatherDTO struct {
	Station             *stationDTO     `json:"station"`
	Observed            []weatherDayDTO `json:"observed"`
	Forecast            *forecastDTO    `json:"forecast"`
	ForecastUnavailable bool            `json:"forecastUnavailable"`
}

// sevenMeteDTO is GET /apis/poi/seven/mete.
type sevenMeteDTO struct {
	Station *stationDTO     `json:"station"`
	Days    []weatherDayDTO `json:"days"`
}

// weekAmountsDTO is GET /apis/poi/rainfall and /apis/poi/et0.
type weekAmountsDTO struct {
	Station             *stationDTO    `json:"station"`
	Observed            []dayAmountDTO `json:"observed"`
	ObservedTotal       float64        `json:"observedTotal"`
	Forecast            []dayAmountDTO `json:"forecast"` // null when unavailable
	ForecastTotal       *float64       `json:"forecastTotal"`
	ForecastUnavailable bool           `json:"forecastUnavailable"`
	Provider            string         `json:"provider,omitempty"`
}

func toDayAmounts(as []weather.DayAmount) []dayAmountDTO {
	if as == nil {
		return nil
	}
	out := make([]dayAmountDTO, len(as))
	for i, a := range as {
		out[i] = dayAmountDTO{Time: a.Day.UnixMilli(), Date: a.Day.Format(time.DateOnly), MM: a.MM, Class: a.Class}
	}
	return out
}

func toWeekAmounts(w *weather.WeekAmounts) weekAmountsDTO {
	return weekAmountsDTO{Station: toStation(w.Station), Observed: toDayAmounts(w.Observed), ObservedTotal: w.ObservedTotal,
		Forecast: toDayAmounts(w.Forecast), ForecastTotal: w.ForecastTotal, ForecastUnavailable: w.Forecast == nil, Provider: w.Provider}
}

// valueDTO is one parameter's newest reading.
type valueDTO struct {
	Param     string  `json:"param"`
	Name      string  `json:"name"`
	Unit      string  `json:"unit"`
	Precision int     `json:"precision"`
	Value     float64 `json:"value"`
	Time      int64   `json:"time"`
}

// windDTO is a wind reading with its level and sector.
type windDTO struct {
	Speed     float64  `json:"speed"`
	Level     int      `json:"level"`
	LevelMin  float64  `json:"levelMin"`
	LevelMax  *float64 `json:"levelMax"`
	Direction *float64 `json:"direction"`
	Sector    string   `json:"sector,omitempty"`
}

// rainNowDTO is the rain around now.
type rainNowDTO struct {
	Rain1h   float64    `json:"rain1h"`
	Rain24h  float64    `json:"rain24h"`
	Today    float64    `json:"today"`
	Class1h  string     `json:"class1h"`
	Class24h string     `json:"class24h"`
	Warning  warningDTO `json:"warning"`
}

// weatherNowDTO is GET /apis/qi/{id}/data/realtime.
type weatherNowDTO struct {
	Time       *int64           `json:"time"`
	Values     []valueDTO       `json:"values"`
	Wind       *windDTO         `json:"wind"`
	Rain       *rainNowDTO      `json:"rain"`
	AirQuality *agro.AirQuality `json:"airQuality"`
}

func toWeatherNow(cur *weather.Current, lang i18n.Lang) weatherNowDTO {
	out := weatherNowDTO{Time: optMs(cur.Time), Values: make([]valueDTO, len(cur.Values)), AirQuality: cur.AirQuality}
	for i, v := range cur.Values {
		out.Values[i] = valueDTO{Param: v.Param.ID, Name: v.Param.Name(lang), Unit: v.Param.Unit, Precision: v.Param.Precision,
			Value: v.Value, Time: v.Time.UnixMilli()}
	}
	if w := cur.Wind; w != nil {
		out.Wind = &windDTO{Speed: w.Speed, Level: w.Level, LevelMin: w.LevelMin, LevelMax: w.LevelMax, Direction: w.Direction, Sector: w.Sector}
	}
	if r := cur.Rain; r != nil {
		out.Rain = &rainNowDTO{Rain1h: r.Rain1h, Rain24h: r.Rain24h, Today: r.Today, Class1h: r.Class1h, Class24h: r.Class24h,
			Warning: toWarning(r.Warning)}
	}
	return out
}

// alertDTO is a weather warning signal of the station's readings, the
// forecast or the warning feed.
type alertDTO struct {
	Type string `json:"type"`
	warningDTO
	Value  float64 `json:"value"`
	Unit   string  `json:"unit"`
	Basis  string  `json:"basis"`
	Source string  `json:"source"` // station, forecast, feed
	// Day is the forecast day of a forecast-based signal (unix ms), else null.
	Day *int64 `json:"day"`
	// Of a feed's alert; empty/null otherwise.
	Headline string `json:"headline"`
	Area     string `json:"area"`
	Sender   string `json:"sender"`
	Expires  *int64 `json:"expires"`
}

// checkDTO is a warning type and the sources that checked it.
type checkDTO struct {
	Type string   `json:"type"`
	By   []string `json:"by"`
}

// weatherAlertsDTO is GET /apis/qi/weather/alert.
type weatherAlertsDTO struct {
	Time     int64      `json:"time"`
	Alerts   []alertDTO `json:"alerts"`
	Checked  []string   `json:"checked"`
	Checks   []checkDTO `json:"checks"`
	Forecast bool       `json:"forecast"`
	Feed     string     `json:"feed"`
	NeedFeed []string   `json:"needFeed"`
}

func toWeatherAlerts(a *weather.Alerts) weatherAlertsDTO {
	out := weatherAlertsDTO{Time: a.Time.UnixMilli(), Alerts: make([]alertDTO, len(a.Alerts)), Checked: a.Checked,
		Checks: make([]checkDTO, len(a.Checks)), Forecast: a.Forecast, Feed: a.Feed, NeedFeed: a.NeedFeed}
	for i, al := range a.Alerts {
		out.Alerts[i] = alertDTO{Type: al.Type, warningDTO: toWarning(al.Level), Value: al.Value, Unit: al.Unit, Basis: al.Basis,
			Source: al.Source, Day: optMs(al.Day), Headline: al.Headline, Area: al.Area, Sender: al.Sender, Expires: optMs(al.Expires)}
	}
	for i, c := range a.Checks {
		out.Checks[i] = checkDTO(c)
	}
	return out
}

// fwiDayDTO is one day of the Fire Weather Index System.
type fwiDayDTO struct {
	Time      int64    `json:"time"`
	Date      string   `json:"date"`
	Missing   bool     `json:"missing"`
	Temp      *float64 `json:"temp"`
	RH        *float64 `json:"rh"`
	Wind      *float64 `json:"wind"`
	Rain      *float64 `json:"rain"`
	FFMC      *float64 `json:"ffmc"`
	DMC       *float64 `json:"dmc"`
	DC        *float64 `json:"dc"`
	ISI       *float64 `json:"isi"`
	BUI       *float64 `json:"bui"`
	FWI       *float64 `json:"fwi"`
	Level     *int     `json:"level"`
	LevelName string   `json:"levelName,omitempty"`
}

func toFWIDay(d *weather.FWIDay) *fwiDayDTO {
	if d == nil {
		return nil
	}
	return &fwiDayDTO{Time: d.Day.UnixMilli(), Date: d.Day.Format(time.DateOnly), Missing: d.Missing, Temp: d.Temp, RH: d.RH,
		Wind: d.Wind, Rain: d.Rain, FFMC: d.FFMC, DMC: d.DMC, DC: d.DC, ISI: d.ISI, BUI: d.BUI, FWI: d.FWI, Level: d.Level, LevelName: d.LevelName}
}

// fwiHistoryDTO is GET /apis/qi/fwi/history.
type fwiHistoryDTO struct {
	Begin int64       `json:"begin"`
	End   int64       `json:"end"`
	Days  []fwiDayDTO `json:"days"`
}

func toFWIHistory(h *weather.FWIHistory) fwiHistoryDTO {
	out := fwiHistoryDTO{Begin: h.Begin.UnixMilli(), End: h.End.UnixMilli(), Days: make([]fwiDayDTO, len(h.Days))}
	for i := range h.Days {
		out.Days[i] = *toFWIDay(&h.Days[i])
	}
	return out
}

// fwiStatisticsDTO is GET /apis/qi/fwi/statistics.
type fwiStatisticsDTO struct {
	Begin   int64           `json:"begin"`
	End     int64           `json:"end"`
	Days    int             `json:"days"`
	Missing int             `json:"missing"`
	Levels  []levelCountDTO `json:"levels"`
	Latest  *fwiDayDTO      `json:"latest"`
	Max     *fwiDayDTO      `json:"max"`
	Mean    *float64        `json:"mean"`
}

// levelCountDTO is how many days had a fire level.
type levelCountDTO struct {
	Level int    `json:"level"`
	Name  string `json:"name"`
	Days  int    `json:"days"`
}

func toFWIStatistics(st *weather.FWIStatistics) fwiStatisticsDTO {
	out := fwiStatisticsDTO{Begin: st.Begin.UnixMilli(), End: st.End.UnixMilli(), Days: st.Days, Missing: st.Missing,
		Levels: make([]levelCountDTO, len(st.Levels)), Latest: toFWIDay(st.Latest), Max: toFWIDay(st.Max), Mean: st.Mean}
	for i, l := range st.Levels {
		out.Levels[i] = levelCountDTO{Level: int(l.Level), Name: l.Level.String(), Days: l.Days}
	}
	return out
}

// weatherHistoryDTO is GET /apis/qi/data/history.
type weatherHistoryDTO struct {
	Begin int64           `json:"begin"`
	End   int64           `json:"end"`
	Days  []weatherDayDTO `json:"days"`
}

func (s *Server) weekWeather(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	w, err := s.Weather.WeekWeather(c.r.Context(), c.device, s.stations(c, q.stationID))
	if err != nil {
		return nil, err
	}
	f := toForecast(w.Forecast)
	return weekWeatherDTO{Station: toStation(w.Station), Observed: toWeatherDays(w.Days), Forecast: f, ForecastUnavailable: f == nil}, nil
}

func (s *Server) weekRain(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	w, err := s.Weather.WeekRain(c.r.Context(), c.device, s.stations(c, q.stationID))
	if err != nil {
		return nil, err
	}
	return toWeekAmounts(w), nil
}

func (s *Server) weekET0(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	w, err := s.Weather.WeekET0(c.r.Context(), c.device, s.stations(c, q.stationID))
	if err != nil {
		return nil, err
	}
	return toWeekAmounts(w), nil
}

func (s *Server) sevenMete(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	w, err := s.Weather.Week(c.r.Context(), c.device, s.stations(c, q.stationID))
	if err != nil {
		return nil, err
	}
	return sevenMeteDTO{Station: toStation(w.Station), Days: toWeatherDays(w.Days)}, nil
}

func (s *Server) weatherNow(c *call) (any, error) {
	cur, err := s.Weather.Current(c.r.Context(), c.device)
	if err != nil {
		return nil, err
	}
	return toWeatherNow(cur, c.lang), nil
}

func (s *Server) weatherAlerts(c *call) (any, error) {
	a, err := s.Weather.Alerts(c.r.Context(), c.device)
	if err != nil {
		return nil, err
	}
	return toWeatherAlerts(a), nil
}

func (s *Server) fwiStatistics(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	st, err := s.Weather.FWIStatistics(c.r.Context(), c.device, q.r)
	if err != nil {
		return nil, err
	}
	return toFWIStatistics(st), nil
}

func (s *Server) fwiHistory(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	h, err := s.Weather.FWIHistory(c.r.Context(), c.device, q.r)
	if err != nil {
		return nil, err
	}
	return toFWIHistory(h), nil
}

func (s *Server) weatherHistory(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	h, err := s.Weather.History(c.r.Context(), c.device, q.r)
	if err != nil {
		return nil, err
	}
	return weatherHistoryDTO{Begin: h.Begin.UnixMilli(), End: h.End.UnixMilli(), Days: toWeatherDays(h.Days)}, nil
}
