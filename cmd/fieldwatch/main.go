// Command fieldwatch is the Fieldwatch console: HTTP API, web app and store in one binary.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // daily rollups need the configured zone even where the system has no zoneinfo

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/httpapi"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

const usage = `fieldwatch — the Fieldwatch field-device console in one binary.

Usage:
  fieldwatch <command> [flags]

Commands:
  serve      run the web console and API (SQLite under --data by default)
  migrate    apply pending database migrations and exit
  user add   create an account
  device     add a device and print its key (device add), set its state (device state),
             make it reachable only through the open API (device api-only)
  simulate   run a simulated device fleet against an MQTT broker
  bench      measure ingest throughput, alert latency, data-push delivery (bench ingest|alerts|push)
  routes     print every HTTP route as "METHOD /path", sorted
  calc       agronomy and hazard calculators: ET0, FWI, coordinates, wind, AQI, rain
  version    print the version

Every flag can also be set in the environment as FIELDWATCH_<FLAG>, with
dashes as underscores (e.g. FIELDWATCH_ADDR, FIELDWATCH_LOG_FORMAT).
Run "fieldwatch <command> --help" for a command's flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "serve":
		err = serve(rest, stderr)
	case "migrate":
		err = migrate(rest, stdout, stderr)
	case "user":
		err = user(rest, stdin, stdout, stderr)
	case "device":
		err = device(rest, stdout, stderr)
	case "simulate":
		err = simulate(rest, stdout, stderr)
	case "bench":
		err = benchCmd(rest, stdout, stderr)
	case "routes":
		err = routes(rest, stdout, stderr)
	case "calc":
		err = calc(rest, stdin, stdout, stderr)
	case "version":
		err = printVersion(rest, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "fieldwatch: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	fmt.Fprintf(stderr, "fieldwatch: %s\n", describe(err))
	return 1
}

// errUsage means the flag package already told the user what was wrong.
var errUsage = errors.New("usage")

func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: fieldwatch %s\n\n%s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := config.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		if !strings.HasPrefix(err.Error(), config.EnvPrefix) {
			return errUsage // the flag package printed the error and usage
		}
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		fs.Usage()
		return errUsage
	}
	return nil
}

// describe renders an error for a terminal: application errors in English
// (or Chinese when LANG asks for it), others as they are.
func describe(err error) string {
	e := errs.As(err)
	if e == nil || e.Kind == errs.EInternal {
		return err.Error()
	}
	lang := i18n.EnUS
	if strings.HasPrefix(os.Getenv("LANG"), "zh") {
		lang = i18n.Parse(os.Getenv("LANG"))
	}
	return i18n.Message(lang, e.Code, e.Field, e.Params)
}

func serve(args []string, stderr io.Writer) error {
	fs := newFlags("serve [flags]", "Runs the web console and API until interrupted (SIGINT or SIGTERM).", stderr)
	var cfg config.Serve
	config.BindServe(fs, &cfg)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	m := &app.Main{Config: cfg, Log: app.NewLogger(cfg.Log, stderr)}
	if err := m.Run(ctx); err != nil {
		return err
	}
	if cfg.Demo {
		fmt.Fprintf(stderr, "\n  Fieldwatch is running at %s\n  Demo login: %s / %s\n\n", m.URL(), app.DemoAccount, app.DemoPassword)
	}
	var served error
	select {
	case <-ctx.Done():
		m.Log.Info("shutting down")
	case served = <-m.Served():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	return errors.Join(served, m.Close(shutdown))
}

func migrate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("migrate [flags]", "Applies pending database migrations and prints the schema version.", stderr)
	var cfg config.Store
	config.BindStore(fs, &cfg)
	if err := parse(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	v, err := db.Migrate(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s schema at version %d\n", db.Dialect(), v)
	return nil
}

func user(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "add" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprint(stdout, "Usage: fieldwatch user add [flags]\n\nRun \"fieldwatch user add --help\" for its flags.\n")
			return nil
		}
		fmt.Fprint(stderr, "Usage: fieldwatch user add [flags]\n")
		return errUsage
	}
	fs := newFlags("user add [flags]",
		"Creates an account. The password comes from --password, FIELDWATCH_PASSWORD,\nor else the first line of standard input.", stderr)
	var (
		cfg                    config.Store
		number, name, password string
	)
	config.BindStore(fs, &cfg)
	fs.StringVar(&number, "account", "", "account number: at least 6 letters or digits (required)")
	fs.StringVar(&name, "name", "", "display name, at most 16 characters (default: the account number)")
	fs.StringVar(&password, "password", "", "password, at least 6 characters")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if password == "" {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && line == "" {
			return errors.New("no password: give --password, FIELDWATCH_PASSWORD or a line on standard input")
		}
		password = strings.TrimRight(line, "\r\n")
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := app.NewAccounts(db).Create(ctx, number, password, name)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created account %s (%s)\n", a.AccountNumber, a.Name)
	return nil
}

func routes(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("routes", "Prints every HTTP route as \"METHOD /path\", one a line, sorted.", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	for _, r := range httpapi.New(httpapi.Options{}).Routes() {
		fmt.Fprintln(stdout, r)
	}
	return nil
}

func printVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", "Prints the version, the source revision and the Go version.", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	rev := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = s.Value[:12]
			}
		}
	}
	fmt.Fprintf(stdout, "fieldwatch %s (revision %s, %s)\n", version, rev, runtime.Version())
	return nil
}
