package ailab

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/advancedclimatesystems/gonnx"
	"gorgonia.org/tensor"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// BoxScore is the least score a box of a "boxes" model needs to be kept.
const BoxScore = 0.5

// Model is a package ready to run. It runs one picture at a time.
type Model struct {
	Package *Package
	r       *runner
}

// runner wraps the pure-Go ONNX runtime; a graph's operators are made
// anew on every run, but one run at a time keeps shared parameters safe.
type runner struct {
	p  *Package
	mu sync.Mutex
	m  *gonnx.Model
}

func newRunner(p *Package) (*runner, error) {
	m, err := gonnx.NewModel(p.proto)
	if err != nil {
		return nil, err
	}
	return &runner{p: p, m: m}, nil
}

// Load makes a checked package ready to run.
func Load(p *Package) (*Model, error) {
	r, err := newRunner(p)
	if err != nil {
		return nil, errs.Internal("load model: %w", err)
	}
	return &Model{Package: p, r: r}, nil
}

// raw runs the graph on one input (NCHW, batch 1, in float64) and returns
// the manifest's output, flattened, with its shape.
func (r *runner) raw(in []float64) (out []float64, shape []int, err error) {
	mi := r.p.Manifest.Input
	shp := []int{1, mi.Channels, mi.Height, mi.Width}
	var t tensor.Tensor
	if r.p.double {
		t = tensor.New(tensor.WithShape(shp...), tensor.WithBacking(in))
	} else {
		f := make([]float32, len(in))
		for i, v := range in {
			f[i] = float32(v)
		}
		t = tensor.New(tensor.WithShape(shp...), tensor.WithBacking(f))
	}
	defer func() {
		if p := recover(); p != nil { // the runtime panics on some malformed graphs
			err = fmt.Errorf("runtime: %v", p)
		}
	}()
	r.mu.Lock()
	res, err := r.m.Run(gonnx.Tensors{mi.Name: t})
	r.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	o, ok := res[r.p.Manifest.Output.Name]
	if !ok || o == nil {
		return nil, nil, fmt.Errorf("no output %q", r.p.Manifest.Output.Name)
	}
	switch d := o.Data().(type) {
	case []float64:
		out = append([]float64(nil), d...)
	case []float32:
		out = make([]float64, len(d))
		for i, v := range d {
			out[i] = float64(v)
		}
	case float32:
		out = []float64{float64(d)}
	case float64:
		out = []float64{d}
	default:
		return nil, nil, fmt.Errorf("output of type %T", d)
	}
	return out, append([]int(nil), o.Shape()...), nil
}

func blankInput(p *Package) []float64 {
	mi := p.Manifest.Input
	return Preprocess(image.NewRGBA(image.Rect(0, 0, mi.Width, mi.Height)), mi)
}

// Preprocess turns a picture into the network's input: resized to the
// input's size (bilinear, pixel centres aligned; the picture as it is when
// already that size), scaled to 0–1, normalised per channel, NCHW. A
// one-channel input takes the picture's luma (0.299 R + 0.587 G + 0.114 B).
func Preprocess(img image.Image, in ModelInput) []float64 {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	W, H := in.Width, in.Height
	rgb := make([]float64, 3*sw*sh) // 0–1, HWC
	px := pixelReader(img)
	for y := 0; y < sh; y++ {
		for x := 0; x < sw; x++ {
			r, g, bl := px(b.Min.X+x, b.Min.Y+y)
			i := 3 * (y*sw + x)
			rgb[i], rgb[i+1], rgb[i+2] = float64(r>>8)/255, float64(g>>8)/255, float64(bl>>8)/255
		}
	}
	at := func(x, y, c int) float64 { return rgb[3*(y*sw+x)+c] }
	sample := at
	if sw != W || sh != H {
		sx, sy := float64(sw)/float64(W), float64(sh)/float64(H)
		sample = func(x, y, c int) float64 {
			fx := math.Max((float64(x)+0.5)*sx-0.5, 0)
			fy := math.Max((float64(y)+0.5)*sy-0.5, 0)
			x0, y0 := min(int(fx), sw-1), min(int(fy), sh-1)
			x1, y1 := min(x0+1, sw-1), min(y0+1, sh-1)
			ax, ay := fx-float64(x0), fy-float64(y0)
			top := at(x0, y0, c)*(1-ax) + at(x1, y0, c)*ax
			bot := at(x0, y1, c)*(1-ax) + at(x1, y1, c)*ax
			return top*(1-ay) + bot*ay
		}
	}
	out := make([]float64, in.Channels*W*H)
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			if in.Channels == 1 {
				v := 0.299*sample(x, y, 0) + 0.587*sample(x, y, 1) + 0.114*sample(x, y, 2)
				out[y*W+x] = (v - in.Mean[0]) / in.Std[0]
				continue
			}
			for c := 0; c < 3; c++ {
				out[c*W*H+y*W+x] = (sample(x, y, c) - in.Mean[c]) / in.Std[c]
			}
		}
	}
	return out
}

