package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/httpapi"
	"github.com/fieldwatch/fieldwatch/internal/maptiles"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// encoded is a client of u's session that sends Accept-Encoding as given and
// does not decode the answer.
func (u *user) encoded(t *testing.T, method, path, acceptEncoding string) (*http.Response, []byte) {
	t.Helper()
	c := &http.Client{Jar: u.http.Jar, Transport: &http.Transport{DisableCompression: true}}
	req, _ := http.NewRequest(method, u.e.url+path, nil)
	req.Header.Set("lang", "en_US")
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v (%.40q)", err, b)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// writeDay stores a day of 10-minute reports of a soil station's first two
// nodes, starting at t0.
func (e *env) writeDay(id int64, t0 time.Time) {
	e.t.Helper()
	loc, _ := time.LoadLocation("Asia/Shanghai")
	var reports []*telemetry.Report
	for i := range 144 {
		at := t0.Add(time.Duration(i) * 10 * time.Minute)
		reports = append(reports, &telemetry.Report{DeviceID: id, Time: at, OfflineAt: at.Add(time.Hour), Points: []telemetry.Point{
			{Param: "soilMoisture", Node: 10, Value: 20 + float64(i)*0.013}, {Param: "soilMoisture", Node: 20, Value: 30 - float64(i)*0.007},
		}})
	}
	if _, err := e.db.WriteReports(context.Background(), reports, loc); err != nil {
		e.t.Fatal(err)
	}
}

// A history answer above a kilobyte arrives gzipped to a client accepting
// gzip and decodes to the bytes a client without it gets.
func TestCompressAPI_History(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	soil := e.register("ZS0000054321", 2, "farmer01")
	loc, _ := time.LoadLocation("Asia/Shanghai")
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, loc)
	e.writeDay(soil.ID, t0)
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	path := fmt.Sprintf("/apis/poi/%d/datapoints/v3?begin=%d&end=%d&params=soilMoisture", soil.ID, t0.UnixMilli(), t0.Add(24*time.Hour).UnixMilli())

	plainRes, plain := u.encoded(t, "GET", path, "")
	if plainRes.StatusCode != 200 || !bytes.HasPrefix(plain, []byte(`{"code":0,`)) || len(plain) < 4096 {
		t.Fatalf("identity: HTTP %d, %d bytes %.80q", plainRes.StatusCode, len(plain), plain)
	}
	if plainRes.Header.Get("Content-Encoding") != "" || plainRes.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("identity headers: %v", plainRes.Header)
	}
	for _, accept := range []string{"gzip", "gzip, deflate, br, zstd", "br;q=1, gzip;q=0.8"} {
		res, body := u.encoded(t, "GET", path, accept)
		h := res.Header
		if res.StatusCode != 200 || h.Get("Content-Encoding") != "gzip" || h.Get("Vary") != "Accept-Encoding" ||
			h.Get("Content-Type") != "application/json; charset=utf-8" || h.Get("Cache-Control") != "no-store" {
			t.Fatalf("%q: HTTP %d %v", accept, res.StatusCode, h)
		}
		if cl := h.Get("Content-Length"); cl != "" && cl != strconv.Itoa(len(body)) {
			t.Fatalf("%q: Content-Length %s for %d bytes", accept, cl, len(body))
		}
		if got := gunzip(t, body); !bytes.Equal(got, plain) {
			t.Fatalf("%q: decodes to %d bytes %.80q, want the %d of identity", accept, len(got), got, len(plain))
		}
		if len(body) >= len(plain)/3 {
			t.Errorf("%q: %d bytes gzipped of %d", accept, len(body), len(plain))
		}
	}
	// No decoding on the server: refusing gzip gets identity.
	for _, accept := range []string{"identity", "br", "gzip;q=0", "deflate"} {
		res, body := u.encoded(t, "GET", path, accept)
		if res.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, plain) {
			t.Errorf("%q: %v, %d bytes", accept, res.Header, len(body))
		}
	}
	// gzhttp answers HEAD uncompressed (a proxy bug it avoids): the headers
	// of the identity answer, without a body.
	res, body := u.encoded(t, "HEAD", path, "gzip")
	if res.StatusCode != 200 || len(body) != 0 || res.Header.Get("Content-Encoding") != "" ||
		res.Header.Get("Content-Type") != "application/json; charset=utf-8" || res.Header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("HEAD: HTTP %d %v", res.StatusCode, res.Header)
	}
}

