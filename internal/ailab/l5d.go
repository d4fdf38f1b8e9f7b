package ailab

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/advancedclimatesystems/gonnx"
	"github.com/advancedclimatesystems/gonnx/onnx"
	"github.com/advancedclimatesystems/gonnx/ops/opset13"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Limits of an .l5d package (docs/ai-lab.md). The upload itself is at most
// MaxPackageBytes; unpacked, its entries may hold at most MaxUnpackedBytes
// together, each at most MaxRatio times its packed size, and there may be
// at most MaxEntries of them. Sizes are checked from the zip's directory
// before anything is unpacked, and again while unpacking (a directory can
// lie).
const (
	MaxPackageBytes  = 32 << 20
	MaxUnpackedBytes = 64 << 20
	MaxRatio         = 200
	MaxEntries       = 16
	MaxElements      = 64
	MaxInputSide     = 2048
	// Opset is the ONNX operator set version the runtime runs.
	Opset = 13
)

// Output kinds of a model.
const (
	KindCount   = "count"   // one number per element: how many are in the picture
	KindBoxes   = "boxes"   // boxes [1, N, 6]: x1, y1, x2, y2 in input pixels, score, element index
	KindClasses = "classes" // one score per element: which the picture shows
)

// ModelInput is how a picture is fed to the network: resized to Width ×
// Height, each channel scaled to 0–1 then normalised as (v - Mean) / Std,
// laid out NCHW with a batch of one.
type ModelInput struct {
	Name     string    `json:"name"`
	Width    int       `json:"width"`
	Height   int       `json:"height"`
	Channels int       `json:"channels"`
	Layout   string    `json:"layout"`
	Mean     []float64 `json:"mean"`
	Std      []float64 `json:"std"`
}

// ModelOutput names the graph output read and what it means.
type ModelOutput struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// ModelElement is one thing a model reports on, in output order.
type ModelElement struct {
	Name       string `json:"name"`
	Unit       string `json:"unit"`
	Identifier string `json:"identifier"`
}

// Manifest is manifest.json of an .l5d package.
type Manifest struct {
	Format      int            `json:"format"`
	Name        string         `json:"name"`
	Version     string         `json:"version"`
	Description string         `json:"description"`
	Input       ModelInput     `json:"input"`
	Output      ModelOutput    `json:"output"`
	Elements    []ModelElement `json:"elements"`
}

// Package is a checked .l5d: its manifest and its ONNX graph, with the
// operators the graph uses.
type Package struct {
	Manifest  Manifest
	ONNX      []byte
	Operators []string
	proto     *onnx.ModelProto
	double    bool // the graph computes in float64
}

func bad(field, code string) *errs.Error { return errs.Invalid(field, code) }

// ReadPackage checks an uploaded file named filename and returns its
// package. Every refusal is EINVALID naming the field at fault: "file" for
// the upload itself, "manifest.…" for a manifest field, "model.onnx" for
// the graph.
func ReadPackage(filename string, data []byte) (*Package, error) {
	if len(data) == 0 {
		return nil, bad("file", "ailab.model.fileRequired")
	}
	if !strings.EqualFold(path.Ext(filename), ".l5d") {
		return nil, bad("file", "ailab.model.onlyL5d")
	}
	if len(data) > MaxPackageBytes {
		return nil, bad("file", "ailab.model.tooLarge").With(map[string]any{"max": MaxPackageBytes >> 20})
	}
	files, err := unpack(data)
	if err != nil {
		return nil, err
	}
	mb, ok := files["manifest.json"]
	if !ok {
		return nil, bad("manifest.json", "ailab.model.missingEntry").With(map[string]any{"entry": "manifest.json"})
	}
	gb, ok := files["model.onnx"]
	if !ok {
		return nil, bad("model.onnx", "ailab.model.missingEntry").With(map[string]any{"entry": "model.onnx"})
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(mb))
	if err := dec.Decode(&m); err != nil {
		return nil, bad("manifest.json", "ailab.model.badManifest")
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	p := &Package{Manifest: m, ONNX: gb}
	if err := p.checkGraph(); err != nil {
		return nil, err
	}
	return p, nil
}

// unpack reads the zip's entries within the limits; a package past them
// is refused as a zip bomb before (by its directory) or while (by what
// its entries really hold) it is unpacked.
func unpack(data []byte) (map[string][]byte, error) {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, bad("file", "ailab.model.notZip")
	}
	if len(z.File) > MaxEntries {
		return nil, bad("file", "ailab.model.bomb")
	}
	var total uint64
	for _, f := range z.File {
		total += f.UncompressedSize64
		if total > MaxUnpackedBytes || f.UncompressedSize64 > MaxRatio*max(f.CompressedSize64, 1) {
			return nil, bad("file", "ailab.model.bomb")
		}
	}
	out := map[string][]byte{}
	var read int64
	for _, f := range z.File {
		if f.FileInfo().IsDir() {
			continue
		}
		name := path.Clean(strings.TrimPrefix(f.Name, "./"))
		if name != "manifest.json" && name != "model.onnx" {
			continue // other entries (a README, a licence) are allowed and ignored
		}
		if _, dup := out[name]; dup {
			return nil, bad("file", "ailab.model.notZip")
		}
		rc, err := f.Open()
		if err != nil {
			return nil, bad("file", "ailab.model.notZip")
		}
		limit := int64(f.UncompressedSize64)
		b, err := io.ReadAll(io.LimitReader(rc, limit+1))
		_ = rc.Close()
		if int64(len(b)) > limit {
			return nil, bad("file", "ailab.model.bomb")
		}
		if err != nil {
			return nil, bad("file", "ailab.model.notZip")
		}
		read += int64(len(b))
		if read > MaxUnpackedBytes {
			return nil, bad("file", "ailab.model.bomb")
		}
		out[name] = b
	}
	return out, nil
}