// pixelReader reads a pixel's 16-bit RGB as img.At(x, y).RGBA() does,
// without the allocation At makes for each pixel of the decoders' own types.
func pixelReader(img image.Image) func(x, y int) (r, g, b uint32) {
	switch m := img.(type) {
	case *image.YCbCr:
		return func(x, y int) (uint32, uint32, uint32) {
			yi, ci := m.YOffset(x, y), m.COffset(x, y)
			r, g, b, _ := color.YCbCr{Y: m.Y[yi], Cb: m.Cb[ci], Cr: m.Cr[ci]}.RGBA()
			return r, g, b
		}
	case *image.RGBA:
		return func(x, y int) (uint32, uint32, uint32) {
			r, g, b, _ := m.RGBAAt(x, y).RGBA()
			return r, g, b
		}
	case *image.NRGBA:
		return func(x, y int) (uint32, uint32, uint32) {
			r, g, b, _ := m.NRGBAAt(x, y).RGBA()
			return r, g, b
		}
	}
	return func(x, y int) (uint32, uint32, uint32) {
		r, g, b, _ := img.At(x, y).RGBA()
		return r, g, b
	}
}

// Value is a model's result for one element: a count, the number of boxes
// found, or a class score.
type Value struct {
	Identifier string  `json:"identifier"`
	Name       string  `json:"name"`
	Unit       string  `json:"unit"`
	Value      float64 `json:"value"`
}

// Box is a box a "boxes" model found, in pixels of the picture.
type Box struct {
	Element string  `json:"element"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	W       float64 `json:"w"`
	H       float64 `json:"h"`
	Score   float64 `json:"score"`
}

// Result is one run: per-element values, boxes when the model gives them,
// the raw output, and the time taken.
type Result struct {
	Kind   string    `json:"kind"`
	Values []Value   `json:"values"`
	Boxes  []Box     `json:"boxes"`
	Raw    []float64 `json:"raw"`
	Millis float64   `json:"millis"`
}

// RunPicture decodes a JPEG or PNG and runs the model on it.
func (m *Model) RunPicture(data []byte) (*Result, error) {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, errs.Invalid("file", "ailab.sample.notPicture")
	}
	return m.Run(img)
}

// Run runs the model on a picture and maps its output to the elements:
// count — the output per element (never below 0); classes — the score per
// element; boxes — the boxes scoring at least BoxScore, scaled to the
// picture, and per element how many there are.
func (m *Model) Run(img image.Image) (*Result, error) {
	start := time.Now()
	man := &m.Package.Manifest
	raw, shape, err := m.r.raw(Preprocess(img, man.Input))
	if err != nil {
		return nil, errs.New(errs.EInvalid, "ailab.model.runFailed").With(map[string]any{"reason": shortReason(err)})
	}
	res := &Result{Kind: man.Output.Kind, Raw: raw, Boxes: []Box{}, Values: make([]Value, len(man.Elements))}
	for i, e := range man.Elements {
		res.Values[i] = Value{Identifier: e.Identifier, Name: e.Name, Unit: e.Unit}
	}
	switch man.Output.Kind {
	case KindCount, KindClasses:
		if len(raw) != len(man.Elements) {
			return nil, errs.Internal("model output %v for %d elements", shape, len(man.Elements))
		}
		for i, v := range raw {
			if man.Output.Kind == KindCount {
				v = math.Max(v, 0)
			}
			res.Values[i].Value = v
		}
	case KindBoxes:
		if len(raw)%6 != 0 {
			return nil, errs.Internal("model output %v is not boxes", shape)
		}
		b := img.Bounds()
		sx := float64(b.Dx()) / float64(man.Input.Width)
		sy := float64(b.Dy()) / float64(man.Input.Height)
		for k := 0; k+6 <= len(raw); k += 6 {
			x1, y1, x2, y2, score, cls := raw[k], raw[k+1], raw[k+2], raw[k+3], raw[k+4], int(math.Round(raw[k+5]))
			if score < BoxScore || cls < 0 || cls >= len(man.Elements) || x2 <= x1 || y2 <= y1 {
				continue
			}
			res.Boxes = append(res.Boxes, Box{Element: man.Elements[cls].Identifier, X: x1 * sx, Y: y1 * sy,
				W: (x2 - x1) * sx, H: (y2 - y1) * sy, Score: score})
			res.Values[cls].Value++
		}
		sort.SliceStable(res.Boxes, func(i, j int) bool { return res.Boxes[i].Score > res.Boxes[j].Score })
	}
	res.Millis = float64(time.Since(start).Microseconds()) / 1000
	return res, nil
}
