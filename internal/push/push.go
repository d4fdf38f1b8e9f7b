// Package push delivers every new report of chosen devices to a customer's
// HTTP endpoint (SPEC §3 data-push channel): validation of channels, the
// signed payload, the delivery worker with retries and a dead letter, and
// the guard that keeps targets off the server's own network.
package push

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/text"
)

// Limits of SPEC §5 and §9.
const (
	MaxNameLen = 64
	MaxURLLen  = 255
	MaxDevices = 10000
)

// Channel is a data-push channel.
type Channel struct {
	ID        int64
	OwnerID   int64
	Kind      string // KindChannel, or KindApp for an open-API application's push address
	Name      string
	URL       string
	Enabled   bool
	DeviceIDs []int64
	// AllDevices covers every device of the owner, present and future,
	// instead of DeviceIDs (an open-API application's range "all").
	AllDevices bool
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Kinds of channel.
const (
	KindChannel = "channel"
	KindApp     = "app"
)

// Status of a delivery.
type Status string

const (
	StatusPending Status = "pending" // waiting for its turn or its next attempt
	StatusSuccess Status = "success"
	StatusFail    Status = "fail" // gave up after the last attempt: the dead letter
)

// Delivery is one report for one channel: the queue entry and its log.
type Delivery struct {
	ID          int64
	ChannelID   int64
	DeviceID    int64
	CollectedAt time.Time
	Payload     []byte
	Status      Status
	Attempts    int
	NextAt      time.Time
	CreatedAt   time.Time // when the report was committed
	PushedAt    *time.Time
	Duration    time.Duration
	HTTPStatus  int
	Error       string
}

// urlPattern is SPEC §5's valid address: an optional http or https prefix,
// a dotted host, an optional port and an optional path without spaces.
var urlPattern = regexp.MustCompile(`^(https?://)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(:\d{1,5})?(/\S*)?$`)

// NormalizeURL checks a push address and returns it with its scheme
// (http:// when none was typed). Returns EINVALID naming field.
func NormalizeURL(field, raw string, maxLen int) (string, error) {
	s := strings.TrimSpace(raw)
	switch {
	case s == "":
		return "", errs.Invalid(field, "push.url.required")
	case utf8.RuneCountInString(s) > maxLen:
		return "", errs.Invalid(field, "push.url.tooLong").With(map[string]any{"max": maxLen})
	case !urlPattern.MatchString(s):
		return "", errs.Invalid(field, "push.url.invalid")
	}
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "", errs.Invalid(field, "push.url.invalid")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", errs.Invalid(field, "push.url.invalid")
		}
	}
	return s, nil
}

// Validate checks a channel and normalizes its fields (SPEC §5: name
// required, at most 64; URL required, at most 255; devices selected).
// Returns EINVALID: push.name.required or push.name.tooLong (name),
// NormalizeURL's codes (url), push.devices.required or push.devices.tooMany
// (deviceIds).
func (c *Channel) Validate() error {
	c.Name = strings.TrimSpace(c.Name)
	switch n := utf8.RuneCountInString(c.Name); {
	case n == 0:
		return errs.Invalid("name", "push.name.required")
	case n > MaxNameLen:
		return errs.Invalid("name", "push.name.tooLong").With(map[string]any{"max": MaxNameLen})
	}
	if err := text.CheckName("name", c.Name); err != nil {
		return err
	}
	u, err := NormalizeURL("url", c.URL, MaxURLLen)
	if err != nil {
		return err
	}
	c.URL = u
	c.DeviceIDs = dedupe(c.DeviceIDs)
	if c.AllDevices {
		c.DeviceIDs = nil
		return nil
	}
	if len(c.DeviceIDs) == 0 {
		return errs.Invalid("deviceIds", "push.devices.required")
	}
	if len(c.DeviceIDs) > MaxDevices {
		return errs.Invalid("deviceIds", "push.devices.tooMany").With(map[string]any{"max": MaxDevices})
	}
	return nil
}

func dedupe(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if id > 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// Headers a delivery carries.
const (
	HeaderDelivery  = "X-Fieldwatch-Delivery"  // the delivery id: receivers dedupe on it
	HeaderSignature = "X-Fieldwatch-Signature" // t=<unix seconds>,v1=<hex HMAC-SHA256>
	HeaderChannel   = "X-Fieldwatch-Channel"
)

// Sign returns the signature header of body sent at t: HMAC-SHA256 with the
// channel's secret over "<unix seconds>.<body>", as
// "t=<unix seconds>,v1=<hex>". Receivers recompute it and compare, and
// refuse old timestamps to stop replays.
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

func mac(secret []byte, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks a signature header against body, refusing one older or
// newer than tolerance. It is what a receiver does; the tests use it.
func Verify(secret []byte, header string, body []byte, now time.Time, tolerance time.Duration) bool {
	var ts, sig string
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return false
	}
	want, err := hex.DecodeString(sig)
	return err == nil && hmac.Equal(want, mac(secret, ts, body))
}
