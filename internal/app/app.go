// Package app wires configuration, store, services and the HTTP server together.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/analysis"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/exports"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/httpapi"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/maptiles"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/notify"
	"github.com/fieldwatch/fieldwatch/internal/openapi"
	"github.com/fieldwatch/fieldwatch/internal/push"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/sharing"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
	"github.com/fieldwatch/fieldwatch/web"
)

// Main is the running program: Run starts it, Close stops it. Tests start a
// real one on port 0 with a temporary data directory.
type Main struct {
	Config config.Serve
	Log    *slog.Logger

	DB       *store.DB
	Accounts *accounts.Service
	Devices  *devices.Service
	Writer   *telemetry.Writer
	Ingest   *ingest.Pipeline
	Broker   *ingest.Broker   // the embedded broker, unless --mqtt off or --mqtt-broker
	Consumer *ingest.Consumer // with --mqtt-broker
	Exports  *exports.Service // data by e-mail; its worker runs with --smtp-url
	Rules    *rules.Service
	Engine   *rules.Engine  // evaluates committed reports against alert rules
	Notifier *notify.Worker // delivers alert events by e-mail and WeChat
	Push     *push.Service  // data-push channels
	Pusher   *push.Worker   // delivers reports to channels
	OpenAPI  *openapi.Service
	mailer   *mail.Sender // with --smtp-url
	HTTP     *httpapi.Server
	Metrics  *metrics.Metrics

	srv         *http.Server
	ln          net.Listener
	served      chan error
	stopJobs    context.CancelFunc
	jobsDone    chan struct{}
	demoDone    chan struct{}
	demoLoaded  chan struct{} // closed once the demo fleet's history is in
	exportsDone chan struct{}
	alertsDone  chan struct{}
	pushDone    chan struct{}
	loc         *time.Location
}

// NewLogger returns a slog logger as configured.
func NewLogger(c config.Log, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(c.Level))
	opts := &slog.HandlerOptions{Level: level}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// OpenStore opens the configured store and applies pending migrations.
func OpenStore(ctx context.Context, c config.Store) (*store.DB, error) {
	db, err := store.Open(ctx, c.DB, c.Data)
	if err != nil {
		return nil, err
	}
	if _, err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Run opens the store, seeds the demo when asked, binds the listener and
// starts serving. It returns once the server accepts connections.
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

	db, err := OpenStore(ctx, m.Config.Store)
	if err != nil {
		ln.Close()
		return err
	}
	m.DB = db

	acfg := accounts.DefaultConfig()
	acfg.SessionTTL = m.Config.SessionTTL
	m.Accounts = accounts.NewService(db, acfg)
	m.Metrics = metrics.New()
	if err := m.startIngest(ctx); err != nil {
		m.Close(ctx)
		return err
	}

	if m.Config.Demo {
		if err := seedDemo(ctx, m); err != nil {
			m.Close(ctx)
			return fmt.Errorf("demo: %w", err)
		}
	}
	if err := m.startExports(); err != nil {
		m.Close(ctx)
		return err
	}
	tiles, err := maptiles.Parse(m.Config.MapTiles)
	if err != nil {
		m.Close(ctx)
		return fmt.Errorf("--map-tiles %w", err)
	}

	fc := forecast.New(forecast.Config{BaseURL: m.Config.ForecastURL, TTL: time.Hour, Location: m.loc})
	an := analysis.New(analysis.Options{Devices: m.Devices, Telemetry: db, Store: db, Forecast: fc, Location: m.loc, Log: m.Log})
	m.HTTP = httpapi.New(httpapi.Options{
		Analyses: an,
		Accounts: m.Accounts, Devices: m.Devices, Telemetry: db, Images: db, Ingest: m.Ingest,
		Exports: m.Exports, Rules: m.Rules, MapTiles: tiles, PublicURL: m.Config.PublicURL,
		Sharing: &sharing.Service{Store: db, Devices: m.Devices}, Push: m.Push, OpenAPI: m.OpenAPI, Location: m.loc, Metrics: m.Metrics,
		Ping: db.Ping, App: web.Dist(), Log: m.Log, TrustProxy: m.Config.TrustProxy,
	})
	m.srv = &http.Server{
		Handler:           m.HTTP,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(m.Log.Handler(), slog.LevelWarn),
	}
	m.served = make(chan error, 1)
	go func() {
		var err error
		if m.Config.TLSCert != "" {
			err = m.srv.ServeTLS(ln, m.Config.TLSCert, m.Config.TLSKey)
		} else {
			err = m.srv.Serve(ln)
		}
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		m.served <- err
	}()

	jobs, stop := context.WithCancel(context.Background())
	m.stopJobs, m.jobsDone = stop, make(chan struct{})
	go m.housekeeping(jobs)
	if m.Exports.Enabled() {
		m.exportsDone = make(chan struct{})
		go func() {
			defer close(m.exportsDone)
			m.Exports.Run(jobs)
		}()
	}
	m.alertsDone = make(chan struct{})
	go func() {
		defer close(m.alertsDone)
		done := make(chan struct{})
		go func() { m.Notifier.Run(jobs); close(done) }()
		m.Engine.Run(jobs)
		<-done
	}()
	m.pushDone = make(chan struct{})
	go func() {
		defer close(m.pushDone)
		m.Pusher.Run(jobs)
	}()
	if m.Config.Demo {
		m.demoDone = make(chan struct{})
		m.demoLoaded = make(chan struct{})
		go m.runDemoFleet(jobs)
	}

	m.Log.Info("listening", "url", m.URL(), "store", string(db.Dialect()), "demo", m.Config.Demo)
	return nil
}

