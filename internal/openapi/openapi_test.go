package openapi

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/secret"
)

// The example of docs/open-api.md, and its signature computed apart from
// this package (openssl dgst -sha256 -hmac, as the curl example does).
const (
	docsSecret    = "fwas_0123456789abcdef0123456789abcdef0123456789abcdef"
	docsKey       = "fwak_0123456789abcdef01234567"
	docsTimestamp = "1763884800"
	docsNonce     = "3f9c1a7e5b2d4c6a8e0f1b3d5a7c9e1f"
	docsToSign    = "GET\n/openapi/v1/devices\npage=1&size=20\n1763884800\n3f9c1a7e5b2d4c6a8e0f1b3d5a7c9e1f\n" +
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	docsSignature = "55d2157d3abacda73eec3d2fa3df52e33d5bbf50d429c6acf0258c1c01bb39df"
)

var docsNow = time.Unix(1763884800, 0)

func docsRequest() Request {
	return Request{Method: "GET", Path: "/openapi/v1/devices", Query: url.Values{"size": {"20"}, "page": {"1"}},
		Key: docsKey, Timestamp: docsTimestamp, Nonce: docsNonce, Signature: docsSignature}
}

// authStore is an AuthStore over a map, spending nonces per application.
type authStore struct {
	apps   map[string]*App
	sealed map[string]string
	nonces map[string]bool
	err    error // returned by AppByKey when set
}

func newAuthStore(t testing.TB, keys *secret.Keeper) *authStore {
	t.Helper()
	return &authStore{
		apps: map[string]*App{
			docsKey:       {ID: 1, OwnerID: 7, Name: "Irrigation", AppKey: docsKey, Published: true},
			"fwak_quiet":  {ID: 2, OwnerID: 7, Name: "Draft", AppKey: "fwak_quiet"},
			"fwak_sealed": {ID: 3, OwnerID: 7, Name: "Other server", AppKey: "fwak_sealed", Published: true},
		},
		sealed: map[string]string{
			docsKey:      keys.Seal([]byte(docsSecret)),
			"fwak_quiet": keys.Seal([]byte(docsSecret)),
			// Sealed with another server's secret: it does not open here.
			"fwak_sealed": otherKeeper(t).Seal([]byte(docsSecret)),
		},
		nonces: map[string]bool{},
	}
}

func (s *authStore) AppByKey(_ context.Context, key string) (*App, string, error) {
	if s.err != nil {
		return nil, "", s.err
	}
	a, ok := s.apps[key]
	if !ok {
		return nil, "", errs.NotFound()
	}
	c := *a
	return &c, s.sealed[key], nil
}

func (s *authStore) UseNonce(_ context.Context, app int64, nonce string, _ time.Time) error {
	k := strconv.FormatInt(app, 10) + "/" + nonce
	if s.nonces[k] {
		return errs.New(errs.EConflict, "openapi.auth.replay")
	}
	s.nonces[k] = true
	return nil
}

