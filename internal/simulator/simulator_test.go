package simulator

import (
	"bytes"
	"fmt"
	"image/jpeg"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
)

// may1 is the start of the month most tests simulate: late spring, when
// rain, drying, insects and the sun all have something to show.
var may1 = time.Date(2025, 5, 1, 0, 0, 0, 0, cst)

func mustType(t *testing.T, id int) *devices.Type {
	t.Helper()
	ty, ok := devices.TypeByID(id)
	if !ok {
		t.Fatalf("no type %d", id)
	}
	return ty
}

func newSim(t *testing.T, ty *devices.Type, seed int64) *Sim {
	t.Helper()
	lat, lng := Place(DefaultRegion, int(seed), 7)
	return New(Device{SN: "SIM" + strconv.FormatInt(seed, 10), Type: ty, Lat: lat, Lng: lng, Seed: seed})
}

// key names a reading: the parameter, with "@depth" for per-node ones.
func key(p ingest.Point) string {
	if p.Node == 0 {
		return p.Param
	}
	return fmt.Sprintf("%s@%d", p.Param, p.Node)
}

// decode decodes a telemetry payload of s dated at, failing the test on error.
func decode(t *testing.T, s *Sim, at time.Time) map[string]float64 {
	t.Helper()
	payload := s.Telemetry(at)
	r, err := ingest.DecodeTelemetry(s.Device().Type, payload, at)
	if err != nil {
		t.Fatalf("%s at %s: %v\n%s", s.Device().Type.Model, at, err, payload)
	}
	if !r.Time.Equal(at.Truncate(time.Millisecond)) {
		t.Fatalf("report time %s, want %s", r.Time, at)
	}
	m := make(map[string]float64, len(r.Points))
	for _, p := range r.Points {
		m[key(p)] = p.Value
	}
	return m
}

// series runs s from start for days at step and returns each reading's
// values and the report times.
func series(t *testing.T, s *Sim, start time.Time, days int, step time.Duration) (map[string][]float64, []time.Time) {
	t.Helper()
	out := map[string][]float64{}
	var times []time.Time
	for at := start; at.Before(start.Add(time.Duration(days) * 24 * time.Hour)); at = at.Add(step) {
		for k, v := range decode(t, s, at) {
			out[k] = append(out[k], v)
		}
		times = append(times, at)
	}
	return out, times
}

// allTypes is every type of the registry plus the slave of each host.
func allTypes() []*devices.Type {
	var out []*devices.Type
	for _, ty := range devices.Types() {
		out = append(out, ty)
		if sl := ty.SlaveType(); sl != nil {
			out = append(out, sl)
		}
	}
	return out
}

// A month of reports at each type's interval decodes, covers every parameter
// at every node in every report, and the status messages decode too.
func TestMonthOfReportsDecodes(t *testing.T) {
	for i, ty := range allTypes() {
		t.Run(ty.Model, func(t *testing.T) {
			t.Parallel()
			s := newSim(t, ty, int64(100+i))
			want := map[string]bool{}
			for _, p := range ty.Params {
				if p.Detected {
					continue // the server writes it, not the device
				}
				if !p.PerNode {
					want[p.ID] = true
					continue
				}
				for _, n := range ty.Nodes {
					want[fmt.Sprintf("%s@%d", p.ID, n)] = true
				}
			}
			if s.Points() != len(want) {
				t.Errorf("Points() = %d, want %d", s.Points(), len(want))
			}
			end := may1.AddDate(0, 0, 30)
			n := 0
			for at := may1; at.Before(end); at = at.Add(ty.Interval) {
				m := decode(t, s, at)
				if len(m) != len(want) {
					t.Fatalf("at %s: %d readings, want %d", at, len(m), len(want))
				}
				for k := range want {
					if _, ok := m[k]; !ok {
						t.Fatalf("at %s: no %s", at, k)
					}
				}
				if n%6 == 0 {
					st, err := ingest.DecodeStatus(s.Status(at), at)
					if err != nil {
						t.Fatalf("status at %s: %v", at, err)
					}
					if st.Battery == nil || st.Signal == nil || (ty.Solar != (st.ChargeVoltage != nil)) {
						t.Fatalf("status at %s: incomplete %+v", at, st)
					}
				}
				n++
			}
		})
	}
}

