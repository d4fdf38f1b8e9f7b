package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// bindingValidation serves GET /apis/account/bindings/validation
// (?channel=email&address= or ?phoneNumber=): the address checked and
// normalized, and whether it is the one bound already.
func (s *Server) bindingValidation(c *call) (any, error) {
	q := c.r.URL.Query()
	raw := q.Get("channel")
	if raw == "" && q.Has("phoneNumber") {
		raw = "mobile"
	} else if raw == "" && q.Has("address") {
		raw = "email"
	}
	ch, err := accounts.ParseChannel("channel", raw)
	if err != nil {
		return nil, err
	}
	field := "address"
	if ch == accounts.ChannelMobile {
		field = "phoneNumber"
	}
	value := q.Get(field)
	if value == "" {
		value = q.Get("address")
	}
	addr, err := accounts.NormalizeAddress(field, ch, value)
	if err != nil {
		return nil, err
	}
	bound := c.account.Mail
	if ch == accounts.ChannelMobile {
		bound = c.account.Phone
	}
	return map[string]any{"channel": ch, "address": addr, "valid": true, "bound": addr == bound}, nil
}

// sendCode answers a code request, with Retry-After while throttled.
func (s *Server) sendCode(c *call, r accounts.CodeRequest) (any, error) {
	r.Lang, r.ClientIP = c.lang, s.clientIP(c.r)
	sent, err := s.Accounts.SendCode(c.r.Context(), r)
	if e := errs.As(err); e != nil && e.Kind == errs.ETooMany {
		if sec, ok := e.Params["seconds"].(int); ok {
			c.w.Header().Set("Retry-After", strconv.Itoa(sec))
		}
	}
	if err != nil {
		return nil, err
	}
	return sent, nil
}

func parsePurpose(s string) (accounts.Purpose, error) {
	switch s {
	case "", "bind":
		return accounts.PurposeBind, nil
	case "unbind":
		return accounts.PurposeUnbind, nil
	}
	return "", errs.Invalid("purpose", "verify.purpose.invalid")
}

// bindingCode serves GET /apis/account/bindings/{email|mobile}/code: a code
// sent to ?address= (?phoneNumber=) to bind it, or with ?purpose=unbind to
// the bound address to remove it.
func (s *Server) bindingCode(ch accounts.Channel) apiFunc {
	return func(c *call) (any, error) {
		q := c.r.URL.Query()
		purpose, err := parsePurpose(q.Get("purpose"))
		if err != nil {
			return nil, err
		}
		field := "address"
		if ch == accounts.ChannelMobile {
			field = "phoneNumber"
		}
		addr := q.Get(field)
		if addr == "" {
			addr = q.Get("address")
		}
		return s.sendCode(c, accounts.CodeRequest{AccountID: c.account.ID, Purpose: purpose, Channel: ch, Address: addr, Field: field})
	}
}

// proofBody is a verification code and the ticket naming it.
type proofBody struct {
	Channel string `json:"channel"`
	Code    string `json:"code"`
	Ticket  string `json:"ticket"`
}

// bindAddress serves POST /apis/account/bindings {channel, code, ticket}: binds
// the address the ticket's code was sent to.
func (s *Server) bindAddress(c *call) (any, error) {
	var req proofBody
	if err := decode(c, &req); err != nil {
		return nil, err
	}
	ch, err := accounts.ParseChannel("channel", req.Channel)
	if err != nil {
		return nil, err
	}
	if req.Ticket == "" {
		return nil, errs.Invalid("code", "verify.code.invalid")
	}
	a, err := s.Accounts.Bind(c.r.Context(), c.account.ID, ch, accounts.Proof{Ticket: req.Ticket, Code: req.Code})
	if err != nil {
		return nil, err
	}
	return s.toProfile(a), nil
}

// bindChannel serves POST /apis/account/bindings/{email|mobile}
// {address|phoneNumber, code, ticket?}: binds the address after the code
// sent to it (the newest one, without a ticket).
func (s *Server) bindChannel(ch accounts.Channel) apiFunc {
	return func(c *call) (any, error) {
		var req struct {
			Address     string `json:"address"`
			PhoneNumber string `json:"phoneNumber"`
			Code        string `json:"code"`
			Ticket      string `json:"ticket"`
		}
		if err := decode(c, &req); err != nil {
			return nil, err
		}
		addr := req.Address
		if ch == accounts.ChannelMobile && req.PhoneNumber != "" {
			addr = req.PhoneNumber
		}
		if addr == "" && ch == accounts.ChannelMobile {
			return nil, errs.Invalid("phoneNumber", "verify.mobile.required")
		} else if addr == "" {
			return nil, errs.Invalid("address", "verify.email.required")
		}
		a, err := s.Accounts.Bind(c.r.Context(), c.account.ID, ch, accounts.Proof{Ticket: req.Ticket, Code: req.Code, Address: addr})
		if err != nil {
			return nil, err
		}
		return s.toProfile(a), nil
	}
}

