package httpapi_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fieldwatch/fieldwatch/internal/httpapi"
	"github.com/fieldwatch/fieldwatch/internal/maptiles"
)

func serve(t *testing.T, o httpapi.Options) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(httpapi.New(o))
	t.Cleanup(srv.Close)
	return srv
}

func call(t *testing.T, c *http.Client, method, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// directives splits a Content-Security-Policy into its directives.
func directives(policy string) map[string]string {
	out := map[string]string{}
	for d := range strings.SplitSeq(policy, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		out[name] = value
	}
	return out
}

func TestSecurityHeaders_CSP(t *testing.T) {
	app := fstest.MapFS{
		"index.html":           {Data: []byte("<!doctype html><div id=root></div>")},
		"assets/app-1a2b.js":   {Data: []byte("console.log(1)")},
		"assets/app-1a2b.css":  {Data: []byte("body{margin:0}")},
		"assets/mark-1a2b.svg": {Data: []byte("<svg xmlns='http://www.w3.org/2000/svg'/>")},
	}
	srv := serve(t, httpapi.Options{App: app, MapTiles: maptiles.AMap})
	// Scripts and style sheets are not documents: nosniff, and none of the document headers.
	for _, p := range []string{"/assets/app-1a2b.js", "/assets/app-1a2b.css"} {
		res, _ := call(t, srv.Client(), "GET", srv.URL+p)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", p, res.StatusCode)
		}
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", p, got)
		}
		for _, name := range []string{"Content-Security-Policy", "X-Frame-Options", "Referrer-Policy"} {
			if got := res.Header.Get(name); got != "" {
				t.Errorf("%s: %s %q, want none", p, name, got)
			}
		}
	}
	// Documents, an SVG that a browser could open as one, the API and health check keep them all.
	for _, p := range []string{"/", "/apps/devices", "/assets/mark-1a2b.svg", "/apis/nothing", "/healthz"} {
		res, _ := call(t, srv.Client(), "GET", srv.URL+p)
		csp := directives(res.Header.Get("Content-Security-Policy"))
		for name, want := range map[string]string{
			"default-src":     "'self'",
			"script-src":      "'self'",
			"style-src":       "'self' 'unsafe-inline'",
			"connect-src":     "'self'",
			"object-src":      "'none'",
			"base-uri":        "'self'",
			"frame-ancestors": "'none'",
			"img-src": "'self' data: https://webrd01.is.autonavi.com https://webrd02.is.autonavi.com " +
				"https://webrd03.is.autonavi.com https://webrd04.is.autonavi.com",
		} {
			if csp[name] != want {
				t.Errorf("%s: %s is %q, want %q", p, name, csp[name], want)
			}
		}
		if got := res.Header.Get("X-Frame-Options"); got != "DENY" {
			t.Errorf("%s: X-Frame-Options %q", p, got)
		}
	}
	for tiles, want := range map[string]string{
		"osm": "'self' data: https://tile.openstreetmap.org",
		"gcj02:http://{s}.tiles.example.cn:8080/t?x={x}&y={y}&z={z}": "'self' data: http://a.tiles.example.cn:8080 " +
			"http://b.tiles.example.cn:8080 http://c.tiles.example.cn:8080",
	} {
		src, err := maptiles.Parse(tiles)
		if err != nil {
			t.Fatal(err)
		}
		res, _ := call(t, http.DefaultClient, "GET", serve(t, httpapi.Options{MapTiles: src}).URL+"/")
		if got := directives(res.Header.Get("Content-Security-Policy"))["img-src"]; got != want {
			t.Errorf("--map-tiles %s: img-src %q, want %q", tiles, got, want)
		}
	}
}

