package advice

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// LLMConfig configures the chat-completions client (--llm-url, --llm-model,
// --llm-key).
type LLMConfig struct {
	// URL is an OpenAI-compatible API: its base (http://host:8000/v1, the
	// client posts to {URL}/chat/completions) or the chat-completions
	// endpoint itself.
	URL   string
	Model string
	Key   string // sent as a bearer token when set
	// Timeout bounds a whole answer (default 2 minutes); Retries is how many
	// more times a request that could not connect is tried (default 2).
	Timeout time.Duration
	Retries int
	HTTP    *http.Client
}

// LLM streams answers from a chat-completions model.
type LLM struct {
	c        LLMConfig
	endpoint string
}

// NewLLM returns the client, nil without a URL.
func NewLLM(c LLMConfig) *LLM {
	u := strings.TrimRight(strings.TrimSpace(c.URL), "/")
	if u == "" {
		return nil
	}
	if c.Timeout <= 0 {
		c.Timeout = 2 * time.Minute
	}
	if c.Retries < 0 {
		c.Retries = 0
	} else if c.Retries == 0 {
		c.Retries = 2
	}
	if c.HTTP == nil {
		c.HTTP = &http.Client{}
	}
	if !strings.HasSuffix(u, "/chat/completions") {
		u += "/chat/completions"
	}
	return &LLM{c: c, endpoint: u}
}

// Model is the model asked.
func (l *LLM) Model() string { return l.c.Model }

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// LLMError is a failed answer: Kind is timeout, unreachable or model (the
// model service answered with an error; Reason is what it said).
type LLMError struct {
	Kind   string
	Reason string
	Err    error
}

func (e *LLMError) Error() string {
	if e.Reason != "" {
		return "llm: " + e.Kind + ": " + e.Reason
	}
	return fmt.Sprintf("llm: %s: %v", e.Kind, e.Err)
}

func (e *LLMError) Unwrap() error { return e.Err }

// Stream asks the model and calls onDelta with each piece of the answer, in
// order, as it arrives (Server-Sent Events, "data: {…}" lines ending with
// "data: [DONE]"). A request that cannot connect is retried; once the
// model has answered nothing is retried. Errors are *LLMError, or onDelta's.
func (l *LLM) Stream(ctx context.Context, msgs []Message, onDelta func(string) error) error {
	ctx, cancel := context.WithTimeout(ctx, l.c.Timeout)
	defer cancel()
	body, _ := json.Marshal(map[string]any{"model": l.c.Model, "messages": msgs, "stream": true})
	var res *http.Response
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.endpoint, bytes.NewReader(body))
		if err != nil {
			return &LLMError{Kind: "unreachable", Err: err}
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream")
		if l.c.Key != "" {
			req.Header.Set("Authorization", "Bearer "+l.c.Key)
		}
		res, err = l.c.HTTP.Do(req)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return l.ctxErr(ctx, err)
		}
		var op *net.OpError
		if attempt >= l.c.Retries || !errors.As(err, &op) || op.Op != "dial" {
			return &LLMError{Kind: "unreachable", Err: err}
		}
		select {
		case <-time.After(time.Duration(200<<attempt) * time.Millisecond):
		case <-ctx.Done():
			return l.ctxErr(ctx, ctx.Err())
		}
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		return &LLMError{Kind: "model", Reason: reasonOf(raw, res.Status)}
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "data:") {
			continue
		}
		data := strings.TrimSpace(strings.TrimPrefix(line, "data:"))
		if data == "[DONE]" {
			return nil
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return &LLMError{Kind: "model", Reason: "unreadable chunk: " + truncate(data, 200)}
		}
		if len(chunk.Error) > 0 && string(chunk.Error) != "null" {
			return &LLMError{Kind: "model", Reason: reasonOf([]byte(data), "error")}
		}
		for _, c := range chunk.Choices {
			if c.Delta.Content != "" {
				if err := onDelta(c.Delta.Content); err != nil {
					return err
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		if ctx.Err() != nil {
			return l.ctxErr(ctx, err)
		}
		return &LLMError{Kind: "unreachable", Err: err}
	}
	return &LLMError{Kind: "model", Reason: "the answer ended without [DONE]"}
}

func (l *LLM) ctxErr(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &LLMError{Kind: "timeout", Err: err}
	}
	return err // the caller went away
}

// reasonOf reads an OpenAI-style error body {"error": {"message": …}} or
// {"error": "…"}; else the status.
func reasonOf(raw []byte, status string) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			return truncate(obj.Message, 300)
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return truncate(s, 300)
		}
	}
	return status
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
