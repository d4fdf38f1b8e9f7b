// Package sms sends verification codes by text message through Aliyun's
// Short Message Service (dysmsapi, API version 2017-05-25): the SendSms
// action of its RPC API, signed with HMAC-SHA1 (signature version 1.0).
// The base URL is configurable, so any server speaking the same wire format
// can stand in for dysmsapi.aliyuncs.com.
package sms

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// DefaultBase is Aliyun's SMS endpoint.
const DefaultBase = "https://dysmsapi.aliyuncs.com"

// Client sends template messages with one signature name and template.
type Client struct {
	Base            string // endpoint; DefaultBase when empty
	AccessKeyID     string
	AccessKeySecret string
	SignName        string // the approved signature shown in 【】
	TemplateCode    string // an approved template with a ${code} variable, e.g. SMS_71390007
	RegionID        string // cn-hangzhou when empty
	HTTP            *http.Client
	// Now and Nonce are the clock and the SignatureNonce; nil uses the time
	// and 16 random bytes in hex.
	Now   func() time.Time
	Nonce func() string
}

// APIError is an answer whose Code is not OK, e.g.
// isv.BUSINESS_LIMIT_CONTROL (the provider's own rate limit) or
// isv.MOBILE_NUMBER_ILLEGAL.
type APIError struct {
	Status    int
	Code      string
	Message   string
	RequestID string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("sms: %s: %s (HTTP %d, request %s)", e.Code, e.Message, e.Status, e.RequestID)
}

// PercentEncode is the RPC API's encoding: RFC 3986 unreserved characters
// as they are, everything else %XX of its UTF-8 bytes, upper-case hex.
func PercentEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// canonical is the sorted, encoded query of every parameter but Signature.
func canonical(params url.Values) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		if k != "Signature" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, PercentEncode(k)+"="+PercentEncode(params.Get(k)))
	}
	return strings.Join(parts, "&")
}

// Sign computes the RPC signature of a request: Base64 of HMAC-SHA1, keyed
// by the secret followed by "&", over
// METHOD&%2F&PercentEncode(canonicalized query).
func Sign(method string, params url.Values, secret string) string {
	toSign := method + "&" + PercentEncode("/") + "&" + PercentEncode(canonical(params))
	m := hmac.New(sha1.New, []byte(secret+"&"))
	m.Write([]byte(toSign))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// Params are the SendSms parameters of one message, unsigned.
func (c *Client) Params(phone string, templateParam map[string]string) (url.Values, error) {
	tp, err := json.Marshal(templateParam)
	if err != nil {
		return nil, err
	}
	now, nonce := time.Now, c.Nonce
	if c.Now != nil {
		now = c.Now
	}
	if nonce == nil {
		nonce = func() string {
			b := make([]byte, 16)
			_, _ = rand.Read(b)
			return hex.EncodeToString(b)
		}
	}
	region := c.RegionID
	if region == "" {
		region = "cn-hangzhou"
	}
	return url.Values{
		"AccessKeyId":      {c.AccessKeyID},
		"Action":           {"SendSms"},
		"Format":           {"JSON"},
		"PhoneNumbers":     {phone},
		"RegionId":         {region},
		"SignName":         {c.SignName},
		"SignatureMethod":  {"HMAC-SHA1"},
		"SignatureNonce":   {nonce()},
		"SignatureVersion": {"1.0"},
		"TemplateCode":     {c.TemplateCode},
		"TemplateParam":    {string(tp)},
		"Timestamp":        {now().UTC().Format("2006-01-02T15:04:05Z")},
		"Version":          {"2017-05-25"},
	}, nil
}

// SendCode sends code to a mainland number with the template's ${code}.
func (c *Client) SendCode(ctx context.Context, phone, code string) error {
	return c.Send(ctx, phone, map[string]string{"code": code})
}

// Send posts one signed SendSms request. Errors: an *APIError for an
// answer whose Code is not OK, a plain error for a failed request or an
// unreadable answer.
func (c *Client) Send(ctx context.Context, phone string, templateParam map[string]string) error {
	params, err := c.Params(phone, templateParam)
	if err != nil {
		return err
	}
	params.Set("Signature", Sign(http.MethodPost, params, c.AccessKeySecret))
	base := strings.TrimRight(c.Base, "/")
	if base == "" {
		base = DefaultBase
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/", strings.NewReader(params.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("sms: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("sms: %w", err)
	}
	var out struct {
		Code      string `json:"Code"`
		Message   string `json:"Message"`
		RequestID string `json:"RequestId"`
		BizID     string `json:"BizId"`
	}
	if err := json.Unmarshal(body, &out); err != nil || out.Code == "" {
		return fmt.Errorf("sms: HTTP %d, unreadable answer", resp.StatusCode)
	}
	if out.Code != "OK" || resp.StatusCode != http.StatusOK {
		return &APIError{Status: resp.StatusCode, Code: out.Code, Message: out.Message, RequestID: out.RequestID}
	}
	return nil
}
