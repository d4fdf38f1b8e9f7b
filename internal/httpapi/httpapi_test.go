package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/httpapi"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/openapi"
	"github.com/fieldwatch/fieldwatch/internal/push"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
	"log/slog"
	"time"
)

type env struct {
	t       *testing.T
	url     string
	svc     *accounts.Service
	db      *store.DB
	devices *devices.Service
	ingest  *ingest.Pipeline
	metrics *metrics.Metrics
}

type opts struct {
	trustProxy bool
	wechat     httpapi.JSSDKSigner
	now        func() time.Time // the account service's clock; nil: time.Now
	mail       accounts.CodeMailer
	sms        accounts.CodeTexter
	qr         accounts.QRCodes
	token      string // --wechat-token
	// --mqtt-auth-token and the --mqtt-broker user
	brokerToken, nodeUser, nodePassword string
}

func newEnv(t *testing.T, db *store.DB, o ...opts) *env {
	t.Helper()
	var op opts
	if len(o) > 0 {
		op = o[0]
	}
	svc := accounts.New(accounts.Options{Store: db, Now: op.now, Mail: op.mail, SMS: op.sms, WeChat: op.qr})
	if _, err := svc.Create(context.Background(), "farmer01", "secret1", "东坡农场"); err != nil {
		t.Fatal(err)
	}
	app := fstest.MapFS{
		"index.html":         {Data: []byte("<!doctype html><div id=root></div>")},
		"assets/app-1a2b.js": {Data: []byte("console.log(1)")},
	}
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		t.Fatal(err)
	}
	loc, _ := time.LoadLocation("Asia/Shanghai")
	m := metrics.New()
	dev := devices.New(devices.Options{Store: db, Keys: keys})
	w := telemetry.NewWriter(telemetry.WriterOptions{Store: db, Location: loc})
	t.Cleanup(w.Close)
	pipe := ingest.New(ingest.Options{Devices: dev, Writer: w, Images: db, Metrics: m, Log: slog.New(slog.DiscardHandler)})
	srv := httptest.NewServer(httpapi.New(httpapi.Options{Accounts: svc, Devices: dev, History: telemetry.NewHistory(telemetry.HistoryOptions{Store: db, Location: loc}), Images: db,
		Ingest: pipe, Location: loc, Metrics: m, Ping: db.Ping, App: app, TrustProxy: op.trustProxy, WeChat: op.wechat, WeChatToken: op.token,
		BrokerAuthToken: op.brokerToken, BrokerNodeUser: op.nodeUser, BrokerNodePassword: op.nodePassword,
		Rules:   rules.New(rules.Options{Store: db, Devices: dev}),
		Push:    push.New(push.Options{Store: db, Devices: dev, Keys: keys, Guard: push.Guard{AllowPrivate: true}}),
		OpenAPI: openapi.New(openapi.Options{Store: db, Channels: db, Devices: dev, Keys: keys, Guard: push.Guard{AllowPrivate: true}})}))
	t.Cleanup(srv.Close)
	return &env{t: t, url: srv.URL, svc: svc, db: db, devices: dev, ingest: pipe, metrics: m}
}

// user is a browser-like client with its own cookie jar.
type user struct {
	e    *env
	http *http.Client
	lang string
}

func (e *env) user(lang string) *user {
	jar, _ := cookiejar.New(nil)
	return &user{e: e, http: &http.Client{Jar: jar}, lang: lang}
}

type reply struct {
	status  int
	header  http.Header
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	Error   *struct {
		Key   string `json:"key"`
		Field string `json:"field"`
	} `json:"error"`
}

