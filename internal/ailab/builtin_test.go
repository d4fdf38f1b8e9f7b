package ailab_test

import (
	"encoding/json"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/ailab/builtin"
)

// references are pictures and the counts the training script's own
// forward pass gives for them (tools/ailab/train_counter.py).
type references struct {
	References []struct {
		File      string    `json:"file"`
		TrueCount float64   `json:"trueCount"`
		Counts    []float64 `json:"counts"`
	} `json:"references"`
}

func counter(tb testing.TB) *ailab.Model {
	tb.Helper()
	p, err := ailab.ReadPackage(builtin.InsectCounterFile, builtin.InsectCounter)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := ailab.Load(p)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

func refPicture(tb testing.TB, name string) image.Image {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		tb.Fatal(err)
	}
	return img
}

// The built-in counter gives in Go what it gave in PyTorch, to 1e-4.
func TestBuiltinCounter_MatchesReference(t *testing.T) {
	if len(builtin.InsectCounter) > 5<<20 {
		t.Fatalf("the built-in package is %d bytes, over 5 MB", len(builtin.InsectCounter))
	}
	b, err := os.ReadFile(filepath.Join("testdata", "counter-ref.json"))
	if err != nil {
		t.Fatal(err)
	}
	var refs references
	if err := json.Unmarshal(b, &refs); err != nil {
		t.Fatal(err)
	}
	if len(refs.References) < 3 {
		t.Fatalf("references: %+v", refs)
	}
	m := counter(t)
	if m.Package.Manifest.Output.Kind != ailab.KindCount || m.Package.Manifest.Input.Width != 320 || m.Package.Manifest.Input.Height != 240 {
		t.Fatalf("manifest: %+v", m.Package.Manifest)
	}
	for _, r := range refs.References {
		res, err := m.Run(refPicture(t, r.File))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Raw) != len(r.Counts) {
			t.Fatalf("%s: %v, want %v", r.File, res.Raw, r.Counts)
		}
		for i := range r.Counts {
			if d := math.Abs(res.Raw[i] - r.Counts[i]); d > 1e-4 {
				t.Errorf("%s: Go %.6f, PyTorch %.6f (difference %.2g)", r.File, res.Raw[i], r.Counts[i], d)
			}
		}
		t.Logf("%s: true %v, counted %.2f", r.File, r.TrueCount, res.Values[0].Value)
	}
}

// BenchmarkBuiltinCounter is one count of a 320×240 trap picture, its
// preprocessing included. docs/performance.md has the numbers.
func BenchmarkBuiltinCounter(b *testing.B) {
	m := counter(b)
	img := refPicture(b, "counter-ref-1.png")
	if img.Bounds().Dx() != 320 || img.Bounds().Dy() != 240 {
		b.Fatalf("picture %v", img.Bounds())
	}
	for b.Loop() {
		if _, err := m.Run(img); err != nil {
			b.Fatal(err)
		}
	}
}
