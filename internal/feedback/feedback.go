// Package feedback holds what users tell the operator from the console
// (docs/feedback.md): a text in a category, up to three screenshots and a
// way to reach them; the operator's answer; and the mails about both.
package feedback

import (
	"bytes"
	"encoding/binary"
	"image"
	_ "image/jpeg" // registers the JPEG decoder for DecodeConfig
	_ "image/png"  // registers the PNG decoder for DecodeConfig
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Limits of a feedback and of each screenshot. Pixels are counted from the
// picture's header before anything is decoded.
const (
	MaxText        = 2000 // characters
	MaxContact     = 100  // characters
	MaxAnswer      = 4000 // characters
	MaxScreenshots = 3
	MaxShotBytes   = 5 << 20
	MaxShotPixels  = 25_000_000
)

// Categories a feedback is filed under, in the order forms list them.
var Categories = []string{"problem", "suggestion", "device", "account", "other"}

// States of a feedback as its author sees it.
const (
	StateOpen     = "open"
	StateAnswered = "answered"
)

// Feedback is one message from an account to the operator.
type Feedback struct {
	ID         int64        `json:"id"`
	AccountID  int64        `json:"-"`
	Category   string       `json:"category"`
	Text       string       `json:"text"`
	Contact    string       `json:"contact"`
	Lang       string       `json:"-"` // the author's language when sent: mails to them are in it
	CreatedAt  time.Time    `json:"-"`
	Answer     string       `json:"answer"`
	AnsweredAt *time.Time   `json:"-"`
	Shots      []Screenshot `json:"screenshots"`

	// Filled for the operator's listing and mails.
	AccountNumber string `json:"-"`
	AccountName   string `json:"-"`
	AccountMail   string `json:"-"`
	AccountPhone  string `json:"-"`
}

// State is open until the operator answers.
func (f *Feedback) State() string {
	if f.AnsweredAt != nil {
		return StateAnswered
	}
	return StateOpen
}

// Screenshot is one picture sent with a feedback; Data is left empty in
// listings.
type Screenshot struct {
	ID          int64  `json:"id"`
	ContentType string `json:"contentType"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Size        int    `json:"size"`
	Data        []byte `json:"-"`
}

// Check normalizes and checks a new feedback's fields (not its
// screenshots): the text is required, the category one of Categories.
// Errors are EINVALID naming the field.
func (f *Feedback) Check() error {
	f.Text = strings.TrimSpace(f.Text)
	f.Contact = strings.TrimSpace(f.Contact)
	if f.Category == "" {
		return errs.Invalid("category", "error.required")
	}
	if !slices.Contains(Categories, f.Category) {
		return errs.Invalid("category", "feedback.badCategory")
	}
	if f.Text == "" {
		return errs.Invalid("text", "error.required")
	}
	if utf8.RuneCountInString(f.Text) > MaxText {
		return errs.Invalid("text", "feedback.textTooLong").With(map[string]any{"max": MaxText})
	}
	if utf8.RuneCountInString(f.Contact) > MaxContact {
		return errs.Invalid("contact", "feedback.contactTooLong").With(map[string]any{"max": MaxContact})
	}
	return nil
}

// CheckAnswer normalizes and checks an operator's answer.
func CheckAnswer(text string) (string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", errs.Invalid("answer", "error.required")
	}
	if utf8.RuneCountInString(text) > MaxAnswer {
		return "", errs.Invalid("answer", "feedback.answerTooLong").With(map[string]any{"max": MaxAnswer})
	}
	return text, nil
}

// Sniff judges an uploaded screenshot by its content alone — its name and
// declared type are ignored: JPEG, PNG or WebP, at most MaxShotBytes and
// MaxShotPixels. Errors are EINVALID on field "screenshots".
func Sniff(data []byte) (Screenshot, error) {
	const field = "screenshots"
	if len(data) == 0 {
		return Screenshot{}, errs.Invalid(field, "feedback.shotEmpty")
	}
	if len(data) > MaxShotBytes {
		return Screenshot{}, errs.Invalid(field, "feedback.shotTooLarge")
	}
	ct := http.DetectContentType(data)
	var w, h int
	switch ct {
	case "image/jpeg", "image/png":
		cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || "image/"+format != ct {
			return Screenshot{}, errs.Invalid(field, "feedback.shotNotPicture")
		}
		w, h = cfg.Width, cfg.Height
	case "image/webp":
		var ok bool
		if w, h, ok = webpSize(data); !ok {
			return Screenshot{}, errs.Invalid(field, "feedback.shotNotPicture")
		}
	default:
		return Screenshot{}, errs.Invalid(field, "feedback.shotNotPicture")
	}
	if w <= 0 || h <= 0 || int64(w)*int64(h) > MaxShotPixels {
		return Screenshot{}, errs.Invalid(field, "feedback.shotTooManyPixels")
	}
	return Screenshot{ContentType: ct, Width: w, Height: h, Size: len(data), Data: data}, nil
}

// webpSize reads a WebP picture's size from its first chunk (RIFF
// container, then VP8 lossy, VP8L lossless or VP8X extended), as the
// WebP container specification (RFC 9649) lays them out.
func webpSize(b []byte) (w, h int, ok bool) {
	if len(b) < 30 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, false
	}
	if int(binary.LittleEndian.Uint32(b[4:8]))+8 > len(b) {
		return 0, 0, false // cut short
	}
	chunk, body := string(b[12:16]), b[20:]
	switch chunk {
	case "VP8 ":
		// Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
		if body[3] != 0x9d || body[4] != 0x01 || body[5] != 0x2a {
			return 0, 0, false
		}
		w = int(binary.LittleEndian.Uint16(body[6:8]) & 0x3fff)
		h = int(binary.LittleEndian.Uint16(body[8:10]) & 0x3fff)
	case "VP8L":
		// Signature 0x2f, then width-1 and height-1 in 14 bits each.
		if body[0] != 0x2f {
			return 0, 0, false
		}
		bits := binary.LittleEndian.Uint32(body[1:5])
		w = int(bits&0x3fff) + 1
		h = int(bits>>14&0x3fff) + 1
		if bits>>29 != 0 { // version must be 0
			return 0, 0, false
		}
	case "VP8X":
		// Flags (4 bytes), then canvas width-1 and height-1 in 24 bits each.
		w = int(uint32(body[4])|uint32(body[5])<<8|uint32(body[6])<<16) + 1
		h = int(uint32(body[7])|uint32(body[8])<<8|uint32(body[9])<<16) + 1
	default:
		return 0, 0, false
	}
	return w, h, true
}
