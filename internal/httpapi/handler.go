package httpapi

import (
	"net/http"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
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

	// For device-scoped routes, the device and the caller's right on it,
	// checked by dev() before the handler runs.
	device *devices.Device
	right  devices.Right
}

// apiFunc returns the envelope's data, or an error to localize.
type apiFunc func(c *call) (any, error)

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, c *call, fn apiFunc) {
	if err := checkQuery(r); err != nil {
		s.writeError(w, r, c.lang, err)
		return
	}
	data, err := fn(c)
	if err != nil {
		s.writeError(w, r, c.lang, err)
		return
	}
	if d, ok := data.(*download); ok {
		d.write(w)
		return
	}
	if _, ok := data.(streamed); ok {
		return // the handler wrote its own answer (a stream of events)
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

// dev wraps a device-scoped handler: after the session, it finds the device
// the call names and checks the caller holds need on it, through the one
// permission check (devices.Service.Authorize). A device the caller cannot
// see answers exactly as one that does not exist; one they see without the
// right answers 'No permission to modify!' or 'No permission to export!'.
// The handler finds the device in c.device.
func (s *Server) dev(need devices.Need, fn apiFunc) http.Handler {
	return s.authed(func(c *call) (any, error) {
		id, err := s.callDeviceID(c)
		if err != nil {
			return nil, err
		}
		if c.device, c.right, err = s.Devices.Open(c.r.Context(), c.account.ID, id, need); err != nil {
			return nil, err
		}
		return fn(c)
	})
}

// deviceID is the device a handler works on: the one dev() authorized, so
// a handler cannot read a different id than the one checked.
func deviceID(c *call) (int64, error) {
	if c.device != nil {
		return c.device.ID, nil
	}
	if c.r.PathValue("id") != "" {
		return pathID(c, "id")
	}
	return queryID(c, "id")
}

// deviceParams are the query names a device-scoped call may name its
// device with, when its path has no {id}; SPEC §7 uses all of them.
var deviceParams = []string{"id", "poiId", "deviceId"}

// callDeviceID reads the device a call names: {id} in the path, else the
// first of ?id=, ?poiId=, ?deviceId=, else ?hashId= (the rain gauge's page
// route carries only that).
func (s *Server) callDeviceID(c *call) (int64, error) {
	if c.r.PathValue("id") != "" {
		return pathID(c, "id")
	}
	q := c.r.URL.Query()
	for _, name := range deviceParams {
		if q.Get(name) != "" {
			return queryID(c, name)
		}
	}
	if hash := q.Get("hashId"); hash != "" {
		d, err := s.Devices.FindByHashID(c.r.Context(), hash)
		if err != nil {
			return 0, err
		}
		return d.ID, nil
	}
	return 0, errs.Invalid("id", "error.required")
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
