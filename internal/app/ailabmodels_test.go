package app_test

// AI lab models over HTTP: upload an .l5d, list, test it on samples,
// download and delete it; another account's model looks missing.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/ailab/builtin"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
)

// upload posts data as the multipart part "file" named name.
func (c *client) upload(lang, path, name string, data []byte) answer {
	c.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if name != "" {
		f, _ := w.CreateFormFile("file", name)
		_, _ = f.Write(data)
	}
	_ = w.Close()
	req, _ := http.NewRequest("POST", c.base+path, &body)
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

func TestAilabModels(t *testing.T) {
	m := start(t, ingestConfig(t))
	ctx := context.Background()
	for _, n := range []string{"mdlown01", "mdlnbr02"} {
		if _, err := m.Accounts.Create(ctx, n, "secret1", n); err != nil {
			t.Fatal(err)
		}
	}
	owner, other := loginAs(t, m, "mdlown01", "secret1"), loginAs(t, m, "mdlnbr02", "secret1")

	// The built-in counter can be downloaded, and uploaded like any package.
	got := owner.call("GET", "/apis/ailab/models/builtin/insect-counter.l5d", "")
	if got.status != 200 || !bytes.Equal(got.raw, builtin.InsectCounter) {
		t.Fatalf("built-in package: HTTP %d, %d bytes", got.status, len(got.raw))
	}
	for lang, msg := range map[string]string{"en_US": "File: only l5d is accepted", "zh_CN": "文件：仅支持 l5d 格式", "zh_TW": "檔案：僅支援 l5d 格式"} {
		a := owner.upload(lang, "/apis/ailab/models", "counter.zip", builtin.InsectCounter)
		if key, field := errorOf(t, a); a.Code == 0 || field != "file" || key != "ailab.model.onlyL5d" || a.Msg != msg {
			t.Errorf("%s: a .zip: %s", lang, a.raw)
		}
	}
	for lang, msg := range map[string]string{"en_US": "File required", "zh_CN": "文件：请选择文件", "zh_TW": "檔案：請選擇檔案"} {
		a := owner.upload(lang, "/apis/ailab/models", "", nil)
		if key, field := errorOf(t, a); a.Code == 0 || field != "file" || key != "ailab.model.fileRequired" || a.Msg != msg {
			t.Errorf("%s: no file: %s", lang, a.raw)
		}
	}
	var model struct {
		ID        int64
		Name      string
		Kind      string
		Operators []string
		URL       string
		Manifest  ailab.Manifest
	}
	a := owner.upload("en_US", "/apis/ailab/models", builtin.InsectCounterFile, builtin.InsectCounter)
	if a.Code != 0 || json.Unmarshal(a.Data, &model) != nil || model.ID == 0 || model.Kind != "count" ||
		model.Manifest.Elements[0].Identifier != "moth" || len(model.Operators) == 0 {
		t.Fatalf("upload: %s", a.raw)
	}
	if a := owner.upload("en_US", "/apis/ailab/models", builtin.InsectCounterFile, builtin.InsectCounter); a.Code == 0 {
		t.Fatalf("the same name and version twice: %s", a.raw)
	} else if key, field := errorOf(t, a); key != "ailab.model.taken" || field != "manifest.version" {
		t.Fatalf("the same name and version twice: %s", a.raw)
	}
	var list []struct{ ID int64 }
	owner.must("GET", "/apis/ailab/models", "", &list)
	if len(list) != 1 || list[0].ID != model.ID {
		t.Fatalf("list: %+v", list)
	}
	other.must("GET", "/apis/ailab/models", "", &list)
	if len(list) != 0 {
		t.Fatalf("the neighbour's list: %+v", list)
	}
	if f := owner.call("GET", model.URL, ""); f.status != 200 || !bytes.Equal(f.raw, builtin.InsectCounter) {
		t.Fatalf("the package back: HTTP %d", f.status)
	}

	// A test on two trap pictures: per sample the count of moths and the
	// time taken, as the package gives them run directly.
	at := time.Date(2025, 7, 20, 23, 0, 0, 0, time.FixedZone("CST", 8*3600))
	var ids []int64
	var want []float64
	p, err := ailab.ReadPackage(builtin.InsectCounterFile, builtin.InsectCounter)
	if err != nil {
		t.Fatal(err)
	}
	direct, _ := ailab.Load(p)
	for i, catch := range []int{5, 90} {
		pic := simulator.TrapPicture(int64(100+i), 36, 116, at, catch)
		var s sampleJSON
		owner.must("POST", "/apis/ailab/samples/upload?tag=traps", string(pic), &s)
		ids = append(ids, s.ID)
		r, err := direct.RunPicture(pic)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, r.Values[0].Value)
	}
	var res struct {
		Kind    string
		Millis  float64
		Outputs []struct {
			SampleID int64
			Width    int
			Values   []ailab.Value
			Millis   float64
		}
	}
	owner.must("POST", fmt.Sprintf("/apis/ailab/models/%d/test", model.ID), fmt.Sprintf(`{"sampleIds":[%d,%d]}`, ids[0], ids[1]), &res)
	if res.Kind != "count" || len(res.Outputs) != 2 || res.Millis <= 0 {
		t.Fatalf("test: %+v", res)
	}
	for i, o := range res.Outputs {
		if o.SampleID != ids[i] || o.Width != 320 || len(o.Values) != 1 || o.Values[0].Identifier != "moth" ||
			o.Values[0].Value != want[i] || o.Millis <= 0 {
			t.Errorf("output %d: %+v, want %v", i, o, want[i])
		}
	}
	if res.Outputs[1].Values[0].Value <= res.Outputs[0].Values[0].Value {
		t.Errorf("90 moths counted no more than 5: %+v", res.Outputs)
	}
	// A test on a set version runs on its samples and marks the version used.
	var set struct {
		ID   int64
		Used bool
	}
	owner.must("POST", "/apis/ailab/sets", fmt.Sprintf(`{"name":"traps","sampleIds":[%d,%d]}`, ids[0], ids[1]), &set)
	owner.must("POST", fmt.Sprintf("/apis/ailab/models/%d/test", model.ID), fmt.Sprintf(`{"setId":%d}`, set.ID), &res)
	if len(res.Outputs) != 2 || res.Outputs[1].Values[0].Value != want[1] {
		t.Fatalf("test on a set: %+v", res)
	}
	owner.must("GET", fmt.Sprintf("/apis/ailab/sets/%d", set.ID), "", &set)
	if !set.Used {
		t.Fatalf("the tested set version is not used: %+v", set)
	}
	// No samples, or another account's sample, are refused.
	if a := owner.call("POST", fmt.Sprintf("/apis/ailab/models/%d/test", model.ID), `{"sampleIds":[]}`); a.Code == 0 {
		t.Fatalf("a test on nothing: %s", a.raw)
	} else if key, field := errorOf(t, a); key != "ailab.model.badSamples" || field != "sampleIds" {
		t.Fatalf("a test on nothing: %s", a.raw)
	}
	var theirSample sampleJSON
	other.must("POST", "/apis/ailab/samples/upload", string(simulator.TrapPicture(7, 36, 116, at, 3)), &theirSample)
	mine := owner.call("POST", fmt.Sprintf("/apis/ailab/models/%d/test", model.ID), fmt.Sprintf(`{"sampleIds":[%d]}`, theirSample.ID))
	none := owner.call("POST", fmt.Sprintf("/apis/ailab/models/%d/test", model.ID), `{"sampleIds":[99999999]}`)
	if mine.Code == 0 || mine.Code != none.Code || mine.Msg != none.Msg {
		t.Fatalf("a test on another's sample: %s, none %s", mine.raw, none.raw)
	}

	// Another account's model answers exactly as one that does not exist.
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/apis/ailab/models/%d", ""},
		{"GET", "/apis/ailab/models/%d/file", ""},
		{"POST", "/apis/ailab/models/%d/test", fmt.Sprintf(`{"sampleIds":[%d]}`, theirSample.ID)},
		{"DELETE", "/apis/ailab/models/%d", ""},
	} {
		theirs := other.call(c.method, fmt.Sprintf(c.path, model.ID), c.body)
		none := other.call(c.method, fmt.Sprintf(c.path, 99999999), c.body)
		if theirs.Code == 0 || theirs.Code != none.Code || theirs.status != none.status || theirs.Msg != none.Msg {
			t.Errorf("%s %s: another's %d %s, none %d %s", c.method, c.path, theirs.Code, theirs.raw, none.Code, none.raw)
		}
	}
	owner.must("DELETE", fmt.Sprintf("/apis/ailab/models/%d", model.ID), "", nil)
	if a := owner.call("GET", fmt.Sprintf("/apis/ailab/models/%d", model.ID), ""); a.Code == 0 {
		t.Fatalf("deleted model: %s", a.raw)
	}
}