func (m *Manifest) check() error {
	if m.Format != 1 {
		return bad("manifest.format", "ailab.model.badFormat")
	}
	if strings.TrimSpace(m.Name) == "" || utf8.RuneCountInString(m.Name) > MaxSetName {
		return bad("manifest.name", "ailab.model.badName")
	}
	if strings.TrimSpace(m.Version) == "" || utf8.RuneCountInString(m.Version) > 32 {
		return bad("manifest.version", "ailab.model.badVersion")
	}
	in := &m.Input
	if in.Name == "" {
		return bad("manifest.input.name", "ailab.model.required")
	}
	if in.Width < 1 || in.Width > MaxInputSide {
		return bad("manifest.input.width", "ailab.model.badSide").With(map[string]any{"max": MaxInputSide})
	}
	if in.Height < 1 || in.Height > MaxInputSide {
		return bad("manifest.input.height", "ailab.model.badSide").With(map[string]any{"max": MaxInputSide})
	}
	if in.Channels != 1 && in.Channels != 3 {
		return bad("manifest.input.channels", "ailab.model.badChannels")
	}
	if in.Layout != "NCHW" {
		return bad("manifest.input.layout", "ailab.model.badLayout")
	}
	if len(in.Mean) != in.Channels {
		return bad("manifest.input.mean", "ailab.model.perChannel").With(map[string]any{"channels": in.Channels})
	}
	if len(in.Std) != in.Channels {
		return bad("manifest.input.std", "ailab.model.perChannel").With(map[string]any{"channels": in.Channels})
	}
	for _, s := range in.Std {
		if !(s > 0) {
			return bad("manifest.input.std", "ailab.model.badStd")
		}
	}
	if m.Output.Name == "" {
		return bad("manifest.output.name", "ailab.model.required")
	}
	switch m.Output.Kind {
	case KindCount, KindBoxes, KindClasses:
	default:
		return bad("manifest.output.kind", "ailab.model.badKind")
	}
	if len(m.Elements) == 0 || len(m.Elements) > MaxElements {
		return bad("manifest.elements", "ailab.model.badElements").With(map[string]any{"max": MaxElements})
	}
	seen := map[string]bool{}
	for i, e := range m.Elements {
		if err := (Element{Name: e.Name, Unit: e.Unit, Identifier: e.Identifier}).Check(); err != nil {
			ee := errs.As(err)
			return bad(fmt.Sprintf("manifest.elements[%d].%s", i, ee.Field), ee.Code)
		}
		if seen[e.Identifier] {
			return bad(fmt.Sprintf("manifest.elements[%d].identifier", i), "ailab.element.taken")
		}
		seen[e.Identifier] = true
	}
	return nil
}

// Supported lists the operators the runtime runs, sorted.
func Supported() []string {
	names := opset13.GetOpNames()
	sort.Strings(names)
	return names
}

