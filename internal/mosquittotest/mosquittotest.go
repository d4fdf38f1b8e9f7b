// Package mosquittotest starts a private Mosquitto for a test: on a free
// loopback port, with its conf, state and log in the test's temporary
// directory, killed when the test ends. Without Mosquitto (Debian's
// mosquitto package) the test is skipped; with CI=true it fails instead, so
// the test cannot silently go dark.
package mosquittotest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Options shape the broker.
type Options struct {
	// Conf is extra mosquitto.conf lines, written after the package's own
	// (listener, allow_anonymous, persistence false, user root, log_dest).
	Conf []string
	// DynSec loads the dynamic-security plugin with a fresh state whose
	// admin client is AdminUser / AdminPassword (default admin / adminpass),
	// and refuses anonymous clients. Without the plugin or mosquitto_ctrl
	// the test is skipped (fails with CI=true).
	DynSec        bool
	AdminUser     string
	AdminPassword string
}

// Broker is a running Mosquitto.
type Broker struct {
	Port    int
	Dir     string // its conf, dynamic-security state and log
	LogFile string

	ctrl, user, password string
}

// Addr is the broker's host:port.
func (b *Broker) Addr() string { return fmt.Sprintf("127.0.0.1:%d", b.Port) }

// URL is the broker's tcp:// URL, without credentials.
func (b *Broker) URL() string { return "tcp://" + b.Addr() }

// Start starts a Mosquitto and waits until it accepts TCP connections. It
// is killed in t.Cleanup, and its log is written to the test's output when
// the test failed.
func Start(t testing.TB, o Options) *Broker {
	t.Helper()
	bin := find("mosquitto", "/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")
	if bin == "" {
		missing(t, "CI=true requires Mosquitto (Debian's mosquitto package)", "no mosquitto")
	}
	b := &Broker{Dir: t.TempDir()}
	b.LogFile = filepath.Join(b.Dir, "mosquitto.log")
	var conf []string
	if o.DynSec {
		plugins, _ := filepath.Glob("/usr/lib/*/mosquitto_dynamic_security.so")
		b.ctrl = find("mosquitto_ctrl", "/usr/bin/mosquitto_ctrl", "/usr/local/bin/mosquitto_ctrl")
		if len(plugins) == 0 || b.ctrl == "" {
			missing(t, "CI=true requires Mosquitto with its dynamic-security plugin (Debian's mosquitto package)",
				"no mosquitto with the dynamic-security plugin")
		}
		b.user, b.password = o.AdminUser, o.AdminPassword
		if b.user == "" {
			b.user = "admin"
		}
		if b.password == "" {
			b.password = "adminpass"
		}
		state := filepath.Join(b.Dir, "dynsec.json")
		if out, code := run(t, b.ctrl, "dynsec", "init", state, b.user, b.password); code != 0 {
			t.Fatalf("mosquitto_ctrl dynsec init: %s", out)
		}
		conf = append(conf, "allow_anonymous false", "plugin "+plugins[0], "plugin_opt_config_file "+state)
	} else {
		conf = append(conf, "allow_anonymous true")
	}
	b.Port = freePort(t)
	// user root: run as root, Mosquitto would otherwise switch to the
	// mosquitto user, who cannot read or write the test's directory.
	conf = append([]string{fmt.Sprintf("listener %d 127.0.0.1", b.Port)}, conf...)
	conf = append(conf, "persistence false", "user root", "log_dest file "+b.LogFile)
	conf = append(conf, o.Conf...)
	path := filepath.Join(b.Dir, "mosquitto.conf")
	if err := os.WriteFile(path, []byte(strings.Join(conf, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	// What it says before its log is open (a bad conf line) goes here.
	stderr, err := os.Create(filepath.Join(b.Dir, "mosquitto.stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	cmd := exec.Command(bin, "-c", path)
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		if t.Failed() {
			b.logOutput(t)
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", b.Addr(), time.Second); err == nil {
			c.Close()
			return b
		}
		select {
		case <-exited:
			t.Fatalf("mosquitto exited before it listened on %d: %v", b.Port, cmd.ProcessState)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("mosquitto did not listen on %d", b.Port)
		}
	}
}

// Ctl runs mosquitto_ctrl's dynsec command on the broker as its admin,
// retried for 10 s while it fails (as it does while the broker starts).
// mosquitto_ctrl exits 0 on some refusals, so a 0 is not proof the
// command took effect. Only with Options.DynSec.
func (b *Broker) Ctl(t testing.TB, args ...string) {
	t.Helper()
	if b.ctrl == "" {
		t.Fatal("mosquittotest: Ctl on a broker started without DynSec")
	}
	full := append([]string{"-h", "127.0.0.1", "-p", fmt.Sprint(b.Port), "-u", b.user, "-P", b.password, "dynsec"}, args...)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		out, code := run(t, b.ctrl, full...)
		if code == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("mosquitto_ctrl dynsec %s: %s", strings.Join(args, " "), out)
		}
	}
}

// logOutput writes the broker's log (and anything it wrote before the log
// was open) to the test's output.
func (b *Broker) logOutput(t testing.TB) {
	if out, _ := os.ReadFile(filepath.Join(b.Dir, "mosquitto.stderr")); len(out) > 0 {
		t.Logf("mosquitto's output:\n%s", out)
	}
	log, _ := os.ReadFile(b.LogFile)
	t.Logf("mosquitto's log:\n%s", log)
}

// missing skips the test, or fails it with CI=true.
func missing(t testing.TB, ci, skip string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(ci)
	}
	t.Skip(skip)
}

// find looks name up in PATH, then at the given places; "" when absent.
func find(name string, places ...string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, p := range places {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

// freePort is a loopback port no one listened on a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// run runs a command and returns its combined output and exit code. The
// timeout only keeps a hung client from hanging the test.
func run(t testing.TB, name string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	default:
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		return "", -1
	}
}
