package app_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func serveConfig(t *testing.T) config.Serve {
	c := config.DefaultServe()
	c.Data = t.TempDir()
	c.Log = config.Log{Format: "text", Level: "error"}
	c.Addr, c.MQTT = "127.0.0.1:0", "127.0.0.1:0"
	c.Demo, c.DemoDays = true, 1
	c.SessionTTL = time.Hour
	return c
}

func start(t *testing.T, cfg config.Serve) *app.Main {
	t.Helper()
	m := &app.Main{Config: cfg}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	return m
}

func login(t *testing.T, base string) int {
	t.Helper()
	res, err := http.Post(base+"/apis/account/login", "application/json",
		strings.NewReader(`{"accountNumber":"demo01","password":"demo123456"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func TestMain_DemoLogin(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		m := start(t, serveConfig(t))
		if got := login(t, m.URL()); got != 200 {
			t.Fatalf("demo login: HTTP %d", got)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		cfg := serveConfig(t)
		cfg.DB = storetest.DSN(t)
		m := start(t, cfg)
		if got := login(t, m.URL()); got != 200 {
			t.Fatalf("demo login: HTTP %d", got)
		}
	})
}

func TestMain_DemoSurvivesRestart(t *testing.T) {
	cfg := serveConfig(t)
	m := &app.Main{Config: cfg}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	m2 := start(t, cfg)
	if got := login(t, m2.URL()); got != 200 {
		t.Fatalf("login after restart: HTTP %d", got)
	}
}

func TestMain_ErrPortInUse(t *testing.T) {
	first := start(t, serveConfig(t))
	cfg := serveConfig(t)
	cfg.Addr = strings.TrimPrefix(first.URL(), "http://")
	err := (&app.Main{Config: cfg}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "--addr") || !strings.Contains(err.Error(), "already in use") {
		t.Fatalf("got %v", err)
	}
}

func TestMain_GracefulClose(t *testing.T) {
	m := &app.Main{Config: serveConfig(t)}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	base := m.URL()
	res, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(b), "ok") {
		t.Fatalf("healthz: %s", b)
	}
	if err := m.Close(context.Background()); err != nil {
		t.Fatalf("close: %v", err)
	}
	if err := <-m.Served(); err != nil {
		t.Fatalf("served: %v", err)
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Fatal("still serving after Close")
	}
}
