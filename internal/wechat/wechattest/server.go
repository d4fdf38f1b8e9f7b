// Package wechattest is a local server speaking the WeChat Official Account
// API's wire format, for tests: GET /cgi-bin/token, POST
// /cgi-bin/message/template/send, GET /cgi-bin/ticket/getticket, POST
// /cgi-bin/qrcode/create and GET /cgi-bin/showqrcode (the latter served by
// mp.weixin.qq.com); Scan plays the WeChat server pushing a scan event to a
// callback URL.
package wechattest

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/wechat"
)

// The application the server knows.
const (
	AppID  = "wxapp"
	Secret = "s3cret"
)

// Server answers like api.weixin.qq.com for AppID/Secret.
type Server struct {
	*httptest.Server

	mu       sync.Mutex
	tokens   int // access tokens handed out
	tickets  int // jsapi tickets handed out
	sends    int
	sent     []wechat.TemplateMessage
	token    string            // the current valid token
	expireOn int               // answer 42001 (token expired) to this send (1-based)
	failCode int               // answer this errcode to every send when set
	revoked  bool              // the current token is refused once by the ticket call
	scenes   map[string]string // QR ticket → scene
}

// New starts a server; it is closed when the test ends.
func New(t interface{ Cleanup(func()) }) *Server {
	s := &Server{scenes: map[string]string{}}
	s.Server = httptest.NewServer(s)
	t.Cleanup(s.Close)
	return s
}

// ExpireOn makes the n-th template send (1-based) answer 42001.
func (s *Server) ExpireOn(n int) { s.mu.Lock(); s.expireOn = n; s.mu.Unlock() }

// FailWith makes every template send answer code (0 to stop).
func (s *Server) FailWith(code int) { s.mu.Lock(); s.failCode = code; s.mu.Unlock() }

// RevokeToken makes the next ticket or QR code call refuse the current token (40001) once.
func (s *Server) RevokeToken() { s.mu.Lock(); s.revoked = true; s.mu.Unlock() }

// Counts returns how many tokens and tickets were handed out.
func (s *Server) Counts() (tokens, tickets int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokens, s.tickets
}

// Sent returns the template messages accepted so far.
func (s *Server) Sent() []wechat.TemplateMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]wechat.TemplateMessage(nil), s.sent...)
}

// Ticket is the jsapi_ticket the n-th ticket call (1-based) hands out.
func Ticket(n int) string { return "TICKET" + strings.Repeat("t", n) }

// Scene returns the scene of a QR ticket handed out.
func (s *Server) Scene(ticket string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.scenes[ticket]
}

// Scan plays WeChat's server after the user openid scans the QR code of
// ticket: it pushes the event to callback, signed with token, as a
// subscribe event for a new follower or SCAN for a follower, and returns the
// HTTP status and body of the answer.
func (s *Server) Scan(callback, token, ticket, openid string, follower bool) (int, string, error) {
	scene := s.Scene(ticket)
	event, key := "subscribe", "qrscene_"+scene
	if follower {
		event, key = "SCAN", scene
	}
	body := fmt.Sprintf(`<xml><ToUserName><![CDATA[gh_%s]]></ToUserName><FromUserName><![CDATA[%s]]></FromUserName>`+
		`<CreateTime>%d</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[%s]]></Event>`+
		`<EventKey><![CDATA[%s]]></EventKey><Ticket><![CDATA[%s]]></Ticket></xml>`,
		AppID, openid, time.Now().Unix(), event, key, ticket)
	ts, nonce := strconv.FormatInt(time.Now().Unix(), 10), strconv.Itoa(rand.IntN(1e9))
	q := url.Values{"signature": {wechat.Signature(token, ts, nonce)}, "timestamp": {ts}, "nonce": {nonce}, "openid": {openid}}
	resp, err := http.Post(callback+"?"+q.Encode(), "text/xml", strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

func answer(w http.ResponseWriter, v map[string]any) { _ = json.NewEncoder(w).Encode(v) }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := r.URL.Query()
	switch r.URL.Path {
	case "/cgi-bin/token":
		if q.Get("grant_type") != "client_credential" || q.Get("appid") != AppID || q.Get("secret") != Secret {
			answer(w, map[string]any{"errcode": 40013, "errmsg": "invalid appid"})
			return
		}
		s.tokens++
		s.token = "TOKEN" + strings.Repeat("x", s.tokens)
		answer(w, map[string]any{"access_token": s.token, "expires_in": 7200})
	case "/cgi-bin/ticket/getticket":
		if q.Get("type") != "jsapi" {
			answer(w, map[string]any{"errcode": 40097, "errmsg": "invalid args"})
			return
		}
		if q.Get("access_token") != s.token || s.revoked {
			s.revoked = false
			s.token = "" // the next token call hands out a fresh one
			answer(w, map[string]any{"errcode": 40001, "errmsg": "invalid credential, access_token is invalid or not latest"})
			return
		}
		s.tickets++
		answer(w, map[string]any{"errcode": 0, "errmsg": "ok", "ticket": Ticket(s.tickets), "expires_in": 7200})
	case "/cgi-bin/qrcode/create":
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		if q.Get("access_token") != s.token || s.revoked {
			s.revoked = false
			s.token = ""
			answer(w, map[string]any{"errcode": 40001, "errmsg": "invalid credential, access_token is invalid or not latest"})
			return
		}
		var req struct {
			ExpireSeconds int    `json:"expire_seconds"`
			ActionName    string `json:"action_name"`
			ActionInfo    struct {
				Scene struct {
					SceneStr string `json:"scene_str"`
				} `json:"scene"`
			} `json:"action_info"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.ActionName != "QR_STR_SCENE" ||
			req.ActionInfo.Scene.SceneStr == "" || len(req.ActionInfo.Scene.SceneStr) > 64 ||
			req.ExpireSeconds < 60 || req.ExpireSeconds > 2592000 {
			answer(w, map[string]any{"errcode": 40097, "errmsg": "invalid args"})
			return
		}
		t := fmt.Sprintf("gQH47joAAAAAAAAAASxodHRwOi8vd2VpeGluLnFxLmNvbS9xL%02d==", len(s.scenes)+1)
		s.scenes[t] = req.ActionInfo.Scene.SceneStr
		answer(w, map[string]any{"ticket": t, "expire_seconds": req.ExpireSeconds,
			"url": fmt.Sprintf("http://weixin.qq.com/q/kZgfwMTm72WWPkovab%02d", len(s.scenes))})
	case "/cgi-bin/showqrcode":
		if _, ok := s.scenes[q.Get("ticket")]; !ok {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "image/jpeg")
		_, _ = w.Write([]byte{0xff, 0xd8, 0xff, 0xd9})
	case "/cgi-bin/message/template/send":
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		s.sends++
		if q.Get("access_token") != s.token || s.sends == s.expireOn {
			answer(w, map[string]any{"errcode": 42001, "errmsg": "access_token expired"})
			return
		}
		if s.failCode != 0 {
			answer(w, map[string]any{"errcode": s.failCode, "errmsg": "refused"})
			return
		}
		var m wechat.TemplateMessage
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			answer(w, map[string]any{"errcode": 47001, "errmsg": "data format error"})
			return
		}
		s.sent = append(s.sent, m)
		answer(w, map[string]any{"errcode": 0, "errmsg": "ok", "msgid": 200228332})
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}
