package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/demo"
)

func serve(args []string, stderr io.Writer) error {
	fs := newFlags("serve [flags]", "Runs the web console and API until interrupted (SIGINT or SIGTERM). SIGHUP reloads the TLS certificates (they also reload when their files change).", stderr)
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
	if limit, _ := cfg.MemoryLimitBytes(); limit > 0 {
		debug.SetMemoryLimit(limit)
		m.Log.Info("memory limit", "bytes", limit, "flag", cfg.MemoryLimit)
	}
	if err := m.Run(ctx); err != nil {
		return err
	}
	if cfg.Demo {
		fmt.Fprintf(stderr, "\n  Fieldwatch is running at %s\n  Demo login: %s / %s\n\n", m.URL(), demo.Account, demo.Password)
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	var served error
wait:
	for {
		select {
		case <-hup:
			if err := m.ReloadTLS(); err != nil {
				m.Log.Error("reload TLS certificates; the old ones still serve", "err", err)
			} else {
				m.Log.Info("reloaded TLS certificates")
			}
		case <-ctx.Done():
			if d := cfg.ShutdownDelay; d > 0 && m.Graph != nil {
				stop() // a second signal ends the process at once
				m.Graph.Drain()
				m.Log.Info("draining", "for", d.String())
				time.Sleep(d)
			}
			m.Log.Info("shutting down")
			break wait
		case served = <-m.Served():
			break wait
		}
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	return errors.Join(served, m.Close(shutdown))
}
