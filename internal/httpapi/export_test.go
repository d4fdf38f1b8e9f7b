package httpapi

import "net/http"

// The analysis answers, for the tests of package httpapi_test to decode.
type (
	DataQuery        = dataQueryDTO
	ETAnalysis       = etAnalysisDTO
	ETRoot           = etRootDTO
	FWIHistory       = fwiHistoryDTO
	FWIStatistics    = fwiStatisticsDTO
	FreezeThaw       = freezeThawDTO
	IDAnalysis       = idAnalysisDTO
	Infiltration     = infiltrationDTO
	Installation     = installationDTO
	Irrigations      = irrigationsDTO
	MoistureAnalysis = moistureAnalysisDTO
	MoistureSeries   = moistureSeriesDTO
	NodesView        = nodesViewDTO
	ParamList        = paramListDTO
	RainLatest       = rainLatestDTO
	RainRealtime     = rainRealtimeDTO
	RainSeries       = rainSeriesDTO
	RainStats        = rainStatsDTO
	RainWarning      = rainWarningDTO
	SettingsView     = settingsDTO
	SoilDetail       = soilDetailDTO
	SoilStatus       = soilStatusDTO
	TiltTrend        = tiltTrendDTO
	TiltYaw          = tiltYawDTO
	Waterlogging     = waterloggingDTO
	WeatherAlerts    = weatherAlertsDTO
	WeatherHistory   = weatherHistoryDTO
	WeatherNow       = weatherNowDTO
	WeekAmounts      = weekAmountsDTO
	WeekWeather      = weekWeatherDTO
)

// MiddlewareServing answers every request with body as a JSON answer,
// through the middleware every request of New goes through.
func MiddlewareServing(body []byte) http.Handler {
	return New(Options{}).middleware(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(body)
	}))
}
