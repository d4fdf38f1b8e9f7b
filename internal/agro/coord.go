package agro

import (
	"math"
)

// Coordinate systems of Chinese maps. Devices report WGS84 (GPS); Chinese
// map providers draw in GCJ-02, the national offset system (AMap, Tencent),
// or BD-09, Baidu's further offset of GCJ-02. The forward transforms are
// the widely published approximation on the Krasovsky 1940 ellipsoid that
// web/src/lib/geo.ts also uses; the inverses are solved by iteration.

// Datum names a coordinate system.
type Datum string

const (
	WGS84 Datum = "wgs84"
	GCJ02 Datum = "gcj02"
	BD09  Datum = "bd09"
)

// Datums are the coordinate systems Convert knows.
var Datums = []Datum{WGS84, GCJ02, BD09}

const (
	krasovskyA  = 6378245.0             // semi-major axis, m
	krasovskyEE = 0.0066934216229659432 // first eccentricity squared
	baiduXPi    = math.Pi * 3000.0 / 180.0
)

// OutOfChina reports whether a point lies outside China by SPEC.md §5:
// longitude below 72.004 or above 137.8347, or latitude below 0.8293 or
// above 55.8271. No offset applies there.
func OutOfChina(lng, lat float64) bool {
	return lng < 72.004 || lng > 137.8347 || lat < 0.8293 || lat > 55.8271
}

func gcjOffsetLat(x, y float64) float64 {
	r := -100.0 + 2.0*x + 3.0*y + 0.2*y*y + 0.1*x*y + 0.2*math.Sqrt(math.Abs(x))
	r += (20.0*math.Sin(6.0*x*math.Pi) + 20.0*math.Sin(2.0*x*math.Pi)) * 2.0 / 3.0
	r += (20.0*math.Sin(y*math.Pi) + 40.0*math.Sin(y/3.0*math.Pi)) * 2.0 / 3.0
	r += (160.0*math.Sin(y/12.0*math.Pi) + 320*math.Sin(y*math.Pi/30.0)) * 2.0 / 3.0
	return r
}

func gcjOffsetLng(x, y float64) float64 {
	r := 300.0 + x + 2.0*y + 0.1*x*x + 0.1*x*y + 0.1*math.Sqrt(math.Abs(x))
	r += (20.0*math.Sin(6.0*x*math.Pi) + 20.0*math.Sin(2.0*x*math.Pi)) * 2.0 / 3.0
	r += (20.0*math.Sin(x*math.Pi) + 40.0*math.Sin(x/3.0*math.Pi)) * 2.0 / 3.0
	r += (150.0*math.Sin(x/12.0*math.Pi) + 300.0*math.Sin(x/30.0*math.Pi)) * 2.0 / 3.0
	return r
}

// WGS84ToGCJ02 offsets a WGS84 point into GCJ-02; a point outside China
// (OutOfChina) is returned unchanged.
func WGS84ToGCJ02(lng, lat float64) (float64, float64) {
	if OutOfChina(lng, lat) {
		return lng, lat
	}
	dLat := gcjOffsetLat(lng-105.0, lat-35.0)
	dLng := gcjOffsetLng(lng-105.0, lat-35.0)
	radLat := lat / 180.0 * math.Pi
	magic := math.Sin(radLat)
	magic = 1 - krasovskyEE*magic*magic
	sqrtMagic := math.Sqrt(magic)
	dLat = dLat * 180.0 / (krasovskyA * (1 - krasovskyEE) / (magic * sqrtMagic) * math.Pi)
	dLng = dLng * 180.0 / (krasovskyA / sqrtMagic * math.Cos(radLat) * math.Pi)
	return lng + dLng, lat + dLat
}

// inverseTolerance is how close, in degrees, an inverse's answer must map
// back onto its input: about a millimetre.
const inverseTolerance = 1e-9

