// Package openapi is the open API for customers' systems (SPEC §3
// Open-API application): applications with a public key and a secret,
// requests signed with HMAC-SHA256, and the push of new reports to an
// application's address through the data-push engine.
package openapi

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/push"
	"github.com/fieldwatch/fieldwatch/internal/text"
)

// MaxNameLen is SPEC §5's limit on an application's name.
const MaxNameLen = 20

// App is an open-API application.
type App struct {
	ID         int64
	OwnerID    int64
	Name       string
	AppKey     string
	PushURL    string
	AllDevices bool    // all of the owner's devices, present and future
	DeviceIDs  []int64 // when not AllDevices
	Published  bool
	ChannelID  int64 // the push channel of PushURL, 0 without one
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Validate checks and normalizes an application (SPEC §5: name at most 20;
// push address a valid http or https address when given). Returns EINVALID:
// openapi.name.required or openapi.name.tooLong (name), push.url.tooLong or
// push.url.invalid (pushUrl), push.devices.required (deviceIds).
func (a *App) Validate() error {
	a.Name = strings.TrimSpace(a.Name)
	switch n := utf8.RuneCountInString(a.Name); {
	case n == 0:
		return errs.Invalid("name", "openapi.name.required")
	case n > MaxNameLen:
		return errs.Invalid("name", "openapi.name.tooLong").With(map[string]any{"max": MaxNameLen})
	}
	if err := text.CheckName("name", a.Name); err != nil {
		return err
	}
	if strings.TrimSpace(a.PushURL) != "" {
		u, err := push.NormalizeURL("pushUrl", a.PushURL, push.MaxURLLen)
		if err != nil {
			return err
		}
		a.PushURL = u
	} else {
		a.PushURL = ""
	}
	if a.AllDevices {
		a.DeviceIDs = nil
		return nil
	}
	seen := map[int64]bool{}
	var ids []int64
	for _, id := range a.DeviceIDs {
		if id > 0 && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	a.DeviceIDs = ids
	if len(ids) == 0 {
		return errs.Invalid("deviceIds", "push.devices.required")
	}
	return nil
}

// Signing headers (docs/open-api.md).
const (
	HeaderKey       = "X-App-Key"
	HeaderTimestamp = "X-Timestamp" // unix seconds
	HeaderNonce     = "X-Nonce"     // 16–64 of A–Z a–z 0–9 - _, never reused
	HeaderSignature = "X-Signature" // hex HMAC-SHA256
)

// MaxSkew is how far a request's timestamp may be from the server's clock.
const MaxSkew = 5 * time.Minute

var noncePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{16,64}$`)

// CanonicalQuery is the query as signed: parameters sorted by name (values
// of one name in the order sent), form-encoded (space as +), joined by &.
func CanonicalQuery(q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		for _, v := range q[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(url.QueryEscape(k))
			b.WriteByte('=')
			b.WriteString(url.QueryEscape(v))
		}
	}
	return b.String()
}

// StringToSign is what the signature covers: method, path, canonical
// query, timestamp, nonce and the hex SHA-256 of the body, one per line.
func StringToSign(method, path string, q url.Values, timestamp, nonce string, body []byte) string {
	sum := sha256.Sum256(body)
	return strings.Join([]string{strings.ToUpper(method), path, CanonicalQuery(q), timestamp, nonce, hex.EncodeToString(sum[:])}, "\n")
}

// Sign returns the hex HMAC-SHA256 of s with secret.
func Sign(secret, s string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(s))
	return hex.EncodeToString(m.Sum(nil))
}

// Request is what a signed call carries.
type Request struct {
	Method, Path                     string
	Query                            url.Values
	Body                             []byte
	Key, Timestamp, Nonce, Signature string
}

// AuthStore is what authentication needs from the database.
type AuthStore interface {
	// AppByKey returns an application and its sealed secret. ENOTFOUND.
	AppByKey(ctx context.Context, key string) (*App, string, error)
	// UseNonce records a nonce; ECONFLICT when already seen.
	UseNonce(ctx context.Context, app int64, nonce string, at time.Time) error
}

// Opener opens sealed secrets (secret.Keeper).
type Opener interface {
	Open(sealed string) ([]byte, error)
}

// Authenticate checks a signed request and returns its application.
// Returns EUNAUTHORIZED with a code that says what is wrong, checked in
// this order: openapi.auth.missing (a header), openapi.auth.timestamp (not
// unix seconds), openapi.auth.stale (more than MaxSkew away),
// openapi.auth.nonce (not 16–64 of A–Z a–z 0–9 - _), openapi.auth.key
// (unknown or unpublished), openapi.auth.signature, openapi.auth.replay (a
// nonce seen before); EINTERNAL when the store fails or the secret does not
// open.
func Authenticate(ctx context.Context, st AuthStore, keys Opener, r Request, now time.Time) (*App, error) {
	fail := func(code string) error { return errs.New(errs.EUnauthorized, code) }
	if r.Key == "" || r.Timestamp == "" || r.Nonce == "" || r.Signature == "" {
		return nil, fail("openapi.auth.missing")
	}
	sec, err := strconv.ParseInt(r.Timestamp, 10, 64)
	if err != nil {
		return nil, fail("openapi.auth.timestamp")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > MaxSkew || d < -MaxSkew {
		return nil, fail("openapi.auth.stale")
	}
	if !noncePattern.MatchString(r.Nonce) {
		return nil, fail("openapi.auth.nonce")
	}
	app, sealed, err := st.AppByKey(ctx, r.Key)
	if errs.KindOf(err) == errs.ENotFound || err == nil && !app.Published {
		return nil, fail("openapi.auth.key")
	}
	if err != nil {
		return nil, err
	}
	secret, err := keys.Open(sealed)
	if err != nil {
		return nil, errs.Internal("app %d secret: %w", app.ID, err)
	}
	want := Sign(string(secret), StringToSign(r.Method, r.Path, r.Query, r.Timestamp, r.Nonce, r.Body))
	got, err := hex.DecodeString(r.Signature)
	wantB, _ := hex.DecodeString(want)
	if err != nil || !hmac.Equal(got, wantB) {
		return nil, fail("openapi.auth.signature")
	}
	// Only a request that proves the key spends its nonce: a forger cannot
	// burn someone else's nonces.
	if err := st.UseNonce(ctx, app.ID, r.Nonce, now); errs.KindOf(err) == errs.EConflict {
		return nil, fail("openapi.auth.replay")
	} else if err != nil {
		return nil, err
	}
	return app, nil
}

// NewKey returns a public app key.
func NewKey() string { return "fwak_" + randomHex(12) }

// NewSecret returns an app secret, shown once.
func NewSecret() string { return "fwas_" + randomHex(24) }

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// InRange reports whether an application reaches device d of its owner.
func (a *App) InRange(d *devices.Device) bool {
	if d.OwnerID != a.OwnerID {
		return false
	}
	if a.AllDevices {
		return true
	}
	for _, id := range a.DeviceIDs {
		if id == d.ID {
			return true
		}
	}
	return false
}
