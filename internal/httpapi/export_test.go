package httpapi

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
