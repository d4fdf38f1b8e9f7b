package ailab_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/advancedclimatesystems/gonnx/onnx"
	"google.golang.org/protobuf/proto"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// graph is a tiny counting network on a 3×8×6 input: flatten, a weight
// per input value summed into outputs outputs (all weights w), then the
// extra nodes given (which may name unsupported operators).
type graph struct {
	outputs  int
	declared []int64 // the output shape the graph declares; nil: [1, outputs]
	opset    int64
	extra    []*onnx.NodeProto
	w        float32
}

func tensorType(elem onnx.TensorProto_DataType, shape ...int64) *onnx.TypeProto {
	dims := make([]*onnx.TensorShapeProto_Dimension, len(shape))
	for i, d := range shape {
		dims[i] = &onnx.TensorShapeProto_Dimension{Value: &onnx.TensorShapeProto_Dimension_DimValue{DimValue: d}}
	}
	return &onnx.TypeProto{Value: &onnx.TypeProto_TensorType{TensorType: &onnx.TypeProto_Tensor{
		ElemType: int32(elem), Shape: &onnx.TensorShapeProto{Dim: dims}}}}
}

func (g graph) bytes(t *testing.T) []byte {
	t.Helper()
	const n = 3 * 8 * 6
	if g.opset == 0 {
		g.opset = 13
	}
	if g.declared == nil {
		g.declared = []int64{1, int64(g.outputs)}
	}
	w := make([]float32, n*g.outputs)
	for i := range w {
		w[i] = g.w
	}
	nodes := []*onnx.NodeProto{
		{OpType: "Reshape", Input: []string{"image", "flat"}, Output: []string{"x"}},
		{OpType: "MatMul", Input: []string{"x", "w"}, Output: []string{"counts"}},
	}
	nodes = append(nodes, g.extra...)
	mp := &onnx.ModelProto{
		IrVersion:   7,
		OpsetImport: []*onnx.OperatorSetIdProto{{Domain: "", Version: g.opset}},
		Graph: &onnx.GraphProto{
			Name: "counter",
			Node: nodes,
			Initializer: []*onnx.TensorProto{
				{Name: "flat", Dims: []int64{2}, DataType: int32(onnx.TensorProto_INT64), Int64Data: []int64{1, n}},
				{Name: "w", Dims: []int64{n, int64(g.outputs)}, DataType: int32(onnx.TensorProto_FLOAT), FloatData: w},
			},
			Input:  []*onnx.ValueInfoProto{{Name: "image", Type: tensorType(onnx.TensorProto_FLOAT, 1, 3, 6, 8)}},
			Output: []*onnx.ValueInfoProto{{Name: "counts", Type: tensorType(onnx.TensorProto_FLOAT, g.declared...)}},
		},
	}
	b, err := proto.Marshal(mp)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func manifest(elements int) map[string]any {
	els := []map[string]any{}
	for i := range elements {
		els = append(els, map[string]any{"name": fmt.Sprintf("Insect %d", i), "unit": "head", "identifier": fmt.Sprintf("insect%d", i)})
	}
	return map[string]any{
		"format": 1, "name": "Tiny counter", "version": "0.1",
		"input":    map[string]any{"name": "image", "width": 8, "height": 6, "channels": 3, "layout": "NCHW", "mean": []float64{0, 0, 0}, "std": []float64{1, 1, 1}},
		"output":   map[string]any{"name": "counts", "kind": "count"},
		"elements": els,
	}
}

type entry struct {
	name  string
	data  []byte
	store bool // stored, not deflated
}

func zipOf(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.store {
			h.Method = zip.Store
		}
		f, err := z.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pkg(t *testing.T, man map[string]any, g graph) []byte {
	t.Helper()
	mb, err := json.Marshal(man)
	if err != nil {
		t.Fatal(err)
	}
	return zipOf(t, entry{name: "manifest.json", data: mb}, entry{name: "model.onnx", data: g.bytes(t)})
}

func TestReadPackage_Good(t *testing.T) {
	p, err := ailab.ReadPackage("tiny.L5D", pkg(t, manifest(2), graph{outputs: 2, w: 0.5}))
	if err != nil {
		t.Fatal(err)
	}
	if p.Manifest.Name != "Tiny counter" || len(p.Manifest.Elements) != 2 || strings.Join(p.Operators, ",") != "MatMul,Reshape" {
		t.Fatalf("package: %+v %v", p.Manifest, p.Operators)
	}
	m, err := ailab.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	// A white 16×12 picture: resized to 8×6, every value 1, times 0.5, 144 of them.
	img := image.NewRGBA(image.Rect(0, 0, 16, 12))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	res, err := m.Run(img)
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != "count" || len(res.Values) != 2 || res.Values[0].Value != 72 || res.Values[1].Identifier != "insect1" || res.Values[1].Value != 72 {
		t.Fatalf("result: %+v", res)
	}
	// Negative counts are shown as none.
	p, err = ailab.ReadPackage("neg.l5d", pkg(t, manifest(1), graph{outputs: 1, w: -1}))
	if err != nil {
		t.Fatal(err)
	}
	m, _ = ailab.Load(p)
	if res, err := m.Run(img); err != nil || res.Values[0].Value != 0 || res.Raw[0] != -144 {
		t.Fatalf("negative count: %+v %v", res, err)
	}
}

func TestReadPackage_Refusals(t *testing.T) {
	good := func() []byte { return pkg(t, manifest(1), graph{outputs: 1, w: 1}) }
	zeros := make([]byte, 8<<20)
	many := []entry{}
	for i := range ailab.MaxEntries + 1 {
		many = append(many, entry{name: fmt.Sprintf("f%d.txt", i), data: []byte("x")})
	}
	noStd := manifest(1)
	noStd["input"].(map[string]any)["std"] = []float64{1, 0, 1}
	badID := manifest(1)
	badID["elements"] = []map[string]any{{"name": "Moth", "identifier": "a moth"}}
	boxes := manifest(1)
	boxes["output"] = map[string]any{"name": "counts", "kind": "boxes"}
	wrongIn := manifest(1)
	wrongIn["input"].(map[string]any)["width"] = 10

	cases := []struct {
		name, file string
		data       []byte
		field, key string
		params     map[string]any
		en         string // the English message, with the field
	}{
		{"no file", "model.l5d", nil, "file", "ailab.model.fileRequired", nil, "File required"},
		{"wrong extension", "model.zip", good(), "file", "ailab.model.onlyL5d", nil, "File: only l5d is accepted"},
		{"onnx alone", "model.onnx", graph{outputs: 1}.bytes(t), "file", "ailab.model.onlyL5d", nil, "File: only l5d is accepted"},
		{"not a zip", "model.l5d", []byte("PK but not really"), "file", "ailab.model.notZip", nil, ""},
		{"zip bomb by ratio", "bomb.l5d", zipOf(t, entry{name: "manifest.json", data: []byte("{}")}, entry{name: "model.onnx", data: zeros}), "file", "ailab.model.bomb", nil, ""},
		{"zip bomb by entries", "bomb.l5d", zipOf(t, many...), "file", "ailab.model.bomb", nil, ""},
		{"no manifest", "m.l5d", zipOf(t, entry{name: "model.onnx", data: graph{outputs: 1}.bytes(t)}), "manifest.json", "ailab.model.missingEntry", nil, "manifest.json: the package holds no manifest.json"},
		{"manifest not JSON", "m.l5d", zipOf(t, entry{name: "manifest.json", data: []byte("{name:")}, entry{name: "model.onnx", data: graph{outputs: 1}.bytes(t)}), "manifest.json", "ailab.model.badManifest", nil, ""},
		{"std of 0", "m.l5d", pkg(t, noStd, graph{outputs: 1}), "manifest.input.std", "ailab.model.badStd", nil, "Input standard deviation: every value must be above 0"},
		{"bad identifier", "m.l5d", pkg(t, badID, graph{outputs: 1}), "manifest.elements[0].identifier", "ailab.element.badIdentifier", nil, ""},
		{"graph not ONNX", "m.l5d", zipOf(t, entry{name: "manifest.json", data: mustJSON(t, manifest(1))}, entry{name: "model.onnx", data: []byte("\xff\xff\xff not protobuf")}), "model.onnx", "ailab.model.badGraph", nil, ""},
		{"another opset", "m.l5d", pkg(t, manifest(1), graph{outputs: 1, opset: 17}), "model.onnx", "ailab.model.opset", map[string]any{"opset": int64(17), "want": 13}, "model.onnx: operator set 17; only operator set 13 runs here"},
		{"unsupported operators", "m.l5d", pkg(t, manifest(1), graph{outputs: 1, extra: []*onnx.NodeProto{
			{OpType: "MaxPool", Input: []string{"image"}, Output: []string{"p"}},
			{OpType: "Resize", Input: []string{"p"}, Output: []string{"q"}},
			{OpType: "Relu", Input: []string{"q"}, Output: []string{"r"}},
		}}), "model.onnx", "ailab.model.unsupportedOps", map[string]any{"operators": "MaxPool, Resize"}, "model.onnx: operators not supported: MaxPool, Resize"},
		{"input of another size", "m.l5d", pkg(t, wrongIn, graph{outputs: 1}), "manifest.input", "ailab.model.shapeMismatch", map[string]any{"graph": "[1, 3, 6, 8]", "manifest": "[1, 3, 6, 10]"}, ""},
		{"manifest lying about its outputs", "m.l5d", pkg(t, manifest(3), graph{outputs: 2}), "manifest.output", "ailab.model.outputMismatch",
			map[string]any{"graph": "[1, 2]", "manifest": "[1, 3]"}, "Manifest output: the graph gives [1, 2], the manifest says [1, 3]"},
		{"graph lying about its outputs", "m.l5d", pkg(t, manifest(3), graph{outputs: 2, declared: []int64{1, 3}}), "manifest.output", "ailab.model.outputMismatch",
			map[string]any{"graph": "[1, 2]", "manifest": "[1, 3]"}, ""},
		{"boxes from a counter", "m.l5d", pkg(t, boxes, graph{outputs: 1}), "manifest.output", "ailab.model.outputMismatch", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ailab.ReadPackage(c.file, c.data)
			e := errs.As(err)
			if e == nil || e.Kind != errs.EInvalid || e.Field != c.field || e.Code != c.key {
				t.Fatalf("got %v (%+v), want %s on %s", err, e, c.key, c.field)
			}
			for k, v := range c.params {
				if fmt.Sprint(e.Params[k]) != fmt.Sprint(v) {
					t.Errorf("param %s: %v, want %v", k, e.Params[k], v)
				}
			}
			if c.en != "" {
				if got := i18n.Message(i18n.EnUS, e.Code, e.Field, e.Params); got != c.en {
					t.Errorf("message %q, want %q", got, c.en)
				}
			}
			for _, l := range i18n.Langs {
				msg := i18n.Message(l, e.Code, e.Field, e.Params)
				if msg == e.Code || strings.Contains(msg, "{") {
					t.Errorf("%s: message %q not filled in", l, msg)
				}
			}
		})
	}
}

// The unsupported operators and the lying manifest are named in each language.
func TestReadPackage_MessagesInThreeLanguages(t *testing.T) {
	_, err := ailab.ReadPackage("m.l5d", pkg(t, manifest(1), graph{outputs: 1, extra: []*onnx.NodeProto{
		{OpType: "MaxPool", Input: []string{"image"}, Output: []string{"p"}}}}))
	e := errs.As(err)
	want := map[i18n.Lang]string{
		i18n.EnUS: "model.onnx: operators not supported: MaxPool",
		i18n.ZhCN: "model.onnx：不支持的算子：MaxPool",
		i18n.ZhTW: "model.onnx：不支援的運算子：MaxPool",
	}
	for l, w := range want {
		if got := i18n.Message(l, e.Code, e.Field, e.Params); got != w {
			t.Errorf("%s: %q, want %q", l, got, w)
		}
	}
	_, err = ailab.ReadPackage("m.l5d", pkg(t, manifest(2), graph{outputs: 1}))
	e = errs.As(err)
	want = map[i18n.Lang]string{
		i18n.EnUS: "Manifest output: the graph gives [1, 1], the manifest says [1, 2]",
		i18n.ZhCN: "清单输出：模型输出为 [1, 1]，清单写的是 [1, 2]",
		i18n.ZhTW: "清單輸出：模型輸出為 [1, 1]，清單寫的是 [1, 2]",
	}
	for l, w := range want {
		if got := i18n.Message(l, e.Code, e.Field, e.Params); got != w {
			t.Errorf("%s: %q, want %q", l, got, w)
		}
	}
	for l, w := range map[i18n.Lang]string{i18n.EnUS: "File: only l5d is accepted", i18n.ZhCN: "文件：仅支持 l5d 格式", i18n.ZhTW: "檔案：僅支援 l5d 格式"} {
		_, err := ailab.ReadPackage("model.onnx", []byte("x"))
		e := errs.As(err)
		if got := i18n.Message(l, e.Code, e.Field, e.Params); got != w {
			t.Errorf("%s: %q, want %q", l, got, w)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPreprocess(t *testing.T) {
	// A 4×2 picture: left half red, right half blue, taken as it is at its
	// own size, resized (bilinear) to 2×1.
	img := image.NewRGBA(image.Rect(0, 0, 4, 2))
	for y := range 2 {
		for x := range 4 {
			if x < 2 {
				img.Set(x, y, color.RGBA{R: 255, A: 255})
			} else {
				img.Set(x, y, color.RGBA{B: 255, A: 255})
			}
		}
	}
	in := ailab.ModelInput{Width: 4, Height: 2, Channels: 3, Mean: []float64{0.5, 0.5, 0.5}, Std: []float64{0.5, 0.5, 0.5}}
	got := ailab.Preprocess(img, in)
	// R plane: 1,1,-1,-1 on both rows; B plane the opposite.
	if got[0] != 1 || got[2] != -1 || got[16] != -1 || got[18] != 1 {
		t.Fatalf("as it is: %v", got)
	}
	in.Width, in.Height = 2, 1
	got = ailab.Preprocess(img, in)
	if len(got) != 6 || got[0] != 1 || got[1] != -1 || got[4] != -1 || got[5] != 1 {
		t.Fatalf("resized: %v", got)
	}
	in.Channels, in.Mean, in.Std = 1, []float64{0}, []float64{1}
	got = ailab.Preprocess(img, in)
	if len(got) != 2 || got[0] < 0.298 || got[0] > 0.3 || got[1] < 0.113 || got[1] > 0.115 {
		t.Fatalf("luma: %v", got)
	}
}

// The decoders' own picture types are read as image.At reads them.
func TestPreprocess_PictureTypes(t *testing.T) {
	in := ailab.ModelInput{Width: 5, Height: 3, Channels: 3, Mean: []float64{0, 0, 0}, Std: []float64{1, 1, 1}}
	ycc := image.NewYCbCr(image.Rect(0, 0, 5, 3), image.YCbCrSubsampleRatio420)
	for i := range ycc.Y {
		ycc.Y[i] = uint8(40 * i)
	}
	for i := range ycc.Cb {
		ycc.Cb[i], ycc.Cr[i] = uint8(30+50*i), uint8(200-40*i)
	}
	nrgba := image.NewNRGBA(image.Rect(0, 0, 5, 3))
	for i := range nrgba.Pix {
		nrgba.Pix[i] = uint8(17 * i)
	}
	for _, img := range []image.Image{ycc, nrgba} {
		got := ailab.Preprocess(img, in)
		// The same picture behind a type Preprocess knows nothing of.
		want := ailab.Preprocess(opaque{img}, in)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%T value %d: %v, want %v", img, i, got[i], want[i])
			}
		}
	}
}

type opaque struct{ image.Image }
