package advice_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/advice"
)

// chatServer speaks the OpenAI chat-completions wire format: it records
// the request and streams pieces as "data: {…}" chunks, then [DONE].
func chatServer(t *testing.T, pieces []string, got *map[string]any) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k3y" {
			http.Error(w, `{"error":{"message":"wrong path or key"}}`, 401)
			return
		}
		_ = json.NewDecoder(r.Body).Decode(got)
		w.Header().Set("Content-Type", "text/event-stream")
		for i, p := range pieces {
			b, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk",
				"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": p}, "finish_reason": nil}}})
			fmt.Fprintf(w, "data: %s\n\n", b)
			if i == 0 {
				fmt.Fprint(w, ": keep-alive comment\n\n")
			}
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestLLM_StreamsInOrderWithContext(t *testing.T) {
	var got map[string]any
	pieces := []string{"Irrigate ", "**41 mm**", " today:\n\n```json\n{\"depletion\": 41.4}\n```\n"}
	srv := chatServer(t, pieces, &got)
	l := advice.NewLLM(advice.LLMConfig{URL: srv.URL + "/v1", Model: "qwen2.5", Key: "k3y"})
	msgs := []advice.Message{{Role: "system", Content: `reality: {"water":[{"depletion":41.4,"raw":30}]}`}, {Role: "user", Content: "Should I irrigate?"}}
	var out []string
	if err := l.Stream(context.Background(), msgs, func(s string) error { out = append(out, s); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(out, "|") != strings.Join(pieces, "|") {
		t.Errorf("relayed %q", out)
	}
	if got["model"] != "qwen2.5" || got["stream"] != true {
		t.Errorf("request %v", got)
	}
	sent, _ := json.Marshal(got["messages"])
	if !strings.Contains(string(sent), `\"depletion\":41.4`) || !strings.Contains(string(sent), "Should I irrigate?") {
		t.Errorf("grounded context not sent: %s", sent)
	}
}

func TestLLM_Errors(t *testing.T) {
	ctx := context.Background()
	nop := func(string) error { return nil }
	// A model error in the HTTP answer.
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"model 'qwen9' not found"}}`, 404)
	}))
	defer bad.Close()
	err := advice.NewLLM(advice.LLMConfig{URL: bad.URL, Model: "qwen9"}).Stream(ctx, nil, nop)
	var le *advice.LLMError
	if !errors.As(err, &le) || le.Kind != "model" || le.Reason != "model 'qwen9' not found" {
		t.Errorf("model error: %v", err)
	}
	// An error chunk in the middle of the stream, after a first piece.
	mid := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: {\"error\":{\"message\":\"out of memory\"}}\n\n")
	}))
	defer mid.Close()
	var got []string
	err = advice.NewLLM(advice.LLMConfig{URL: mid.URL, Model: "m"}).Stream(ctx, nil, func(s string) error { got = append(got, s); return nil })
	if !errors.As(err, &le) || le.Kind != "model" || !strings.Contains(le.Reason, "out of memory") || len(got) != 1 {
		t.Errorf("error chunk: %v %q", err, got)
	}
	// A model that never finishes within the timeout.
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"Thinking\"}}]}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	err = advice.NewLLM(advice.LLMConfig{URL: slow.URL, Model: "m", Timeout: 200 * time.Millisecond}).Stream(ctx, nil, nop)
	if !errors.As(err, &le) || le.Kind != "timeout" {
		t.Errorf("timeout: %v", err)
	}
	// Nobody listening: retried, then unreachable.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	err = advice.NewLLM(advice.LLMConfig{URL: "http://" + addr, Model: "m", Retries: 1}).Stream(ctx, nil, nop)
	if !errors.As(err, &le) || le.Kind != "unreachable" {
		t.Errorf("unreachable: %v", err)
	}
}
