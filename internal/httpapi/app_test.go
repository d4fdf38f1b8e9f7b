package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fieldwatch/fieldwatch/internal/httpapi"
)

// precompressedApp is a build as web/scripts/compress-dist.mjs leaves it:
// index.html and a hashed script with a brotli and a gzip copy, a stylesheet
// whose brotli copy was not smaller (only .gz), an image with none, and a
// file of web/public at the root. The copies' bytes are stand-ins: the
// server sends them as they are, so each is recognisable.
func precompressedApp() fstest.MapFS {
	index := "<!doctype html><div id=root></div>"
	js := strings.Repeat("console.log('fieldwatch');\n", 40)
	return fstest.MapFS{
		"index.html":                   {Data: []byte(index)},
		"index.html.br":                {Data: []byte("BR(index)")},
		"index.html.gz":                {Data: gz(index)},
		"assets/index-DhPsGBN5.js":     {Data: []byte(js)},
		"assets/index-DhPsGBN5.js.br":  {Data: []byte("BR(js)" + strings.Repeat("b", 8192))}, // longer than the server buffers before it sends
		"assets/index-DhPsGBN5.js.gz":  {Data: gz(js)},
		"assets/index-CyPItI5o.css":    {Data: []byte("body{margin:0}")},
		"assets/index-CyPItI5o.css.gz": {Data: []byte("GZ(css)")},
		"assets/logo-B1a2C3d4.png":     {Data: []byte("\x89PNG\r\n\x1a\nnot really")},
		"favicon.svg":                  {Data: []byte("<svg/>")},
		"favicon.svg.br":               {Data: []byte("BR(svg)")},
		"favicon.svg.gz":               {Data: []byte("GZ(svg)")},
	}
}

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// rawClient sends Accept-Encoding as the test sets it and never decodes.
func rawClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableCompression: true}}
}

func fetch(t *testing.T, method, url string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := rawClient().Do(req)
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

// The script is sent in the encoding the client ranks highest among those the
// build made, brotli first on a tie, and as it is to a client accepting
// neither: the server never decodes a copy.
func TestApp_PrecompressedNegotiation(t *testing.T) {
	srv := serve(t, httpapi.Options{App: precompressedApp()})
	app := precompressedApp()
	js := "/assets/index-DhPsGBN5.js"
	for _, c := range []struct {
		accept, encoding string
	}{
		{"", ""},
		{"gzip, deflate, br, zstd", "br"},
		{"br", "br"},
		{"BR;Q=1", "br"},
		{"gzip", "gzip"},
		{"x-gzip", "gzip"},
		{"gzip;q=1, br;q=0.5", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"*", "br"},
		{"br;q=0, *;q=0.1", "gzip"},
		{"deflate, zstd", ""},
		{"identity", ""},
		{"br;q=0, gzip;q=0", ""},
		{"gzip;q=0.5, identity", ""},
		{"br;q=abc", ""},
	} {
		t.Run(fmt.Sprintf("%q", c.accept), func(t *testing.T) {
			res, body := fetch(t, "GET", srv.URL+js, "Accept-Encoding", c.accept)
			want := app["assets/index-DhPsGBN5.js"+map[string]string{"": "", "br": ".br", "gzip": ".gz"}[c.encoding]].Data
			if res.StatusCode != 200 || !bytes.Equal(body, want) {
				t.Fatalf("HTTP %d, body %.40q, want %.40q", res.StatusCode, body, want)
			}
			h := res.Header
			if h.Get("Content-Encoding") != c.encoding || h.Get("Vary") != "Accept-Encoding" ||
				h.Get("Content-Type") != "text/javascript; charset=utf-8" ||
				h.Get("Content-Length") != strconv.Itoa(len(body)) ||
				h.Get("Cache-Control") != "public, max-age=31536000, immutable" || h.Get("ETag") == "" {
				t.Fatalf("headers %v", h)
			}
		})
	}
}

// Each encoding of a file has its own ETag, and revalidation answers 304
// only for the ETag of the encoding the client would get.
func TestApp_ETagPerEncoding(t *testing.T) {
	srv := serve(t, httpapi.Options{App: precompressedApp()})
	tags := map[string]string{}
	for _, enc := range []string{"br", "gzip", "identity"} {
		res, _ := fetch(t, "GET", srv.URL+"/", "Accept-Encoding", enc)
		tags[enc] = res.Header.Get("ETag")
		if res.Header.Get("Cache-Control") != "no-cache" || tags[enc] == "" {
			t.Fatalf("%s: %v", enc, res.Header)
		}
	}
	if tags["br"] == tags["gzip"] || tags["br"] == tags["identity"] || tags["gzip"] == tags["identity"] {
		t.Fatalf("ETags shared between encodings: %v", tags)
	}
	for _, enc := range []string{"br", "gzip", "identity"} {
		for other, tag := range tags {
			res, body := fetch(t, "GET", srv.URL+"/apps/devices", "Accept-Encoding", enc, "If-None-Match", tag)
			if want := map[bool]int{true: 304, false: 200}[other == enc]; res.StatusCode != want {
				t.Errorf("%s with the ETag of %s: HTTP %d, want %d", enc, other, res.StatusCode, want)
			}
			if res.StatusCode == 304 && (len(body) != 0 || res.Header.Get("ETag") != tag || res.Header.Get("Vary") != "Accept-Encoding") {
				t.Errorf("304: %v %q", res.Header, body)
			}
		}
	}
}

// index.html and every path the client-side router handles are sent
// precompressed, revalidated on each use.
func TestApp_IndexAndFallbackPrecompressed(t *testing.T) {
	srv := serve(t, httpapi.Options{App: precompressedApp()})
	for _, p := range []string{"/", "/index.html", "/apps/devices", "/login?redirect=%2Fapps"} {
		res, body := fetch(t, "GET", srv.URL+p, "Accept-Encoding", "gzip, br")
		if res.StatusCode != 200 || string(body) != "BR(index)" || res.Header.Get("Content-Encoding") != "br" ||
			res.Header.Get("Content-Type") != "text/html; charset=utf-8" || res.Header.Get("Cache-Control") != "no-cache" ||
			res.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: HTTP %d %v %q", p, res.StatusCode, res.Header, body)
		}
		res, body = fetch(t, "GET", srv.URL+p, "Accept-Encoding", "gzip")
		r, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := io.ReadAll(r)
		if res.Header.Get("Content-Encoding") != "gzip" || string(plain) != "<!doctype html><div id=root></div>" {
			t.Errorf("%s gzip: %v %q", p, res.Header, plain)
		}
	}
	// A file of web/public keeps its name from build to build: revalidated.
	res, body := fetch(t, "GET", srv.URL+"/favicon.svg", "Accept-Encoding", "br")
	if string(body) != "BR(svg)" || res.Header.Get("Content-Type") != "image/svg+xml" || res.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("favicon: %v %q", res.Header, body)
	}
}

