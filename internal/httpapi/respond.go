package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// statusClientClosed is the status logged for a request whose client went away
// before the answer (nginx's 499); the client never sees it.
const statusClientClosed = 499

// Envelope codes of SPEC.md §8. Business errors use 1000 + the HTTP status.
const (
	codeOK      = 0
	codeSession = 2
	codeFatal   = 3
)

type envelope struct {
	Code    int        `json:"code"`
	Message string     `json:"message"`
	Data    any        `json:"data"`
	Error   *errorBody `json:"error,omitempty"`
}

// errorBody tells a client which translation key and field an error is about,
// so forms can put the message under the right input.
type errorBody struct {
	Key   string `json:"key"`
	Field string `json:"field,omitempty"`
}

// maxBody bounds JSON request bodies; the account calls carry a few hundred bytes.
const maxBody = 1 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeData(w http.ResponseWriter, data any) {
	writeJSON(w, http.StatusOK, envelope{Code: codeOK, Data: data})
}

// statusOf is the one place that maps error kinds to HTTP statuses.
func statusOf(k errs.Kind) int {
	switch k {
	case errs.EInvalid:
		return http.StatusBadRequest
	case errs.EUnauthorized, errs.ESession:
		return http.StatusUnauthorized
	case errs.EForbidden:
		return http.StatusForbidden
	case errs.ENotFound:
		return http.StatusNotFound
	case errs.EConflict:
		return http.StatusConflict
	case errs.ETooMany:
		return http.StatusTooManyRequests
	case errs.EMethod:
		return http.StatusMethodNotAllowed
	case errs.EUnavailable:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// writeError answers err in the envelope, localized for lang. Internal errors
// are logged with their cause and shown only as "internal error".
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, lang i18n.Lang, err error) {
	if r.Context().Err() != nil && errors.Is(err, context.Canceled) {
		// The browser left (a new filter, another page): nothing failed on our
		// side, and the access log records the 499.
		w.WriteHeader(statusClientClosed)
		return
	}
	e := errs.As(err)
	if e == nil {
		e = errs.Internal("%w", err)
	}
	status := statusOf(e.Kind)
	env := envelope{Message: i18n.Message(lang, e.Code, e.Field, e.Params)}
	switch e.Kind {
	case errs.EInternal:
		s.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		env.Code = codeFatal
	case errs.ESession:
		env.Code = codeSession
		env.Data = map[string]string{"returnUrl": returnURL(r)}
		s.clearSessionCookie(w, r)
	default:
		env.Code = 1000 + status
		env.Error = &errorBody{Key: e.Code, Field: e.Field}
	}
	writeJSON(w, status, env)
}

// returnURL is the login page with a redirect back to the page the call came
// from (its Referer, when that is this site).
func returnURL(r *http.Request) string {
	ref, err := url.Parse(r.Referer())
	if err != nil || ref.Host != r.Host || ref.Path == "" || strings.HasPrefix(ref.Path, "/login") {
		return "/login"
	}
	back := ref.Path
	if ref.RawQuery != "" {
		back += "?" + ref.RawQuery
	}
	return "/login?redirect=" + url.QueryEscape(back)
}

func logLevel(status int) slog.Level {
	if status >= 500 {
		return slog.LevelError
	}
	return slog.LevelInfo
}
