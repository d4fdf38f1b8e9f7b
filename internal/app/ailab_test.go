package app_test

// AI lab samples over HTTP: camera pictures and uploads become samples of
// their owner only; uploads are judged by their content.

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/devices"
)

type sampleJSON struct {
	ID         int64  `json:"id"`
	SN         string `json:"sn"`
	ImageID    *int64 `json:"imageId"`
	SampleTime int64  `json:"sampleTime"`
	Tag        string `json:"tag"`
	Width      int    `json:"width"`
	Height     int    `json:"height"`
	URL        string `json:"url"`
	Labels     []struct {
		Element    string
		X, Y, W, H float64
	} `json:"labels"`
}

func encodePicture(t *testing.T, format string, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(2, 2, color.RGBA{G: 200, A: 255})
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

func errorOf(t *testing.T, a answer) (key, field string) {
	t.Helper()
	var e struct {
		Error struct{ Key, Field string } `json:"error"`
	}
	_ = json.Unmarshal(a.raw, &e)
	return e.Error.Key, e.Error.Field
}

func TestAilabSamples(t *testing.T) {
	m := start(t, ingestConfig(t))
	ctx := context.Background()
	for _, n := range []string{"labown01", "labnbr02"} {
		if _, err := m.Accounts.Create(ctx, n, "secret1", n); err != nil {
			t.Fatal(err)
		}
	}
	owner, other := loginAs(t, m, "labown01", "secret1"), loginAs(t, m, "labnbr02", "secret1")
	trap, _, err := m.Devices.Register(ctx, devices.Registration{SN: "CB0000077001", TypeID: 21, Owner: owner.id})
	if err != nil {
		t.Fatal(err)
	}
	at := time.UnixMilli(1_772_323_200_000)
	if err := m.DB.SaveImage(ctx, trap.ID, at, "image/jpeg", encodePicture(t, "jpeg", 64, 48)); err != nil {
		t.Fatal(err)
	}
	imgs, err := m.DB.Images(ctx, trap.ID, 1)
	if err != nil || len(imgs) != 1 {
		t.Fatalf("images: %v %v", imgs, err)
	}
	body := fmt.Sprintf(`{"deviceId":%d,"imageId":%d}`, trap.ID, imgs[0].ID)

	// The neighbour cannot take the owner's picture: the device looks missing.
	nobody := other.call("POST", "/apis/ailab/samples", fmt.Sprintf(`{"deviceId":%d,"imageId":%d}`, trap.ID+100000, imgs[0].ID))
	if a := other.call("POST", "/apis/ailab/samples", body); a.Code == 0 || a.Code != nobody.Code || a.Msg != nobody.Msg {
		t.Fatalf("another's picture: %d %s, none: %d %s", a.Code, a.raw, nobody.Code, nobody.raw)
	}
	var s sampleJSON
	owner.must("POST", "/apis/ailab/samples", body, &s)
	if s.SN != trap.SN || s.ImageID == nil || *s.ImageID != imgs[0].ID || s.Width != 64 || s.Height != 48 || s.SampleTime != at.UnixMilli() {
		t.Fatalf("sample from a picture: %+v", s)
	}

	// Labels inside the picture are kept; one outside is refused naming labels.
	owner.must("PUT", fmt.Sprintf("/apis/ailab/samples/%d", s.ID),
		`{"tag":"moths","labels":[{"element":"moth","x":1,"y":2,"w":10,"h":8},{"element":"beetle","x":30,"y":20,"w":0,"h":0}]}`, &s)
	if s.Tag != "moths" || len(s.Labels) != 2 || s.Labels[0].W != 10 {
		t.Fatalf("labelled: %+v", s)
	}
	bad := owner.call("PUT", fmt.Sprintf("/apis/ailab/samples/%d", s.ID), `{"labels":[{"element":"moth","x":60,"y":2,"w":10,"h":8}]}`)
	if key, field := errorOf(t, bad); bad.Code == 0 || field != "labels" || key != "ailab.sample.badLabel" {
		t.Fatalf("a box outside the picture: %s", bad.raw)
	}

	// Uploads: content decides, not the name or the Content-Type.
	upload := func(data []byte) answer {
		return owner.call("POST", "/apis/ailab/samples/upload?tag=field&name=trap.jpg", string(data))
	}
	var up sampleJSON
	a := upload(encodePicture(t, "png", 32, 24))
	if a.Code != 0 || json.Unmarshal(a.Data, &up) != nil || up.Width != 32 || up.Tag != "field" {
		t.Fatalf("a PNG named .jpg: %s", a.raw)
	}
	var ihdr bytes.Buffer
	chunk := append([]byte("IHDR"), 0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0, 8, 2, 0, 0, 0) // 100,000 × 100,000
	ihdr.WriteString("\x89PNG\r\n\x1a\n")
	_ = binary.Write(&ihdr, binary.BigEndian, uint32(13))
	ihdr.Write(chunk)
	_ = binary.Write(&ihdr, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	for name, c := range map[string]struct {
		data []byte
		key  string
	}{
		"a text file named .png": {[]byte("not a picture at all"), "ailab.sample.notPicture"},
		"an oversized picture":   {append(encodePicture(t, "png", 8, 8), make([]byte, 10<<20)...), "ailab.sample.tooLarge"},
		"a pixel bomb":           {ihdr.Bytes(), "ailab.sample.tooManyPixels"},
	} {
		a := upload(c.data)
		if key, field := errorOf(t, a); a.Code == 0 || field != "file" || key != c.key {
			t.Errorf("%s: %d %s", name, a.Code, a.raw)
		}
	}

	// The picture is served from the camera's store for a referenced sample.
	if got := owner.call("GET", s.URL, ""); got.status != 200 || !bytes.Equal(got.raw, mustImage(t, m, trap.ID, imgs[0].ID)) {
		t.Fatalf("the sample's picture: HTTP %d, %d bytes", got.status, len(got.raw))
	}
	var list []sampleJSON
	owner.must("GET", "/apis/ailab/samples", "", &list)
	if len(list) != 2 || list[0].ID != up.ID {
		t.Fatalf("list: %+v", list)
	}
	other.must("GET", "/apis/ailab/samples", "", &list)
	if len(list) != 0 {
		t.Fatalf("the neighbour's list: %+v", list)
	}

	// Another account's sample answers exactly as one that does not exist.
	for _, p := range []struct{ method, path, body string }{
		{"GET", "/apis/ailab/samples/%d", ""},
		{"GET", "/apis/ailab/samples/%d/image", ""},
		{"PUT", "/apis/ailab/samples/%d", `{"tag":"x"}`},
		{"DELETE", "/apis/ailab/samples/%d", ""},
	} {
		theirs := other.call(p.method, fmt.Sprintf(p.path, s.ID), p.body)
		none := other.call(p.method, fmt.Sprintf(p.path, 99999999), p.body)
		if theirs.Code == 0 || theirs.Code != none.Code || theirs.status != none.status || theirs.Msg != none.Msg {
			t.Errorf("%s %s: another's %d %s, none %d %s", p.method, p.path, theirs.Code, theirs.raw, none.Code, none.raw)
		}
	}
	// Elements: the account's own list; a bad identifier is named.
	var el struct{ ID int64 }
	owner.must("POST", "/apis/ailab/elements", `{"name":"Cotton bollworm","unit":"head","identifier":"moth"}`, &el)
	if a := owner.call("POST", "/apis/ailab/elements", `{"name":"Beetle","identifier":"a beetle"}`); a.Code == 0 {
		t.Fatalf("an identifier with a space: %s", a.raw)
	} else if key, field := errorOf(t, a); field != "identifier" || key != "ailab.element.badIdentifier" {
		t.Fatalf("an identifier with a space: %s", a.raw)
	}
	var els []struct{ Identifier string }
	other.must("GET", "/apis/ailab/elements", "", &els)
	if len(els) != 0 {
		t.Fatalf("the neighbour sees the owner's elements: %+v", els)
	}
	theirs, none := other.call("DELETE", fmt.Sprintf("/apis/ailab/elements/%d", el.ID), ""), other.call("DELETE", "/apis/ailab/elements/99999999", "")
	if theirs.Code == 0 || theirs.Code != none.Code || theirs.Msg != none.Msg {
		t.Fatalf("another's element: %s, none %s", theirs.raw, none.raw)
	}
	owner.must("GET", "/apis/ailab/elements", "", &els)
	if len(els) != 1 || els[0].Identifier != "moth" {
		t.Fatalf("elements: %+v", els)
	}

	// Sample sets: the form's missing fields are named, in each language.
	for lang, msg := range map[string]string{"en_US": "Please fill in the form completely", "zh_CN": "请将表单填写完整", "zh_TW": "請將表單填寫完整"} {
		a := owner.callLang(lang, "POST", "/apis/ailab/sets", fmt.Sprintf(`{"name":"","sampleIds":[%d]}`, s.ID))
		if key, field := errorOf(t, a); a.Code == 0 || field != "name" || key != "ailab.set.incomplete" || a.Msg != msg {
			t.Errorf("%s: a set with no name: %s", lang, a.raw)
		}
	}
	if a := owner.call("POST", "/apis/ailab/sets", `{"name":"traps","sampleIds":[]}`); a.Code == 0 {
		t.Fatalf("a set with no samples: %s", a.raw)
	}
	type setJSON struct {
		ID, Rows, Columns, Version int
		Used                       bool
	}
	var set setJSON
	owner.must("POST", "/apis/ailab/sets", fmt.Sprintf(`{"name":"traps","description":"June","sampleIds":[%d,%d]}`, s.ID, up.ID), &set)
	if set.Rows != 2 || set.Columns != 2 || set.Version != 1 || set.Used {
		t.Fatalf("set: %+v", set)
	}
	if a := other.call("POST", "/apis/ailab/sets", fmt.Sprintf(`{"name":"mine","sampleIds":[%d]}`, s.ID)); a.Code == 0 {
		t.Fatalf("a set of another's sample: %s", a.raw)
	}
	for _, p := range []string{"/apis/ailab/sets/%d", "/apis/ailab/sets/%d/export"} {
		theirs, none := other.call("GET", fmt.Sprintf(p, set.ID), ""), other.call("GET", fmt.Sprintf(p, 99999999), "")
		if theirs.Code == 0 || theirs.Code != none.Code || theirs.Msg != none.Msg {
			t.Errorf("GET %s: another's %s, none %s", p, theirs.raw, none.raw)
		}
	}
	exp := owner.call("GET", fmt.Sprintf("/apis/ailab/sets/%d/export", set.ID), "")
	z, err := zip.NewReader(bytes.NewReader(exp.raw), int64(len(exp.raw)))
	if exp.status != 200 || err != nil {
		t.Fatalf("export: HTTP %d %v", exp.status, err)
	}
	if cd := exp.header.Get("Content-Disposition"); !strings.Contains(cd, fmt.Sprintf(`filename="sample-set-%d-v1.zip"`, set.ID)) {
		t.Fatalf("export file name: %q", cd)
	}
	names := map[string]bool{}
	for _, f := range z.File {
		names[f.Name] = true
	}
	if !names["data.yaml"] || !names["annotations.json"] || !names[fmt.Sprintf("labels/sample-%d.txt", s.ID)] || !names[fmt.Sprintf("images/sample-%d.png", up.ID)] {
		t.Fatalf("export files: %v", names)
	}
	// Exported, the version is used: editing it answers version 2.
	var v2 setJSON
	owner.must("PUT", fmt.Sprintf("/apis/ailab/sets/%d", set.ID), fmt.Sprintf(`{"description":"July","sampleIds":[%d]}`, s.ID), &v2)
	if v2.ID == set.ID || v2.Version != 2 || v2.Rows != 1 {
		t.Fatalf("edit of a used version: %+v", v2)
	}
	owner.must("GET", fmt.Sprintf("/apis/ailab/sets/%d", set.ID), "", &set)
	if !set.Used || set.Rows != 2 {
		t.Fatalf("the used version changed: %+v", set)
	}

	owner.must("DELETE", fmt.Sprintf("/apis/ailab/samples/%d", s.ID), "", nil)
	if _, _, err := m.DB.ImageData(ctx, trap.ID, imgs[0].ID); err != nil {
		t.Fatalf("the camera picture went with its sample: %v", err)
	}
}

func mustImage(t *testing.T, m *app.Main, deviceID, id int64) []byte {
	t.Helper()
	_, data, err := m.DB.ImageData(context.Background(), deviceID, id)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
