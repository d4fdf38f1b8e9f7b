// Package config holds the typed options of every subcommand. Each flag can
// also be set in the environment as FIELDWATCH_<NAME> (dashes become
// underscores); a flag on the command line wins over the environment.
package config

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

// EnvPrefix starts the environment name of every option.
const EnvPrefix = "FIELDWATCH_"

// Store selects the database.
type Store struct {
	Data string // directory for the SQLite file and other local data
	DB   string // a postgres:// URL switches to PostgreSQL
}

// Serve is the configuration of `fieldwatch serve`.
type Serve struct {
	Store
	Log
	Addr       string
	Demo       bool
	TrustProxy bool
	TLSCert    string
	TLSKey     string
	SessionTTL time.Duration
}

// Log configures logging.
type Log struct {
	Format string // text or json
	Level  string // debug, info, warn, error
}

// BindStore registers the store flags.
func BindStore(fs *flag.FlagSet, s *Store) {
	fs.StringVar(&s.Data, "data", "./data", "directory for the SQLite database and local data")
	fs.StringVar(&s.DB, "db", "", "PostgreSQL URL (postgres://user:pass@host:5432/db); empty uses SQLite under --data")
}

// BindLog registers the logging flags.
func BindLog(fs *flag.FlagSet, l *Log) {
	fs.StringVar(&l.Format, "log-format", "text", "log format: text or json")
	fs.StringVar(&l.Level, "log-level", "info", "log level: debug, info, warn or error")
}

// BindServe registers every serve flag.
func BindServe(fs *flag.FlagSet, s *Serve) {
	BindStore(fs, &s.Store)
	BindLog(fs, &s.Log)
	fs.StringVar(&s.Addr, "addr", ":8080", "HTTP listen address")
	fs.BoolVar(&s.Demo, "demo", false, "create the demo account demo01 (password demo123456) if absent")
	fs.BoolVar(&s.TrustProxy, "trust-proxy", false, "trust X-Forwarded-For and X-Forwarded-Proto from a reverse proxy")
	fs.StringVar(&s.TLSCert, "tls-cert", "", "TLS certificate file; with --tls-key serves HTTPS")
	fs.StringVar(&s.TLSKey, "tls-key", "", "TLS private key file")
	fs.DurationVar(&s.SessionTTL, "session-ttl", 7*24*time.Hour, "a login session unused for this long expires")
}

// Validate checks values the flag package cannot.
func (s *Serve) Validate() error {
	if err := s.Log.Validate(); err != nil {
		return err
	}
	if (s.TLSCert == "") != (s.TLSKey == "") {
		return fmt.Errorf("--tls-cert and --tls-key must be given together")
	}
	if s.SessionTTL < time.Minute {
		return fmt.Errorf("--session-ttl %s: must be at least 1m", s.SessionTTL)
	}
	return nil
}

// Validate checks the log options.
func (l *Log) Validate() error {
	switch l.Format {
	case "text", "json":
	default:
		return fmt.Errorf("--log-format %q: must be text or json", l.Format)
	}
	switch l.Level {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("--log-level %q: must be debug, info, warn or error", l.Level)
	}
	return nil
}

// EnvName is the environment variable for a flag.
func EnvName(flagName string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// Parse parses args, then fills every flag not given on the command line from
// its environment variable. Each flag's usage is extended with that name.
func Parse(fs *flag.FlagSet, args []string) error {
	fs.VisitAll(func(f *flag.Flag) { f.Usage += " (env " + EnvName(f.Name) + ")" })
	if err := fs.Parse(args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if set[f.Name] || err != nil {
			return
		}
		if v, ok := os.LookupEnv(EnvName(f.Name)); ok {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %v", EnvName(f.Name), v, e)
			}
		}
	})
	return err
}
