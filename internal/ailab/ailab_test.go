package ailab_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

func picture(t *testing.T, format string, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	var err error
	if format == "png" {
		err = png.Encode(&b, img)
	} else {
		err = jpeg.Encode(&b, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// bombPNG is a PNG whose header claims w×h pixels and holds none: only the
// header may be read.
func bombPNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	chunk := append([]byte("IHDR"), ihdr...)
	_ = binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestSniff(t *testing.T) {
	// Content decides, whatever the name said: a PNG called trap.jpg is a PNG.
	ct, w, h, err := ailab.Sniff(picture(t, "png", 32, 24))
	if err != nil || ct != "image/png" || w != 32 || h != 24 {
		t.Fatalf("png: %q %d×%d %v", ct, w, h, err)
	}
	ct, w, h, err = ailab.Sniff(picture(t, "jpeg", 40, 30))
	if err != nil || ct != "image/jpeg" || w != 40 || h != 30 {
		t.Fatalf("jpeg: %q %d×%d %v", ct, w, h, err)
	}
	refused := map[string]struct {
		data []byte
		code string
	}{
		"empty":              {nil, "ailab.sample.fileRequired"},
		"text named .png":    {[]byte("moth count 12\nnot a picture\n"), "ailab.sample.notPicture"},
		"png signature only": {[]byte("\x89PNG\r\n\x1a\nrubbish after the signature"), "ailab.sample.notPicture"},
		"oversized":          {append(picture(t, "png", 8, 8), make([]byte, ailab.MaxUploadBytes)...), "ailab.sample.tooLarge"},
		"pixel bomb":         {bombPNG(100_000, 100_000), "ailab.sample.tooManyPixels"},
	}
	for name, c := range refused {
		_, _, _, err := ailab.Sniff(c.data)
		var e *errs.Error
		if !asErr(err, &e) || e.Kind != errs.EInvalid || e.Field != "file" || e.Code != c.code {
			t.Errorf("%s: %v, want %s on file", name, err, c.code)
		}
	}
}

func TestCheckLabels(t *testing.T) {
	ok := []ailab.Label{{Element: "moth", X: 1, Y: 1, W: 10, H: 10}, {Element: "beetle", X: 31, Y: 23}}
	if err := ailab.CheckLabels(ok, 32, 24); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []ailab.Label{{X: 1, Y: 1}, {Element: "moth", X: 30, Y: 1, W: 5, H: 1}, {Element: "moth", X: -1, Y: 0}} {
		if err := ailab.CheckLabels([]ailab.Label{bad}, 32, 24); errs.KindOf(err) != errs.EInvalid {
			t.Errorf("%+v accepted: %v", bad, err)
		}
	}
}

func asErr(err error, target **errs.Error) bool {
	e, ok := err.(*errs.Error)
	*target = e
	return ok
}
