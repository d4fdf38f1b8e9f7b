package telemetry

import (
	"math"
	"math/bits"
)

// Downsample reduces a series (ts ascending, unix ms; len(ts)==len(vals)) to
// at most max points, keeping the shape. The first and last samples are
// always kept; the range [ts[0], ts[last]] is cut into (max-2)/2 equal-width
// time buckets and each bucket contributes the minimum and the maximum of the
// other samples that fall in it, in time order (one point when they are the
// same sample, none when the bucket is empty). Two points per bucket plus the
// two ends is what keeps the result within max: max/2 buckets would overshoot
// by up to two whenever an end sample is not its bucket's extreme.
//
// A series of at most max points is returned unchanged (the same slices).
// max < 4 is treated as 4. The inputs are never modified, and nothing is
// allocated besides the two result slices of capacity max. Timestamps come
// out strictly ascending when they go in that way.
//
// Min/max buckets rather than LTTB (largest triangle three buckets): LTTB
// picks the point that best preserves the visual area, so a one-sample spike
// next to another tall sample can be dropped. An alert fires on a single
// reading over its threshold, and the chart must show the reading that fired
// it, so every bucket's extremes are kept whatever the zoom.
//
// Downsample panics if len(ts) != len(vals).
func Downsample(ts []int64, vals []float64, max int) ([]int64, []float64) {
	n := len(ts)
	if len(vals) != n {
		panic("telemetry: Downsample: len(ts) != len(vals)")
	}
	if max < 4 {
		max = 4
	}
	if n <= max {
		return ts, vals
	}

	buckets := uint64((max - 2) / 2)
	first := ts[0]
	// Offsets from the first sample are taken as uint64: the difference of
	// two ascending int64 timestamps always fits, even across the sign
	// boundary, so nothing below can wrap.
	offset := func(t int64) uint64 { return uint64(t) - uint64(first) }
	span := offset(ts[n-1])
	// Products are taken in 128 bits, since unix ms times a large max
	// overflows 64; each quotient is at most buckets or span, so Div64
	// cannot overflow.
	bucketOf := func(off uint64) uint64 {
		if span == 0 {
			return 0
		}
		hi, lo := bits.Mul64(off, buckets)
		q, _ := bits.Div64(hi, lo, span)
		return min(q, buckets-1) // the last instant belongs to the last bucket
	}
	// endOf is the first offset past bucket b: ceil((b+1)*span/buckets).
	// Comparing against it spares a division per sample.
	endOf := func(b uint64) uint64 {
		if span == 0 || b+1 >= buckets {
			return math.MaxUint64
		}
		hi, lo := bits.Mul64(b+1, span)
		q, r := bits.Div64(hi, lo, buckets)
		if r != 0 {
			q++
		}
		return q
	}

	outTs := make([]int64, 0, max)
	outVals := make([]float64, 0, max)
	emit := func(i int) {
		outTs = append(outTs, ts[i])
		outVals = append(outVals, vals[i])
	}
	flush := func(minAt, maxAt int) {
		switch {
		case minAt == maxAt:
			emit(minAt)
		case minAt < maxAt:
			emit(minAt)
			emit(maxAt)
		default:
			emit(maxAt)
			emit(minAt)
		}
	}

	emit(0)
	// The interior samples, 1..n-2, are scanned once; ascending timestamps
	// mean a bucket's samples are contiguous, so only the current bucket's
	// extremes need remembering.
	cur := bucketOf(offset(ts[1]))
	end := endOf(cur)
	minAt, maxAt := 1, 1
	for i := 2; i < n-1; i++ {
		if off := offset(ts[i]); off >= end {
			// The bucket is checked, not assumed: an offset of exactly
			// MaxUint64 stays in the last bucket.
			if b := bucketOf(off); b != cur {
				flush(minAt, maxAt)
				cur, end, minAt, maxAt = b, endOf(b), i, i
				continue
			}
		}
		// Strict comparisons keep the earliest of equal extremes, so a
		// flat bucket yields a single point.
		if vals[i] < vals[minAt] {
			minAt = i
		}
		if vals[i] > vals[maxAt] {
			maxAt = i
		}
	}
	flush(minAt, maxAt)
	emit(n - 1)
	return outTs, outVals
}
