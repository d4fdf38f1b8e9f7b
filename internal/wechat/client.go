// Package wechat is a client of the WeChat Official Account API: the access
// token every call needs (one per application, shared by every use in the
// process, since fetching a new one retires the old), template messages for
// alerts, and the JS-SDK signature pages inside WeChat need for wx.config.
package wechat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// DefaultBase is the WeChat Official Account API.
const DefaultBase = "https://api.weixin.qq.com"

// Client fetches an access token (GET /cgi-bin/token) and keeps it until
// shortly before it expires. A token the server calls invalid or expired
// (errcode 40001, 40014, 42001) is fetched again once.
type Client struct {
	Base   string // API base URL; DefaultBase when empty
	MPBase string // base of QR code images; DefaultMPBase when empty
	AppID  string
	Secret string
	HTTP   *http.Client
	// Now and Nonce are the clock and the nonce of JS-SDK signatures; nil
	// uses the time and 16 random letters.
	Now   func() time.Time
	Nonce func() string

	mu      sync.Mutex
	token   string
	expires time.Time

	ticketMu sync.Mutex
	ticket   ticket
}

// TemplateMessage is the body of a template send.
type TemplateMessage struct {
	ToUser     string                   `json:"touser"`
	TemplateID string                   `json:"template_id"`
	URL        string                   `json:"url,omitempty"`
	Data       map[string]TemplateValue `json:"data"`
}

// TemplateValue is one field of a template message.
type TemplateValue struct {
	Value string `json:"value"`
	Color string `json:"color,omitempty"`
}

// APIError is an errcode/errmsg answer.
type APIError struct {
	Code int    `json:"errcode"`
	Msg  string `json:"errmsg"`
}

func (e *APIError) Error() string { return fmt.Sprintf("wechat: errcode %d: %s", e.Code, e.Msg) }

// Permanent tells whether retrying cannot help: 43004, the user does not
// follow the account; 40003, a bad openid.
func (e *APIError) Permanent() bool { return e.Code == 43004 || e.Code == 40003 }

func (c *Client) base() string {
	if c.Base == "" {
		return DefaultBase
	}
	return strings.TrimRight(c.Base, "/")
}

func (c *Client) client() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// accessToken returns a cached token or fetches a new one.
func (c *Client) accessToken(ctx context.Context, fresh bool) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !fresh && c.token != "" && time.Now().Before(c.expires) {
		return c.token, nil
	}
	q := url.Values{"grant_type": {"client_credential"}, "appid": {c.AppID}, "secret": {c.Secret}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base()+"/cgi-bin/token?"+q.Encode(), nil)
	if err != nil {
		return "", err
	}
	var out struct {
		APIError
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if err := c.do(req, &out); err != nil {
		return "", err
	}
	if out.Code != 0 {
		return "", &APIError{Code: out.Code, Msg: out.Msg}
	}
	if out.AccessToken == "" {
		return "", fmt.Errorf("wechat: token answer without access_token")
	}
	c.token = out.AccessToken
	// Renew five minutes early (tokens last 7200 s).
	c.expires = time.Now().Add(time.Duration(out.ExpiresIn)*time.Second - 5*time.Minute)
	return c.token, nil
}

func (c *Client) do(req *http.Request, out any) error {
	resp, err := c.client().Do(req)
	if err != nil {
		return fmt.Errorf("wechat: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("wechat: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("wechat: HTTP %d", resp.StatusCode)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("wechat: bad answer: %w", err)
	}
	return nil
}

func tokenRejected(code int) bool { return code == 40001 || code == 40014 || code == 42001 }

// SendTemplate sends a template message. A rejected access token is fetched
// again once. Errors are not errs kinds (callers record them; no request
// shows them): an *APIError for an errcode answer, or a plain error for a
// failed request or a malformed answer.
func (c *Client) SendTemplate(ctx context.Context, m *TemplateMessage) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		token, err := c.accessToken(ctx, attempt > 0)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost,
			c.base()+"/cgi-bin/message/template/send?access_token="+url.QueryEscape(token), bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		var out struct {
			APIError
			MsgID int64 `json:"msgid"`
		}
		if err := c.do(req, &out); err != nil {
			return err
		}
		if out.Code == 0 {
			return nil
		}
		if tokenRejected(out.Code) && attempt == 0 {
			continue
		}
		return &APIError{Code: out.Code, Msg: out.Msg}
	}
}