func (u *user) do(method, path string, body any, headers ...string) reply {
	u.e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, u.e.url+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if u.lang != "" {
		req.Header.Set("lang", u.lang)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := u.http.Do(req)
	if err != nil {
		u.e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := reply{status: res.StatusCode, header: res.Header}
	if err := json.Unmarshal(raw, &r); err != nil {
		u.e.t.Fatalf("%s %s: not an envelope (%d): %s", method, path, res.StatusCode, raw)
	}
	return r
}

func (u *user) login(number, password string) reply {
	return u.do("POST", "/apis/account/login", map[string]string{"accountNumber": number, "password": password})
}

func (r reply) want(t *testing.T, status, code int) {
	t.Helper()
	if r.status != status || r.Code != code {
		t.Fatalf("got HTTP %d code %d (%q), want HTTP %d code %d", r.status, r.Code, r.Message, status, code)
	}
}

func TestAccountFlow(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		u := e.user("en_US")

		r := u.do("GET", "/apis/account/profile", nil)
		r.want(t, 401, 2)
		var ret struct{ ReturnURL string }
		_ = json.Unmarshal(r.Data, &ret)
		if ret.ReturnURL != "/login" {
			t.Errorf("returnUrl without a referer: %q", ret.ReturnURL)
		}

		r = u.login("farmer01", "secret1")
		r.want(t, 200, 0)
		var p struct {
			AccountNumber, Name string
			RegisteredAt        int64
			LastLoginAt         *int64
			LoginMethods        []string
		}
		_ = json.Unmarshal(r.Data, &p)
		if p.AccountNumber != "farmer01" || p.Name != "东坡农场" || p.RegisteredAt == 0 || p.LastLoginAt == nil || len(p.LoginMethods) != 1 {
			t.Fatalf("login profile: %+v", p)
		}

		r = u.do("GET", "/apis/account/profile", nil)
		r.want(t, 200, 0)

		r = u.do("PUT", "/apis/account/name", map[string]string{"name": "西坡农场"})
		r.want(t, 200, 0)
		if !strings.Contains(string(r.Data), "西坡农场") {
			t.Errorf("rename answer: %s", r.Data)
		}

		r = u.do("PUT", "/apis/account/password", map[string]string{"oldPassword": "secret1", "newPassword": "secret2"})
		r.want(t, 200, 0)
		r = u.do("POST", "/apis/account/password", map[string]string{"old": "secret2", "new": "secret3"})
		r.want(t, 200, 0)
		e.user("").login("farmer01", "secret3").want(t, 200, 0)

		// Headers are bytes: a User-Agent that is not UTF-8 (or is cut inside a
		// character by the length limit) must not break a login on PostgreSQL.
		ua := "Mozilla/5.0 \xff\xfe " + strings.Repeat("农", 120)
		e.user("").do("POST", "/apis/account/login", map[string]string{"accountNumber": "farmer01", "password": "secret3"},
			"User-Agent", ua).want(t, 200, 0)

		r = u.do("POST", "/apis/account/logout", nil)
		r.want(t, 200, 0)
		u.do("GET", "/apis/account/profile", nil, "Referer", e.url+"/console/account?tab=2").want(t, 401, 2)
	})
}

func TestLogin_CookieAttributes(t *testing.T) {
	db := storetest.OpenSQLite(t)
	t.Run("PlainHTTP", func(t *testing.T) {
		e := newEnv(t, db)
		r := e.user("").login("farmer01", "secret1")
		c := r.header.Get("Set-Cookie")
		for _, want := range []string{"fw_session=", "HttpOnly", "SameSite=Lax", "Path=/", "Expires="} {
			if !strings.Contains(c, want) {
				t.Errorf("cookie %q lacks %q", c, want)
			}
		}
		if strings.Contains(c, "Secure") {
			t.Errorf("cookie over plain HTTP must not be Secure: %q", c)
		}
	})
	t.Run("BehindTLSProxy", func(t *testing.T) {
		e := newEnv(t, storetest.OpenSQLite(t), opts{trustProxy: true})
		r := e.user("").do("POST", "/apis/account/login", map[string]string{"accountNumber": "farmer01", "password": "secret1"},
			"X-Forwarded-Proto", "https")
		if c := r.header.Get("Set-Cookie"); !strings.Contains(c, "Secure") {
			t.Errorf("cookie behind a trusted TLS proxy must be Secure: %q", c)
		}
	})
	t.Run("UntrustedProxyHeaderIgnored", func(t *testing.T) {
		e := newEnv(t, storetest.OpenSQLite(t))
		r := e.user("").do("POST", "/apis/account/login", map[string]string{"accountNumber": "farmer01", "password": "secret1"},
			"X-Forwarded-Proto", "https")
		if c := r.header.Get("Set-Cookie"); strings.Contains(c, "Secure") {
			t.Errorf("X-Forwarded-Proto must be ignored without --trust-proxy: %q", c)
		}
	})
}

