package feedback_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/feedback"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func picture(t *testing.T, enc func(*bytes.Buffer, image.Image) error, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := enc(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pngOf(t *testing.T, w, h int) []byte {
	return picture(t, func(b *bytes.Buffer, i image.Image) error { return png.Encode(b, i) }, w, h)
}

// pngClaiming is a real PNG whose header then claims w×h (the CRC fixed),
// as a picture crafted to exhaust memory would.
func pngClaiming(t *testing.T, w, h uint32) []byte {
	b := pngOf(t, 2, 2)
	binary.BigEndian.PutUint32(b[16:20], w)
	binary.BigEndian.PutUint32(b[20:24], h)
	binary.BigEndian.PutUint32(b[29:33], crc32.ChecksumIEEE(b[12:29]))
	return b
}

// webpChunk wraps a first chunk's payload in the RIFF container.
func webpChunk(name string, payload []byte) []byte {
	for len(payload) < 20 {
		payload = append(payload, 0)
	}
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(4+8+len(payload)))
	b.WriteString("WEBP" + name)
	binary.Write(&b, binary.LittleEndian, uint32(len(payload)))
	b.Write(payload)
	return b.Bytes()
}

func TestSniff(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	jpg := picture(t, func(b *bytes.Buffer, i image.Image) error { return jpeg.Encode(b, i, nil) }, 64, 48)
	gifData := picture(t, func(b *bytes.Buffer, i image.Image) error { return gif.Encode(b, i, nil) }, 8, 8)
	// VP8 (lossy) key frame: frame tag, start code, 14-bit width and height.
	vp8 := webpChunk("VP8 ", []byte{0x50, 0x01, 0x00, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0xe0, 0x01})
	// VP8L (lossless): signature, then width-1 = 99 and height-1 = 49 in 14 bits each.
	bits := uint32(99) | uint32(49)<<14
	vp8l := webpChunk("VP8L", []byte{0x2f, byte(bits), byte(bits >> 8), byte(bits >> 16), byte(bits >> 24)})
	// VP8X claiming a 10000×10000 canvas.
	big := webpChunk("VP8X", []byte{0, 0, 0, 0, 0x0f, 0x27, 0, 0x0f, 0x27, 0})

	for name, c := range map[string]struct {
		data []byte
		ct   string
		w, h int
		code string
	}{
		"png":              {data: pngOf(t, 30, 20), ct: "image/png", w: 30, h: 20},
		"jpeg":             {data: jpg, ct: "image/jpeg", w: 64, h: 48},
		"webp from Chrome": {data: read("lossy-40x30.webp"), ct: "image/webp", w: 40, h: 30},
		"webp lossless":    {data: read("lossless-40x30.webp"), ct: "image/webp", w: 40, h: 30},
		"webp VP8":         {data: vp8, ct: "image/webp", w: 640, h: 480},
		"webp VP8L":        {data: vp8l, ct: "image/webp", w: 100, h: 50},
		"empty":            {data: nil, code: "feedback.shotEmpty"},
		"gif":              {data: gifData, code: "feedback.shotNotPicture"},
		"text":             {data: []byte("<html>not a picture</html>"), code: "feedback.shotNotPicture"},
		"png cut short":    {data: pngOf(t, 30, 20)[:20], code: "feedback.shotNotPicture"},
		"webp cut short":   {data: read("lossy-40x30.webp")[:100], code: "feedback.shotNotPicture"},
		"too many pixels":  {data: pngClaiming(t, 6000, 5000), code: "feedback.shotTooManyPixels"},
		"webp too large":   {data: big, code: "feedback.shotTooManyPixels"},
		"larger than 5 MB": {data: append(pngOf(t, 4, 4), make([]byte, feedback.MaxShotBytes)...), code: "feedback.shotTooLarge"},
		"png of 25 Mpx":    {data: pngClaiming(t, 5000, 5000), ct: "image/png", w: 5000, h: 5000},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := feedback.Sniff(c.data)
			if c.code != "" {
				e := errs.As(err)
				if e == nil || e.Code != c.code || e.Field != "screenshots" {
					t.Fatalf("got %+v %v, want %s", s, err, c.code)
				}
				return
			}
			if err != nil || s.ContentType != c.ct || s.Width != c.w || s.Height != c.h || s.Size != len(c.data) {
				t.Fatalf("got %+v %v", s, err)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	for name, c := range map[string]struct {
		f     feedback.Feedback
		field string
		code  string
	}{
		"ok":              {f: feedback.Feedback{Category: "problem", Text: "  map is blank  "}},
		"no category":     {f: feedback.Feedback{Text: "x"}, field: "category", code: "error.required"},
		"unknown":         {f: feedback.Feedback{Category: "praise", Text: "x"}, field: "category", code: "feedback.badCategory"},
		"blank text":      {f: feedback.Feedback{Category: "other", Text: " \n "}, field: "text", code: "error.required"},
		"long text":       {f: feedback.Feedback{Category: "other", Text: strings.Repeat("字", feedback.MaxText+1)}, field: "text", code: "feedback.textTooLong"},
		"text at the max": {f: feedback.Feedback{Category: "other", Text: strings.Repeat("字", feedback.MaxText)}},
		"long contact":    {f: feedback.Feedback{Category: "other", Text: "x", Contact: strings.Repeat("1", feedback.MaxContact+1)}, field: "contact", code: "feedback.contactTooLong"},
	} {
		err := c.f.Check()
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		if e := errs.As(err); e == nil || e.Field != c.field || e.Code != c.code {
			t.Errorf("%s: %v, want %s on %s", name, err, c.code, c.field)
		}
	}
	f := feedback.Feedback{Category: "problem", Text: "  map is blank  ", Contact: " 138 "}
	if f.Check() != nil || f.Text != "map is blank" || f.Contact != "138" {
		t.Errorf("not trimmed: %+v", f)
	}
	if _, err := feedback.CheckAnswer("   "); errs.As(err) == nil || errs.As(err).Field != "answer" {
		t.Errorf("blank answer: %v", err)
	}
}

// The worker mails a new feedback to the operator with its screenshots
// attached, retries a refused mail, and mails an answer to its author.
func TestWorker_Mails(t *testing.T) {
	ctx := context.Background()
	db := storetest.OpenSQLite(t)
	srv, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	sender, err := mail.New(mail.Config{URL: srv.URL(), From: "Fieldwatch <noreply@farm.example>"})
	if err != nil {
		t.Fatal(err)
	}
	a := &accounts.Account{AccountNumber: "farmer01", Name: "东坡农场", PasswordHash: "h", Mail: "farmer@farm.example", CreatedAt: time.Now()}
	if err := db.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	shot, err := feedback.Sniff(pngOf(t, 30, 20))
	if err != nil {
		t.Fatal(err)
	}
	f := &feedback.Feedback{AccountID: a.ID, Category: "device", Text: "Station 3 stopped reporting", Contact: "138 0000 0000",
		Lang: "en_US", CreatedAt: now, Shots: []feedback.Screenshot{shot}}
	if err := db.CreateFeedback(ctx, f, "ops@farm.example"); err != nil {
		t.Fatal(err)
	}
	clock := now
	w := feedback.NewWorker(feedback.WorkerOptions{Store: db, Mail: sender, URL: "https://farm.example/", Now: func() time.Time { return clock }})

	// Refused once: kept and retried after the backoff.
	srv.Refuse(1)
	if n, err := w.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("first run: %d %v", n, err)
	}
	if st, _ := db.FeedbackMails(ctx, f.ID); len(st) != 1 || st[0].Status != "queued" || st[0].LastError == "" {
		t.Fatalf("after a refusal: %+v", st)
	}
	if n, _ := w.RunOnce(ctx); n != 0 {
		t.Fatal("retried before the backoff")
	}
	clock = clock.Add(time.Minute)
	if n, err := w.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("retry: %d %v", n, err)
	}
	m := <-srv.C
	p, err := mailtest.Parse(m.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.To) != 1 || m.To[0] != "ops@farm.example" || !strings.Contains(p.Subject, "#") || !strings.Contains(p.Subject, "farmer01") ||
		!strings.Contains(p.Subject, "Device or data") {
		t.Fatalf("operator mail: %v %q", m.To, p.Subject)
	}
	for _, want := range []string{"farmer01", "东坡农场", "farmer@farm.example", "138 0000 0000", "Station 3 stopped reporting", "2026-03-01 08:00:00", "fieldwatch feedback answer"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("operator mail lacks %q:\n%s", want, p.Text)
		}
	}
	if len(p.Attachments) != 1 || p.Attachments[0].ContentType != "image/png" || !bytes.Equal(p.Attachments[0].Data, shot.Data) ||
		!strings.HasSuffix(p.Attachments[0].Name, ".png") {
		t.Fatalf("attachments: %+v", p.Attachments)
	}
	if st, _ := db.FeedbackMails(ctx, f.ID); len(st) != 1 || st[0].Status != "sent" {
		t.Fatalf("after sending: %+v", st)
	}

	// The answer goes to the author's bound address, in their language.
	if to, err := db.AnswerFeedback(ctx, f.ID, "Its SIM card ran out; renewed.", clock); err != nil || to != "farmer@farm.example" {
		t.Fatalf("answer: %q %v", to, err)
	}
	if n, err := w.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("answer run: %d %v", n, err)
	}
	m = <-srv.C
	if p, err = mailtest.Parse(m.Data); err != nil {
		t.Fatal(err)
	}
	if m.To[0] != "farmer@farm.example" || !strings.Contains(p.Subject, "Answer") || !strings.Contains(p.Text, "Its SIM card ran out; renewed.") ||
		!strings.Contains(p.Text, "Station 3 stopped reporting") || !strings.Contains(p.Text, "https://farm.example/console/feedback") || len(p.Attachments) != 0 {
		t.Fatalf("answer mail to %v: %q\n%s", m.To, p.Subject, p.Text)
	}
}

// Without a mail server, a queued mail fails at once rather than waiting forever.
func TestWorker_NoMailServer(t *testing.T) {
	ctx := context.Background()
	db := storetest.OpenSQLite(t)
	a := &accounts.Account{AccountNumber: "farmer01", Name: "F", PasswordHash: "h", CreatedAt: time.Now()}
	if err := db.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	f := &feedback.Feedback{AccountID: a.ID, Category: "other", Text: "x", CreatedAt: time.Now()}
	if err := db.CreateFeedback(ctx, f, "ops@farm.example"); err != nil {
		t.Fatal(err)
	}
	w := feedback.NewWorker(feedback.WorkerOptions{Store: db})
	if n, err := w.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("%d %v", n, err)
	}
	if st, _ := db.FeedbackMails(ctx, f.ID); len(st) != 1 || st[0].Status != "failed" || !strings.Contains(st[0].LastError, "--smtp-url") {
		t.Fatalf("%+v", st)
	}
}

var _ feedback.Store = (*store.DB)(nil)
