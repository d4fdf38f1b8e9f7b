package httpapi

import (
	"errors"
	"io"
	"net/http"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
)

// ingest serves POST /ingest/v1/{telemetry|status|image}: the same messages
// as the MQTT topics, for devices that speak HTTP. The device authenticates
// with HTTP Basic (SN, key). A 200 means the message is stored; a 400 names
// what was wrong and must not be retried; a 5xx may be retried (redelivery
// of a report with the same ts stores once).
func (s *Server) ingest(w http.ResponseWriter, r *http.Request) {
	lang := i18n.Parse(r.Header.Get("lang"))
	kind := r.PathValue("kind")
	if kind != ingest.KindTelemetry && kind != ingest.KindStatus && kind != ingest.KindImage {
		s.writeError(w, r, lang, errs.NotFound())
		return
	}
	sn, key, ok := r.BasicAuth()
	if !ok {
		w.Header().Set("WWW-Authenticate", `Basic realm="fieldwatch devices", charset="UTF-8"`)
		s.writeError(w, r, lang, errs.New(errs.EUnauthorized, "ingest.badCredentials"))
		return
	}
	d, err := s.Ingest.Authenticate(r.Context(), sn, key)
	if err != nil {
		if errs.KindOf(err) == errs.EUnauthorized {
			w.Header().Set("WWW-Authenticate", `Basic realm="fieldwatch devices", charset="UTF-8"`)
		}
		s.writeError(w, r, lang, err)
		return
	}
	limit := int64(ingest.MaxPayload)
	if kind == ingest.KindImage {
		limit = ingest.MaxImage
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit+1))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) || int64(len(body)) > limit {
		s.Ingest.Metrics.Rejected.WithLabelValues(string(ingest.HTTP), "ingest.tooLarge").Inc()
		s.writeError(w, r, lang, errs.Invalid("body", "ingest.tooLarge").With(map[string]any{"max": limit}))
		return
	}
	if err != nil {
		s.writeError(w, r, lang, errs.Invalid("body", "ingest.malformed"))
		return
	}
	if err := s.Ingest.Handle(r.Context(), ingest.HTTP, d, kind, body); err != nil {
		s.writeError(w, r, lang, err)
		return
	}
	writeData(w, nil)
}
