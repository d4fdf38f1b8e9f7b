// Package ailab holds the AI lab's samples: pictures with labelled boxes
// and points, each naming one of the owner's elements (docs/ai-lab.md).
package ailab

import (
	"bytes"
	"image"
	_ "image/jpeg" // registers the JPEG decoder for DecodeConfig
	_ "image/png"  // registers the PNG decoder for DecodeConfig
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Upload limits: the file's size and the picture's pixel count, checked
// from the header before any pixel is decoded.
const (
	MaxUploadBytes = 10 << 20
	MaxPixels      = 40_000_000
)

// Label is one box (W, H > 0) or point (W = H = 0) on a sample, in pixels
// of the picture, naming an element by its identifier.
type Label struct {
	Element string  `json:"element"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	W       float64 `json:"w"`
	H       float64 `json:"h"`
}

// Sample is a labelled picture.
type Sample struct {
	ID          int64     `json:"id"`
	OwnerID     int64     `json:"-"`
	DeviceID    *int64    `json:"deviceId,omitempty"`
	ImageID     *int64    `json:"imageId,omitempty"`
	DeviceName  string    `json:"deviceName"`
	SN          string    `json:"sn"`
	SampleTime  time.Time `json:"sampleTime"`
	Tag         string    `json:"tag"`
	Duration    int       `json:"duration"`
	Location    string    `json:"location"`
	ContentType string    `json:"contentType"`
	Width       int       `json:"width"`
	Height      int       `json:"height"`
	Labels      []Label   `json:"labels"`
	CreatedAt   time.Time `json:"createTime"`
}

// Sniff checks an uploaded picture by its content alone: JPEG or PNG, at
// most MaxUploadBytes, at most MaxPixels. It returns the content type and
// the picture's size. Errors are EINVALID on field "file".
func Sniff(data []byte) (contentType string, width, height int, err error) {
	if len(data) == 0 {
		return "", 0, 0, errs.Invalid("file", "ailab.sample.fileRequired")
	}
	if len(data) > MaxUploadBytes {
		return "", 0, 0, errs.Invalid("file", "ailab.sample.tooLarge")
	}
	ct := http.DetectContentType(data)
	if ct != "image/jpeg" && ct != "image/png" {
		return "", 0, 0, errs.Invalid("file", "ailab.sample.notPicture")
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || "image/"+format != ct {
		return "", 0, 0, errs.Invalid("file", "ailab.sample.notPicture")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return "", 0, 0, errs.Invalid("file", "ailab.sample.tooManyPixels")
	}
	return ct, cfg.Width, cfg.Height, nil
}

// CheckLabels refuses labels outside the picture or with no element.
func CheckLabels(labels []Label, width, height int) error {
	for _, l := range labels {
		if l.Element == "" || l.W < 0 || l.H < 0 || l.X < 0 || l.Y < 0 ||
			l.X+l.W > float64(width) || l.Y+l.H > float64(height) {
			return errs.Invalid("labels", "ailab.sample.badLabel")
		}
	}
	return nil
}

// Element is one thing labels name, e.g. an insect species: the account's own list.
type Element struct {
	ID         int64  `json:"id"`
	OwnerID    int64  `json:"-"`
	Name       string `json:"name"`
	Unit       string `json:"unit"`
	Identifier string `json:"identifier"`
}

// Check refuses an element without a name or with an identifier that is
// not 1–32 letters, digits, '_' or '-'.
func (e Element) Check() error {
	if strings.TrimSpace(e.Name) == "" || utf8.RuneCountInString(e.Name) > MaxSetName {
		return errs.Invalid("name", "ailab.element.badName")
	}
	if len(e.Identifier) == 0 || len(e.Identifier) > 32 {
		return errs.Invalid("identifier", "ailab.element.badIdentifier")
	}
	for _, r := range e.Identifier {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return errs.Invalid("identifier", "ailab.element.badIdentifier")
		}
	}
	if utf8.RuneCountInString(e.Unit) > 16 {
		return errs.Invalid("unit", "ailab.element.badUnit")
	}
	return nil
}