func keeper(t testing.TB) *secret.Keeper {
	t.Helper()
	k, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func otherKeeper(t testing.TB) *secret.Keeper {
	t.Helper()
	b := make([]byte, secret.Size)
	b[0] = 1
	k, err := secret.New(b)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// signed returns r signed with the docs' secret.
func signed(r Request) Request {
	r.Signature = Sign(docsSecret, StringToSign(r.Method, r.Path, r.Query, r.Timestamp, r.Nonce, r.Body))
	return r
}

// wantRefused fails unless err is EUNAUTHORIZED with code.
func wantRefused(t *testing.T, err error, code string) {
	t.Helper()
	e := errs.As(err)
	if e == nil || e.Kind != errs.EUnauthorized || e.Code != code {
		t.Fatalf("got %v, want unauthorized %s", err, code)
	}
}

func TestCanonicalQuery_Cases(t *testing.T) {
	cases := []struct {
		name string
		q    url.Values
		want string
	}{
		{"none", nil, ""},
		{"empty", url.Values{}, ""},
		{"sorted by name", url.Values{"size": {"20"}, "page": {"1"}}, "page=1&size=20"},
		{"values of one name in the order sent", url.Values{"nodes": {"20", "10"}, "dim": {"raw"}}, "dim=raw&nodes=20&nodes=10"},
		{"space as plus", url.Values{"q": {"north field"}}, "q=north+field"},
		{"reserved characters escaped", url.Values{"params": {"a,b&c=d/e?"}}, "params=a%2Cb%26c%3Dd%2Fe%3F"},
		{"unreserved kept", url.Values{"x": {"A-z_0.9~"}}, "x=A-z_0.9~"},
		{"plus escaped", url.Values{"x": {"1+1"}}, "x=1%2B1"},
		{"names escaped", url.Values{"a b": {"1"}}, "a+b=1"},
		{"UTF-8 as bytes", url.Values{"name": {"北区"}}, "name=%E5%8C%97%E5%8C%BA"},
		{"empty value", url.Values{"begin": {""}}, "begin="},
		{"upper case sorts first", url.Values{"b": {"1"}, "B": {"2"}, "a": {"3"}}, "B=2&a=3&b=1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := CanonicalQuery(c.q); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestStringToSign_HandComputed(t *testing.T) {
	cases := []struct {
		name                      string
		method, path, query, ts   string
		nonce                     string
		body                      string
		wantToSign, wantSignature string
	}{
		{
			name: "the docs' example", method: "GET", path: "/openapi/v1/devices", query: "size=20&page=1",
			ts: docsTimestamp, nonce: docsNonce, wantToSign: docsToSign, wantSignature: docsSignature,
		},
		{
			name: "lower-case method", method: "get", path: "/openapi/v1/devices", query: "page=1&size=20",
			ts: docsTimestamp, nonce: docsNonce, wantToSign: docsToSign, wantSignature: docsSignature,
		},
		{
			name: "a body and an escaped query", method: "POST", path: "/openapi/v1/devices/ZS0000001/history",
			query: "params=soilMoisture&nodes=10,20&end=1763884800000&begin=1763856000000",
			ts:    docsTimestamp, nonce: "nonce_with-dash_0123", body: `{"hello":"world"}`,
			wantToSign: "POST\n/openapi/v1/devices/ZS0000001/history\n" +
				"begin=1763856000000&end=1763884800000&nodes=10%2C20&params=soilMoisture\n1763884800\nnonce_with-dash_0123\n" +
				"93a23971a914e5eacbf0a8d25154cda309c3c1c72fbb9914d47c60f3cb681588",
			wantSignature: "c9a9c3e9339103ae040ae432db5f905f189170f323843532000232dfb8757b76",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := url.ParseQuery(c.query)
			if err != nil {
				t.Fatal(err)
			}
			s := StringToSign(c.method, c.path, q, c.ts, c.nonce, []byte(c.body))
			if s != c.wantToSign {
				t.Fatalf("string to sign:\n%q\nwant\n%q", s, c.wantToSign)
			}
			if got := Sign(docsSecret, s); got != c.wantSignature {
				t.Fatalf("signature %s, want %s", got, c.wantSignature)
			}
		})
	}
}

func TestAuthenticate_Accepts(t *testing.T) {
	keys := keeper(t)
	cases := []struct {
		name string
		r    Request
	}{
		{"the docs' example", docsRequest()},
		{"upper-case hex", func() Request { r := docsRequest(); r.Signature = strings.ToUpper(r.Signature); return r }()},
		{"a body", signed(Request{Method: "POST", Path: "/openapi/v1/devices", Body: []byte(`{"a":1}`),
			Key: docsKey, Timestamp: docsTimestamp, Nonce: "0123456789abcdef"})},
		{"longest nonce", signed(Request{Method: "GET", Path: "/openapi/v1/devices",
			Key: docsKey, Timestamp: docsTimestamp, Nonce: strings.Repeat("aZ9_-", 12) + "abcd"})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			app, err := Authenticate(context.Background(), newAuthStore(t, keys), keys, c.r, docsNow)
			if err != nil {
				t.Fatal(err)
			}
			if app.ID != 1 || app.OwnerID != 7 {
				t.Fatalf("app %+v", app)
			}
		})
	}
}

func TestAuthenticate_MissingHeader(t *testing.T) {
	keys := keeper(t)
	cases := []struct {
		name string
		edit func(*Request)
	}{
		{"no key", func(r *Request) { r.Key = "" }},
		{"no timestamp", func(r *Request) { r.Timestamp = "" }},
		{"no nonce", func(r *Request) { r.Nonce = "" }},
		{"no signature", func(r *Request) { r.Signature = "" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := docsRequest()
			c.edit(&r)
			_, err := Authenticate(context.Background(), newAuthStore(t, keys), keys, r, docsNow)
			wantRefused(t, err, "openapi.auth.missing")
		})
	}
}

func TestAuthenticate_Timestamp(t *testing.T) {
	keys := keeper(t)
	at := func(d time.Duration) string { return strconv.FormatInt(docsNow.Add(d).Unix(), 10) }
	cases := []struct {
		name string
		ts   string
		code string // "" accepted
	}{
		{"now", at(0), ""},
		{"five minutes behind", at(-MaxSkew), ""},
		{"five minutes ahead", at(MaxSkew), ""},
		{"a second too old", at(-MaxSkew - time.Second), "openapi.auth.stale"},
		{"a second too far ahead", at(MaxSkew + time.Second), "openapi.auth.stale"},
		{"a day old", at(-24 * time.Hour), "openapi.auth.stale"},
		{"zero", "0", "openapi.auth.stale"},
		{"negative", "-1763884800", "openapi.auth.stale"},
		{"largest", "9223372036854775807", "openapi.auth.stale"},
		{"in milliseconds", docsTimestamp + "000", "openapi.auth.stale"},
		{"overflowing", "99999999999999999999", "openapi.auth.timestamp"},
		{"fractional", docsTimestamp + ".0", "openapi.auth.timestamp"},
		{"padded", " " + docsTimestamp, "openapi.auth.timestamp"},
		{"a date", "2025-11-23T08:00:00Z", "openapi.auth.timestamp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := docsRequest()
			r.Timestamp = c.ts
			r = signed(r)
			_, err := Authenticate(context.Background(), newAuthStore(t, keys), keys, r, docsNow)
			if c.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantRefused(t, err, c.code)
		})
	}
}

func TestAuthenticate_Nonce(t *testing.T) {
	keys := keeper(t)
	cases := []struct {
		name, nonce string
		ok          bool
	}{
		{"16 characters", "abcdefghijklmnop", true},
		{"64 characters", strings.Repeat("a", 64), true},
		{"every allowed class", "AZaz09-_AZaz09-_", true},
		{"15 characters", "abcdefghijklmno", false},
		{"65 characters", strings.Repeat("a", 65), false},
		{"a dot", "abcdefghijklmno.", false},
		{"a space", "abcdefgh ijklmnop", false},
		{"a newline", "abcdefghijklmnop\n", false},
		{"non-ASCII", "abcdefghijklmnoé", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := docsRequest()
			r.Nonce = c.nonce
			r = signed(r)
			_, err := Authenticate(context.Background(), newAuthStore(t, keys), keys, r, docsNow)
			if c.ok {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantRefused(t, err, "openapi.auth.nonce")
		})
	}
}

func TestAuthenticate_Key(t *testing.T) {
	keys := keeper(t)
	cases := []struct {
		name string
		key  string
		kind errs.Kind
		code string
	}{
		{"unknown", "fwak_nobody", errs.EUnauthorized, "openapi.auth.key"},
		{"not published", "fwak_quiet", errs.EUnauthorized, "openapi.auth.key"},
		{"secret sealed by another server", "fwak_sealed", errs.EInternal, "error.internal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := docsRequest()
			r.Key = c.key
			_, err := Authenticate(context.Background(), newAuthStore(t, keys), keys, r, docsNow)
			if e := errs.As(err); e == nil || e.Kind != c.kind || e.Code != c.code {
				t.Fatalf("got %v, want %s %s", err, c.kind, c.code)
			}
		})
	}
	t.Run("store failure", func(t *testing.T) {
		st := newAuthStore(t, keys)
		st.err = errs.Internal("database gone")
		_, err := Authenticate(context.Background(), st, keys, docsRequest(), docsNow)
		if errs.KindOf(err) != errs.EInternal {
			t.Fatalf("got %v, want internal", err)
		}
	})
}

