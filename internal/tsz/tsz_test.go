package tsz

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// roundTrip encodes and decodes, failing unless every time and every value's
// bits come back.
func roundTrip(t testing.TB, ts []int64, v []float64) []byte {
	t.Helper()
	chunk := Encode(nil, ts, v)
	n, err := Len(chunk)
	if err != nil || n != len(ts) {
		t.Fatalf("Len = %d, %v; want %d", n, err, len(ts))
	}
	gotT, gotV, err := Decode(chunk, nil, nil)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !slices.Equal(gotT, ts) {
		t.Fatalf("times differ:\n got %v\nwant %v", gotT, ts)
	}
	if len(gotV) != len(v) {
		t.Fatalf("%d values, want %d", len(gotV), len(v))
	}
	for i := range v {
		if math.Float64bits(gotV[i]) != math.Float64bits(v[i]) {
			t.Fatalf("value %d: got %v (%#x), want %v (%#x)", i, gotV[i], math.Float64bits(gotV[i]), v[i], math.Float64bits(v[i]))
		}
	}
	return chunk
}

// randomSeries makes a series with a steady interval, jitter, gaps and a
// value walk at a random precision, with extremes mixed in when wild.
func randomSeries(r *rand.Rand, n int, wild bool) ([]int64, []float64) {
	ts := make([]int64, 0, n)
	v := make([]float64, 0, n)
	t := r.Int64N(1<<42) - 1<<40 // negative times too
	step := []int64{1, 1000, 60_000, 600_000, 3_600_000}[r.IntN(5)]
	scale := pow10[r.IntN(4)]
	x := math.Round(r.NormFloat64()*1000) / scale
	for range n {
		ts = append(ts, t)
		switch {
		case wild && r.IntN(20) == 0:
			x = []float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -0.0, 0, 1e300, -1e-300,
				math.Float64frombits(r.Uint64() &^ (0x7ff << 52)), 9007199254740993, 0.1 + 0.2}[r.IntN(10)]
		case wild && r.IntN(10) == 0:
			x = r.NormFloat64() * 1e6
		default:
			x = math.Round(x*scale+float64(r.IntN(7)-3)) / scale
		}
		v = append(v, x)
		jitter := int64(0)
		if r.IntN(3) == 0 {
			jitter = r.Int64N(step/10+1) - step/20
		}
		gap := int64(1)
		if r.IntN(30) == 0 {
			gap = r.Int64N(500) + 2 // missed reports
		}
		t += max(step*gap+jitter, 1)
	}
	return ts, v
}

func TestRoundTrip_Property(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		n := r.IntN(400)
		if i%100 == 0 {
			n = r.IntN(20000)
		}
		ts, v := randomSeries(r, n, i%2 == 1)
		roundTrip(t, ts, v)
	}
}

func TestRoundTrip_Edges(t *testing.T) {
	roundTrip(t, nil, nil)
	roundTrip(t, []int64{42}, []float64{-0.0})
	roundTrip(t, []int64{math.MinInt64, 0, math.MaxInt64}, []float64{math.Inf(1), math.NaN(), math.Inf(-1)})
	roundTrip(t, []int64{1, 2, 3}, []float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64})
	roundTrip(t, []int64{1, 2}, []float64{1 << 53, -(1 << 53)}) // beyond the scaled range
	roundTrip(t, []int64{1, 2, 3}, []float64{0.1, 0.2, 0.1 + 0.2})
	// Appending to existing slices keeps what was there.
	chunk := Encode(nil, []int64{5, 6}, []float64{1.5, 2.5})
	ts, v, err := Decode(chunk, []int64{1}, []float64{9})
	if err != nil || !slices.Equal(ts, []int64{1, 5, 6}) || !slices.Equal(v, []float64{9, 1.5, 2.5}) {
		t.Fatalf("append decode = %v %v %v", ts, v, err)
	}
}

