package simulator

import (
	"math"
	"math/rand/v2"
	"time"
)

// The shared regional weather must be identical for every device at the same
// instant and must not depend on which reports were requested before, so it
// is a pure function of time built from a hash rather than a random stream.
// Per-device variation comes from each Sim's own PCG (see sim.go).

// mix64 is the splitmix64 finalizer: cheap, and every input bit affects every
// output bit, which is what value noise needs.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// hash combines keys into one well-mixed value.
func hash(keys ...uint64) uint64 {
	h := uint64(0x2545f4914f6cdd1d)
	for _, k := range keys {
		h = mix64(h ^ k)
	}
	return h
}

// unit maps keys to a uniform number in [0, 1).
func unit(keys ...uint64) float64 {
	return float64(hash(keys...)>>11) / (1 << 53)
}

// smooth is one-dimensional value noise in [-1, 1]: independent values at
// integer x, joined by a smoothstep so that the curve and its slope are
// continuous. Scaling x sets how fast the quantity wanders.
func smooth(stream uint64, x float64) float64 {
	i := math.Floor(x)
	f := x - i
	a := 2*unit(stream, uint64(int64(i))) - 1
	b := 2*unit(stream, uint64(int64(i)+1)) - 1
	t := f * f * (3 - 2*f)
	return a + (b-a)*t
}

// Streams of the regional weather; each names an independent noise series.
const (
	streamRainDay uint64 = iota + 1
	streamRainBin
	streamTemp
	streamAmp
	streamDew
	streamPressure
	streamWind
	streamDirSlow
	streamDirFast
	streamCloud
	streamCloudFast
	streamHaze
	streamDust
)

// newRand returns the PCG stream of a device; salt separates the device's
// independent uses (constants, report noise, images).
func newRand(seed int64, salt uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), mix64(salt^0x5851f42d4c957f2d)))
}

// cst is China Standard Time. Calendar days, schedules (irrigation, trap
// lamps) and the rain-event calendar follow the clock on the farm's wall.
var cst = time.FixedZone("CST", 8*3600)

// cstDay numbers the calendar day (in CST) containing t.
func cstDay(t time.Time) int64 {
	return floorDiv(t.Unix()+8*3600, 86400)
}

// dayStart is the first instant of CST day d.
func dayStart(d int64) time.Time {
	return time.Unix(d*86400-8*3600, 0)
}

// cstHour is the wall-clock hour of day in CST, with fractions.
func cstHour(t time.Time) float64 {
	s := float64(t.UnixMilli()-(cstDay(t)*86400-8*3600)*1000) / 1000
	return s / 3600
}

// hours is t in hours since the Unix epoch, the axis of the noise series.
func hours(t time.Time) float64 { return float64(t.UnixMilli()) / 3.6e6 }

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// relax moves v towards target as a first-order lag with time constant tau
// over dt (same units); exact for any step, so it never overshoots.
func relax(v, target, dt, tau float64) float64 {
	return target + (v-target)*math.Exp(-dt/tau)
}

// between returns a uniform number in [lo, hi) from r.
func between(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
