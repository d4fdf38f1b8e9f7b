package ailab_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

func TestCheckSet(t *testing.T) {
	for _, c := range []struct {
		name  string
		ids   []int64
		field string
	}{{"", []int64{1}, "name"}, {"  ", []int64{1}, "name"}, {"traps", nil, "sampleIds"}, {strings.Repeat("x", 65), []int64{1}, "name"}} {
		err := ailab.CheckSet(c.name, c.ids)
		e, ok := err.(*errs.Error)
		if !ok || e.Kind != errs.EInvalid || e.Field != c.field {
			t.Errorf("%q %v: %v, want EINVALID on %s", c.name, c.ids, err, c.field)
		}
	}
	if err := ailab.CheckSet("traps", []int64{1}); err != nil {
		t.Fatal(err)
	}
}

func TestWriteExport(t *testing.T) {
	png := picture(t, "png", 200, 100)
	items := []ailab.ExportItem{
		{Sample: ailab.Sample{ID: 7, ContentType: "image/png", Width: 200, Height: 100, Labels: []ailab.Label{
			{Element: "moth", X: 20, Y: 10, W: 40, H: 20}, {Element: "beetle", X: 100, Y: 50}}}, Data: png},
		{Sample: ailab.Sample{ID: 9, ContentType: "image/jpeg", Width: 200, Height: 100}, Data: []byte("jpeg")},
	}
	var buf bytes.Buffer
	if err := ailab.WriteExport(&buf, ailab.Set{Name: "traps", Version: 2, CreatedAt: time.UnixMilli(1_772_323_200_000)}, items); err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r)
		r.Close()
		files[f.Name] = string(b)
	}
	if files["images/sample-7.png"] != string(png) || files["images/sample-9.jpg"] != "jpeg" {
		t.Fatalf("images: %v", keys(files))
	}
	// Classes sorted: beetle 0, moth 1. YOLO: class cx cy w h, all in 0–1.
	lines := strings.Split(strings.TrimSpace(files["labels/sample-7.txt"]), "\n")
	want := [][]float64{{1, 0.2, 0.2, 0.2, 0.2}, {0, 0.5, 0.5, 0, 0}}
	if len(lines) != 2 {
		t.Fatalf("yolo: %q", files["labels/sample-7.txt"])
	}
	for i, l := range lines {
		f := strings.Fields(l)
		for j, v := range f {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || x < 0 || x > 1 || x != want[i][j] {
				t.Fatalf("yolo line %q field %d: %v, want %v", l, j, x, want[i][j])
			}
		}
	}
	if s, ok := files["labels/sample-9.txt"]; !ok || s != "" {
		t.Fatalf("a sample with no labels: %q %v", s, ok)
	}
	if !strings.Contains(files["data.yaml"], "nc: 2\nnames:\n  0: \"beetle\"\n  1: \"moth\"\n") {
		t.Fatalf("data.yaml: %s", files["data.yaml"])
	}
	var coco struct {
		Images []struct {
			ID            int64
			FileName      string `json:"file_name"`
			Width, Height int
		}
		Annotations []struct {
			ImageID    int64     `json:"image_id"`
			CategoryID int       `json:"category_id"`
			BBox       []float64 `json:"bbox"`
		}
		Categories []struct {
			ID   int
			Name string
		}
	}
	if err := json.Unmarshal([]byte(files["annotations.json"]), &coco); err != nil {
		t.Fatalf("COCO JSON: %v", err)
	}
	if len(coco.Images) != 2 || coco.Images[0].FileName != "images/sample-7.png" || coco.Images[0].Width != 200 ||
		len(coco.Categories) != 2 || coco.Categories[1].Name != "moth" || coco.Categories[1].ID != 2 ||
		len(coco.Annotations) != 2 || coco.Annotations[0].CategoryID != 2 || coco.Annotations[0].BBox[2] != 40 {
		t.Fatalf("coco: %+v", coco)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
