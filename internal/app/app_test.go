package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func serveConfig(t *testing.T) config.Serve {
	c := config.DefaultServe()
	c.Data = t.TempDir()
	c.Log = config.Log{Format: "text", Level: "error"}
	c.Addr, c.MQTT, c.MetricsAddr = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
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

// TestMain_ExportByMail runs the whole path with --smtp-url and --map-tiles:
// the worker started by Run mails a demo device's data.
func TestMain_ExportByMail(t *testing.T) {
	smtp, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	cfg := serveConfig(t)
	cfg.SMTPURL, cfg.MailFrom, cfg.MapTiles = smtp.URL(), "Fieldwatch <exports@fieldwatch.test>", "amap"
	m := start(t, cfg)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	call := func(method, path, body string, out any) {
		t.Helper()
		req, _ := http.NewRequest(method, m.URL()+path, strings.NewReader(body))
		req.Header.Set("lang", "en_US")
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var env struct {
			Code int
			Data json.RawMessage
		}
		if err := json.NewDecoder(res.Body).Decode(&env); err != nil || env.Code != 0 {
			t.Fatalf("%s %s: %d %v", method, path, env.Code, err)
		}
		if out != nil {
			if err := json.Unmarshal(env.Data, out); err != nil {
				t.Fatal(err)
			}
		}
	}
	call("POST", "/apis/account/login", `{"accountNumber":"demo01","password":"demo123456"}`, nil)
	var tiles struct{ Coords string }
	call("GET", "/apis/map/config", "", &tiles)
	if tiles.Coords != "gcj02" {
		t.Fatalf("map tiles: %+v", tiles)
	}
	var list struct{ List []struct{ ID int64 } }
	call("GET", "/apis/devices?typeId=6", "", &list)
	if len(list.List) == 0 {
		t.Fatal("no demo rain gauge")
	}
	now := time.Now()
	var task struct{ TaskID string }
	call("POST", fmt.Sprintf("/apis/poi/%d/datapoints/export", list.List[0].ID),
		fmt.Sprintf(`{"params":["rainfall"],"email":"farmer@example.com","begin":%d,"end":%d}`, now.Add(-6*time.Hour).UnixMilli(), now.UnixMilli()), &task)
	msg := <-smtp.C
	p, err := mailtest.Parse(msg.Data)
	if err != nil || len(p.Attachments) != 1 || !strings.HasSuffix(p.Attachments[0].Name, ".xlsx") {
		t.Fatalf("message: %+v %v", p, err)
	}
	for {
		var st struct{ Status string }
		call("GET", fmt.Sprintf("/apis/poi/%d/datapoints/export/%s", list.List[0].ID, task.TaskID), "", &st)
		if st.Status == "sent" {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}
