package config

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

func newServe(t *testing.T, args ...string) (*Serve, error) {
	t.Helper()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var s Serve
	BindServe(fs, &s)
	return &s, Parse(fs, args)
}

func TestParse_Defaults(t *testing.T) {
	s, err := newServe(t)
	if err != nil {
		t.Fatal(err)
	}
	if s.Addr != ":8080" || s.Data != "./data" || s.DB != "" || s.Demo || s.Format != "text" || s.SessionTTL != 7*24*time.Hour {
		t.Fatalf("defaults: %+v", s)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestParse_EnvAndFlagPrecedence(t *testing.T) {
	t.Setenv("FIELDWATCH_ADDR", "127.0.0.1:9000")
	t.Setenv("FIELDWATCH_DEMO", "true")
	t.Setenv("FIELDWATCH_LOG_FORMAT", "json")
	t.Setenv("FIELDWATCH_DATA", "/from/env")
	s, err := newServe(t, "--data", "/from/flag")
	if err != nil {
		t.Fatal(err)
	}
	if s.Addr != "127.0.0.1:9000" || !s.Demo || s.Format != "json" {
		t.Fatalf("env not applied: %+v", s)
	}
	if s.Data != "/from/flag" {
		t.Fatalf("flag should win over env, got %q", s.Data)
	}
}

func TestParse_BadEnvNamesTheVariable(t *testing.T) {
	t.Setenv("FIELDWATCH_SESSION_TTL", "forever")
	_, err := newServe(t)
	if err == nil || !strings.Contains(err.Error(), "FIELDWATCH_SESSION_TTL") {
		t.Fatalf("got %v", err)
	}
}

func TestServe_Validate(t *testing.T) {
	for name, args := range map[string][]string{
		"ErrLogFormat":    {"--log-format", "xml"},
		"ErrLogLevel":     {"--log-level", "loud"},
		"ErrTLSHalf":      {"--tls-cert", "c.pem"},
		"ErrSessionTTL":   {"--session-ttl", "5s"},
		"ErrMetricsAddr":  {"--metrics-addr", "9464"},
		"ErrMetricsToken": {"--metrics-token", "short"},
		"ErrMQTTQueue":    {"--mqtt-queue", "0"},
		"ErrMQTTBuffer":   {"--mqtt-buffer", "64"},
		"ErrMemoryLimit":  {"--memory-limit", "lots"},
		"ErrMemoryTiny":   {"--memory-limit", "1MiB"},
		"ErrDynSecAlone":  {"--mqtt-dynsec"},
		"ErrAuthAlone":    {"--mqtt-auth-token", "0123456789abcdef"},
		"ErrAuthShort":    {"--mqtt-broker", "tcp://fw:pw@broker:1883", "--mqtt-auth-token", "short"},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := newServe(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "--") {
				t.Fatalf("want an error naming the flag, got %v", err)
			}
		})
	}
}

func TestServe_MemoryLimit(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	for _, c := range []struct {
		flag string
		want int64
	}{
		{"150MiB", 150 << 20},
		{"1GB", 1e9},
		{"off", 0},
		{"auto", AutoMemoryLimit()},
	} {
		s, err := newServe(t, "--memory-limit", c.flag)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.MemoryLimitBytes(); err != nil || got != c.want {
			t.Errorf("--memory-limit %s: %d, %v; want %d", c.flag, got, err, c.want)
		}
	}
	// This machine's memory is known: auto is three quarters of it (or of a cgroup's limit).
	if auto := AutoMemoryLimit(); auto <= 0 || auto > memTotal() {
		t.Errorf("auto %d of %d", auto, memTotal())
	}
	// GOMEMLIMIT, when set, is the runtime's already: auto leaves it.
	t.Setenv("GOMEMLIMIT", "200MiB")
	s, _ := newServe(t)
	if got, err := s.MemoryLimitBytes(); err != nil || got != 0 {
		t.Errorf("auto under GOMEMLIMIT: %d, %v", got, err)
	}
}

