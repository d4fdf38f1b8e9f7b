package httpapi

// The analysis answers, for the tests of package httpapi_test to decode.
type (
	TiltTrend = tiltTrendDTO
	TiltYaw   = tiltYawDTO
)
