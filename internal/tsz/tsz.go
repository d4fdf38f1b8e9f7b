// Package tsz packs one series of readings — ascending unix-millisecond
// times and float64 values — into a compact, lossless chunk (the format is
// described in docs/storage.md).
//
// Times are stored as delta-of-delta in variable-length bit fields, so a
// series at a steady interval costs one bit a time. Values are stored one
// of two ways, whichever is exact: as integers scaled by a power of ten
// (23.4 is 234 at scale 1) with each delta zigzagged into a variable-length
// bit field — a reading at a fixed precision that changes slowly costs a few
// bits — or, when no scale reproduces every value bit for bit, as the XOR
// of each float with the one before (Gorilla). Either way every value
// decodes to the float64 that was encoded, bit for bit.
package tsz

import (
	"errors"
	"math"
	"math/bits"
	"slices"
)

// Version is the chunk format's first byte.
const Version = 1

const (
	modeScaled = 0 // values are integers scaled by 10^scale
	modeXOR    = 1 // values are XORed floats
)

// maxScale is the largest power of ten tried for scaled values.
const maxScale = 6

var pow10 = [...]float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6}

// ErrCorrupt is returned for a chunk that does not decode.
var ErrCorrupt = errors.New("tsz: corrupt chunk")

// Encode appends the chunk of (ts[i], v[i]) to dst and returns it. ts must
// be strictly ascending and as long as v; Encode panics otherwise.
func Encode(dst []byte, ts []int64, v []float64) []byte {
	if len(ts) != len(v) {
		panic("tsz: times and values differ in length")
	}
	for i := 1; i < len(ts); i++ {
		if ts[i] <= ts[i-1] {
			panic("tsz: times not strictly ascending")
		}
	}
	scale, ok := scaleOf(v)
	mode := byte(modeScaled)
	if !ok {
		mode = modeXOR
	}
	dst = append(dst, Version, mode<<4|byte(scale))
	dst = appendUvarint(dst, uint64(len(ts)))
	if len(ts) == 0 {
		return dst
	}
	w := bitWriter{buf: dst}
	encodeTimes(&w, ts)
	if mode == modeScaled {
		encodeScaled(&w, v, scale)
	} else {
		encodeXOR(&w, v)
	}
	return w.finish()
}

// Len returns the number of readings in a chunk without decoding it.
func Len(chunk []byte) (int, error) {
	if len(chunk) < 3 || chunk[0] != Version {
		return 0, ErrCorrupt
	}
	n, k := uvarint(chunk[2:])
	if k <= 0 || n > math.MaxInt32 {
		return 0, ErrCorrupt
	}
	return int(n), nil
}

// Decode appends the chunk's times and values to ts and v.
func Decode(chunk []byte, ts []int64, v []float64) ([]int64, []float64, error) {
	if len(chunk) < 3 || chunk[0] != Version {
		return ts, v, ErrCorrupt
	}
	mode, scale := chunk[1]>>4, int(chunk[1]&0x0f)
	if mode > modeXOR || scale > maxScale {
		return ts, v, ErrCorrupt
	}
	n64, k := uvarint(chunk[2:])
	// Every reading takes at least two bits.
	if k <= 0 || n64 > uint64(len(chunk))*4 {
		return ts, v, ErrCorrupt
	}
	n := int(n64)
	if n == 0 {
		return ts, v, nil
	}
	r := bitReader{buf: chunk[2+k:]}
	base := len(ts)
	ts = growInt(ts, n)
	v = growFloat(v, n)
	decodeTimes(&r, ts[base:])
	if mode == modeScaled {
		decodeScaled(&r, v[base:], scale)
	} else {
		decodeXOR(&r, v[base:])
	}
	if r.err {
		return ts[:base], v[:base], ErrCorrupt
	}
	return ts, v, nil
}

// growInt and growFloat extend s by n elements, growing the backing array
// as append does: decoding a year of chunks into one slice copies it a
// few times, not once a chunk.
func growInt(s []int64, n int) []int64 { return slices.Grow(s, n)[:len(s)+n] }

func growFloat(s []float64, n int) []float64 { return slices.Grow(s, n)[:len(s)+n] }

// scaleOf returns the smallest scale at which every value is an integer
// that decodes back to the same float64 bits, if any.
func scaleOf(v []float64) (int, bool) {
	scale := 0
	for _, x := range v {
		for {
			if exactAt(x, scale) {
				break
			}
			scale++
			if scale > maxScale {
				return 0, false
			}
		}
	}
	return scale, true
}

