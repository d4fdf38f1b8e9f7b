package httpapi

import (
	"net/http"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// call is what an /apis handler gets: the request, its language and, for
// authed handlers, the caller.
type call struct {
	w       http.ResponseWriter
	r       *http.Request
	lang    i18n.Lang
	account *accounts.Account
	session *accounts.Session
}

// apiFunc returns the envelope's data, or an error to localize.
type apiFunc func(c *call) (any, error)

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, c *call, fn apiFunc) {
	data, err := fn(c)
	if err != nil {
		s.writeError(w, r, c.lang, err)
		return
	}
	if d, ok := data.(*download); ok {
		d.write(w)
		return
	}
	writeData(w, data)
}

// public wraps a handler that needs no session.
func (s *Server) public(fn apiFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serveAPI(w, r, &call{w: w, r: r, lang: i18n.Parse(r.Header.Get("lang"))}, fn)
	})
}

// authed wraps a handler that needs a valid session; without one it answers code 2.
func (s *Server) authed(fn apiFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &call{w: w, r: r, lang: i18n.Parse(r.Header.Get("lang"))}
		a, sess, err := s.Accounts.Authenticate(r.Context(), sessionToken(r))
		if err != nil {
			s.writeError(w, r, c.lang, err)
			return
		}
		c.account, c.session = a, sess
		s.setSessionCookie(w, r, sessionToken(r), sess.ExpiresAt) // follows a sliding extension
		s.serveAPI(w, r, c, fn)
	})
}

// sessionCookie names the cookie that carries the session token.
const sessionCookie = "fw_session"

func sessionToken(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	return c.Value
}

func (s *Server) setSessionCookie(w http.ResponseWriter, r *http.Request, token string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", Expires: expires,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r),
	})
}

func (s *Server) clearSessionCookie(w http.ResponseWriter, r *http.Request) {
	if sessionToken(r) == "" {
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r),
	})
}
