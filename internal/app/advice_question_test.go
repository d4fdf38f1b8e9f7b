package app_test

// Farm questions through the whole server: the embedded advisor's answer
// and a model's, streamed to the page as Server-Sent Events event by event
// (the API's gzip layer must not hold them back), and a model's failure as
// a clear message.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type sseEvent struct {
	name string
	data map[string]string
}

// askFarm posts a question and calls each with every event as it arrives.
func askFarm(t *testing.T, a *api, body string, each func(sseEvent)) {
	t.Helper()
	req, err := http.NewRequest("POST", a.base+"/apis/ai/farm/question", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("lang", "en_US")
	req.Header.Set("Accept-Encoding", "gzip") // as a browser asks
	res, err := a.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || !strings.HasPrefix(ct, "text/event-stream") || res.Header.Get("Content-Encoding") != "" {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("HTTP %d %s %q: %s", res.StatusCode, ct, res.Header.Get("Content-Encoding"), b)
	}
	sc := bufio.NewScanner(res.Body)
	var ev sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			ev = sseEvent{name: strings.TrimPrefix(line, "event: ")}
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.data); err != nil {
				t.Fatalf("event data %q: %v", line, err)
			}
		case line == "":
			each(ev)
		}
	}
}

func TestAdviceQuestion(t *testing.T) {
	// A model server speaking the chat-completions stream: its first piece,
	// then nothing more until the test has seen that piece arrive.
	proceed := make(chan struct{})
	var asked map[string]any
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		if sent, _ := json.Marshal(body["messages"]); strings.Contains(string(sent), "Frost tonight?") {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, `{"error":{"message":"model overloaded","type":"server_error"}}`)
			return
		}
		asked = body
		w.Header().Set("Content-Type", "text/event-stream")
		piece := func(s string) {
			b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]string{"content": s}}}})
			fmt.Fprintf(w, "data: %s\n\n", b)
			w.(http.Flusher).Flush()
		}
		piece("Irrigate ")
		<-proceed
		piece("**today**:\n```json\n{\"mm\": 41}\n```\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(model.Close)

	cfg := serveConfig(t)
	cfg.LLMURL, cfg.LLMModel = model.URL+"/v1", "field-model"
	m := start(t, cfg)
	<-m.DemoLoaded()
	owner := loginAPI(t, m.URL())
	probe := owner.devicesOfType(2)[0]
	q := fmt.Sprintf(`{"id":%d,"question":"Should I irrigate?"}`, probe.ID)

	var got []sseEvent
	askFarm(t, owner, q, func(e sseEvent) {
		got = append(got, e)
		if e.name == "delta" && len(got) == 2 {
			close(proceed) // the first piece arrived while the model was still answering
		}
	})
	var text strings.Builder
	for _, e := range got[1 : len(got)-1] {
		text.WriteString(e.data["text"])
	}
	if len(got) < 4 || got[0].name != "meta" || got[0].data["source"] != "model" || got[0].data["model"] != "field-model" ||
		got[len(got)-1].name != "done" || text.String() != "Irrigate **today**:\n```json\n{\"mm\": 41}\n```\n" {
		t.Fatalf("events %+v", got)
	}
	sent, _ := json.Marshal(asked["messages"])
	if !strings.Contains(string(sent), "Should I irrigate?") || !strings.Contains(string(sent), probe.SN) {
		t.Errorf("the model was not given the farm's facts: %s", sent)
	}

	// A model that fails: an error event in the asker's language, no done.
	var last sseEvent
	askFarm(t, owner, fmt.Sprintf(`{"id":%d,"question":"Frost tonight?"}`, probe.ID), func(e sseEvent) { last = e })
	if last.name != "error" || last.data["key"] != "advice.llm.error" || !strings.Contains(last.data["message"], "model overloaded") ||
		!strings.HasPrefix(last.data["message"], "The model service answered with an error") {
		t.Fatalf("model failure: %+v", last)
	}

	// No model configured: the embedded advisor answers from the same facts.
	cfg3 := serveConfig(t)
	m3 := start(t, cfg3)
	<-m3.DemoLoaded()
	owner3 := loginAPI(t, m3.URL())
	var advisor []sseEvent
	askFarm(t, owner3, fmt.Sprintf(`{"id":%d,"question":"Should I irrigate?"}`, owner3.devicesOfType(2)[0].ID), func(e sseEvent) { advisor = append(advisor, e) })
	if len(advisor) < 3 || advisor[0].data["source"] != "advisor" || advisor[len(advisor)-1].name != "done" || advisor[1].data["text"] == "" {
		t.Fatalf("advisor: %+v", advisor)
	}

	// Bad input is a plain error naming the field, before any event.
	status, env := owner3.do("POST", "/apis/ai/farm/question", fmt.Sprintf(`{"id":%d,"question":"  "}`, owner3.devicesOfType(2)[0].ID), map[string]string{"lang": "en_US"})
	if status != 400 || env.Error == nil || env.Error.Field != "question" {
		t.Errorf("empty question: HTTP %d %+v", status, env)
	}
}
