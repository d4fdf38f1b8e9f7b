package httpapi

import (
	"net/http"
	"strconv"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// profileDTO is the account as the web app sees it. Times are unix milliseconds.
type profileDTO struct {
	AccountNumber string   `json:"accountNumber"`
	Name          string   `json:"name"`
	Phone         string   `json:"phone"`
	Mail          string   `json:"mail"`
	WechatBound   bool     `json:"wechatBound"`
	RegisteredAt  int64    `json:"registeredAt"`
	LastLoginAt   *int64   `json:"lastLoginAt"`
	LoginMethods  []string `json:"loginMethods"`
	// Timezone is the farm's IANA zone (--timezone): the console shows device
	// times on its clock, and days begin in it.
	Timezone string `json:"timezone"`
}

func (s *Server) toProfile(a *accounts.Account) profileDTO {
	p := profileDTO{Timezone: s.location().String(),
		AccountNumber: a.AccountNumber, Name: a.Name, Phone: a.Phone, Mail: a.Mail,
		WechatBound: a.WechatOpenID != "", RegisteredAt: a.CreatedAt.UnixMilli(), LoginMethods: a.LoginMethods(),
	}
	if a.LastLoginAt != nil {
		ms := a.LastLoginAt.UnixMilli()
		p.LastLoginAt = &ms
	}
	return p
}

func (s *Server) login(c *call) (any, error) {
	var req struct {
		AccountNumber string `json:"accountNumber"`
		Password      string `json:"password"`
	}
	if err := decode(c, &req); err != nil {
		return nil, err
	}
	client := accounts.Client{IP: s.clientIP(c.r), UserAgent: c.r.UserAgent(), Lang: string(c.lang)}
	if ck, err := c.r.Cookie(deviceCookie); err == nil {
		client.Device = ck.Value
	}
	l, err := s.Accounts.Login(c.r.Context(), req.AccountNumber, req.Password, client)
	if e := errs.As(err); e != nil && e.Kind == errs.ETooMany {
		if sec, ok := e.Params["seconds"].(int); ok {
			c.w.Header().Set("Retry-After", strconv.Itoa(sec))
		}
	}
	if err != nil {
		return nil, err
	}
	s.setSessionCookie(c.w, c.r, l.Token, l.Session.ExpiresAt)
	http.SetCookie(c.w, &http.Cookie{
		Name: deviceCookie, Value: l.Device, Path: "/apis/account/login", Expires: l.DeviceExpires,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.secure(c.r),
	})
	return s.toProfile(l.Account), nil
}

// deviceCookie holds the known-device token a successful login gives the
// client (accounts.Client.Device); only the login call receives it.
const deviceCookie = "fw_device"

func (s *Server) logout(c *call) (any, error) {
	if err := s.Accounts.Logout(c.r.Context(), sessionToken(c.r)); err != nil {
		return nil, err
	}
	s.clearSessionCookie(c.w, c.r)
	return nil, nil
}

func (s *Server) profile(c *call) (any, error) { return s.toProfile(c.account), nil }

// currentSession serves GET /apis/account/session: the caller's profile, or
// null without a valid session. A page asks it who is logged in without an
// error answer when nobody is (a browser logs every 401 in its console).
func (s *Server) currentSession(c *call) (any, error) {
	a, sess, err := s.Accounts.Authenticate(c.r.Context(), sessionToken(c.r))
	if errs.KindOf(err) == errs.ESession {
		s.clearSessionCookie(c.w, c.r)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s.setSessionCookie(c.w, c.r, sessionToken(c.r), sess.ExpiresAt) // follows a sliding extension
	return s.toProfile(a), nil
}

func (s *Server) rename(c *call) (any, error) {
	var req struct {
		Name string `json:"name"`
	}
	if err := decode(c, &req); err != nil {
		return nil, err
	}
	a, err := s.Accounts.Rename(c.r.Context(), c.account.ID, req.Name)
	if err != nil {
		return nil, err
	}
	return s.toProfile(a), nil
}

func (s *Server) changePassword(c *call) (any, error) {
	var req struct {
		OldPassword string `json:"oldPassword"`
		NewPassword string `json:"newPassword"`
	}
	if err := decode(c, &req); err != nil {
		return nil, err
	}
	return nil, s.Accounts.ChangePassword(c.r.Context(), c.account.ID, c.session.ID, req.OldPassword, req.NewPassword)
}

// changePasswordLegacy serves older clients that post {old, new}; errors name those fields.
func (s *Server) changePasswordLegacy(c *call) (any, error) {
	var req struct {
		Old string `json:"old"`
		New string `json:"new"`
	}
	if err := decode(c, &req); err != nil {
		return nil, err
	}
	err := s.Accounts.ChangePassword(c.r.Context(), c.account.ID, c.session.ID, req.Old, req.New)
	if e := errs.As(err); e != nil && e.Field != "" {
		legacy := *e
		legacy.Field = map[string]string{"oldPassword": "old", "newPassword": "new"}[e.Field]
		legacy.Params = map[string]any{"field": i18n.Field(e.Field)}
		return nil, &legacy
	}
	return nil, err
}
