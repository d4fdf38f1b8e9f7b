package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/demo"
)

// Main is the running program: Run starts it, Close stops it. Tests start a
// real one on port 0 with a temporary data directory.
type Main struct {
	Config config.Serve
	Log    *slog.Logger
	*Graph // set by Run

	srv      *http.Server
	https    bool // srv serves TLS (--tls-cert or --acme-domain)
	ln       net.Listener
	served   chan error
	msrv     *http.Server // --metrics-addr
	mln      net.Listener
	mserved  chan error
	demo     *demo.Farm     // with --demo
	receiver *demo.Receiver // the demo's push receiver
	stopDemo context.CancelFunc
	demoDone chan struct{}
}

// Run binds the listener, builds the service graph, seeds the demo farm
// when asked and starts serving. It returns once the server accepts
// connections.
func (m *Main) Run(ctx context.Context) error {
	if err := m.Config.Validate(); err != nil {
		return err
	}
	if m.Log == nil {
		m.Log = slog.New(slog.DiscardHandler)
	}
	// Bind first: a busy port should fail at once, before any other work.
	ln, err := net.Listen("tcp", m.Config.Addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("--addr %s: the port is already in use; choose another with --addr", m.Config.Addr)
		}
		return fmt.Errorf("--addr %s: %w", m.Config.Addr, err)
	}
	m.ln = ln
	if m.Config.MetricsAddr != "" {
		mln, err := net.Listen("tcp", m.Config.MetricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("--metrics-addr %s: %w", m.Config.MetricsAddr, err)
		}
		m.mln = mln
	}

	o := Options{Config: m.Config, Log: m.Log}
	if m.Config.Demo {
		// The demo's push channel delivers to a receiver in this process;
		// the push guard allows its one loopback address.
		if m.receiver, err = demo.ListenReceiver(); err != nil {
			ln.Close()
			return fmt.Errorf("demo push receiver: %w", err)
		}
		o.PushAllow = append(o.PushAllow, m.receiver.Addr())
	}
	g, err := Build(ctx, o)
	if err != nil {
		ln.Close()
		if m.mln != nil {
			m.mln.Close()
		}
		if m.receiver != nil {
			m.receiver.Close()
		}
		return err
	}
	m.Graph = g
	if m.Config.Demo {
		m.demo = demo.New(demo.Options{Accounts: g.Accounts, Devices: g.Devices, Store: g.DB, Ingest: g.Ingest,
			Soil: g.Soil, Rules: g.Rules, Push: g.Push, OpenAPI: g.OpenAPI, Lab: g.DB, Receiver: m.receiver,
			Broker: g.MQTTAddr(), Days: m.Config.DemoDays, Interval: m.Config.DemoInterval, Location: m.loc, Log: m.Log})
		if err := m.demo.Seed(ctx); err != nil {
			m.Close(ctx)
			return fmt.Errorf("demo: %w", err)
		}
	}

	// Bodies and responses have deadlines per request (httpapi.Options):
	// a server-wide ReadTimeout or WriteTimeout would cut long downloads.
	m.srv = &http.Server{
		Handler:           m.HTTP,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(m.Log.Handler(), slog.LevelWarn),
	}
	if m.mln != nil {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", m.HTTP.MetricsHandler())
		m.msrv = &http.Server{
			Handler:           mux,
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       10 * time.Second,
			WriteTimeout:      30 * time.Second,
			IdleTimeout:       2 * time.Minute,
			ErrorLog:          slog.NewLogLogger(m.Log.Handler(), slog.LevelWarn),
		}
		m.mserved = make(chan error, 1)
		go func() {
			err := m.msrv.Serve(m.mln)
			if errors.Is(err, http.ErrServerClosed) {
				err = nil
			}
			m.mserved <- err
		}()
	}
	m.served = make(chan error, 1)
	// The pair is read per handshake from a reloader: a renewed
	// certificate serves without a restart.
	m.srv.TLSConfig = m.HTTPTLS()
	m.https = m.srv.TLSConfig != nil
	go func() {
		var err error
		if m.https {
			err = m.srv.ServeTLS(ln, "", "")
		} else {
			err = m.srv.Serve(ln)
		}
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		m.served <- err
	}()

	m.Graph.Start()
	if m.demo != nil {
		ctx, stop := context.WithCancel(context.Background())
		m.stopDemo, m.demoDone = stop, make(chan struct{})
		go func() {
			defer close(m.demoDone)
			m.demo.Run(ctx)
		}()
	}

	m.Log.Info("listening", "url", m.URL(), "store", string(m.DB.Dialect()), "demo", m.Config.Demo)
	return nil
}

// DemoLoaded is closed once the demo fleet's history is stored (never
// without --demo).
func (m *Main) DemoLoaded() <-chan struct{} {
	if m.demo == nil {
		return nil
	}
	return m.demo.Loaded()
}

// URL is the address clients reach the server at.
func (m *Main) URL() string {
	scheme := "http"
	if m.https {
		scheme = "https"
	}
	addr := m.ln.Addr().(*net.TCPAddr)
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "localhost"
	}
	return fmt.Sprintf("%s://%s", scheme, net.JoinHostPort(host, fmt.Sprint(addr.Port)))
}

// MetricsURL is the --metrics-addr listener's address (GET /metrics
// answers there); "" without one.
func (m *Main) MetricsURL() string {
	if m.mln == nil {
		return ""
	}
	return "http://" + m.mln.Addr().String()
}

// Served reports the server's exit: nil after a clean shutdown.
func (m *Main) Served() <-chan error { return m.served }

// Close stops accepting requests, lets running ones finish (until ctx ends),
// stops the demo fleet and closes the graph.
func (m *Main) Close(ctx context.Context) error {
	var errsOut []error
	if m.srv != nil {
		if err := m.srv.Shutdown(ctx); err != nil {
			errsOut = append(errsOut, fmt.Errorf("shutdown: %w", err))
		}
		if err := <-m.served; err != nil {
			errsOut = append(errsOut, err)
		}
		m.served <- nil // keep Served() readable after Close
	} else if m.ln != nil {
		m.ln.Close()
	}
	if m.msrv != nil {
		if err := m.msrv.Shutdown(ctx); err != nil {
			errsOut = append(errsOut, fmt.Errorf("metrics shutdown: %w", err))
		}
		if err := <-m.mserved; err != nil {
			errsOut = append(errsOut, err)
		}
		m.mserved <- nil
	} else if m.mln != nil {
		m.mln.Close()
	}
	if m.stopDemo != nil {
		m.stopDemo()
		<-m.demoDone
	}
	if m.Graph != nil {
		errsOut = append(errsOut, m.Graph.Close(ctx))
	}
	if m.receiver != nil {
		m.receiver.Close()
	}
	return errors.Join(errsOut...)
}