// Answers under a kilobyte go as they are, and say they could vary.
func TestCompressAPI_SmallAnswersPlain(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	for _, p := range []string{"/apis/account/profile", "/apis/devices", "/apis/nothing"} {
		res, body := u.encoded(t, "GET", p, "gzip")
		if len(body) >= 1024 || !bytes.HasPrefix(body, []byte(`{"code":`)) || res.Header.Get("Content-Encoding") != "" ||
			res.Header.Get("Vary") != "Accept-Encoding" || res.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
			t.Errorf("%s: %v %.80q", p, res.Header, body)
		}
	}
	// Neither the web app (precompressed at build time) nor the health check pass through it.
	for _, p := range []string{"/healthz", "/apps/devices"} {
		res, _ := u.encoded(t, "GET", p, "gzip")
		if res.Header.Get("Content-Encoding") != "" || strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: %v", p, res.Header)
		}
	}
}

// The open API's document is JSON over a kilobyte: gzipped (its HEAD is not,
// as for every API answer).
func TestCompressAPI_OpenAPISpec(t *testing.T) {
	srv := serve(t, httpapi.Options{})
	_, plain := fetch(t, "GET", srv.URL+"/apis/openapi/spec.json")
	res, body := fetch(t, "GET", srv.URL+"/apis/openapi/spec.json", "Accept-Encoding", "gzip")
	if res.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, body), plain) || len(plain) < 1024 {
		t.Fatalf("spec: %v", res.Header)
	}
	res, body = fetch(t, "HEAD", srv.URL+"/apis/openapi/spec.json", "Accept-Encoding", "gzip")
	if res.StatusCode != 200 || len(body) != 0 || res.Header.Get("Content-Encoding") != "" || res.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("HEAD spec: %d %v", res.StatusCode, res.Header)
	}
}

// Downloads are sent as stored, whatever the client accepts: the device
// list's XLSX (a zip already), a camera image, a CSV export.
func TestCompressAPI_DownloadsUntouched(t *testing.T) {
	db := storetest.OpenSQLite(t)
	e, _ := exportEnv(t, db, false, maptiles.Source{})
	soil := e.register("ZS0000054322", 2, "farmer01")
	loc, _ := time.LoadLocation("Asia/Shanghai")
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, loc)
	e.writeDay(soil.ID, t0)
	jpeg := append([]byte("\xff\xd8\xff\xe0"), bytes.Repeat([]byte("0123456789"), 400)...)
	if err := db.SaveImage(context.Background(), soil.ID, t0, "image/jpeg", jpeg); err != nil {
		t.Fatal(err)
	}
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	images := decodeData[[]struct{ ID int64 }](t, u.do("GET", fmt.Sprintf("/apis/poi/%d/images", soil.ID), nil))
	if len(images) != 1 {
		t.Fatalf("images: %+v", images)
	}
	r := u.do("POST", fmt.Sprintf("/apis/poi/%d/datapoints/export", soil.ID), map[string]any{"params": []string{"soilMoisture"},
		"nodes": []int{10, 20}, "begin": t0.UnixMilli(), "end": t0.Add(24 * time.Hour).UnixMilli(), "format": "csv"})
	r.want(t, 200, 0)
	task := decodeData[struct{ TaskID string }](t, r).TaskID
	if st := finished(t, u, soil.ID, task); st.Status != "ready" {
		t.Fatalf("export: %+v", st)
	}
	for _, c := range []struct {
		path, ctype, prefix string
	}{
		{"/apis/export/device/info", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "PK"},
		{fmt.Sprintf("/apis/poi/%d/images/%d", soil.ID, images[0].ID), "image/jpeg", "\xff\xd8"},
		{fmt.Sprintf("/apis/poi/%d/datapoints/export/%s/file", soil.ID, task), "text/csv", ""},
	} {
		_, plain := u.encoded(t, "GET", c.path, "")
		res, body := u.encoded(t, "GET", c.path, "gzip, br")
		h := res.Header
		if res.StatusCode != 200 || len(body) < 1024 || !bytes.Equal(body, plain) || !strings.HasPrefix(string(body), c.prefix) ||
			h.Get("Content-Type") != c.ctype || h.Get("Content-Encoding") != "" || h.Get("Content-Length") != strconv.Itoa(len(body)) {
			t.Errorf("%s: HTTP %d, %d bytes, %v", c.path, res.StatusCode, len(body), h)
		}
	}
}