// maxScaled bounds the scaled integers: their deltas must fit 64 bits.
const maxScaled = 1 << 53

func exactAt(x float64, scale int) bool {
	if x == 0 && math.Signbit(x) {
		return false // -0 has no integer
	}
	m := x * pow10[scale]
	if !(m > -maxScaled && m < maxScaled) { // also false for NaN and ±Inf
		return false
	}
	r := math.Round(m)
	return math.Float64bits(r/pow10[scale]) == math.Float64bits(x)
}

func encodeTimes(w *bitWriter, ts []int64) {
	w.writeBits(uint64(ts[0]), 64)
	if len(ts) == 1 {
		return
	}
	delta := ts[1] - ts[0]
	w.writeVar(uint64(delta))
	for i := 2; i < len(ts); i++ {
		d := ts[i] - ts[i-1]
		w.writeDod(zigzag(d - delta))
		delta = d
	}
}

func decodeTimes(r *bitReader, ts []int64) {
	ts[0] = int64(r.readBits(64))
	if len(ts) == 1 {
		return
	}
	delta := int64(r.readVar())
	ts[1] = ts[0] + delta
	for i := 2; i < len(ts); i++ {
		delta += unzigzag(r.readDod())
		ts[i] = ts[i-1] + delta
	}
}

func encodeScaled(w *bitWriter, v []float64, scale int) {
	p := pow10[scale]
	prev := int64(math.Round(v[0] * p))
	w.writeBits(zigzag(prev), 64)
	for _, x := range v[1:] {
		cur := int64(math.Round(x * p))
		w.writeDod(zigzag(cur - prev))
		prev = cur
	}
}

func decodeScaled(r *bitReader, v []float64, scale int) {
	p := pow10[scale]
	cur := unzigzag(r.readBits(64))
	v[0] = float64(cur) / p
	for i := 1; i < len(v); i++ {
		cur += unzigzag(r.readDod())
		v[i] = float64(cur) / p
	}
}

// encodeXOR writes the Gorilla encoding: '0' for a repeated value, '10'
// for a XOR whose meaningful bits fit the previous window, '11' with a new
// window (5 bits of leading zeros, 6 of length) otherwise.
func encodeXOR(w *bitWriter, v []float64) {
	prev := math.Float64bits(v[0])
	w.writeBits(prev, 64)
	lead, trail := uint8(255), uint8(0)
	for _, x := range v[1:] {
		cur := math.Float64bits(x)
		xor := cur ^ prev
		prev = cur
		if xor == 0 {
			w.writeBit(0)
			continue
		}
		l, t := uint8(bits.LeadingZeros64(xor)), uint8(bits.TrailingZeros64(xor))
		if l > 31 {
			l = 31
		}
		if lead != 255 && l >= lead && t >= trail {
			w.writeBits(0b10, 2)
			w.writeBits(xor>>trail, 64-int(lead)-int(trail))
			continue
		}
		lead, trail = l, t
		sig := 64 - int(l) - int(t)
		w.writeBits(0b11, 2)
		w.writeBits(uint64(l), 5)
		w.writeBits(uint64(sig-1), 6) // 1..64 stored as 0..63
		w.writeBits(xor>>t, sig)
	}
}

func decodeXOR(r *bitReader, v []float64) {
	prev := r.readBits(64)
	v[0] = math.Float64frombits(prev)
	var lead, trail int
	for i := 1; i < len(v); i++ {
		if r.readBit() == 0 {
			v[i] = math.Float64frombits(prev)
			continue
		}
		if r.readBit() == 1 {
			lead = int(r.readBits(5))
			sig := int(r.readBits(6)) + 1
			trail = 64 - lead - sig
			if trail < 0 {
				r.err = true
				return
			}
		}
		prev ^= r.readBits(64-lead-trail) << trail
		v[i] = math.Float64frombits(prev)
	}
}

func zigzag(x int64) uint64   { return uint64(x<<1) ^ uint64(x>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func appendUvarint(b []byte, x uint64) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}

func uvarint(b []byte) (uint64, int) {
	var x uint64
	var s uint
	for i, c := range b {
		if i == 10 {
			return 0, -1
		}
		if c < 0x80 {
			return x | uint64(c)<<s, i + 1
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	return 0, 0
}