// TestMessages checks every account rule of SPEC.md §5 over HTTP, with its
// message in each language and the field it names.
func TestMessages(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	type msgs struct{ zhCN, zhTW, enUS string }
	cases := []struct {
		name         string
		method, path string
		body         map[string]string
		status, code int
		field        string
		want         msgs
	}{
		{"WrongPassword", "POST", "/apis/account/login", map[string]string{"accountNumber": "farmer01", "password": "nope00"}, 401, 1401, "",
			msgs{"账号或密码错误", "帳號或密碼錯誤", "Incorrect account number or password"}},
		{"AccountNumberRequired", "POST", "/apis/account/login", map[string]string{"password": "secret1"}, 400, 1400, "accountNumber",
			msgs{"请输入账号", "請輸入帳號", "Account number is required"}},
		{"PasswordRequired", "POST", "/apis/account/login", map[string]string{"accountNumber": "farmer01"}, 400, 1400, "password",
			msgs{"请输入密码", "請輸入密碼", "Password is required"}},
		{"NameEmpty", "PUT", "/apis/account/name", map[string]string{"name": " "}, 400, 1400, "name",
			msgs{"名称不能为空", "名稱不能為空", "Name cannot be empty"}},
		{"NameTooLong", "PUT", "/apis/account/name", map[string]string{"name": strings.Repeat("田", 17)}, 400, 1400, "name",
			msgs{"名称最多 16 个字符", "名稱最多 16 個字元", "Name must be at most 16 characters"}},
		{"NewPasswordTooShort", "PUT", "/apis/account/password", map[string]string{"oldPassword": "secret1", "newPassword": "12345"}, 400, 1400, "newPassword",
			msgs{"新密码至少 6 位", "新密碼至少 6 位", "New password must be at least 6 characters"}},
		{"NewSameAsOld", "PUT", "/apis/account/password", map[string]string{"oldPassword": "secret1", "newPassword": "secret1"}, 400, 1400, "newPassword",
			msgs{"新密码不能与旧密码相同", "新密碼不能與舊密碼相同", "The new password must differ from the old one"}},
		{"OldPasswordWrong", "PUT", "/apis/account/password", map[string]string{"oldPassword": "secret9", "newPassword": "secret2"}, 400, 1400, "oldPassword",
			msgs{"旧密码错误", "舊密碼錯誤", "The old password is incorrect"}},
		{"LegacyNamesItsFields", "POST", "/apis/account/password", map[string]string{"old": "secret1", "new": "123"}, 400, 1400, "new",
			msgs{"新密码至少 6 位", "新密碼至少 6 位", "New password must be at least 6 characters"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for lang, want := range map[string]string{"zh_CN": tc.want.zhCN, "zh_TW": tc.want.zhTW, "en_US": tc.want.enUS} {
				u := e.user(lang)
				if !strings.HasSuffix(tc.path, "/login") {
					u.login("farmer01", "secret1").want(t, 200, 0)
				}
				r := u.do(tc.method, tc.path, tc.body)
				r.want(t, tc.status, tc.code)
				if r.Message != want {
					t.Errorf("%s: message %q, want %q", lang, r.Message, want)
				}
				if tc.field != "" && (r.Error == nil || r.Error.Field != tc.field) {
					t.Errorf("%s: error names field %+v, want %q", lang, r.Error, tc.field)
				}
			}
		})
	}
	t.Run("DefaultLanguageIsSimplifiedChinese", func(t *testing.T) {
		r := e.user("").login("farmer01", "nope00")
		if r.Message != "账号或密码错误" {
			t.Errorf("got %q", r.Message)
		}
	})
	t.Run("NothingChangedAfterRefusal", func(t *testing.T) {
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		u.do("PUT", "/apis/account/name", map[string]string{"name": ""}).want(t, 400, 1400)
		r := u.do("GET", "/apis/account/profile", nil)
		if !strings.Contains(string(r.Data), "东坡农场") {
			t.Errorf("name changed by a refused rename: %s", r.Data)
		}
	})
}