// HSTS is sent when the client reached the server over HTTPS: served by
// --tls-cert, or told by a trusted proxy.
func TestSecurityHeaders_HSTS(t *testing.T) {
	const hsts = "Strict-Transport-Security"
	tls := httptest.NewTLSServer(httpapi.New(httpapi.Options{}))
	t.Cleanup(tls.Close)
	if res, _ := call(t, tls.Client(), "GET", tls.URL+"/healthz"); res.Header.Get(hsts) != "max-age=31536000" {
		t.Errorf("over TLS: %s %q", hsts, res.Header.Get(hsts))
	}
	plain := serve(t, httpapi.Options{})
	if res, _ := call(t, plain.Client(), "GET", plain.URL+"/healthz", "X-Forwarded-Proto", "https"); res.Header.Get(hsts) != "" {
		t.Errorf("plain HTTP, untrusted X-Forwarded-Proto: %s %q", hsts, res.Header.Get(hsts))
	}
	proxied := serve(t, httpapi.Options{TrustProxy: true})
	if res, _ := call(t, proxied.Client(), "GET", proxied.URL+"/healthz"); res.Header.Get(hsts) != "" {
		t.Errorf("behind a proxy over HTTP: %s %q", hsts, res.Header.Get(hsts))
	}
	if res, _ := call(t, proxied.Client(), "GET", proxied.URL+"/healthz", "X-Forwarded-Proto", "https"); res.Header.Get(hsts) != "max-age=31536000" {
		t.Errorf("behind a proxy over HTTPS: %s %q", hsts, res.Header.Get(hsts))
	}
}

func TestMetrics_AppPort(t *testing.T) {
	open := serve(t, httpapi.Options{})
	if res, body := call(t, open.Client(), "GET", open.URL+"/metrics"); res.StatusCode != 404 || strings.Contains(body, "go_goroutines") {
		t.Errorf("without a token: %d %.100s", res.StatusCode, body)
	}
	const token = "0123456789abcdef0123"
	s := httpapi.New(httpapi.Options{MetricsToken: token})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	for _, h := range [][]string{nil, {"Authorization", "Bearer nope"}, {"Authorization", "Basic " + token}, {"Authorization", "Bearer " + token + "x"}} {
		res, body := call(t, srv.Client(), "GET", srv.URL+"/metrics", h...)
		if res.StatusCode != 401 || res.Header.Get("WWW-Authenticate") == "" || strings.Contains(body, "go_goroutines") {
			t.Errorf("%v: %d %.100s", h, res.StatusCode, body)
		}
	}
	if res, body := call(t, srv.Client(), "GET", srv.URL+"/metrics", "Authorization", "Bearer "+token); res.StatusCode != 200 || !strings.Contains(body, "go_goroutines") {
		t.Errorf("with the token: %d %.100s", res.StatusCode, body)
	}
	rec := httptest.NewRecorder()
	s.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "go_goroutines") {
		t.Errorf("MetricsHandler: %d", rec.Code)
	}
}

// A browser without Sec-Fetch-Site is checked by its Origin; behind a
// trusted proxy against the host it addressed, X-Forwarded-Host.
func TestCrossOrigin_ForwardedHost(t *testing.T) {
	const site = "https://farm.example.com"
	for _, c := range []struct {
		name  string
		trust bool
		h     []string
		want  int // 403 refused; 404 passed the check (no such route)
	}{
		{"direct, same host", false, []string{"Origin", "http://farm.example.com", "Host", "farm.example.com"}, 404},
		{"direct, other origin", false, []string{"Origin", "https://evil.example", "Host", "farm.example.com"}, 403},
		{"proxy, forwarded host", true, []string{"Origin", site, "X-Forwarded-Host", "farm.example.com"}, 404},
		{"proxy, list", true, []string{"Origin", site, "X-Forwarded-Host", "farm.example.com, 10.0.0.2:8080"}, 404},
		{"proxy, other origin", true, []string{"Origin", "https://evil.example", "X-Forwarded-Host", "farm.example.com"}, 403},
		{"proxy, no forwarded host", true, []string{"Origin", site}, 403},
		{"untrusted forwarded host", false, []string{"Origin", site, "X-Forwarded-Host", "farm.example.com"}, 403},
		{"proxy, Sec-Fetch-Site cross-site", true, []string{"Origin", site, "X-Forwarded-Host", "farm.example.com", "Sec-Fetch-Site", "cross-site"}, 403},
	} {
		srv := serve(t, httpapi.Options{TrustProxy: c.trust})
		if res, body := call(t, srv.Client(), "POST", srv.URL+"/apis/nothing", c.h...); res.StatusCode != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, res.StatusCode, body, c.want)
		}
	}
}

func TestCSP_WeChatQRImages(t *testing.T) {
	res, _ := call(t, http.DefaultClient, "GET", serve(t, httpapi.Options{QRImageOrigin: "https://mp.weixin.qq.com"}).URL+"/")
	if got := directives(res.Header.Get("Content-Security-Policy"))["img-src"]; !strings.HasSuffix(got, " https://mp.weixin.qq.com") {
		t.Fatalf("img-src %q", got)
	}
}
