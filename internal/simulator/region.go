package simulator

import "math"

// Region is the area a simulated fleet is scattered over.
type Region struct {
	Name     string
	Lat, Lng float64 // centre, degrees
	RadiusKm float64
}

// DefaultRegion is farmland around Dezhou on the North China Plain
// (Shandong, by the Hebei border): flat, irrigated winter wheat and summer
// maize, the kind of place these devices are sold for.
var DefaultRegion = Region{Name: "德州 Dezhou", Lat: 37.45, Lng: 116.30, RadiusKm: 25}

// kmPerDegree is the length of a degree of latitude.
const kmPerDegree = 111.32

// Place returns the position of the i-th device of a fleet, uniformly
// scattered over the region's disc. It depends only on its arguments.
func Place(r Region, i int, seed int64) (lat, lng float64) {
	rng := newRand(seed, hash(0x91ace, uint64(int64(i))))
	// sqrt makes the density uniform over the disc's area, not its radius.
	dist := r.RadiusKm * math.Sqrt(rng.Float64())
	bearing := 2 * math.Pi * rng.Float64()
	lat = r.Lat + dist*math.Cos(bearing)/kmPerDegree
	lng = r.Lng + dist*math.Sin(bearing)/(kmPerDegree*math.Cos(r.Lat*math.Pi/180))
	// Six decimals is ~0.1 m, as precise as a survey GPS.
	return math.Round(lat*1e6) / 1e6, math.Round(lng*1e6) / 1e6
}