func TestEncode_ChoosesScaledWhenExact(t *testing.T) {
	ts := []int64{0, 600_000, 1_200_000}
	if c := Encode(nil, ts, []float64{23.4, 23.5, 23.45}); c[1] != modeScaled<<4|2 {
		t.Fatalf("mode byte %#x, want scaled at 2", c[1])
	}
	if c := Encode(nil, ts, []float64{23.4, math.Pi, 1}); c[1]>>4 != modeXOR {
		t.Fatalf("mode byte %#x, want XOR", c[1])
	}
}

// A sensor at a fixed interval and precision, slowly changing: the case
// the format is for, about a byte a reading or less.
func TestEncode_SensorSize(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 144
	ts, v := make([]int64, n), make([]float64, n)
	x := 235
	for i := range n {
		ts[i] = 1_700_000_000_000 + int64(i)*600_000
		x += r.IntN(5) - 2
		v[i] = float64(x) / 10
	}
	c := roundTrip(t, ts, v)
	if per := float64(len(c)) / float64(n); per > 1.2 {
		t.Fatalf("%.2f bytes a reading, want ≤ 1.2", per)
	}
}

func TestDecode_Corrupt(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ts, v := randomSeries(r, 300, true)
	c := Encode(nil, ts, v)
	for cut := range len(c) - 1 {
		if _, _, err := Decode(c[:cut], nil, nil); err == nil {
			// A cut that still decodes must have lost only padding bits.
			gotT, _, _ := Decode(c[:cut], nil, nil)
			if len(gotT) != len(ts) {
				t.Fatalf("cut at %d decoded %d readings without error", cut, len(gotT))
			}
		}
	}
	if _, _, err := Decode([]byte{9, 0, 1}, nil, nil); err == nil {
		t.Fatal("unknown version decoded")
	}
}

func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Fuzz(func(t *testing.T, b []byte) {
		var ts []int64
		var v []float64
		t0 := int64(0)
		for len(b) >= 9 {
			t0 += int64(b[0]) + 1
			u := uint64(0)
			for _, c := range b[1:9] {
				u = u<<8 | uint64(c)
			}
			ts, v = append(ts, t0), append(v, math.Float64frombits(u))
			if b[0]&1 == 0 && len(v) > 0 {
				v[len(v)-1] = float64(int64(u)%100000) / 10 // mostly scaled
			}
			b = b[9:]
		}
		roundTrip(t, ts, v)
	})
}

func FuzzDecode(f *testing.F) {
	f.Add(Encode(nil, []int64{1, 2, 3}, []float64{1, 2, 3.5}))
	f.Add(Encode(nil, []int64{1, 2, 3}, []float64{1, math.Pi, 3.5}))
	f.Fuzz(func(t *testing.T, b []byte) {
		ts, v, err := Decode(b, nil, nil)
		if err == nil && len(ts) != len(v) {
			t.Fatalf("%d times, %d values", len(ts), len(v))
		}
	})
}

func benchSeries(n int) ([]int64, []float64) {
	r := rand.New(rand.NewPCG(7, 8))
	ts, v := make([]int64, n), make([]float64, n)
	x := 235
	for i := range n {
		ts[i] = 1_700_000_000_000 + int64(i)*600_000 + r.Int64N(3)
		x += r.IntN(5) - 2
		v[i] = float64(x) / 10
	}
	return ts, v
}

// BenchmarkEncode: a day of a 10-minute series per op; readings/s reported.
func BenchmarkEncode(b *testing.B) {
	ts, v := benchSeries(144)
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		buf = Encode(buf[:0], ts, v)
	}
	b.ReportMetric(float64(b.N*len(ts))/b.Elapsed().Seconds(), "readings/s")
	b.ReportMetric(float64(len(buf))/float64(len(ts)), "bytes/reading")
}

func BenchmarkDecode(b *testing.B) {
	ts, v := benchSeries(144)
	c := Encode(nil, ts, v)
	gt, gv := make([]int64, 0, 144), make([]float64, 0, 144)
	b.ReportAllocs()
	for b.Loop() {
		gt, gv, _ = Decode(c, gt[:0], gv[:0])
	}
	b.ReportMetric(float64(b.N*len(ts))/b.Elapsed().Seconds(), "readings/s")
}
