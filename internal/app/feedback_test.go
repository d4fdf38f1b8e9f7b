package app_test

// Feedback over HTTP: a form with screenshots judged by their content,
// kept for its author only, mailed to the operator's --feedback-mail with
// its screenshots, and answered back (shown in the list, mailed to the
// author's bound address).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
)

type feedbackJSON struct {
	ID          int64  `json:"id"`
	Category    string `json:"category"`
	Text        string `json:"text"`
	Contact     string `json:"contact"`
	State       string `json:"state"`
	Answer      string `json:"answer"`
	CreateTime  int64  `json:"createTime"`
	AnswerTime  *int64 `json:"answerTime"`
	Screenshots []struct {
		ID          int64  `json:"id"`
		ContentType string `json:"contentType"`
		Width       int    `json:"width"`
		Height      int    `json:"height"`
		URL         string `json:"url"`
	} `json:"screenshots"`
}

type formFile struct {
	name, contentType string
	data              []byte
}

// postForm sends a multipart feedback form in lang.
func (c *client) postForm(lang string, fields map[string]string, files []formFile) answer {
	c.t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	for _, f := range files {
		h := make(map[string][]string)
		h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name="screenshots"; filename=%q`, f.name)}
		h["Content-Type"] = []string{f.contentType}
		p, _ := w.CreatePart(h)
		p.Write(f.data)
	}
	w.Close()
	req, _ := http.NewRequest("POST", c.base+"/apis/feedback", &b)
	req.Header.Set("lang", lang)
	req.Header.Set("Content-Type", w.FormDataContentType())
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	a := answer{status: res.StatusCode, header: res.Header}
	a.raw, _ = io.ReadAll(res.Body)
	_ = json.Unmarshal(a.raw, &a)
	return a
}

func TestFeedback(t *testing.T) {
	smtp, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	cfg := serveConfig(t)
	cfg.Demo = false
	cfg.SMTPURL, cfg.MailFrom, cfg.FeedbackMail = smtp.URL(), "Fieldwatch <noreply@fieldwatch.test>", "ops@fieldwatch.test"
	m := start(t, cfg)
	ctx := context.Background()
	for _, n := range []string{"author01", "other002"} {
		if _, err := m.Accounts.Create(ctx, n, "secret1", n); err != nil {
			t.Fatal(err)
		}
	}
	author, other := loginAs(t, m, "author01", "secret1"), loginAs(t, m, "other002", "secret1")
	if err := m.DB.UpdateAccountMail(ctx, author.id, "author@farm.example"); err != nil {
		t.Fatal(err)
	}

	webp, err := os.ReadFile("../feedback/testdata/lossy-40x30.webp")
	if err != nil {
		t.Fatal(err)
	}
	pngData := encodePicture(t, "png", 32, 24)

	// Field errors name the field, in the caller's language; nothing is kept.
	for _, c := range []struct {
		lang   string
		fields map[string]string
		files  []formFile
		field  string
		key    string
		msg    string
	}{
		{"zh_CN", map[string]string{"category": "problem", "text": "  "}, nil, "text", "error.required", "内容"},
		{"en_US", map[string]string{"category": "praise", "text": "x"}, nil, "category", "feedback.badCategory", "Category"},
		{"zh_TW", map[string]string{"category": "other", "text": "x"},
			[]formFile{{"shot.png", "image/png", []byte("<svg xmlns='http://www.w3.org/2000/svg'/>")}}, "screenshots", "feedback.shotNotPicture", "截圖"},
		{"en_US", map[string]string{"category": "other", "text": "x"},
			[]formFile{{"1.png", "image/png", pngData}, {"2.png", "image/png", pngData}, {"3.png", "image/png", pngData}, {"4.png", "image/png", pngData}},
			"screenshots", "feedback.tooManyShots", "at most 3"},
		// The text is named before a bad screenshot.
		{"en_US", map[string]string{"category": "other"}, []formFile{{"x.gif", "image/gif", []byte("GIF89a")}}, "text", "error.required", "Text"},
	} {
		a := author.postForm(c.lang, c.fields, c.files)
		key, field := errorOf(t, a)
		if a.status != http.StatusBadRequest || key != c.key || field != c.field || !strings.Contains(a.Msg, c.msg) {
			t.Errorf("%v: %d %s", c.fields, a.status, a.raw)
		}
	}

	// A PNG named .jpg and sent as JPEG, and a WebP with no type: content decides.
	a := author.postForm("en_US", map[string]string{"category": "device", "text": "Station 3 stopped reporting", "contact": "138 0000 0000"},
		[]formFile{{"photo.jpg", "image/jpeg", pngData}, {"blob", "application/octet-stream", webp}})
	var f feedbackJSON
	if a.Code != 0 || json.Unmarshal(a.Data, &f) != nil {
		t.Fatalf("create: %s", a.raw)
	}
	if f.State != "open" || f.Category != "device" || len(f.Screenshots) != 2 || f.Screenshots[0].ContentType != "image/png" ||
		f.Screenshots[1].ContentType != "image/webp" || f.Screenshots[1].Width != 40 || f.Contact != "138 0000 0000" {
		t.Fatalf("created: %+v", f)
	}
	// JSON without screenshots works too.
	var plain feedbackJSON
	author.must("POST", "/apis/feedback", `{"category":"suggestion","text":"Dark map tiles"}`, &plain)

	var list []feedbackJSON
	author.must("GET", "/apis/feedback", "", &list)
	if len(list) != 2 || list[0].ID != plain.ID || list[1].ID != f.ID || list[1].Text != "Station 3 stopped reporting" {
		t.Fatalf("list: %+v", list)
	}
	shot := author.call("GET", f.Screenshots[1].URL, "")
	if shot.status != 200 || shot.header.Get("Content-Type") != "image/webp" || !bytes.Equal(shot.raw, webp) {
		t.Fatalf("screenshot: %d %s", shot.status, shot.header)
	}

	// Another account: an empty list, and the feedback and its screenshot answer as missing.
	var theirs []feedbackJSON
	other.must("GET", "/apis/feedback", "", &theirs)
	if len(theirs) != 0 {
		t.Fatalf("another's list: %+v", theirs)
	}
	none := author.call("GET", "/apis/feedback/987654321", "")
	for _, path := range []string{fmt.Sprintf("/apis/feedback/%d", f.ID), f.Screenshots[0].URL} {
		if a := other.call("GET", path, ""); a.status != 404 || a.Code != none.Code || a.Msg != none.Msg {
			t.Errorf("another reads %s: %d %s, none: %s", path, a.status, a.raw, none.raw)
		}
	}
	if a := author.call("GET", fmt.Sprintf("/apis/feedback/%d/screenshots/%d", plain.ID, f.Screenshots[0].ID), ""); a.status != 404 {
		t.Errorf("a screenshot under another feedback: %d", a.status)
	}

	// The operator gets both, the first with its screenshots attached.
	got := map[string]*mailtest.Parsed{}
	for len(got) < 2 {
		select {
		case msg := <-smtp.C:
			p, err := mailtest.Parse(msg.Data)
			if err != nil {
				t.Fatal(err)
			}
			if msg.To[0] != "ops@fieldwatch.test" {
				t.Fatalf("mailed to %v", msg.To)
			}
			got[fmt.Sprint(strings.Contains(p.Subject, fmt.Sprintf("#%d ", f.ID)))] = p
		case <-time.After(time.Minute):
			t.Fatalf("no mail to the operator; got %d", len(got))
		}
	}
	p := got["true"]
	if p == nil || !strings.Contains(p.Subject, "author01") || !strings.Contains(p.Text, "Station 3 stopped reporting") ||
		!strings.Contains(p.Text, "138 0000 0000") || !strings.Contains(p.Text, "author@farm.example") || len(p.Attachments) != 2 ||
		!bytes.Equal(p.Attachments[1].Data, webp) || p.Attachments[1].ContentType != "image/webp" {
		t.Fatalf("operator mail: %+v", p)
	}

	// The operator answers (as "fieldwatch feedback answer" does): the list
	// shows it, and the author's bound address gets it.
	if to, err := m.DB.AnswerFeedback(ctx, f.ID, "Its SIM card ran out; renewed.", time.Now()); err != nil || to != "author@farm.example" {
		t.Fatalf("answer: %q %v", to, err)
	}
	var one feedbackJSON
	author.must("GET", fmt.Sprintf("/apis/feedback/%d", f.ID), "", &one)
	if one.State != "answered" || one.Answer != "Its SIM card ran out; renewed." || one.AnswerTime == nil {
		t.Fatalf("answered: %+v", one)
	}
	select {
	case msg := <-smtp.C:
		p, _ := mailtest.Parse(msg.Data)
		if msg.To[0] != "author@farm.example" || !strings.Contains(p.Text, "Its SIM card ran out; renewed.") {
			t.Fatalf("answer mail to %v: %s", msg.To, p.Text)
		}
	case <-time.After(time.Minute): // the worker's poll finds an answer written elsewhere
		t.Fatal("no answer mail")
	}
}