func TestParse_Metrics(t *testing.T) {
	s, err := newServe(t)
	if err != nil || s.MetricsAddr != "" || s.MetricsToken != "" {
		t.Fatalf("defaults: %v %+v", err, s)
	}
	t.Setenv("FIELDWATCH_METRICS_TOKEN", "0123456789abcdef")
	s, err = newServe(t, "--metrics-addr", "127.0.0.1:9464")
	if err != nil || s.MetricsAddr != "127.0.0.1:9464" || s.MetricsToken != "0123456789abcdef" {
		t.Fatalf("flags: %v %+v", err, s)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestParse_DeviceLinkAndRetention(t *testing.T) {
	s, err := newServe(t)
	if err != nil {
		t.Fatal(err)
	}
	if s.MQTT != ":1883" || s.RetentionRaw != 400*24*time.Hour || s.DemoInterval != time.Minute || s.DemoDays != 30 || s.Timezone != "Asia/Shanghai" {
		t.Fatalf("defaults: %+v", s)
	}
	t.Setenv("FIELDWATCH_RETENTION_RAW", "30d")
	s, err = newServe(t, "--mqtt", "off")
	if err != nil || s.RetentionRaw != 30*24*time.Hour || s.MQTT != "off" {
		t.Fatalf("env retention: %v %+v", err, s)
	}
	if s, err = newServe(t, "--retention-raw", "9600h"); err != nil || s.RetentionRaw != 400*24*time.Hour {
		t.Fatalf("hours: %v %+v", err, s)
	}
	for _, bad := range [][]string{{"--retention-raw", "12h"}, {"--retention-raw", "x d"}, {"--retention-raw", "-3d"}} {
		if _, err := newServe(t, bad...); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--timezone", "Mars/Olympus"}, "--timezone"},
		{[]string{"--demo", "--mqtt-broker", "tcp://127.0.0.1:1883"}, "--mqtt-broker"},
		{[]string{"--demo", "--mqtt", "off"}, "--mqtt off"},
		{[]string{"--demo-interval", "10ms"}, "--demo-interval"},
		{[]string{"--demo-days", "500"}, "--demo-days"},
	} {
		s, err := newServe(t, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v", c.args, err)
		}
	}
}

func TestParse_MailAndMapTiles(t *testing.T) {
	s, err := newServe(t)
	if err != nil {
		t.Fatal(err)
	}
	if s.SMTPURL != "" || s.MailFrom != "Fieldwatch <noreply@localhost>" || s.MapTiles != "osm" {
		t.Fatalf("defaults: %+v", s)
	}
	t.Setenv("FIELDWATCH_SMTP_URL", "smtps://exports:s3cret@smtp.example.com")
	t.Setenv("FIELDWATCH_MAIL_FROM", "东坡农场 <data@farm.example>")
	t.Setenv("FIELDWATCH_MAP_TILES", "amap")
	s, err = newServe(t, "--map-tiles", "gcj02:https://t{s}.example.cn/{z}/{x}/{y}.png")
	if err != nil {
		t.Fatal(err)
	}
	if s.SMTPURL != "smtps://exports:s3cret@smtp.example.com" || s.MailFrom != "东坡农场 <data@farm.example>" ||
		s.MapTiles != "gcj02:https://t{s}.example.cn/{z}/{x}/{y}.png" {
		t.Fatalf("env and flags: %+v", s)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--smtp-url", "mail.example.com:25"}, "--smtp-url"},
		{[]string{"--smtp-url", "smtp://host?starttls=maybe"}, "--smtp-url"},
		{[]string{"--mail-from", "nobody"}, "--mail-from"},
		{[]string{"--feedback-mail", "nobody"}, "--feedback-mail"},
		{[]string{"--map-tiles", "google"}, "--map-tiles"},
		{[]string{"--map-tiles", "https://tiles.example.com/{x}/{y}.png"}, "--map-tiles"},
	} {
		s, err := newServe(t, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v", c.args, err)
		}
	}
	s, _ = newServe(t, "--smtp-url", "smtp://exports:hunter2@host:0")
	if err := s.Validate(); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("a bad --smtp-url shows its password: %v", err)
	}
	if s, _ = newServe(t, "--feedback-mail", "运维 <ops@farm.example>"); s.Validate() != nil || s.FeedbackMail != "运维 <ops@farm.example>" {
		t.Errorf("--feedback-mail with --smtp-url: %+v %v", s.FeedbackMail, s.Validate())
	}
	t.Setenv("FIELDWATCH_SMTP_URL", "")
	if s, _ = newServe(t, "--feedback-mail", "ops@farm.example"); s.Validate() == nil || !strings.Contains(s.Validate().Error(), "needs --smtp-url") {
		t.Errorf("--feedback-mail without --smtp-url: %v", s.Validate())
	}
}

func TestParse_PushRetries(t *testing.T) {
	s, err := newServe(t)
	if err != nil || s.PushRetries != nil || s.PushAllowPrivate {
		t.Fatalf("defaults: %v %+v", err, s)
	}
	s, err = newServe(t, "--push-retries", "500ms, 2s,1m", "--push-allow-private")
	if err != nil || len(s.PushRetries) != 3 || s.PushRetries[0] != 500*time.Millisecond || s.PushRetries[2] != time.Minute || !s.PushAllowPrivate {
		t.Fatalf("parsed: %v %+v", err, s.PushRetries)
	}
	for _, bad := range []string{"", "1s,", "soon", "-1s", "0s"} {
		if _, err := newServe(t, "--push-retries", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParse_TrustedProxies(t *testing.T) {
	s, err := newServe(t)
	if err != nil || s.TrustedProxies != nil || s.TrustProxy {
		t.Fatalf("defaults: %v %+v", err, s.TrustedProxies)
	}
	t.Setenv("FIELDWATCH_TRUSTED_PROXIES", "10.0.0.0/8, 192.168.1.7,fd00::1/64, ::ffff:172.16.0.1")
	s, err = newServe(t, "--trust-proxy")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.TrustedProxies {
		got = append(got, p.String())
	}
	if strings.Join(got, " ") != "10.0.0.0/8 192.168.1.7/32 fd00::/64 172.16.0.1/32" {
		t.Fatalf("parsed: %v", got)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", ",", "10.0.0.0/33", "proxy.local", "10.0.0.1-10.0.0.9"} {
		if _, err := newServe(t, "--trusted-proxies", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	t.Setenv("FIELDWATCH_TRUSTED_PROXIES", "")
	s, err = newServe(t, "--trusted-proxies", "10.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "--trust-proxy") {
		t.Fatalf("--trusted-proxies without --trust-proxy: %v", err)
	}
}
