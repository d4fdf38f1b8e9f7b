package httpapi

import (
	"errors"
	"io"
	"net/http"

	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
)

// ingest serves POST /ingest/v1/{telemetry|status|image}: the same messages
// as the MQTT topics, for devices that speak HTTP. The device authenticates
// with HTTP Basic (SN, key). A 200 means the message is stored; a 400 names
// what was wrong and must not be retried; a 5xx may be retried (redelivery
// of a report with the same ts stores once).
//
// The answer to a telemetry or status report carries the device's open
// commands: {"commands": [...]}, until the device acknowledges each.
func (s *Server) ingest(w http.ResponseWriter, r *http.Request) {
	kind := r.PathValue("kind")
	if kind != ingest.KindTelemetry && kind != ingest.KindStatus && kind != ingest.KindImage {
		s.writeError(w, r, i18n.Parse(r.Header.Get("lang")), errs.NotFound())
		return
	}
	s.ingestKind(w, r, kind)
}

// ingestAck serves POST /ingest/v1/commands/ack: a command's
// acknowledgement from a device that speaks HTTP, the payload of
// devices/{sn}/commands/ack.
func (s *Server) ingestAck(w http.ResponseWriter, r *http.Request) {
	s.ingestKind(w, r, ingest.KindAck)
}

func (s *Server) ingestKind(w http.ResponseWriter, r *http.Request, kind string) {
	lang := i18n.Parse(r.Header.Get("lang"))
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
	if (kind != ingest.KindTelemetry && kind != ingest.KindStatus) || s.Commands == nil {
		writeData(w, nil)
		return
	}
	cmds, err := s.Commands.ForHTTP(r.Context(), d)
	if err != nil {
		// The report is stored; its commands ride on the next answer.
		s.log.WarnContext(r.Context(), "commands for an HTTP device", "sn", d.SN, "err", err)
		cmds = []commands.Wire{}
	}
	writeData(w, struct {
		Commands []commands.Wire `json:"commands"`
	}{cmds})
}