// invert solves forward(x, y) = (lng, lat) by fixed-point iteration,
// starting from (x0, y0). The offsets vary slowly (their derivatives are
// far below 1), so each step gains several digits; 30 steps are far more
// than any point needs.
func invert(forward func(float64, float64) (float64, float64), lng, lat, x0, y0 float64) (float64, float64) {
	x, y := x0, y0
	for range 30 {
		fx, fy := forward(x, y)
		dx, dy := fx-lng, fy-lat
		if math.Abs(dx) < inverseTolerance && math.Abs(dy) < inverseTolerance {
			break
		}
		x, y = x-dx, y-dy
	}
	return x, y
}

// GCJ02ToWGS84 finds the WGS84 point whose GCJ-02 offset is the given
// point, iterating until the forward transform reproduces it within 1e-9°
// (not the one-step approximation, which is off by up to a few metres).
// A point outside China (OutOfChina) is returned unchanged.
func GCJ02ToWGS84(lng, lat float64) (float64, float64) {
	if OutOfChina(lng, lat) {
		return lng, lat
	}
	glng, glat := WGS84ToGCJ02(lng, lat)
	return invert(WGS84ToGCJ02, lng, lat, 2*lng-glng, 2*lat-glat)
}

// GCJ02ToBD09 is Baidu's offset of a GCJ-02 point. Like web/src/lib/geo.ts
// it applies everywhere: SPEC.md §5 exempts only the WGS84 → GCJ-02 step.
func GCJ02ToBD09(lng, lat float64) (float64, float64) {
	z := math.Sqrt(lng*lng+lat*lat) + 0.00002*math.Sin(lat*baiduXPi)
	theta := math.Atan2(lat, lng) + 0.000003*math.Cos(lng*baiduXPi)
	return z*math.Cos(theta) + 0.0065, z*math.Sin(theta) + 0.006
}

// BD09ToGCJ02 inverts GCJ02ToBD09: the widely used closed-form reverse
// formula, refined by iteration until the forward offset reproduces the
// input within 1e-9°.
func BD09ToGCJ02(lng, lat float64) (float64, float64) {
	x, y := lng-0.0065, lat-0.006
	z := math.Sqrt(x*x+y*y) - 0.00002*math.Sin(y*baiduXPi)
	theta := math.Atan2(y, x) - 0.000003*math.Cos(x*baiduXPi)
	return invert(GCJ02ToBD09, lng, lat, z*math.Cos(theta), z*math.Sin(theta))
}

// WGS84ToBD09 goes through GCJ-02.
func WGS84ToBD09(lng, lat float64) (float64, float64) {
	return GCJ02ToBD09(WGS84ToGCJ02(lng, lat))
}

// BD09ToWGS84 goes through GCJ-02.
func BD09ToWGS84(lng, lat float64) (float64, float64) {
	return GCJ02ToWGS84(BD09ToGCJ02(lng, lat))
}

// Convert converts a point between any two of WGS84, GCJ-02 and BD-09.
func Convert(from, to Datum, lng, lat float64) (float64, float64, error) {
	if !(lng >= -180 && lng <= 180) {
		return 0, 0, invalid("lng", "%g is not a longitude (−180 to 180)", lng)
	}
	if !(lat >= -90 && lat <= 90) {
		return 0, 0, invalid("lat", "%g is not a latitude (−90 to 90)", lat)
	}
	toGCJ := map[Datum]func(float64, float64) (float64, float64){
		WGS84: WGS84ToGCJ02, GCJ02: func(x, y float64) (float64, float64) { return x, y }, BD09: BD09ToGCJ02,
	}
	fromGCJ := map[Datum]func(float64, float64) (float64, float64){
		WGS84: GCJ02ToWGS84, GCJ02: func(x, y float64) (float64, float64) { return x, y }, BD09: GCJ02ToBD09,
	}
	in, ok := toGCJ[from]
	if !ok {
		return 0, 0, invalid("from", "%q is not wgs84, gcj02 or bd09", from)
	}
	out, ok := fromGCJ[to]
	if !ok {
		return 0, 0, invalid("to", "%q is not wgs84, gcj02 or bd09", to)
	}
	if from == to {
		return lng, lat, nil
	}
	x, y := out(in(lng, lat))
	return x, y, nil
}
