package httpapi

import (
	"io"
	"net/http"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/wechat"
)

// loginMethods serves GET /apis/account/options: what the login page
// may offer besides the password: WeChat QR login, and password reset by
// e-mail or phone code.
func (s *Server) loginMethods(c *call) (any, error) {
	return map[string]bool{
		"wechat": s.Accounts.WeChatEnabled(),
		"email":  s.Accounts.MailEnabled(),
		"mobile": s.Accounts.SMSEnabled(),
	}, nil
}

// wechatBindQR serves GET|POST /apis/account/wechat/bind/qrcode: a QR code
// that links the caller's account to the WeChat that scans it,
// {token, qrcodeUrl, expiresIn}; poll /apis/account/qrscan/result?token=.
func (s *Server) wechatBindQR(c *call) (any, error) {
	return s.Accounts.StartWeChatScan(c.r.Context(), accounts.ScanBind, c.account.ID)
}

// wechatLoginQR is GET /apis/account/authorize/ticket?src=wechat: a QR code
// to log in with; poll /apis/oauth/qrscan/result?token=.
func (s *Server) wechatLoginQR(c *call) (any, error) {
	return s.Accounts.StartWeChatScan(c.r.Context(), accounts.ScanLogin, 0)
}

type scanResult struct {
	Status  string      `json:"status"`
	Profile *profileDTO `json:"profile,omitempty"`
}

// bindScanResult serves GET /apis/account/qrscan/result?token=: pending,
// bound (with the profile), taken (that WeChat is linked to another
// account) or expired.
func (s *Server) bindScanResult(c *call) (any, error) {
	state, a, err := s.Accounts.WeChatBindResult(c.r.Context(), c.account.ID, c.r.URL.Query().Get("token"))
	if err != nil {
		return nil, err
	}
	out := scanResult{Status: state}
	if state == accounts.ScanBound {
		p := s.toProfile(a)
		out.Profile = &p
	}
	return out, nil
}

// loginScanResult serves GET /apis/oauth/qrscan/result?token=: pending,
// expired, unlinked (scanned by a WeChat no account is linked to), or done
// with the profile and the session cookie set, once.
func (s *Server) loginScanResult(c *call) (any, error) {
	client := accounts.Client{IP: s.clientIP(c.r), UserAgent: c.r.UserAgent(), Lang: string(c.lang)}
	state, l, err := s.Accounts.WeChatLogin(c.r.Context(), c.r.URL.Query().Get("token"), client)
	if err != nil {
		return nil, err
	}
	out := scanResult{Status: state}
	if l != nil {
		s.setSessionCookie(c.w, c.r, l.Token, l.Session.ExpiresAt)
		p := s.toProfile(l.Account)
		out.Profile = &p
	}
	return out, nil
}

// wechatUnbind serves POST /apis/account/wechat/unbind {password} or
// {channel, code, ticket} (an unbind code sent to the bound e-mail or phone).
func (s *Server) wechatUnbind(c *call) (any, error) {
	var req struct {
		Password string `json:"password"`
		proofBody
	}
	if err := decodeOptional(c, &req); err != nil {
		return nil, err
	}
	return s.unbindWeChat(c, req.Password, req.proofBody)
}

func (s *Server) unbindWeChat(c *call, password string, p proofBody) (any, error) {
	ch := accounts.ChannelEmail
	if p.Channel != "" && p.Channel != "wechat" {
		var err error
		if ch, err = accounts.ParseChannel("channel", p.Channel); err != nil {
			return nil, err
		}
	}
	a, err := s.Accounts.UnbindWeChat(c.r.Context(), c.account.ID, password, ch, accounts.Proof{Ticket: p.Ticket, Code: p.Code})
	if err != nil {
		return nil, err
	}
	return s.toProfile(a), nil
}

// wechatCallback serves the URL set as the Official Account's server
// address (/apis/wechat/callback). GET is WeChat's check of the address:
// echostr back when the signature matches --wechat-token. POST carries
// pushed messages; scans of the console's QR codes link or log in, and
// every message is answered "success" (no reply to the user). A request
// whose signature does not match is refused with 403.
func (s *Server) wechatCallback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.WeChatToken == "" || !wechat.CheckSignature(s.WeChatToken, q.Get("signature"), q.Get("timestamp"), q.Get("nonce")) {
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, "signature mismatch")
		return
	}
	if r.Method == http.MethodGet {
		_, _ = io.WriteString(w, q.Get("echostr"))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if e, err := wechat.ParseEvent(body); err == nil {
		if scene, ok := e.Scene(); ok {
			if _, err := s.Accounts.WeChatScanned(r.Context(), scene, e.FromUserName); err != nil {
				s.log.Error("wechat: scan event", "err", err)
				w.WriteHeader(http.StatusInternalServerError) // WeChat retries three times
				return
			}
		}
	}
	_, _ = io.WriteString(w, "success")
}
