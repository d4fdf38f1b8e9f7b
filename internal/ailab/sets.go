package ailab

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// MaxSetName is the longest set name, in characters.
const MaxSetName = 64

// Set is one version of a sample set. Rows is its number of samples,
// Columns its number of distinct elements labelled in them.
type Set struct {
	ID          int64     `json:"id"`
	OwnerID     int64     `json:"-"`
	Name        string    `json:"name"`
	Version     int       `json:"version"`
	Description string    `json:"description"`
	Used        bool      `json:"used"`
	Rows        int       `json:"rows"`
	Columns     int       `json:"columns"`
	SampleIDs   []int64   `json:"sampleIds"`
	CreatedAt   time.Time `json:"createTime"`
}

// CheckSet refuses a set with no name or no sample
// ('Please fill in the form completely', naming the field).
func CheckSet(name string, sampleIDs []int64) error {
	if strings.TrimSpace(name) == "" {
		return errs.Invalid("name", "ailab.set.incomplete")
	}
	if utf8.RuneCountInString(name) > MaxSetName {
		return errs.Invalid("name", "ailab.set.nameTooLong").With(map[string]any{"max": MaxSetName})
	}
	if len(sampleIDs) == 0 {
		return errs.Invalid("sampleIds", "ailab.set.incomplete")
	}
	return nil
}

// ExportItem is one sample of a set version being exported: its labels
// as the version holds them, and its picture.
type ExportItem struct {
	Sample Sample
	Data   []byte
}

// Classes are the element identifiers labelled in items, sorted: the
// class numbers of the export.
func Classes(items []ExportItem) []string {
	seen := map[string]bool{}
	var out []string
	for _, it := range items {
		for _, l := range it.Sample.Labels {
			if !seen[l.Element] {
				seen[l.Element] = true
				out = append(out, l.Element)
			}
		}
	}
	sort.Strings(out)
	return out
}

// WriteExport writes a set version as a zip (docs/ai-lab.md): images/,
// labels/ (YOLO text, one line per box or point, normalised to 0–1),
// data.yaml, and annotations.json (COCO).
func WriteExport(w io.Writer, set Set, items []ExportItem) error {
	classes := Classes(items)
	index := map[string]int{}
	for i, c := range classes {
		index[c] = i
	}
	z := zip.NewWriter(w)
	type cocoImage struct {
		ID       int64  `json:"id"`
		FileName string `json:"file_name"`
		Width    int    `json:"width"`
		Height   int    `json:"height"`
	}
	type cocoAnn struct {
		ID         int       `json:"id"`
		ImageID    int64     `json:"image_id"`
		CategoryID int       `json:"category_id"`
		BBox       []float64 `json:"bbox"`
		Area       float64   `json:"area"`
		IsCrowd    int       `json:"iscrowd"`
		Keypoints  []float64 `json:"keypoints,omitempty"`
		NumKeys    int       `json:"num_keypoints,omitempty"`
	}
	type cocoCat struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	coco := struct {
		Info        map[string]any `json:"info"`
		Images      []cocoImage    `json:"images"`
		Annotations []cocoAnn      `json:"annotations"`
		Categories  []cocoCat      `json:"categories"`
	}{Info: map[string]any{"description": set.Name, "version": fmt.Sprint(set.Version),
		"date_created": set.CreatedAt.UTC().Format(time.RFC3339)}, Images: []cocoImage{}, Annotations: []cocoAnn{}}
	for i, c := range classes {
		coco.Categories = append(coco.Categories, cocoCat{ID: i + 1, Name: c})
	}
	ann := 0
	for _, it := range items {
		s := it.Sample
		ext := ".jpg"
		if s.ContentType == "image/png" {
			ext = ".png"
		}
		base := fmt.Sprintf("sample-%d", s.ID)
		f, err := z.Create("images/" + base + ext)
		if err != nil {
			return err
		}
		if _, err := f.Write(it.Data); err != nil {
			return err
		}
		var yolo strings.Builder
		for _, l := range s.Labels {
			W, H := float64(s.Width), float64(s.Height)
			fmt.Fprintf(&yolo, "%d %.6f %.6f %.6f %.6f\n", index[l.Element], (l.X+l.W/2)/W, (l.Y+l.H/2)/H, l.W/W, l.H/H)
			ann++
			a := cocoAnn{ID: ann, ImageID: s.ID, CategoryID: index[l.Element] + 1, BBox: []float64{l.X, l.Y, l.W, l.H}, Area: l.W * l.H}
			if l.W == 0 && l.H == 0 {
				a.Keypoints, a.NumKeys = []float64{l.X, l.Y, 2}, 1
			}
			coco.Annotations = append(coco.Annotations, a)
		}
		f, err = z.Create("labels/" + base + ".txt")
		if err != nil {
			return err
		}
		if _, err := io.WriteString(f, yolo.String()); err != nil {
			return err
		}
		coco.Images = append(coco.Images, cocoImage{ID: s.ID, FileName: "images/" + base + ext, Width: s.Width, Height: s.Height})
	}
	var yaml strings.Builder
	yaml.WriteString("# " + set.Name + " version " + fmt.Sprint(set.Version) + "\npath: .\ntrain: images\nval: images\n")
	fmt.Fprintf(&yaml, "nc: %d\nnames:\n", len(classes))
	for i, c := range classes {
		q, _ := json.Marshal(c)
		fmt.Fprintf(&yaml, "  %d: %s\n", i, q)
	}
	f, err := z.Create("data.yaml")
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, yaml.String()); err != nil {
		return err
	}
	f, err = z.Create("annotations.json")
	if err != nil {
		return err
	}
	if err := json.NewEncoder(f).Encode(coco); err != nil {
		return err
	}
	return z.Close()
}
