package app_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func fetch(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// /metrics is served on --metrics-addr, and on the application's port only
// to a caller with --metrics-token.
func TestMain_MetricsListener(t *testing.T) {
	cfg := ingestConfig(t)
	m := start(t, cfg)
	if code, body := fetch(t, m.MetricsURL()+"/metrics", ""); code != 200 || !strings.Contains(body, "go_goroutines") {
		t.Errorf("metrics listener: %d %.200s", code, body)
	}
	if code, body := fetch(t, m.URL()+"/metrics", ""); code != 404 || strings.Contains(body, "go_goroutines") {
		t.Errorf("app port without --metrics-token: %d %.200s", code, body)
	}
	if code, _ := fetch(t, m.MetricsURL()+"/apis/account/profile", ""); code != 404 {
		t.Errorf("the metrics listener serves only /metrics, got %d", code)
	}

	cfg = ingestConfig(t)
	cfg.MetricsAddr, cfg.MetricsToken = "", "0123456789abcdef0123"
	m = start(t, cfg)
	if m.MetricsURL() != "" {
		t.Errorf("no --metrics-addr, yet a listener at %s", m.MetricsURL())
	}
	for token, want := range map[string]int{"": 401, "0123456789abcdef012x": 401, "0123456789abcdef0123": 200} {
		if code, _ := fetch(t, m.URL()+"/metrics", token); code != want {
			t.Errorf("app port with token %q: %d, want %d", token, code, want)
		}
	}
}