func TestAuthenticate_WrongSignature(t *testing.T) {
	keys := keeper(t)
	cases := []struct {
		name string
		edit func(*Request)
	}{
		{"another secret", func(r *Request) {
			r.Signature = Sign("fwas_other", StringToSign(r.Method, r.Path, r.Query, r.Timestamp, r.Nonce, r.Body))
		}},
		{"method changed", func(r *Request) { r.Method = "DELETE" }},
		{"path changed", func(r *Request) { r.Path = "/openapi/v1/devices/ZS0000001" }},
		{"trailing slash", func(r *Request) { r.Path += "/" }},
		{"query value changed", func(r *Request) { r.Query = url.Values{"page": {"2"}, "size": {"20"}} }},
		{"query parameter added", func(r *Request) { r.Query = url.Values{"page": {"1"}, "size": {"20"}, "x": {""}} }},
		{"query dropped", func(r *Request) { r.Query = nil }},
		{"values of one name reordered", func(r *Request) {
			*r = signed(Request{Method: "GET", Path: r.Path, Query: url.Values{"nodes": {"10", "20"}},
				Key: r.Key, Timestamp: r.Timestamp, Nonce: r.Nonce})
			r.Query = url.Values{"nodes": {"20", "10"}}
		}},
		{"body added", func(r *Request) { r.Body = []byte("{}") }},
		{"timestamp changed within the window", func(r *Request) { r.Timestamp = "1763884801" }},
		{"nonce changed", func(r *Request) { r.Nonce = "3f9c1a7e5b2d4c6a8e0f1b3d5a7c9e1e" }},
		{"a bit flipped", func(r *Request) { r.Signature = "45d2157d3abacda73eec3d2fa3df52e33d5bbf50d429c6acf0258c1c01bb39df" }},
		{"truncated", func(r *Request) { r.Signature = r.Signature[:62] }},
		{"odd length", func(r *Request) { r.Signature = r.Signature[:63] }},
		{"extended", func(r *Request) { r.Signature += "00" }},
		{"not hex", func(r *Request) { r.Signature = strings.Repeat("zz", 32) }},
		{"base64 of the MAC", func(r *Request) { r.Signature = "VdIVfTq6zac+7D0vo99S4z1bv1DUKcas8CWMHAG7Od8=" }},
		{"the string to sign itself", func(r *Request) { r.Signature = docsToSign }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := docsRequest()
			c.edit(&r)
			st := newAuthStore(t, keys)
			_, err := Authenticate(context.Background(), st, keys, r, docsNow)
			wantRefused(t, err, "openapi.auth.signature")
			if len(st.nonces) != 0 {
				t.Fatalf("a refused signature spent its nonce: %v", st.nonces)
			}
		})
	}
}

