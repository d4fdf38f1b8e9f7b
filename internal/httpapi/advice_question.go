package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/advice"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// streamed is what a handler returns once it has written its own answer.
type streamed struct{}

// sse writes Server-Sent Events, flushing each through every wrapper of
// the writer (a plain type assertion stops at the first that has no Flush).
type sse struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func (e *sse) send(event string, data any) error {
	b, _ := json.Marshal(data)
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, b); err != nil {
		return err
	}
	return e.rc.Flush()
}

// aiQuestion serves POST /apis/ai/farm/question {id, field, question}: the
// answer in markdown as Server-Sent Events: meta {source, model}, delta
// {text} in order, then done {} — or error {key, message} in the caller's
// language. Bad input answers the usual JSON error before any event.
func (s *Server) aiQuestion(c *call) (any, error) {
	if s.Advice == nil {
		return nil, errs.NotFound()
	}
	var b struct {
		ID       int64   `json:"id"`
		Field    []int64 `json:"field"`
		Question string  `json:"question"`
	}
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	b.Question = strings.TrimSpace(b.Question)
	switch {
	case b.ID <= 0:
		return nil, errs.Invalid("id", "error.required")
	case b.Question == "":
		return nil, errs.Invalid("question", "advice.question.required")
	case utf8.RuneCountInString(b.Question) > advice.MaxQuestion:
		return nil, errs.Invalid("question", "advice.question.tooLong").With(map[string]any{"max": advice.MaxQuestion})
	}
	d, _, err := s.Devices.Open(c.r.Context(), c.account.ID, b.ID, devices.NeedRead)
	if err != nil {
		return nil, err
	}
	c.device = d
	devs, err := s.openField(c, b.Field, "field")
	if err != nil {
		return nil, err
	}
	ctx := c.r.Context()
	r, err := s.adviceReality(c, devs)
	if err != nil {
		return nil, err
	}
	tasks, err := s.Advice.Today(ctx, c.account.ID, r)
	if err != nil {
		return nil, err
	}
	names := map[int64]string{}
	for _, d := range devs {
		names[d.ID] = advice.DeviceName(d)
	}
	texts := make([]advice.Text, len(tasks))
	for i := range tasks {
		texts[i] = s.Advice.Describe(&tasks[i], names[tasks[i].DeviceID], c.lang)
	}

	h := c.w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	c.w.WriteHeader(http.StatusOK)
	out := &sse{w: c.w, rc: http.NewResponseController(c.w)}
	if s.LLM == nil {
		_ = out.send("meta", map[string]string{"source": "advisor"})
		answer := s.Advice.Answer(r, tasks, texts, b.Question, c.lang)
		for _, line := range strings.SplitAfter(answer, "\n") {
			if line == "" {
				continue
			}
			if out.send("delta", map[string]string{"text": line}) != nil {
				return streamed{}, nil
			}
		}
		_ = out.send("done", struct{}{})
		return streamed{}, nil
	}
	_ = out.send("meta", map[string]string{"source": "model", "model": s.LLM.Model()})
	msgs := append(advice.Grounding(r, tasks, texts, s.Advice.Strategy(r, c.lang), c.lang), advice.Message{Role: "user", Content: b.Question})
	err = s.LLM.Stream(ctx, msgs, func(text string) error { return out.send("delta", map[string]string{"text": text}) })
	var le *advice.LLMError
	switch {
	case err == nil:
		_ = out.send("done", struct{}{})
	case errors.As(err, &le):
		s.log.WarnContext(ctx, "model answer failed", "err", err)
		key := "advice.llm." + map[string]string{"timeout": "timeout", "unreachable": "unreachable", "model": "error"}[le.Kind]
		_ = out.send("error", map[string]string{"key": key, "message": i18n.T(c.lang, key, map[string]any{"reason": le.Reason})})
	default:
		// The browser went away, or writing to it failed: nobody to tell.
	}
	return streamed{}, nil
}
