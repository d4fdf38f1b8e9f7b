package httpapi

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// A request its client gave up on is not a server failure: no ERROR line, no
// 500 in the access log; a canceled store call with the client still there is.
func TestWriteError_ClientGone(t *testing.T) {
	var logs bytes.Buffer
	s := &Server{log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	cause := errs.Internal("device tags: %w", context.Canceled)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := httptest.NewRecorder()
	s.writeError(w, httptest.NewRequest("GET", "/apis/devices", nil).WithContext(ctx), i18n.EnUS, cause)
	if w.Code != statusClientClosed || logs.Len() != 0 {
		t.Errorf("client gone: status %d, logged %q; want %d and nothing at info level", w.Code, logs.String(), statusClientClosed)
	}

	w = httptest.NewRecorder()
	s.writeError(w, httptest.NewRequest("GET", "/apis/devices", nil), i18n.EnUS, cause)
	if w.Code != 500 || !strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("client still there: status %d, logged %q; want 500 and an ERROR line", w.Code, logs.String())
	}
}
