package wechat

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// DefaultMPBase serves the images of parametric QR codes (showqrcode).
const DefaultMPBase = "https://mp.weixin.qq.com"

// QRCode is a temporary parametric QR code: scanning it sends the Official
// Account's server a subscribe or SCAN event carrying its scene.
type QRCode struct {
	Ticket        string `json:"ticket"`
	ExpireSeconds int    `json:"expire_seconds"`
	URL           string `json:"url"` // the address the QR code encodes
}

// MaxScene is the longest scene_str WeChat accepts.
const MaxScene = 64

// CreateQRCode asks for a temporary QR code with a string scene
// (POST /cgi-bin/qrcode/create, action QR_STR_SCENE) valid for expire (at
// most 30 days). A rejected access token is fetched again once. Errors as
// SendTemplate's.
func (c *Client) CreateQRCode(ctx context.Context, scene string, expire time.Duration) (*QRCode, error) {
	if scene == "" || len(scene) > MaxScene {
		return nil, fmt.Errorf("wechat: scene must be 1 to %d bytes", MaxScene)
	}
	body, err := json.Marshal(map[string]any{
		"expire_seconds": int(expire / time.Second),
		"action_name":    "QR_STR_SCENE",
		"action_info":    map[string]any{"scene": map[string]string{"scene_str": scene}},
	})
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		token, err := c.accessToken(ctx, attempt > 0)
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost,
			c.base()+"/cgi-bin/qrcode/create?access_token="+url.QueryEscape(token), bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		var out struct {
			APIError
			QRCode
		}
		if err := c.do(req, &out); err != nil {
			return nil, err
		}
		if out.Code == 0 {
			if out.Ticket == "" {
				return nil, fmt.Errorf("wechat: QR code answer without ticket")
			}
			return &out.QRCode, nil
		}
		if tokenRejected(out.Code) && attempt == 0 {
			continue
		}
		return nil, &APIError{Code: out.Code, Msg: out.Msg}
	}
}

// QRCodeImage is the address of a QR code's image
// (GET {MPBase}/cgi-bin/showqrcode?ticket=, the ticket URL-encoded); a
// browser loads it directly, no token needed.
func (c *Client) QRCodeImage(ticket string) string {
	base := strings.TrimRight(c.MPBase, "/")
	if base == "" {
		base = DefaultMPBase
	}
	return base + "/cgi-bin/showqrcode?ticket=" + url.QueryEscape(ticket)
}

// Signature is WeChat's callback signature: the SHA-1, in lower-case hex,
// of the parts sorted as strings and joined. A server call carries
// signature = Signature(token, timestamp, nonce); an encrypted message's
// msg_signature also takes its Encrypt text.
func Signature(parts ...string) string {
	p := append([]string(nil), parts...)
	sort.Strings(p)
	sum := sha1.Sum([]byte(strings.Join(p, "")))
	return hex.EncodeToString(sum[:])
}

// CheckSignature reports whether a callback's signature matches token.
func CheckSignature(token, signature, timestamp, nonce string) bool {
	if token == "" || signature == "" {
		return false
	}
	want := Signature(token, timestamp, nonce)
	return subtle.ConstantTimeCompare([]byte(want), []byte(strings.ToLower(signature))) == 1
}

// Event is a message the WeChat server pushes to the callback URL (plain
// mode): for a scanned parametric QR code, MsgType event with Event
// subscribe (EventKey "qrscene_" + scene, a user who followed by scanning)
// or SCAN (EventKey the scene, a follower).
type Event struct {
	XMLName      xml.Name `xml:"xml"`
	ToUserName   string   `xml:"ToUserName"`
	FromUserName string   `xml:"FromUserName"` // the user's openid
	CreateTime   int64    `xml:"CreateTime"`
	MsgType      string   `xml:"MsgType"`
	Event        string   `xml:"Event"`
	EventKey     string   `xml:"EventKey"`
	Ticket       string   `xml:"Ticket"`
}

// ParseEvent reads a pushed message.
func ParseEvent(body []byte) (*Event, error) {
	var e Event
	if err := xml.Unmarshal(body, &e); err != nil {
		return nil, fmt.Errorf("wechat: event: %w", err)
	}
	return &e, nil
}

// Scene is the scene of a QR-code scan event, and whether e is one.
func (e *Event) Scene() (string, bool) {
	if e.MsgType != "event" || e.FromUserName == "" {
		return "", false
	}
	switch strings.ToLower(e.Event) {
	case "subscribe":
		s, ok := strings.CutPrefix(e.EventKey, "qrscene_")
		return s, ok && s != ""
	case "scan":
		return e.EventKey, e.EventKey != ""
	}
	return "", false
}

// NewQRCode makes a QR code for scene valid for ttl and returns the
// address of its image (accounts.QRCodes).
func (c *Client) NewQRCode(ctx context.Context, scene string, ttl time.Duration) (string, error) {
	qr, err := c.CreateQRCode(ctx, scene, ttl)
	if err != nil {
		return "", err
	}
	return c.QRCodeImage(qr.Ticket), nil
}