// checkGraph parses the ONNX graph and checks it against the runtime and
// the manifest: opset, operators, one picture input of the manifest's
// shape, and the named output's shape matching the output kind and the
// number of elements.
func (p *Package) checkGraph() error {
	mp, err := gonnx.ModelProtoFromBytes(p.ONNX)
	if err != nil || mp.GetGraph() == nil {
		return bad("model.onnx", "ailab.model.badGraph")
	}
	for _, o := range mp.GetOpsetImport() {
		if (o.GetDomain() == "" || o.GetDomain() == "ai.onnx") && o.GetVersion() != Opset {
			return bad("model.onnx", "ailab.model.opset").With(map[string]any{"opset": o.GetVersion(), "want": Opset})
		}
	}
	used := map[string]bool{}
	unsupported := map[string]bool{}
	for _, n := range mp.GetGraph().GetNode() {
		op := n.GetOpType()
		if d := n.GetDomain(); d != "" && d != "ai.onnx" {
			op = d + "." + op
			unsupported[op] = true
		} else if _, err := opset13.GetOperator(op); err != nil {
			unsupported[op] = true
		}
		used[op] = true
	}
	if len(unsupported) > 0 {
		return bad("model.onnx", "ailab.model.unsupportedOps").With(map[string]any{"operators": strings.Join(sortedKeys(unsupported), ", ")})
	}
	p.Operators = sortedKeys(used)
	p.proto = mp

	m := &p.Manifest
	params := map[string]bool{}
	for _, t := range mp.GetGraph().GetInitializer() {
		params[t.GetName()] = true
	}
	var inputs []*onnx.ValueInfoProto
	for _, in := range mp.GetGraph().GetInput() {
		if !params[in.GetName()] {
			inputs = append(inputs, in)
		}
	}
	if len(inputs) != 1 || inputs[0].GetName() != m.Input.Name {
		return bad("manifest.input.name", "ailab.model.inputMismatch").With(map[string]any{"graph": valueNames(inputs)})
	}
	in := inputs[0].GetType().GetTensorType()
	switch onnx.TensorProto_DataType(in.GetElemType()) {
	case onnx.TensorProto_FLOAT:
	case onnx.TensorProto_DOUBLE:
		p.double = true
	default:
		return bad("model.onnx", "ailab.model.inputType")
	}
	want := []int64{1, int64(m.Input.Channels), int64(m.Input.Height), int64(m.Input.Width)}
	if got := dims(in.GetShape()); !sameShape(got, want) {
		return bad("manifest.input", "ailab.model.shapeMismatch").With(map[string]any{"graph": shapeText(got), "manifest": shapeText(want)})
	}
	var out *onnx.ValueInfoProto
	for _, o := range mp.GetGraph().GetOutput() {
		if o.GetName() == m.Output.Name {
			out = o
		}
	}
	if out == nil {
		return bad("manifest.output.name", "ailab.model.outputMissing").With(map[string]any{"graph": valueNames(mp.GetGraph().GetOutput())})
	}
	if got := dims(out.GetType().GetTensorType().GetShape()); !p.outputFits(got) {
		return bad("manifest.output", "ailab.model.outputMismatch").With(map[string]any{"graph": shapeText(got), "manifest": shapeText(p.wantOutput())})
	}
	// The declared shapes can lie too: run the graph once on a blank
	// picture and check what it really gives.
	r, err := newRunner(p)
	if err != nil {
		return bad("model.onnx", "ailab.model.badGraph")
	}
	res, shape, err := r.raw(blankInput(p))
	if err != nil {
		return bad("model.onnx", "ailab.model.runFailed").With(map[string]any{"reason": shortReason(err)})
	}
	got := make([]int64, len(shape))
	for i, d := range shape {
		got[i] = int64(d)
	}
	if !p.outputFits(got) || len(res) == 0 {
		return bad("manifest.output", "ailab.model.outputMismatch").With(map[string]any{"graph": shapeText(got), "manifest": shapeText(p.wantOutput())})
	}
	return nil
}

// wantOutput is the output shape the manifest implies; -1 is any size.
func (p *Package) wantOutput() []int64 {
	e := int64(len(p.Manifest.Elements))
	if p.Manifest.Output.Kind == KindBoxes {
		return []int64{1, -1, 6}
	}
	return []int64{1, e}
}

// outputFits tells whether a graph output shape (-1: dynamic) fits the
// manifest: [1, elements] for count and classes, [1, N, 6] for boxes.
func (p *Package) outputFits(got []int64) bool {
	if got == nil {
		return true // undeclared: the trial run decides
	}
	return sameShape(got, p.wantOutput())
}

func sameShape(got, want []int64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] >= 0 && want[i] >= 0 && got[i] != want[i] {
			return false
		}
	}
	return true
}

// dims is a declared shape, -1 for a dynamic dimension, nil when none is declared.
func dims(s *onnx.TensorShapeProto) []int64 {
	if s == nil {
		return nil
	}
	out := make([]int64, len(s.GetDim()))
	for i, d := range s.GetDim() {
		if v, ok := d.GetValue().(*onnx.TensorShapeProto_Dimension_DimValue); ok {
			out[i] = v.DimValue
		} else {
			out[i] = -1
		}
	}
	return out
}

func shapeText(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		if d < 0 {
			parts[i] = "N"
		} else {
			parts[i] = fmt.Sprint(d)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func valueNames(vs []*onnx.ValueInfoProto) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.GetName()
	}
	return strings.Join(names, ", ")
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func shortReason(err error) string {
	s := err.Error()
	if utf8.RuneCountInString(s) > 160 {
		s = string([]rune(s)[:160]) + "…"
	}
	return s
}

// StoredModel is an uploaded package as the lab keeps it: its manifest
// and operators, with the package's own bytes kept beside it.
type StoredModel struct {
	ID        int64     `json:"id"`
	OwnerID   int64     `json:"-"`
	Name      string    `json:"name"`
	Version   string    `json:"version"`
	Kind      string    `json:"kind"`
	FileName  string    `json:"fileName"`
	Size      int64     `json:"size"`
	Manifest  Manifest  `json:"manifest"`
	Operators []string  `json:"operators"`
	CreatedAt time.Time `json:"createTime"`
}