// A file with only a gzip copy is sent gzipped to a brotli client; one with
// no copy is sent as it is, without Vary.
func TestApp_PartialAndNoCopies(t *testing.T) {
	srv := serve(t, httpapi.Options{App: precompressedApp()})
	res, body := fetch(t, "GET", srv.URL+"/assets/index-CyPItI5o.css", "Accept-Encoding", "br, gzip")
	if string(body) != "GZ(css)" || res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "text/css; charset=utf-8" {
		t.Errorf("css: %v %q", res.Header, body)
	}
	res, body = fetch(t, "GET", srv.URL+"/assets/index-CyPItI5o.css", "Accept-Encoding", "br")
	if string(body) != "body{margin:0}" || res.Header.Get("Content-Encoding") != "" || res.Header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("css to a brotli-only client: %v %q", res.Header, body)
	}
	res, body = fetch(t, "GET", srv.URL+"/assets/logo-B1a2C3d4.png", "Accept-Encoding", "br, gzip")
	if !strings.HasPrefix(string(body), "\x89PNG") || res.Header.Get("Content-Encoding") != "" || res.Header.Get("Vary") != "" ||
		res.Header.Get("Content-Type") != "image/png" || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("png: %v", res.Header)
	}
}

// HEAD answers the headers of the GET it stands for, Content-Length that of
// the encoding chosen; a range is of the bytes of the encoding sent.
func TestApp_HeadAndRange(t *testing.T) {
	srv := serve(t, httpapi.Options{App: precompressedApp()})
	app := precompressedApp()
	js := "/assets/index-DhPsGBN5.js"
	for enc, file := range map[string]string{"br": ".br", "gzip": ".gz", "identity": ""} {
		data := app["assets/index-DhPsGBN5.js"+file].Data
		get, _ := fetch(t, "GET", srv.URL+js, "Accept-Encoding", enc)
		res, body := fetch(t, "HEAD", srv.URL+js, "Accept-Encoding", enc)
		if res.StatusCode != 200 || len(body) != 0 || res.Header.Get("Content-Length") != strconv.Itoa(len(data)) ||
			res.Header.Get("ETag") != get.Header.Get("ETag") || res.Header.Get("Content-Encoding") != get.Header.Get("Content-Encoding") {
			t.Errorf("HEAD %s: HTTP %d %v", enc, res.StatusCode, res.Header)
		}
		res, body = fetch(t, "GET", srv.URL+js, "Accept-Encoding", enc, "Range", "bytes=2-4")
		if res.StatusCode != 206 || !bytes.Equal(body, data[2:5]) || res.Header.Get("Content-Length") != "3" ||
			res.Header.Get("Content-Range") != fmt.Sprintf("bytes 2-4/%d", len(data)) ||
			res.Header.Get("Content-Encoding") != get.Header.Get("Content-Encoding") {
			t.Errorf("range %s: HTTP %d %v %q", enc, res.StatusCode, res.Header, body)
		}
		// If-Range with another encoding's ETag: the whole file, not a piece of the wrong one.
		res, body = fetch(t, "GET", srv.URL+js, "Accept-Encoding", enc, "Range", "bytes=2-4", "If-Range", `"other"`)
		if res.StatusCode != 200 || !bytes.Equal(body, data) {
			t.Errorf("If-Range %s: HTTP %d", enc, res.StatusCode)
		}
	}
}
