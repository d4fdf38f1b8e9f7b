package app_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/openapi"
)

// docBlock returns the first fenced code block of a language that follows
// a heading in docs/open-api.md.
func docBlock(t *testing.T, heading, lang string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(file), "../../docs/open-api.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("docs/open-api.md has no %q", heading)
	}
	m := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```").FindStringSubmatch(doc[i:])
	if m == nil {
		t.Fatalf("no %s block after %q", lang, heading)
	}
	return m[1]
}

// signedCall makes an open-API call the way docs/open-api.md says.
func signedCall(t *testing.T, base, key, secret, method, path string, q url.Values, ts time.Time, nonce string) answer {
	t.Helper()
	if nonce == "" {
		b := make([]byte, 16)
		rand.Read(b)
		nonce = hex.EncodeToString(b)
	}
	stamp := strconv.FormatInt(ts.Unix(), 10)
	sig := openapi.Sign(secret, openapi.StringToSign(method, path, q, stamp, nonce, nil))
	u := base + path
	if len(q) > 0 {
		u += "?" + openapi.CanonicalQuery(q)
	}
	req, _ := http.NewRequest(method, u, nil)
	req.Header.Set("lang", "en_US")
	for k, v := range map[string]string{openapi.HeaderKey: key, openapi.HeaderTimestamp: stamp, openapi.HeaderNonce: nonce, openapi.HeaderSignature: sig} {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	a := answer{status: res.StatusCode}
	a.raw, _ = io.ReadAll(res.Body)
	_ = json.Unmarshal(a.raw, &a)
	return a
}

func TestOpenAPI_DocsExamplesAndSignatures(t *testing.T) {
	m := start(t, serveConfig(t))
	<-m.DemoLoaded()
	ctx := context.Background()
	owner := loginAs(t, m, "demo01", "demo123456")
	if _, err := m.Accounts.Create(ctx, "other001", "secret1", "Other"); err != nil {
		t.Fatal(err)
	}
	// A device reachable only through the open API, and one of another account.
	hidden, _, err := m.Devices.Register(ctx, devices.Registration{SN: "APIONLY00001", TypeID: 21, Owner: owner.id})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.DB.SetAPIOnly(ctx, hidden.ID, true); err != nil {
		t.Fatal(err)
	}
	other, err := m.DB.FindAccountByNumber(ctx, "other001")
	if err != nil {
		t.Fatal(err)
	}
	theirs, _, err := m.Devices.Register(ctx, devices.Registration{SN: "THEIRS000001", TypeID: 21, Owner: other.ID})
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Total int }
	owner.must("GET", "/apis/devices?nameOrSn=APIONLY", "", &list)
	if list.Total != 0 {
		t.Fatal("an api-only device is listed in the console")
	}

	var app struct {
		ID        int64
		AppKey    string
		AppSecret string
	}
	owner.must("POST", "/apis/openapi/application", `{"name":"County GIS","range":"all"}`, &app)
	if !strings.HasPrefix(app.AppKey, "fwak_") || !strings.HasPrefix(app.AppSecret, "fwas_") {
		t.Fatalf("app %+v", app)
	}
	if got := owner.call("GET", fmt.Sprintf("/apis/openapi/application/%d", app.ID), ""); strings.Contains(string(got.raw), app.AppSecret) {
		t.Fatal("the secret is shown again")
	}
	now := time.Now()
	// Not published yet: the key does not work.
	if a := signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", "/openapi/v1/devices", nil, now, ""); a.status != 401 ||
		a.Msg != "Unknown app key, or the application is not published" {
		t.Fatalf("unpublished: %d %s", a.status, a.raw)
	}
	owner.must("PUT", fmt.Sprintf("/apis/openapi/application/%d/publish", app.ID), `{"published":true}`, nil)

	env := append(os.Environ(), "FW_BASE="+m.URL(), "FW_APP_KEY="+app.AppKey, "FW_APP_SECRET="+app.AppSecret)
	checkList := func(t *testing.T, out []byte) {
		t.Helper()
		var a struct {
			Code int
			Data struct {
				List  []struct{ SN string }
				Total int
			}
		}
		if err := json.Unmarshal(out, &a); err != nil || a.Code != 0 || a.Data.Total < 2 {
			t.Fatalf("answer %s: %v", out, err)
		}
	}
	t.Run("go", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(docBlock(t, "### Go", "go")), 0o644); err != nil {
			t.Fatal(err)
		}
		gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
		cmd := exec.Command(gobin, "run", "main.go")
		cmd.Dir, cmd.Env = dir, append(env, "GO111MODULE=off", "GOFLAGS=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		checkList(t, out)
	})
	t.Run("python", func(t *testing.T) {
		py, err := exec.LookPath("python3")
		if err != nil {
			t.Skip("python3 is not installed")
		}
		cmd := exec.Command(py, "-c", docBlock(t, "### Python", "python"))
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		checkList(t, out)
	})
	t.Run("curl", func(t *testing.T) {
		for _, tool := range []string{"bash", "curl", "openssl"} {
			if _, err := exec.LookPath(tool); err != nil {
				t.Skip(tool + " is not installed")
			}
		}
		cmd := exec.Command("bash", "-c", docBlock(t, "### curl", "sh"))
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		checkList(t, out)
	})

	call := func(path string, q url.Values) answer {
		return signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", path, q, time.Now(), "")
	}
	// The api-only device is in range; another account's is missing.
	if a := call("/openapi/v1/devices/APIONLY00001", nil); a.Code != 0 || !strings.Contains(string(a.Data), `"apiOnly":true`) {
		t.Fatalf("api-only device: %s", a.raw)
	}
	missing := call("/openapi/v1/devices/NOSUCHDEVICE", nil)
	if a := call("/openapi/v1/devices/"+theirs.SN, nil); a.status != 404 || string(a.raw) != string(missing.raw) {
		t.Fatalf("another account's device: %d %s (missing: %s)", a.status, a.raw, missing.raw)
	}
	// Latest and history of a demo station.
	var devs struct{ List []struct{ SN string } }
	if err := json.Unmarshal(call("/openapi/v1/devices", url.Values{"size": {"100"}}).Data, &devs); err != nil {
		t.Fatal(err)
	}
	station := ""
	for _, d := range devs.List {
		if strings.HasPrefix(d.SN, "ZS") || strings.HasPrefix(d.SN, "TQ") {
			station = d.SN
		}
	}
	if station == "" {
		station = devs.List[0].SN
	}
	if a := call("/openapi/v1/devices/"+station+"/latest", nil); a.Code != 0 || !strings.Contains(string(a.Data), `"values":[{`) {
		t.Fatalf("latest: %s", a.raw)
	}
	q := url.Values{"begin": {fmt.Sprint(now.Add(-24 * time.Hour).UnixMilli())}, "end": {fmt.Sprint(now.UnixMilli())}}
	if a := call("/openapi/v1/devices/"+station+"/history", q); a.Code != 0 || !strings.Contains(string(a.Data), `"times":[`) {
		t.Fatalf("raw history: %s", a.raw)
	}
	q.Set("dim", "daily")
	q.Set("begin", fmt.Sprint(now.Add(-72*time.Hour).UnixMilli())) // yesterday's day too, even just after midnight
	if a := call("/openapi/v1/devices/"+station+"/history", q); a.Code != 0 || !strings.Contains(string(a.Data), `"days":[{`) {
		t.Fatalf("daily history: %s", a.raw)
	}
	q.Set("dim", "raw")
	q.Set("begin", fmt.Sprint(now.Add(-40*24*time.Hour).UnixMilli()))
	if a := call("/openapi/v1/devices/"+station+"/history", q); a.status != 400 || a.Msg != "The end must be after the begin, at most 31 days later" {
		t.Fatalf("too long a range: %d %s", a.status, a.raw)
	}

	// Refusals, each with its reason.
	for _, c := range []struct {
		name   string
		a      answer
		reason string
	}{
		{"stale", signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", "/openapi/v1/devices", nil, now.Add(-6*time.Minute), ""),
			"X-Timestamp is more than 5 minutes from the server's clock"},
		{"future", signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", "/openapi/v1/devices", nil, now.Add(6*time.Minute), ""),
			"X-Timestamp is more than 5 minutes from the server's clock"},
		{"wrong secret", signedCall(t, m.URL(), app.AppKey, "fwas_wrong", "GET", "/openapi/v1/devices", nil, now, ""),
			"The signature does not match"},
		{"unknown key", signedCall(t, m.URL(), "fwak_nobody", app.AppSecret, "GET", "/openapi/v1/devices", nil, now, ""),
			"Unknown app key, or the application is not published"},
	} {
		if c.a.status != 401 || c.a.Code != 1401 || c.a.Msg != c.reason {
			t.Errorf("%s: %d %s", c.name, c.a.status, c.a.raw)
		}
	}
	nonce := "replayed-nonce-0001"
	if a := signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", "/openapi/v1/devices", nil, now, nonce); a.Code != 0 {
		t.Fatalf("first use: %s", a.raw)
	}
	if a := signedCall(t, m.URL(), app.AppKey, app.AppSecret, "GET", "/openapi/v1/devices", nil, now, nonce); a.status != 401 ||
		a.Msg != "This X-Nonce was already used; send a new random one with every request" {
		t.Fatalf("replay: %d %s", a.status, a.raw)
	}
	// A query changed after signing is refused.
	stamp := strconv.FormatInt(now.Unix(), 10)
	sig := openapi.Sign(app.AppSecret, openapi.StringToSign("GET", "/openapi/v1/devices", url.Values{"size": {"1"}}, stamp, "tampered-query-0001", nil))
	req, _ := http.NewRequest("GET", m.URL()+"/openapi/v1/devices?size=100", nil)
	req.Header.Set(openapi.HeaderKey, app.AppKey)
	req.Header.Set(openapi.HeaderTimestamp, stamp)
	req.Header.Set(openapi.HeaderNonce, "tampered-query-0001")
	req.Header.Set(openapi.HeaderSignature, sig)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 401 {
		t.Fatalf("tampered query: %v %v", res, err)
	}
	// Resetting the secret retires the old one.
	var reset struct{ AppSecret string }
	owner.must("POST", fmt.Sprintf("/apis/openapi/application/%d/secret", app.ID), "", &reset)
	if a := call("/openapi/v1/devices", nil); a.status != 401 {
		t.Fatalf("old secret after reset: %s", a.raw)
	}
	if a := signedCall(t, m.URL(), app.AppKey, reset.AppSecret, "GET", "/openapi/v1/devices", nil, time.Now(), ""); a.Code != 0 {
		t.Fatalf("new secret: %s", a.raw)
	}
	// The OpenAPI document is served without login and describes every call.
	res, err := http.Get(m.URL() + "/apis/openapi/spec.json")
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		OpenAPI string
		Paths   map[string]any
	}
	if err := json.NewDecoder(res.Body).Decode(&spec); err != nil || spec.OpenAPI != "3.1.0" {
		t.Fatalf("spec: %+v %v", spec, err)
	}
	res.Body.Close()
	for _, rt := range m.HTTP.Routes() {
		if _, path, _ := strings.Cut(rt, " "); (strings.HasPrefix(path, "/openapi/") || strings.HasPrefix(path, "/apis/oem/")) && spec.Paths[path] == nil {
			t.Errorf("the OpenAPI document lacks %s", path)
		}
	}
}