func TestAuthenticate_Replay(t *testing.T) {
	keys := keeper(t)
	ctx := context.Background()
	t.Run("same request twice", func(t *testing.T) {
		st := newAuthStore(t, keys)
		if _, err := Authenticate(ctx, st, keys, docsRequest(), docsNow); err != nil {
			t.Fatal(err)
		}
		_, err := Authenticate(ctx, st, keys, docsRequest(), docsNow.Add(time.Second))
		wantRefused(t, err, "openapi.auth.replay")
	})
	t.Run("same nonce, another request", func(t *testing.T) {
		st := newAuthStore(t, keys)
		if _, err := Authenticate(ctx, st, keys, docsRequest(), docsNow); err != nil {
			t.Fatal(err)
		}
		r := docsRequest()
		r.Path = "/openapi/v1/devices/ZS0000001"
		_, err := Authenticate(ctx, st, keys, signed(r), docsNow)
		wantRefused(t, err, "openapi.auth.replay")
	})
	t.Run("a forged request does not burn the nonce", func(t *testing.T) {
		st := newAuthStore(t, keys)
		forged := docsRequest()
		forged.Signature = strings.Repeat("00", 32)
		_, err := Authenticate(ctx, st, keys, forged, docsNow)
		wantRefused(t, err, "openapi.auth.signature")
		if _, err := Authenticate(ctx, st, keys, docsRequest(), docsNow); err != nil {
			t.Fatalf("the owner's request after a forgery: %v", err)
		}
	})
	t.Run("a stale request does not burn the nonce", func(t *testing.T) {
		st := newAuthStore(t, keys)
		_, err := Authenticate(ctx, st, keys, docsRequest(), docsNow.Add(MaxSkew+time.Second))
		wantRefused(t, err, "openapi.auth.stale")
		if len(st.nonces) != 0 {
			t.Fatalf("spent: %v", st.nonces)
		}
	})
	t.Run("store failure", func(t *testing.T) {
		st := &failingNonces{newAuthStore(t, keys)}
		_, err := Authenticate(ctx, st, keys, docsRequest(), docsNow)
		if !errors.Is(err, errNonceStore) {
			t.Fatalf("got %v, want the store's error", err)
		}
	})
}

var errNonceStore = errors.New("nonce table unavailable")

type failingNonces struct{ *authStore }

func (failingNonces) UseNonce(context.Context, int64, string, time.Time) error { return errNonceStore }
