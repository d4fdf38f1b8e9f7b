package openapi

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"net/url"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// httpToken reports whether s can be an HTTP method as net/http hands it
// to a handler (a token: it refuses any other request with 400).
func httpToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// addSigningSeeds adds the requests of docs/open-api.md and the tests.
func addSigningSeeds(f *testing.F, add func(method, path, query string, body []byte, ts, nonce string)) {
	add("GET", "/openapi/v1/devices", "page=1&size=20", nil, docsTimestamp, docsNonce)
	add("GET", "/openapi/v1/devices/ZS0000001/history", "begin=1763856000000&end=1763884800000&dim=daily&params=soilMoisture,soilTemp&nodes=10,20",
		nil, "1763884799", "nonce_with-dash_0123")
	add("GET", "/openapi/v1/devices/ZS0000001/latest", "", nil, "1763885100", strings.Repeat("Az9-_", 12)+"abcd")
	add("POST", "/openapi/v1/devices", "q=north+field&q=%E5%8C%97", []byte(`{"a":1}`), "1763884500", "0123456789abcdef")
	add("get", "/openapi/v1/devices/%0A", "a=1;b=2&c=%zz", []byte{0, '\n'}, " 1763884800", "short")
}

// FuzzAuthenticate feeds the verifier any request: it never panics, it
// accepts only a signature that is the HMAC of the request's canonical
// string, and it accepts every such signature whose timestamp and nonce
// are well-formed.
func FuzzAuthenticate(f *testing.F) {
	addSigningSeeds(f, func(method, path, query string, body []byte, ts, nonce string) {
		f.Add(method, path, query, body, ts, nonce, docsSignature, true)
		f.Add(method, path, query, body, ts, nonce, "zz", false)
	})
	keys := keeper(f)
	f.Fuzz(func(t *testing.T, method, path, rawQuery string, body []byte, ts, nonce, sig string, signIt bool) {
		q, _ := url.ParseQuery(rawQuery) // as http.Request.URL.Query: malformed pairs are dropped
		toSign := StringToSign(method, path, q, ts, nonce, body)
		if signIt {
			sig = Sign(docsSecret, toSign)
		}
		r := Request{Method: method, Path: path, Query: q, Body: body, Key: docsKey, Timestamp: ts, Nonce: nonce, Signature: sig}
		app, err := Authenticate(context.Background(), newAuthStore(t, keys), keys, r, docsNow)
		if err != nil {
			if e := errs.As(err); e == nil || e.Kind != errs.EUnauthorized {
				t.Fatalf("refused with %v", err)
			}
			if signIt && errs.As(err).Code == "openapi.auth.signature" {
				t.Fatalf("refused its own signature of %q", toSign)
			}
			return
		}
		if app == nil || app.ID != 1 {
			t.Fatalf("accepted for %+v", app)
		}
		got, herr := hex.DecodeString(sig)
		want, _ := hex.DecodeString(Sign(docsSecret, toSign))
		if herr != nil || !hmac.Equal(got, want) {
			t.Fatalf("accepted signature %q of %q", sig, toSign)
		}
	})
}

// FuzzSignature_OtherRequest signs one request and presents its signature
// with another: unless the two are the same request as the server reads it
// (method, decoded path, parsed query, timestamp, nonce and body), the
// server refuses it.
func FuzzSignature_OtherRequest(f *testing.F) {
	addSigningSeeds(f, func(method, path, query string, body []byte, ts, nonce string) {
		f.Add(method, path, query, body, ts, nonce, method, path, query, body, ts, nonce)
		f.Add(method, path, query, body, ts, nonce, method, path+"/", query, body, ts, nonce)
		f.Add(method, path, query, body, ts, nonce, method, path, query+"&x=1", body, ts, nonce)
	})
	// Lines moved between fields: a newline moved from the path into the
	// method would sign the same string, but net/http never hands over such
	// a method, and the path alone cannot shift a line.
	f.Add("GET", "/openapi/v1/devices", "a=1", []byte(nil), docsTimestamp, docsNonce,
		"GET", "/openapi/v1/devices\na=1", "", []byte(nil), docsTimestamp, docsNonce)
	f.Add("GET", "/X\nY", "", []byte(nil), docsTimestamp, docsNonce, "GET\n/X", "Y", "", []byte(nil), docsTimestamp, docsNonce)
	keys := keeper(f)
	f.Fuzz(func(t *testing.T, m1, p1, q1 string, b1 []byte, ts1, n1 string, m2, p2, q2 string, b2 []byte, ts2, n2 string) {
		if !httpToken(m1) || !httpToken(m2) {
			return
		}
		v1, _ := url.ParseQuery(q1)
		v2, _ := url.ParseQuery(q2)
		sig := Sign(docsSecret, StringToSign(m1, p1, v1, ts1, n1, b1))
		r := Request{Method: m2, Path: p2, Query: v2, Body: b2, Key: docsKey, Timestamp: ts2, Nonce: n2, Signature: sig}
		_, err := Authenticate(context.Background(), newAuthStore(t, keys), keys, r, docsNow)
		same := strings.ToUpper(m1) == strings.ToUpper(m2) && p1 == p2 && CanonicalQuery(v1) == CanonicalQuery(v2) &&
			ts1 == ts2 && n1 == n2 && string(b1) == string(b2)
		if err == nil && !same {
			t.Fatalf("the signature of %s %q ?%s (ts %q, nonce %q, body %q) verified %s %q ?%s (ts %q, nonce %q, body %q)",
				m1, p1, CanonicalQuery(v1), ts1, n1, b1, m2, p2, CanonicalQuery(v2), ts2, n2, b2)
		}
		if e := errs.As(err); err != nil && (e == nil || e.Kind != errs.EUnauthorized) {
			t.Fatalf("refused with %v", err)
		}
	})
}
