package telemetry

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// series builds n samples every step ms from start, with values from f.
func series(n int, start, step int64, f func(i int) float64) ([]int64, []float64) {
	ts := make([]int64, n)
	vals := make([]float64, n)
	for i := range n {
		ts[i] = start + int64(i)*step
		vals[i] = f(i)
	}
	return ts, vals
}

// checkDownsample asserts the properties every result must have.
func checkDownsample(t *testing.T, ts []int64, vals []float64, maxPoints int, gotTs []int64, gotVals []float64) {
	t.Helper()
	limit := max(maxPoints, 4)
	if len(gotTs) != len(gotVals) {
		t.Fatalf("len(ts)=%d, len(vals)=%d", len(gotTs), len(gotVals))
	}
	if len(gotTs) > limit {
		t.Fatalf("n=%d max=%d: got %d points", len(ts), maxPoints, len(gotTs))
	}
	if len(ts) == 0 {
		return
	}
	if gotTs[0] != ts[0] || gotVals[0] != vals[0] {
		t.Errorf("first sample (%d, %v) not kept: got (%d, %v)", ts[0], vals[0], gotTs[0], gotVals[0])
	}
	n, m := len(ts), len(gotTs)
	if gotTs[m-1] != ts[n-1] || gotVals[m-1] != vals[n-1] {
		t.Errorf("last sample (%d, %v) not kept: got (%d, %v)", ts[n-1], vals[n-1], gotTs[m-1], gotVals[m-1])
	}
	for i := 1; i < m; i++ {
		if gotTs[i] <= gotTs[i-1] {
			t.Fatalf("timestamps not strictly ascending at %d: %d after %d", i, gotTs[i], gotTs[i-1])
		}
	}
	if lo, hi := slices.Min(vals), slices.Max(vals); !slices.Contains(gotVals, lo) || !slices.Contains(gotVals, hi) {
		t.Errorf("global min %v or max %v missing", lo, hi)
	}
	// Every output point is an input sample, not an interpolation.
	for i, at := range gotTs {
		j, ok := slices.BinarySearch(ts, at)
		if !ok || vals[j] != gotVals[i] {
			t.Fatalf("point (%d, %v) is not an input sample", at, gotVals[i])
		}
	}
}

func TestDownsample_ShortUnchanged(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 10, 1000} {
		ts, vals := series(n, 1_700_000_000_000, 60_000, func(i int) float64 { return float64(i) })
		gotTs, gotVals := Downsample(ts, vals, 1000)
		if len(gotTs) != n || &gotTs[0] != &ts[0] || &gotVals[0] != &vals[0] {
			t.Errorf("n=%d: series of at most max points not returned as is", n)
		}
	}
	t.Run("Empty", func(t *testing.T) {
		gotTs, gotVals := Downsample(nil, nil, 10)
		if gotTs != nil || gotVals != nil {
			t.Errorf("got %v, %v", gotTs, gotVals)
		}
	})
	t.Run("SmallMaxIsFour", func(t *testing.T) {
		ts, vals := series(4, 0, 1, func(i int) float64 { return float64(i) })
		if gotTs, _ := Downsample(ts, vals, 1); &gotTs[0] != &ts[0] {
			t.Error("4 points with max 1 should be returned as is")
		}
	})
}

func TestDownsample_Properties(t *testing.T) {
	r := rand.New(rand.NewPCG(20261122, 1))
	for range 2000 {
		n := r.IntN(5000)
		maxPoints := r.IntN(300) - 5 // includes max < 4, even and odd
		if r.IntN(10) == 0 {
			maxPoints = n - r.IntN(3) // just under and at the length
		}
		ts := make([]int64, n)
		vals := make([]float64, n)
		at := int64(r.IntN(1 << 40))
		for i := range n {
			// Mostly regular, with the occasional hour-long gap.
			at += 1 + int64(r.IntN(1000))
			if r.IntN(50) == 0 {
				at += 3_600_000
			}
			ts[i] = at
			vals[i] = r.NormFloat64() * 10
		}
		origTs, origVals := slices.Clone(ts), slices.Clone(vals)
		gotTs, gotVals := Downsample(ts, vals, maxPoints)
		checkDownsample(t, ts, vals, maxPoints, gotTs, gotVals)
		if !slices.Equal(ts, origTs) || !slices.Equal(vals, origVals) {
			t.Fatalf("n=%d max=%d: input modified", n, maxPoints)
		}
		if t.Failed() {
			t.Fatalf("n=%d max=%d failed", n, maxPoints)
		}
	}
}

// referenceDownsample is the definition, computed the slow way: each interior
// sample's bucket in arbitrary precision, then each bucket's first minimum and
// first maximum.
func referenceDownsample(ts []int64, vals []float64, maxPoints int) ([]int64, []float64) {
	n := len(ts)
	maxPoints = max(maxPoints, 4)
	if n <= maxPoints {
		return ts, vals
	}
	buckets := int64((maxPoints - 2) / 2)
	span := new(big.Int).Sub(big.NewInt(ts[n-1]), big.NewInt(ts[0]))
	bucketOf := func(t int64) int64 {
		if span.Sign() == 0 {
			return 0
		}
		q := new(big.Int).Sub(big.NewInt(t), big.NewInt(ts[0]))
		q.Mul(q, big.NewInt(buckets)).Quo(q, span)
		return min(q.Int64(), buckets-1)
	}
	picked := []int{0}
	for i := 1; i < n-1; {
		b, lo, hi := bucketOf(ts[i]), i, i
		j := i + 1
		for ; j < n-1 && bucketOf(ts[j]) == b; j++ {
			if vals[j] < vals[lo] {
				lo = j
			}
			if vals[j] > vals[hi] {
				hi = j
			}
		}
		picked = append(picked, min(lo, hi))
		if lo != hi {
			picked = append(picked, max(lo, hi))
		}
		i = j
	}
	picked = append(picked, n-1)
	var outTs []int64
	var outVals []float64
	for _, i := range picked {
		outTs = append(outTs, ts[i])
		outVals = append(outVals, vals[i])
	}
	return outTs, outVals
}