// Every season decodes too, including the winter cold and the summer storms.
func TestYearDecodes(t *testing.T) {
	for _, id := range []int{2, 5, 7, 14, 20} {
		ty := mustType(t, id)
		s := newSim(t, ty, int64(id))
		for at := time.Date(2025, 1, 1, 0, 0, 0, 0, cst); at.Year() == 2025; at = at.Add(3 * time.Hour) {
			decode(t, s, at)
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, ty := range allTypes() {
		a, b, c := newSim(t, ty, 5), newSim(t, ty, 5), newSim(t, ty, 6)
		differ := false
		for i := range 50 {
			at := may1.Add(time.Duration(i) * ty.Interval)
			pa, pb, pc := a.Telemetry(at), b.Telemetry(at), c.Telemetry(at)
			if !bytes.Equal(pa, pb) {
				t.Fatalf("%s: same seed, different telemetry at %s:\n%s\n%s", ty.Model, at, pa, pb)
			}
			if sa, sb := a.Status(at), b.Status(at); !bytes.Equal(sa, sb) {
				t.Fatalf("%s: same seed, different status at %s:\n%s\n%s", ty.Model, at, sa, sb)
			}
			c.Status(at)
			differ = differ || !bytes.Equal(pa, pc)
		}
		if !differ {
			t.Errorf("%s: seeds 5 and 6 produce the same reports", ty.Model)
		}
	}
}

// Reports less than a second apart carry distinct timestamps.
func TestSubSecondTimestamps(t *testing.T) {
	s := newSim(t, mustType(t, 6), 1)
	at := time.Date(2025, 5, 1, 0, 0, 0, 50*int(time.Millisecond), cst)
	r, err := ingest.DecodeTelemetry(s.Device().Type, s.Telemetry(at), at)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Time.Equal(at) {
		t.Errorf("time %s, want %s", r.Time, at)
	}
}

// A request dated before the previous one neither fails nor goes back in time.
func TestOutOfOrderRequest(t *testing.T) {
	ty := mustType(t, 5)
	s := newSim(t, ty, 1)
	s.Telemetry(may1.Add(time.Hour))
	r, err := ingest.DecodeTelemetry(ty, s.Telemetry(may1), may1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Time.Before(may1.Add(time.Hour)) {
		t.Errorf("report went back to %s", r.Time)
	}
}

func TestImage(t *testing.T) {
	at := time.Date(2025, 7, 10, 23, 0, 0, 0, cst)
	for _, ty := range allTypes() {
		s := newSim(t, ty, 3)
		img := s.Image(at)
		if !ty.Camera {
			if img != nil {
				t.Errorf("%s: image from a type without a camera", ty.Model)
			}
			continue
		}
		if len(img) == 0 || len(img) > 256<<10 {
			t.Fatalf("%s: image of %d bytes", ty.Model, len(img))
		}
		m, err := jpeg.Decode(bytes.NewReader(img))
		if err != nil {
			t.Fatalf("%s: %v", ty.Model, err)
		}
		if b := m.Bounds(); b.Dx() != imageW || b.Dy() != imageH {
			t.Errorf("%s: image %v", ty.Model, b)
		}
		// The picture depends on seed and time only, not on what was
		// asked of the device before.
		other := newSim(t, ty, 3)
		other.Telemetry(at.Add(-48 * time.Hour))
		if !bytes.Equal(other.Image(at), img) {
			t.Errorf("%s: image differs with the request history", ty.Model)
		}
		if bytes.Equal(newSim(t, ty, 4).Image(at), img) {
			t.Errorf("%s: seeds 3 and 4 give the same image", ty.Model)
		}
	}
}

// The insect trap's picture shows the catch so far today, which is what the
// day's reports add up to.
func TestInsectImageMatchesCount(t *testing.T) {
	ty := mustType(t, 20)
	s := newSim(t, ty, 9)
	day := time.Date(2025, 7, 10, 0, 0, 0, 0, cst)
	sum := 0
	s.Telemetry(day)
	for at := day.Add(time.Hour); at.Before(day.Add(23*time.Hour + time.Minute)); at = at.Add(time.Hour) {
		sum += int(decode(t, s, at)["insectCount"])
		if got := s.insects.soFar(at); got != sum {
			t.Fatalf("at %s: picture shows %d insects, reports add up to %d", at, got, sum)
		}
	}
	if sum == 0 {
		t.Fatal("no insects on a July day")
	}
	// A day with insects looks different from an empty morning.
	if bytes.Equal(s.Image(day.Add(23*time.Hour)), s.Image(day.Add(30*time.Minute))) {
		t.Error("the catch does not show")
	}
}

func TestPlace(t *testing.T) {
	seen := map[[2]float64]bool{}
	for i := range 200 {
		lat, lng := Place(DefaultRegion, i, 1)
		if la, ln := Place(DefaultRegion, i, 1); la != lat || ln != lng {
			t.Fatal("Place is not deterministic")
		}
		dy := (lat - DefaultRegion.Lat) * kmPerDegree
		dx := (lng - DefaultRegion.Lng) * kmPerDegree * math.Cos(DefaultRegion.Lat*math.Pi/180)
		if d := math.Hypot(dx, dy); d > DefaultRegion.RadiusKm+0.01 {
			t.Fatalf("device %d is %.1f km from the centre", i, d)
		}
		seen[[2]float64{lat, lng}] = true
	}
	if len(seen) != 200 {
		t.Errorf("%d distinct places for 200 devices", len(seen))
	}
	if la, _ := Place(DefaultRegion, 0, 2); la == func() float64 { l, _ := Place(DefaultRegion, 0, 1); return l }() {
		t.Error("the seed does not change the placement")
	}
}

// BenchmarkTelemetry is one report of a 6-node soil station 30 minutes after
// the previous one: six substeps of the soil model plus the payload.
func BenchmarkTelemetry(b *testing.B) {
	ty, _ := devices.TypeByID(2)
	s := New(Device{SN: "B", Type: ty, Lat: 37.45, Lng: 116.3, Seed: 1})
	at := may1
	s.Telemetry(at)
	b.ReportAllocs()
	for b.Loop() {
		at = at.Add(ty.Interval)
		s.Telemetry(at)
	}
}

func BenchmarkImage(b *testing.B) {
	ty, _ := devices.TypeByID(20)
	s := New(Device{SN: "B", Type: ty, Lat: 37.45, Lng: 116.3, Seed: 1})
	at := time.Date(2025, 7, 10, 23, 0, 0, 0, cst)
	for b.Loop() {
		s.Image(at)
	}
}
