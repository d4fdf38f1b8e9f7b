package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run("dev", args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestRoutes(t *testing.T) {
	code, out, _ := runCmd(t, "", "routes")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, want := range []string{"POST /apis/account/login", "GET /apis/account/profile", "PUT /apis/account/password"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("routes lack %q", want)
		}
	}
	for i := 1; i < len(lines); i++ {
		if lines[i-1] >= lines[i] {
			t.Errorf("not sorted: %q then %q", lines[i-1], lines[i])
		}
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := runCmd(t, "", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, cmd := range []string{"serve", "migrate", "user add", "feedback", "routes", "version", "FIELDWATCH_"} {
		if !strings.Contains(out, cmd) {
			t.Errorf("help lacks %q", cmd)
		}
	}
	code, _, errOut := runCmd(t, "", "serve", "--help")
	if code != 0 {
		t.Fatalf("serve --help exit %d", code)
	}
	for _, flag := range []string{"-addr", "-data", "-db", "-demo", "-log-format", "-trust-proxy", "-trusted-proxies", "FIELDWATCH_TRUSTED_PROXIES", "FIELDWATCH_ADDR",
		"-smtp-url", "FIELDWATCH_SMTP_URL", "-mail-from", "-feedback-mail", "FIELDWATCH_FEEDBACK_MAIL", "-map-tiles", "FIELDWATCH_MAP_TILES"} {
		if !strings.Contains(errOut, flag) {
			t.Errorf("serve help lacks %q", flag)
		}
	}
	if code, _, _ := runCmd(t, "", "frobnicate"); code != 2 {
		t.Errorf("unknown command exit %d, want 2", code)
	}
	if code, _, _ := runCmd(t, "", "serve", "--no-such-flag"); code != 2 {
		t.Errorf("unknown flag exit %d, want 2", code)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCmd(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "fieldwatch ") || !strings.Contains(out, "go1.") {
		t.Fatalf("%d %q", code, out)
	}
}

func TestUserAdd(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCmd(t, "", "user", "add", "--data", dir, "--account", "farmer01", "--name", "东坡农场", "--password", "secret1")
	if code != 0 || !strings.Contains(out, "created account farmer01") {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	t.Setenv("LANG", "C.UTF-8")
	for name, tc := range map[string]struct {
		stdin string
		args  []string
		want  string
	}{
		"ErrDuplicate":        {"", []string{"--account", "FARMER01", "--password", "secret1"}, "already in use"},
		"ErrShortNumber":      {"", []string{"--account", "abc", "--password", "secret1"}, "Account number must be at least 6 characters"},
		"ErrShortPassword":    {"", []string{"--account", "farmer02", "--password", "12345"}, "Password must be at least 6 characters"},
		"ErrShortStdinPasswd": {"123\n", []string{"--account", "farmer02"}, "Password must be at least 6 characters"},
		"ErrNoPassword":       {"", []string{"--account", "farmer02"}, "no password"},
	} {
		t.Run(name, func(t *testing.T) {
			code, _, errOut := runCmd(t, tc.stdin, append([]string{"user", "add", "--data", dir}, tc.args...)...)
			if code != 1 || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, stderr %q; want %q", code, errOut, tc.want)
			}
		})
	}
	t.Run("PasswordFromStdin", func(t *testing.T) {
		code, _, errOut := runCmd(t, "secret9\n", "user", "add", "--data", dir, "--account", "farmer03")
		if code != 0 {
			t.Fatalf("%d %q", code, errOut)
		}
	})
	t.Run("ChineseWhenLANGSaysSo", func(t *testing.T) {
		t.Setenv("LANG", "zh_TW.UTF-8")
		_, _, errOut := runCmd(t, "", "user", "add", "--data", dir, "--account", "abc", "--password", "secret1")
		if !strings.Contains(errOut, "帳號至少 6 位") {
			t.Fatalf("%q", errOut)
		}
	})
}

func TestMigrate(t *testing.T) {
	code, out, errOut := runCmd(t, "", "migrate", "--data", t.TempDir())
	if code != 0 || !strings.Contains(out, "sqlite schema at version") {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	code, _, errOut = runCmd(t, "", "migrate", "--db", "mysql://x")
	if code != 1 || !strings.Contains(errOut, "unsupported database URL") {
		t.Fatalf("%d %q", code, errOut)
	}
}

// TestMain lets the test binary stand in for the fieldwatch binary: run with
// FIELDWATCH_AS_MAIN=1, it is Run with the arguments after "--", as main is.
func TestMain(m *testing.M) {
	if os.Getenv("FIELDWATCH_AS_MAIN") == "1" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		os.Exit(Run("dev", args, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestServe_SignalShutdown runs fieldwatch serve as its own process (the test
// binary standing in for it) and stops it with SIGTERM.
func TestServe_SignalShutdown(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "serve", "--addr", "127.0.0.1:0", "--mqtt", "127.0.0.1:0", "--data", t.TempDir(), "--log-format", "json")
	cmd.Env = append(os.Environ(), "FIELDWATCH_AS_MAIN=1")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(pipe)
	var log strings.Builder
	// Wait for the listening line, then signal.
	for lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		if strings.Contains(lines.Text(), `"msg":"listening"`) {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
		log.WriteString(lines.Text() + "\n")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), `"msg":"shutting down"`) {
		t.Errorf("no shutdown log: %s", log.String())
	}
}

// TestServe_ShutdownDelay: with --shutdown-delay a SIGTERM first makes
// /readyz answer 503 ("draining") while the node goes on serving, then the
// node stops as usual.
func TestServe_ShutdownDelay(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "serve", "--addr", "127.0.0.1:0", "--mqtt", "127.0.0.1:0", "--data", t.TempDir(),
		"--log-format", "json", "--shutdown-delay", "3s")
	cmd.Env = append(os.Environ(), "FIELDWATCH_AS_MAIN=1")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := bufio.NewScanner(pipe)
	var log strings.Builder
	var base string
	for base == "" && lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		var l struct{ Msg, URL string }
		if json.Unmarshal(lines.Bytes(), &l) == nil && l.Msg == "listening" {
			base = l.URL
		}
	}
	if base == "" {
		t.Fatalf("no listening line: %s", log.String())
	}
	status := func(path string) (int, string) {
		res, err := http.Get(base + path)
		if err != nil {
			return 0, err.Error()
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := status("/readyz"); code != 200 {
		t.Fatalf("ready before the signal: %d %s", code, body)
	}
	rest := make(chan string)
	go func() {
		var b strings.Builder
		for lines.Scan() {
			b.WriteString(lines.Text() + "\n")
		}
		rest <- b.String()
	}()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Draining: not ready, still alive and serving.
	for {
		code, body := status("/readyz")
		if code == 503 {
			if !strings.Contains(body, `"shutdown":"draining`) {
				t.Fatalf("draining: %s", body)
			}
			break
		}
		if code != 200 {
			t.Fatalf("the node stopped serving before it drained: %d %s", code, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code, body := status("/healthz"); code != 200 {
		t.Fatalf("alive while draining: %d %s", code, body)
	}
	log.WriteString(<-rest)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, log.String())
	}
	out := log.String()
	if d, s := strings.Index(out, `"msg":"draining"`), strings.Index(out, `"msg":"shutting down"`); d < 0 || s < d {
		t.Errorf("want draining, then shutting down: %s", out)
	}
}

func TestUserListDisable(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LANG", "C.UTF-8")
	code, _, errOut := runCmd(t, "", "user", "add", "--data", dir, "--account", "farmer01", "--password", "secret1",
		"--mail", "farm@example.com", "--phone", "+86 138 0013 8000")
	if code != 0 {
		t.Fatalf("%d %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "", "user", "add", "--data", dir, "--account", "farmer02", "--password", "secret1", "--mail", "farm@")
	if code != 1 || !strings.Contains(errOut, "Please enter a valid email address") {
		t.Fatalf("bad mail: %d %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "", "user", "add", "--data", dir, "--account", "farmer02", "--password", "secret1", "--phone", "12345")
	if code != 1 || !strings.Contains(errOut, "11-digit mobile number") {
		t.Fatalf("bad phone: %d %q", code, errOut)
	}
	code, out, _ := runCmd(t, "", "user", "list", "--data", dir)
	if code != 0 || !strings.Contains(out, "farm@example.com") || !strings.Contains(out, "13800138000") || !strings.Contains(out, "active") || strings.Contains(out, "farmer02") {
		t.Fatalf("list: %q", out)
	}
	if code, out, errOut := runCmd(t, "", "user", "disable", "--data", dir, "--account", "FARMER01"); code != 0 || !strings.Contains(out, "disabled account farmer01") {
		t.Fatalf("disable: %d %q %q", code, out, errOut)
	}
	if _, out, _ := runCmd(t, "", "user", "list", "--data", dir); !strings.Contains(out, "disabled 20") {
		t.Fatalf("list after disable: %q", out)
	}
	if code, _, errOut := runCmd(t, "", "user", "disable", "--data", dir, "--account", "nobody01"); code != 1 || !strings.Contains(errOut, "nobody01") {
		t.Fatalf("unknown: %d %q", code, errOut)
	}
	if code, _, _ := runCmd(t, "", "user", "disable", "--data", dir); code != 2 {
		t.Fatalf("no --account: exit %d", code)
	}
	if code, out, _ := runCmd(t, "", "user", "enable", "--data", dir, "--account", "farmer01"); code != 0 || !strings.Contains(out, "enabled account farmer01") {
		t.Fatalf("enable: %d %q", code, out)
	}
}
