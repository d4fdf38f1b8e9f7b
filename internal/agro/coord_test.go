package agro

import (
	"math"
	"testing"
)

// Published vectors: Tiananmen in WGS84 and GCJ-02, and GCJ-02 → BD-09
// for central Beijing, to the 6 and 5 decimals they are usually quoted with
// (the BD-09 longitude 116.410369… is quoted cut, not rounded).
func TestCoordinates_PublishedVectors(t *testing.T) {
	lng, lat := WGS84ToGCJ02(116.391275, 39.906217)
	near(t, "GCJ-02 lng", lng, 116.397519, 5e-6)
	near(t, "GCJ-02 lat", lat, 39.907620, 5e-6)
	lng, lat = GCJ02ToBD09(116.404, 39.915)
	near(t, "BD-09 lng", lng, 116.41036, 1e-5)
	near(t, "BD-09 lat", lat, 39.92134, 1e-5)
}

// The forward conversions agree with web/src/lib/geo.ts: these are its
// outputs (Node.js, the same points) to the last digit JSON printed.
func TestCoordinates_AgreeWithWebApp(t *testing.T) {
	for _, tc := range []struct {
		wgs, gcj, bdOfGCJ [2]float64
	}{
		{[2]float64{116.391275, 39.906217}, [2]float64{116.39751600497861, 39.907618208170675}, [2]float64{116.40388994480598, 39.91396193189531}},
		{[2]float64{121.4737, 31.2304}, [2]float64{121.47822305927693, 31.22845773757727}, [2]float64{121.484781468503, 31.234310593689997}},
		{[2]float64{87.6168, 43.8256}, [2]float64{87.61964994946926, 43.82680539311119}, [2]float64{87.62609977081571, 43.83294979479329}},
		{[2]float64{91.1409, 29.6456}, [2]float64{91.14242933648593, 29.642863987365978}, [2]float64{91.14902038765206, 29.64859369309066}},
		{[2]float64{110.3312, 20.0311}, [2]float64{110.33557084396945, 20.029053664963516}, [2]float64{110.34211865086186, 20.034729582393396}},
		{[2]float64{72.1, 38}, [2]float64{72.10424580267322, 37.999983273718506}, [2]float64{72.1106531226241, 38.006122000681984}},
		{[2]float64{137.8, 55}, [2]float64{137.80893196266277, 55.002541844226066}, [2]float64{137.8155847401011, 55.00820179129369}},
		{[2]float64{2.35, 48.85}, [2]float64{2.35, 48.85}, [2]float64{2.3566273965497357, 48.856003882803684}},
		{[2]float64{-74, 40.7}, [2]float64{-74, 40.7}, [2]float64{-73.99345412640893, 40.70611934705461}},
	} {
		glng, glat := WGS84ToGCJ02(tc.wgs[0], tc.wgs[1])
		near(t, "gcj lng", glng, tc.gcj[0], 1e-12)
		near(t, "gcj lat", glat, tc.gcj[1], 1e-12)
		blng, blat := WGS84ToBD09(tc.wgs[0], tc.wgs[1])
		near(t, "bd lng", blng, tc.bdOfGCJ[0], 1e-12)
		near(t, "bd lat", blat, tc.bdOfGCJ[1], 1e-12)
	}
}

// SPEC.md §5 exactly: the box's edges are inside.
func TestOutOfChina(t *testing.T) {
	for _, tc := range []struct {
		lng, lat float64
		out      bool
	}{
		{72.004, 30, false}, {72.0039, 30, true}, {137.8347, 30, false}, {137.8348, 30, true},
		{116, 0.8293, false}, {116, 0.8292, true}, {116, 55.8271, false}, {116, 55.8272, true},
	} {
		if got := OutOfChina(tc.lng, tc.lat); got != tc.out {
			t.Errorf("OutOfChina(%g, %g) = %v", tc.lng, tc.lat, got)
		}
	}
	if lng, lat := WGS84ToGCJ02(72.0039, 30); lng != 72.0039 || lat != 30 {
		t.Errorf("a point outside China moved to %g, %g", lng, lat)
	}
	if lng, lat := GCJ02ToWGS84(-74, 40.7); lng != -74 || lat != 40.7 {
		t.Errorf("a point outside China moved to %g, %g", lng, lat)
	}
}

// The inverses round-trip within 1e-6° (they are solved to 1e-9°), over a
// grid covering China, where the one-step approximation misses by up to
// about 1e-5°.
func TestCoordinates_InversesRoundTrip(t *testing.T) {
	var oneStepWorst float64
	for lng := 73.0; lng <= 135; lng += 0.7 {
		for lat := 3.0; lat <= 53; lat += 0.7 {
			g1, g2 := WGS84ToGCJ02(lng, lat)
			w1, w2 := GCJ02ToWGS84(g1, g2)
			if math.Abs(w1-lng) > 1e-6 || math.Abs(w2-lat) > 1e-6 {
				t.Fatalf("WGS84 %g,%g → GCJ-02 → %.9f,%.9f", lng, lat, w1, w2)
			}
			f1, f2 := WGS84ToGCJ02(w1, w2)
			if math.Abs(f1-g1) > 1e-9 || math.Abs(f2-g2) > 1e-9 {
				t.Fatalf("GCJ-02 %g,%g: inverse maps back to %.12f,%.12f", g1, g2, f1, f2)
			}
			o1, o2 := WGS84ToGCJ02(g1, g2)
			oneStepWorst = math.Max(oneStepWorst, math.Max(math.Abs(2*g1-o1-lng), math.Abs(2*g2-o2-lat)))

			b1, b2 := GCJ02ToBD09(lng, lat)
			c1, c2 := BD09ToGCJ02(b1, b2)
			if math.Abs(c1-lng) > 1e-6 || math.Abs(c2-lat) > 1e-6 {
				t.Fatalf("GCJ-02 %g,%g → BD-09 → %.9f,%.9f", lng, lat, c1, c2)
			}
		}
	}
	if oneStepWorst < 2e-6 {
		t.Errorf("the one-step inverse is off by at most %g°: the iteration proves nothing", oneStepWorst)
	}
}

func TestConvert(t *testing.T) {
	lng, lat, err := Convert(BD09, GCJ02, 116.41036949371029, 39.92133699351022)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "lng", lng, 116.404, 1e-9)
	near(t, "lat", lat, 39.915, 1e-9)
	lng, lat, _ = Convert(BD09, WGS84, 116.40388994480598, 39.91396193189531)
	near(t, "lng", lng, 116.391275, 1e-9)
	near(t, "lat", lat, 39.906217, 1e-9)
	if lng, lat, _ := Convert(GCJ02, GCJ02, 1, 2); lng != 1 || lat != 2 {
		t.Errorf("identity moved the point to %g, %g", lng, lat)
	}
	for _, tc := range []struct {
		from, to Datum
		lng, lat float64
		field    string
	}{
		{"wgs", GCJ02, 116, 39, "from"}, {WGS84, "baidu", 116, 39, "to"},
		{WGS84, GCJ02, 200, 39, "lng"}, {WGS84, GCJ02, 116, -91, "lat"},
	} {
		_, _, err := Convert(tc.from, tc.to, tc.lng, tc.lat)
		if ie, ok := err.(*InputError); !ok || ie.Field != tc.field {
			t.Errorf("Convert(%s, %s, %g, %g) = %v, want an error for %s", tc.from, tc.to, tc.lng, tc.lat, err, tc.field)
		}
	}
}