func TestDownsample_MatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for range 500 {
		n := r.IntN(3000)
		maxPoints := r.IntN(200)
		ts := make([]int64, n)
		vals := make([]float64, n)
		at := r.Int64() - 1<<62
		step := int64(1) << r.IntN(40) // from 1 ms to centuries between samples
		for i := range n {
			at += 1 + r.Int64N(step)
			ts[i] = at
			vals[i] = float64(r.IntN(20)) // many ties
		}
		gotTs, gotVals := Downsample(ts, vals, maxPoints)
		wantTs, wantVals := referenceDownsample(ts, vals, maxPoints)
		if !slices.Equal(gotTs, wantTs) || !slices.Equal(gotVals, wantVals) {
			t.Fatalf("n=%d max=%d step=%d: got %v %v, want %v %v", n, maxPoints, step, gotTs, gotVals, wantTs, wantVals)
		}
	}
}

func TestDownsample_ExtremesAtEnds(t *testing.T) {
	// The worst case for the point count: the first and last samples are
	// not their buckets' extremes, and every bucket has two distinct ones.
	for _, maxPoints := range []int{4, 5, 6, 7, 100, 101} {
		ts, vals := series(10*maxPoints, 0, 1000, func(i int) float64 {
			return float64(i%3) - 1 // -1, 0, 1, -1, 0, 1, …
		})
		vals[0], vals[len(vals)-1] = 0.5, 0.5
		gotTs, gotVals := Downsample(ts, vals, maxPoints)
		checkDownsample(t, ts, vals, maxPoints, gotTs, gotVals)
		if want := maxPoints - maxPoints%2; len(gotTs) != want {
			t.Errorf("max=%d: got %d points, want all %d used", maxPoints, len(gotTs), want)
		}
	}
}

func TestDownsample_SpikeSurvives(t *testing.T) {
	const n = 100_000
	for _, at := range []int{1, 777, n / 2, n - 2} {
		ts, vals := series(n, 1_700_000_000_000, 60_000, func(i int) float64 {
			return 20 + math.Sin(float64(i)/500)
		})
		vals[at] = 95 // one reading over an alert threshold
		vals[at+1] = -40
		gotTs, gotVals := Downsample(ts, vals, 1000)
		checkDownsample(t, ts, vals, 1000, gotTs, gotVals)
		i := slices.Index(gotTs, ts[at])
		if i < 0 || gotVals[i] != 95 {
			t.Errorf("spike at %d lost", at)
		}
		if i := slices.Index(gotTs, ts[at+1]); i < 0 || gotVals[i] != -40 {
			t.Errorf("dip at %d lost", at+1)
		}
	}
}

func TestDownsample_Gaps(t *testing.T) {
	// A device that was offline for most of the range: two dense runs far
	// apart leave almost every bucket empty.
	ts, vals := series(600, 0, 60_000, func(i int) float64 { return float64(i % 17) })
	for i := 300; i < 600; i++ {
		ts[i] += 365 * 24 * 3_600_000
	}
	vals[450] = 1000
	gotTs, gotVals := Downsample(ts, vals, 100)
	checkDownsample(t, ts, vals, 100, gotTs, gotVals)
	// Each run spans under one bucket (a year / 49), so each yields at most
	// its min and max besides the ends.
	if len(gotTs) > 6 {
		t.Errorf("got %d points, want at most 6: %v", len(gotTs), gotTs)
	}
}

func TestDownsample_FlatAndDuplicateValues(t *testing.T) {
	ts, vals := series(10_000, 0, 1000, func(int) float64 { return 7 })
	gotTs, gotVals := Downsample(ts, vals, 200)
	checkDownsample(t, ts, vals, 200, gotTs, gotVals)
	// A flat bucket contributes one point, not two.
	if len(gotTs) != 2+99 {
		t.Errorf("got %d points, want %d", len(gotTs), 2+99)
	}
}

func TestDownsample_ExtremeTimestamps(t *testing.T) {
	// Spans near the int64 limits must not overflow the bucket arithmetic.
	ts := []int64{math.MinInt64, math.MinInt64 + 1, -1, 0, 1, math.MaxInt64 - 1, math.MaxInt64}
	vals := []float64{0, 5, -3, 9, 1, -8, 2}
	gotTs, gotVals := Downsample(ts, vals, 4)
	checkDownsample(t, ts, vals, 4, gotTs, gotVals)
}

func TestDownsample_LengthMismatchPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	Downsample(make([]int64, 3), make([]float64, 2), 10)
}

// BenchmarkDownsample is a year of 10-minute readings drawn as a 1000-point chart.
func BenchmarkDownsample(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	ts, vals := series(52_560, 1_700_000_000_000, 600_000, func(int) float64 { return r.NormFloat64() })
	b.ReportAllocs()
	for b.Loop() {
		Downsample(ts, vals, 1000)
	}
}
