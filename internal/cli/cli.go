// Package cli is the fieldwatch command line: one file per subcommand
// (serve, migrate, user, feedback, device, simulate, storage, bench, routes, calc, version),
// dispatched by Run. cmd/fieldwatch only calls Run.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	_ "time/tzdata" // daily rollups need the configured zone even where the system has no zoneinfo

	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

const usage = `fieldwatch — the Fieldwatch field-device console in one binary.

Usage:
  fieldwatch <command> [flags]

Commands:
  serve      run the web console and API (SQLite under --data by default)
  migrate    apply pending database migrations and exit
  user add   create an account (user list, user disable, user enable: manage them)
  feedback   list the feedback users sent (feedback list [--open], feedback show ID) and
             answer it (feedback answer ID "text")
  device     add a device and print its key and label (device add; without --owner it waits
             to be bound from its label), print a label again (device label), set its state
             (device state), make it reachable only through the open API (device api-only)
  simulate   run a simulated device fleet against an MQTT broker
  storage    the raw readings' storage: storage stats (rows, bytes a reading), storage compact
             (move old readings into chunks now, with progress; resumable)
  bench      measure ingest throughput, alert latency, data-push delivery, command round trip, memory per connection, ingest with several nodes (bench ingest|alerts|push|commands|connections|cluster)
  routes     print every HTTP route as "METHOD /path", sorted
  calc       agronomy and hazard calculators: ET0, FWI, coordinates, wind, AQI, rain
  version    print the version

Every flag can also be set in the environment as FIELDWATCH_<FLAG>, with
dashes as underscores (e.g. FIELDWATCH_ADDR, FIELDWATCH_LOG_FORMAT).
Run "fieldwatch <command> --help" for a command's flags.
`

// Run runs fieldwatch with args (the words after the program name) and
// returns the exit status: 0, 1 after an error, 2 after a usage mistake.
// version is what "fieldwatch version" prints.
func Run(version string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
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
	case "feedback":
		err = feedbackCmd(rest, stdout, stderr)
	case "simulate":
		err = simulate(rest, stdout, stderr)
	case "storage":
		err = storageCmd(rest, stdout, stderr)
	case "bench":
		err = benchmark(rest, stdout, stderr)
	case "routes":
		err = routes(rest, stdout, stderr)
	case "calc":
		err = calc(rest, stdin, stdout, stderr)
	case "version":
		err = printVersion(version, rest, stdout, stderr)
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

// subcommand runs the command of a group (user, feedback, storage) that
// args[0] names: help prints usage to stdout; none, or one not in cmds,
// prints it to stderr and is a usage error.
func subcommand(usage string, args []string, stdout, stderr io.Writer, cmds map[string]func() error) error {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
			fmt.Fprint(stdout, usage)
			return nil
		}
		if run, ok := cmds[args[0]]; ok {
			return run()
		}
	}
	fmt.Fprint(stderr, usage)
	return errUsage
}