// testClock is a settable clock for the account service.
type testClock struct{ t time.Time }

func (c *testClock) now() time.Time          { return c.t }
func (c *testClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newClock() *testClock { return &testClock{t: time.UnixMilli(1_800_000_000_000)} }

func TestLogin_Throttled(t *testing.T) {
	clk := newClock()
	e := newEnv(t, storetest.OpenSQLite(t), opts{now: clk.now, trustProxy: true})
	u := e.user("en_US")
	for range 5 {
		u.login("farmer01", "wrong!").want(t, 401, 1401)
	}
	// A client hammering one account waits 1 s, 2 s, 4 s … between attempts.
	for _, wait := range []string{"1", "2", "4"} {
		for _, pw := range []string{"wrong!", "secret1"} {
			r := u.login("farmer01", pw)
			r.want(t, 429, 1429)
			if r.Message != "Too many failed attempts, please try again in "+wait+" s" || r.header.Get("Retry-After") != wait {
				t.Errorf("got %q (Retry-After %q), want a wait of %s s", r.Message, r.header.Get("Retry-After"), wait)
			}
		}
		r := e.user("zh_TW").login("farmer01", "secret1")
		if r.Message != "失敗次數過多，請 "+wait+" 秒後再試" {
			t.Errorf("zh_TW: got %q", r.Message)
		}
		clk.advance(time.Minute)
		u.login("farmer01", "wrong!").want(t, 401, 1401)
	}
	// Strangers from two more addresses make ten failures: the account
	// refuses every client that has not logged in to it before, for the
	// rest of the window.
	for i := range 2 {
		u.do("POST", "/apis/account/login", map[string]string{"accountNumber": "farmer01", "password": "wrong!"},
			"X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i+1)).want(t, 401, 1401)
	}
	r := e.user("en_US").login("farmer01", "secret1")
	r.want(t, 429, 1429)
	if r.Message != "Too many failed attempts, please try again in 12 minutes" || r.header.Get("Retry-After") != "720" {
		t.Errorf("got %q (Retry-After %q)", r.Message, r.header.Get("Retry-After"))
	}
	r = e.user("zh_TW").login("farmer01", "secret1")
	if r.Message != "失敗次數過多，請 12 分鐘後再試" {
		t.Errorf("zh_TW: got %q", r.Message)
	}
}

// TestLogin_KnownDeviceOutlastsASlowAttacker: one wrong password every
// 3 minutes must not keep the owner out; the browser that logged in before
// holds a known-device cookie, sent only to the login call.
func TestLogin_KnownDeviceOutlastsASlowAttacker(t *testing.T) {
	clk := newClock()
	e := newEnv(t, storetest.OpenSQLite(t), opts{now: clk.now})
	owner := e.user("en_US")
	r := owner.login("farmer01", "secret1")
	r.want(t, 200, 0)
	var device string
	for _, c := range r.header.Values("Set-Cookie") {
		if strings.HasPrefix(c, "fw_device=") {
			device = c
		}
	}
	for _, want := range []string{"Path=/apis/account/login", "HttpOnly", "SameSite=Strict", "Expires="} {
		if !strings.Contains(device, want) {
			t.Errorf("known-device cookie %q lacks %q", device, want)
		}
	}
	// The attacker guesses for two hours; the owner comes back every half
	// hour, a minute after a guess.
	attacker := e.user("en_US")
	for i := range 40 {
		attacker.login("farmer01", "wrong!")
		clk.advance(time.Minute)
		if i%10 == 4 {
			if r := owner.login("farmer01", "secret1"); r.status != 200 {
				t.Fatalf("after %d guesses: the owner was refused: %d %q", i+1, r.status, r.Message)
			}
		}
		clk.advance(2 * time.Minute)
	}
}

// TestLogin_ForgedForwardedFor: behind a proxy, addresses a client writes
// into X-Forwarded-For neither escape the per-address limit nor end up in
// the session.
func TestLogin_ForgedForwardedFor(t *testing.T) {
	clk := newClock()
	db := storetest.OpenSQLite(t)
	e := newEnv(t, db, opts{now: clk.now, trustProxy: true})
	u := e.user("en_US")
	// The proxy (the loopback peer) appends the address it saw, 203.0.113.7.
	for i := range 20 {
		u.do("POST", "/apis/account/login", map[string]string{"accountNumber": fmt.Sprintf("guess%03d", i), "password": "wrong!"},
			"X-Forwarded-For", fmt.Sprintf("10.0.%d.1, 203.0.113.7", i)).want(t, 401, 1401)
		clk.advance(time.Second)
	}
	u.do("POST", "/apis/account/login", map[string]string{"accountNumber": "farmer01", "password": "secret1"},
		"X-Forwarded-For", "10.9.9.9, 203.0.113.7").want(t, 429, 1429)
	clk.advance(15 * time.Minute)
	r := u.do("POST", "/apis/account/login", map[string]string{"accountNumber": "farmer01", "password": "secret1"},
		"X-Forwarded-For", "1.1.1.1, 203.0.113.7")
	r.want(t, 200, 0)
	var token string
	for _, c := range u.http.Jar.Cookies(mustURL(t, e.url)) {
		if c.Name == "fw_session" {
			token = c.Value
		}
	}
	_, sess, err := e.svc.Authenticate(context.Background(), token)
	if err != nil || sess.ClientIP != "203.0.113.7" {
		t.Fatalf("session address %v %v, want 203.0.113.7", sess, err)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestCSRF(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	rename := map[string]string{"name": "被篡改"}

	r := u.do("PUT", "/apis/account/name", rename, "Sec-Fetch-Site", "cross-site")
	r.want(t, 403, 1403)
	if r.Message != "Cross-origin request refused" {
		t.Errorf("message %q", r.Message)
	}
	u.do("PUT", "/apis/account/name", rename, "Origin", "https://evil.example").want(t, 403, 1403)
	u.do("POST", "/apis/account/logout", nil, "Sec-Fetch-Site", "same-site").want(t, 403, 1403)
	if r := u.do("GET", "/apis/account/profile", nil); strings.Contains(string(r.Data), "被篡改") {
		t.Fatal("a cross-site write went through")
	}
	// Same-origin browser calls and non-browser clients are allowed; safe methods always are.
	u.do("PUT", "/apis/account/name", map[string]string{"name": "自家"}, "Sec-Fetch-Site", "same-origin").want(t, 200, 0)
	u.do("PUT", "/apis/account/name", map[string]string{"name": "自家"}, "Origin", e.url).want(t, 200, 0)
	u.do("GET", "/apis/account/profile", nil, "Sec-Fetch-Site", "cross-site").want(t, 200, 0)
}

func TestUnknownAPIAndMethods(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	u := e.user("en_US")
	r := u.do("GET", "/apis/no/such/thing", nil)
	r.want(t, 404, 1404)
	if r.Message != "The resource does not exist" {
		t.Errorf("message %q", r.Message)
	}
	u.do("DELETE", "/apis/account/profile", nil).want(t, 405, 1405)
	u.do("POST", "/apis/account/login", nil).want(t, 400, 1400) // empty body: missing fields
	req, _ := http.NewRequest("POST", e.url+"/apis/account/login", strings.NewReader("{not json"))
	req.Header.Set("lang", "en_US")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 400 || !strings.Contains(string(body), "not valid JSON") {
		t.Errorf("bad JSON: %d %s", res.StatusCode, body)
	}
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestApp_SPAFallback(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	for _, p := range []string{"/", "/apps/devices", "/apps/mobile/poi/abc/123/realtime/tianqi", "/no/such/page", "/index.html"} {
		res, body := get(t, e.url+p)
		if res.StatusCode != 200 || !strings.Contains(body, `<div id=root>`) || res.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s: %d %q %q", p, res.StatusCode, res.Header.Get("Cache-Control"), body)
		}
	}
	res, body := get(t, e.url+"/assets/app-1a2b.js")
	if body != "console.log(1)" || !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("asset: %q %q", res.Header.Get("Cache-Control"), body)
	}
	req, _ := http.NewRequest("POST", e.url+"/apps/devices", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 405 {
		t.Errorf("POST to the app: %d", res.StatusCode)
	}
}

func TestHealthAndMetrics(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	res, body := get(t, e.url+"/healthz")
	if res.StatusCode != 200 || !strings.Contains(body, `"ok"`) {
		t.Fatalf("healthz: %d %s", res.StatusCode, body)
	}
	e.user("").login("farmer01", "nope00")
	get(t, e.url+"/apis/nothing")
	rec := httptest.NewRecorder()
	e.metrics.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	m := rec.Body.String()
	for _, want := range []string{
		`fieldwatch_http_requests_total{method="POST",route="POST /apis/account/login",status="401"} 1`,
		`fieldwatch_http_requests_total{method="GET",route="GET /healthz",status="200"} 1`,
		`fieldwatch_http_requests_total{method="GET",route="/apis/",status="404"} 1`,
		`fieldwatch_http_request_duration_seconds_bucket{route="POST /apis/account/login",le="+Inf"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestHealth_StoreDown(t *testing.T) {
	db := storetest.OpenSQLite(t)
	e := newEnv(t, db)
	db.Close()
	res, body := get(t, e.url+"/healthz")
	if res.StatusCode != 503 || strings.Contains(body, "sqlite") {
		t.Fatalf("healthz with a closed store: %d %s", res.StatusCode, body)
	}
}

func TestReadyz(t *testing.T) {
	var failing map[string]error
	h := httpapi.New(httpapi.Options{Ready: func(context.Context) map[string]error {
		return map[string]error{"store": nil, "migrations": failing["migrations"], "broker": failing["broker"]}
	}})
	get := func() (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
		return rec.Code, rec.Body.String()
	}
	if code, body := get(); code != 200 || !strings.Contains(body, `"checks":{"broker":"ok","migrations":"ok","store":"ok"}`) {
		t.Fatalf("ready: %d %s", code, body)
	}
	failing = map[string]error{"broker": errors.New("external broker not connected")}
	if code, body := get(); code != 503 || !strings.Contains(body, `"broker":"external broker not connected"`) || !strings.Contains(body, `"store":"ok"`) {
		t.Fatalf("broker down: %d %s", code, body)
	}
}

func TestRoutes_Sorted(t *testing.T) {
	got := httpapi.New(httpapi.Options{}).Routes()
	for _, want := range []string{"POST /apis/account/login", "POST /apis/account/logout", "GET /apis/account/profile",
		"PUT /apis/account/name", "PUT /apis/account/password", "POST /apis/account/password", "GET /healthz", "GET /metrics"} {
		found := false
		for _, r := range got {
			found = found || r == want
		}
		if !found {
			t.Errorf("route %q missing from %v", want, got)
		}
	}
	for i := 1; i < len(got); i++ {
		if got[i-1] >= got[i] {
			t.Errorf("not sorted or duplicated at %d: %q, %q", i, got[i-1], got[i])
		}
	}
}

// GET /apis/account/session answers who is logged in without an error
// when nobody is: null with HTTP 200, the profile once logged in, null again
// after logging out.
func TestAccountSession(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	u := e.user("en_US")
	r := u.do("GET", "/apis/account/session", nil)
	r.want(t, 200, 0)
	if string(r.Data) != "null" {
		t.Errorf("without a session: %s, want null", r.Data)
	}
	u.login("farmer01", "secret1").want(t, 200, 0)
	r = u.do("GET", "/apis/account/session", nil)
	r.want(t, 200, 0)
	if !strings.Contains(string(r.Data), `"accountNumber":"farmer01"`) {
		t.Errorf("logged in: %s", r.Data)
	}
	// The console shows device times on the farm's clock: --timezone.
	if !strings.Contains(string(r.Data), `"timezone":"Asia/Shanghai"`) {
		t.Errorf("logged in: %s, want the farm's timezone", r.Data)
	}
	u.do("POST", "/apis/account/logout", nil).want(t, 200, 0)
	if r = u.do("GET", "/apis/account/session", nil); r.status != 200 || string(r.Data) != "null" {
		t.Errorf("after logout: HTTP %d %s", r.status, r.Data)
	}
}