// DemoLoaded is closed once the demo fleet's history is stored (never
// without --demo).
func (m *Main) DemoLoaded() <-chan struct{} { return m.demoLoaded }

// URL is the address clients reach the server at.
func (m *Main) URL() string {
	scheme := "http"
	if m.Config.TLSCert != "" {
		scheme = "https"
	}
	addr := m.ln.Addr().(*net.TCPAddr)
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "localhost"
	}
	return fmt.Sprintf("%s://%s", scheme, net.JoinHostPort(host, fmt.Sprint(addr.Port)))
}

// Served reports the server's exit: nil after a clean shutdown.
func (m *Main) Served() <-chan error { return m.served }

// startIngest opens what devices talk to: the secret that seals their
// keys, the batched writer, the pipeline, and the embedded broker or the
// consumer of an external one.
func (m *Main) startIngest(ctx context.Context) error {
	keys, err := secret.Load(m.Config.SecretFile())
	if err != nil {
		return err
	}
	if m.loc, err = m.Config.Location(); err != nil {
		return err
	}
	m.Devices = devices.NewService(m.DB, keys)
	m.Notifier = &notify.Worker{Store: m.DB, Location: m.loc, URL: m.Config.PublicURL, Log: m.Log}
	m.Engine = &rules.Engine{Store: m.DB, Log: m.Log, OnEvent: func(*rules.Event) { m.Notifier.Wake() }}
	m.Rules = &rules.Service{Store: m.DB, Devices: m.Devices}
	guard := push.Guard{AllowPrivate: m.Config.PushAllowPrivate}
	retries := m.Config.PushRetries
	if retries == nil {
		retries = push.DefaultBackoff
	}
	m.Pusher = &push.Worker{Store: m.DB, Keys: keys, Guard: guard, Log: m.Log, Backoff: retries}
	m.Push = &push.Service{Store: m.DB, Devices: m.Devices, Keys: keys, Guard: guard, Worker: m.Pusher, Retries: retries}
	m.OpenAPI = &openapi.Service{Store: m.DB, Channels: m.DB, Devices: m.Devices, Keys: keys, Guard: guard, Worker: m.Pusher}
	m.Writer = telemetry.NewWriter(m.DB, telemetry.WriterOptions{
		Location: m.loc,
		OnCommit: func(reports []*telemetry.Report, stored int, took time.Duration, err error) {
			if err != nil {
				m.Log.Error("write telemetry", "reports", len(reports), "err", err)
				return
			}
			m.Metrics.Points.Add(float64(stored))
			m.Metrics.Batch.Observe(float64(stored))
			m.Metrics.Commit.Observe(took.Seconds())
			m.Engine.Enqueue(reports)
			m.Pusher.Wake()
		},
	})
	m.Ingest = &ingest.Pipeline{Devices: m.Devices, Writer: m.Writer, Images: m.DB, Metrics: m.Metrics, Log: m.Log}
	switch {
	case m.Config.MQTTBroker != "":
		m.Consumer, err = ingest.StartConsumer(ctx, ingest.ConsumerOptions{Broker: m.Config.MQTTBroker, ClientID: m.Config.MQTTClientID}, m.Ingest)
		if err != nil {
			return fmt.Errorf("--mqtt-broker: %w", err)
		}
	case m.Config.MQTT != "off":
		m.Broker, err = ingest.StartBroker(m.Config.MQTT, m.Ingest, m.Log)
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("--mqtt %s: the port is already in use (is another MQTT broker running?); choose another with --mqtt, or use it with --mqtt-broker", m.Config.MQTT)
		}
		if err != nil {
			return fmt.Errorf("--mqtt %s: %w", m.Config.MQTT, err)
		}
		m.Log.Info("mqtt broker listening", "addr", m.Broker.Addr().String())
	}
	return nil
}

