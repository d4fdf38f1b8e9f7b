package httpapi

// The analysis answers, for the tests of package httpapi_test to decode.
type (
	RainWarning  = rainWarningDTO
	RainLatest   = rainLatestDTO
	IDAnalysis   = idAnalysisDTO
	RainRealtime = rainRealtimeDTO
	RainSeries   = rainSeriesDTO
	RainStats    = rainStatsDTO
	Installation = installationDTO
	TiltTrend    = tiltTrendDTO
	TiltYaw      = tiltYawDTO
)