// unbind serves DELETE /apis/account/bindings?channel= {code, ticket}:
// removes a bound address after a code sent to it.
func (s *Server) unbind(c *call) (any, error) {
	var req struct {
		Password string `json:"password"`
		proofBody
	}
	if err := decodeOptional(c, &req); err != nil {
		return nil, err
	}
	raw := c.r.URL.Query().Get("channel")
	if raw == "" {
		raw = req.Channel
	}
	if raw == "wechat" {
		req.Channel = ""
		return s.unbindWeChat(c, req.Password, req.proofBody)
	}
	ch, err := accounts.ParseChannel("channel", raw)
	if err != nil {
		return nil, err
	}
	a, err := s.Accounts.Unbind(c.r.Context(), c.account.ID, ch, accounts.Proof{Ticket: req.Ticket, Code: req.Code})
	if err != nil {
		return nil, err
	}
	return s.toProfile(a), nil
}

// authorizeTicket serves GET /apis/account/authorize/ticket?src=: a ticket
// that proves who holds an account. With src=email or mobile and
// ?username= (the login page, no session) a password-reset code goes to
// that account's bound address; with a session and no username an unbind
// code goes to the caller's bound address.
func (s *Server) authorizeTicket(c *call) (any, error) {
	q := c.r.URL.Query()
	if q.Get("src") == "wechat" {
		return s.wechatLoginQR(c)
	}
	ch, err := accounts.ParseChannel("src", q.Get("src"))
	if err != nil {
		return nil, err
	}
	if username := q.Get("username"); username != "" || sessionToken(c.r) == "" {
		return s.sendCode(c, accounts.CodeRequest{Purpose: accounts.PurposeReset, Channel: ch, Username: username})
	}
	a, _, err := s.Accounts.Authenticate(c.r.Context(), sessionToken(c.r))
	if err != nil {
		return nil, err
	}
	return s.sendCode(c, accounts.CodeRequest{AccountID: a.ID, Purpose: accounts.PurposeUnbind, Channel: ch})
}

// postPassword serves POST /apis/account/password. With {username,
// password, channel, code, ticket} it resets a forgotten password after a
// code from GET /apis/account/authorize/ticket (no session needed, every
// session of the account ends); with the legacy {old, new} it changes the
// caller's password as PUT does.
func (s *Server) postPassword(c *call) (any, error) {
	raw, err := readBody(c)
	if err != nil {
		return nil, err
	}
	var probe map[string]json.RawMessage
	_ = json.Unmarshal(raw, &probe)
	if _, legacy := probe["old"]; legacy {
		return s.authedAgain(c, raw, s.changePasswordLegacy)
	}
	if _, legacy := probe["new"]; legacy {
		return s.authedAgain(c, raw, s.changePasswordLegacy)
	}
	if len(raw) == 0 {
		return nil, errs.New(errs.EInvalid, "error.bodyRequired")
	}
	var req struct {
		Username string `json:"username"`
		Password string `json:"password"`
		Channel  string `json:"channel"`
		Code     string `json:"code"`
		Ticket   string `json:"ticket"`
	}
	if err := unmarshal(raw, &req); err != nil {
		return nil, err
	}
	if req.Channel == "" {
		req.Channel = "email"
	}
	ch, err := accounts.ParseChannel("channel", req.Channel)
	if err != nil {
		return nil, err
	}
	return nil, s.Accounts.ResetPassword(c.r.Context(), req.Username, ch, accounts.Proof{Ticket: req.Ticket, Code: req.Code}, req.Password)
}

// authedAgain runs fn on an already-read body with the caller's session, or
// answers code 2 without one.
func (s *Server) authedAgain(c *call, raw []byte, fn apiFunc) (any, error) {
	a, sess, err := s.Accounts.Authenticate(c.r.Context(), sessionToken(c.r))
	if err != nil {
		return nil, err
	}
	c.account, c.session = a, sess
	c.r.Body = io.NopCloser(bytes.NewReader(raw))
	return fn(c)
}