// startExports builds the export service, with the mail server of
// --smtp-url when one is set; without it exports are refused.
func (m *Main) startExports() error {
	o := exports.Options{Store: m.DB, Devices: m.Devices, Telemetry: m.DB, Location: m.loc, Log: m.Log}
	if m.Config.SMTPURL != "" {
		sender, err := mail.New(mail.Config{URL: m.Config.SMTPURL, From: m.Config.MailFrom})
		if err != nil {
			return fmt.Errorf("--smtp-url: %w", err)
		}
		o.Mailer = sender
		m.mailer = sender
		m.Notifier.Mail = sender
		m.Log.Info("mail server", "addr", sender.Server())
	}
	m.Exports = exports.New(o)
	if c := m.Config; c.WeChatAppID != "" {
		m.Notifier.WeChat = &notify.WeChat{Base: c.WeChatAPI, AppID: c.WeChatAppID, Secret: c.WeChatSecret, TemplateID: c.WeChatTemplate}
	}
	return nil
}

// MQTTAddr is the embedded broker's address, or "" without one.
func (m *Main) MQTTAddr() string {
	if m.Broker == nil {
		return ""
	}
	return m.Broker.Addr().String()
}

// housekeeping runs the periodic jobs: expired sessions out hourly
// (Authenticate already refuses them; this keeps the table small), and
// daily the next months' readings partitions in (PostgreSQL) and raw
// readings past --retention-raw out.
func (m *Main) housekeeping(ctx context.Context) {
	defer close(m.jobsDone)
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	lastPurge := time.Time{}
	for {
		if n, err := m.Accounts.PurgeExpiredSessions(ctx); err != nil && ctx.Err() == nil {
			m.Log.Warn("purge sessions", "err", err)
		} else if n > 0 {
			m.Log.Info("purged expired sessions", "count", n)
		}
		if time.Since(lastPurge) >= 24*time.Hour {
			lastPurge = time.Now()
			if err := m.DB.PreparePartitions(ctx, lastPurge); err != nil && ctx.Err() == nil {
				m.Log.Warn("prepare readings partitions", "err", err)
			}
			before := lastPurge.Add(-m.Config.RetentionRaw)
			if n, err := m.DB.PurgeReadings(ctx, before); err != nil && ctx.Err() == nil {
				m.Log.Warn("purge raw readings", "err", err)
			} else if n > 0 {
				m.Log.Info("purged raw readings past retention", "count", n, "before", before)
			}
			// The push log keeps eight days: the longest filter is a week.
			if n, err := m.DB.PrunePushLog(ctx, lastPurge.Add(-8*24*time.Hour)); err != nil && ctx.Err() == nil {
				m.Log.Warn("prune push log", "err", err)
			} else if n > 0 {
				m.Log.Info("pruned push log", "count", n)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Close stops accepting requests, lets running ones finish (until ctx ends)
// and closes the store.
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
	if m.stopJobs != nil {
		m.stopJobs()
		<-m.jobsDone
		if m.demoDone != nil {
			<-m.demoDone
		}
		if m.exportsDone != nil {
			<-m.exportsDone
		}
		<-m.alertsDone
		<-m.pushDone
	}
	if m.Consumer != nil {
		if err := m.Consumer.Close(ctx); err != nil {
			errsOut = append(errsOut, fmt.Errorf("external broker: %w", err))
		}
	}
	if m.Broker != nil {
		if err := m.Broker.Close(); err != nil {
			errsOut = append(errsOut, fmt.Errorf("mqtt: %w", err))
		}
	}
	if m.Writer != nil {
		m.Writer.Close()
	}
	if m.DB != nil {
		if err := m.DB.Close(); err != nil {
			errsOut = append(errsOut, err)
		}
	}
	return errors.Join(errsOut...)
}

// NewDevices returns the device service over db, with the server secret of c.
func NewDevices(c config.Store, db *store.DB) (*devices.Service, error) {
	keys, err := secret.Load(c.SecretFile())
	if err != nil {
		return nil, err
	}
	return devices.NewService(db, keys), nil
}

// NewAccounts returns the account service over db with the default policy.
func NewAccounts(db *store.DB) *accounts.Service {
	return accounts.NewService(db, accounts.DefaultConfig())
}
