package wechat

import (
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// JSSDKConfig is what a page inside WeChat passes to wx.config.
type JSSDKConfig struct {
	AppID     string `json:"appId"`
	Timestamp int64  `json:"timestamp"`
	NonceStr  string `json:"nonceStr"`
	Signature string `json:"signature"`
}

type ticket struct {
	value   string
	expires time.Time
}

// Sign is the JS-SDK signature: the SHA-1, in lower-case hex, of
// "jsapi_ticket=…&noncestr=…&timestamp=…&url=…", the keys in that (ASCII)
// order and the values as they are, the URL without its fragment.
func Sign(jsapiTicket, nonce string, timestamp int64, pageURL string) string {
	if i := strings.IndexByte(pageURL, '#'); i >= 0 {
		pageURL = pageURL[:i]
	}
	s := "jsapi_ticket=" + jsapiTicket + "&noncestr=" + nonce + "&timestamp=" + strconv.FormatInt(timestamp, 10) + "&url=" + pageURL
	sum := sha1.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// JSSDK signs pageURL (the page's full address, its fragment removed) for
// wx.config. The jsapi_ticket (GET /cgi-bin/ticket/getticket?type=jsapi) is
// kept until shortly before it expires, like the access token; a token the
// ticket call rejects is fetched again once.
func (c *Client) JSSDK(ctx context.Context, pageURL string) (*JSSDKConfig, error) {
	if i := strings.IndexByte(pageURL, '#'); i >= 0 {
		pageURL = pageURL[:i]
	}
	t, err := c.jsapiTicket(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	nonce := c.Nonce
	if nonce == nil {
		nonce = randomNonce
	}
	cfg := &JSSDKConfig{AppID: c.AppID, Timestamp: now().Unix(), NonceStr: nonce()}
	cfg.Signature = Sign(t, cfg.NonceStr, cfg.Timestamp, pageURL)
	return cfg, nil
}

func (c *Client) jsapiTicket(ctx context.Context) (string, error) {
	c.ticketMu.Lock() // one fetch at a time; the others wait for its ticket
	defer c.ticketMu.Unlock()
	if t := c.ticket; t.value != "" && time.Now().Before(t.expires) {
		return t.value, nil
	}
	for attempt := 0; ; attempt++ {
		token, err := c.accessToken(ctx, attempt > 0)
		if err != nil {
			return "", err
		}
		q := url.Values{"access_token": {token}, "type": {"jsapi"}}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base()+"/cgi-bin/ticket/getticket?"+q.Encode(), nil)
		if err != nil {
			return "", err
		}
		var out struct {
			APIError
			Ticket    string `json:"ticket"`
			ExpiresIn int    `json:"expires_in"`
		}
		if err := c.do(req, &out); err != nil {
			return "", err
		}
		if out.Code != 0 {
			if tokenRejected(out.Code) && attempt == 0 {
				continue
			}
			return "", &APIError{Code: out.Code, Msg: out.Msg}
		}
		if out.Ticket == "" {
			return "", fmt.Errorf("wechat: ticket answer without ticket")
		}
		// Renew five minutes early (tickets last 7200 s).
		c.ticket = ticket{value: out.Ticket, expires: time.Now().Add(time.Duration(out.ExpiresIn)*time.Second - 5*time.Minute)}
		return out.Ticket, nil
	}
}

const nonceLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func randomNonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = nonceLetters[int(b[i])%len(nonceLetters)]
	}
	return string(b)
}
