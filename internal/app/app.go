// Package app wires configuration, store, services and the HTTP server together.
package app

import (
	"context"
	"errors"
	"fmt"
	"github.com/fieldwatch/fieldwatch/internal/advice"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/briefing"
	"github.com/fieldwatch/fieldwatch/internal/capfeed"
	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/detect"
	"github.com/fieldwatch/fieldwatch/internal/devicecert"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/exports"
	"github.com/fieldwatch/fieldwatch/internal/feedback"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/httpapi"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/maptiles"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/notify"
	"github.com/fieldwatch/fieldwatch/internal/openapi"
	"github.com/fieldwatch/fieldwatch/internal/portal"
	"github.com/fieldwatch/fieldwatch/internal/push"
	"github.com/fieldwatch/fieldwatch/internal/rain"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/sharing"
	"github.com/fieldwatch/fieldwatch/internal/sms"
	"github.com/fieldwatch/fieldwatch/internal/soil"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
	"github.com/fieldwatch/fieldwatch/internal/tilt"
	"github.com/fieldwatch/fieldwatch/internal/weather"
	"github.com/fieldwatch/fieldwatch/internal/wechat"
	"github.com/fieldwatch/fieldwatch/web"
)

// Options configure the service graph.
type Options struct {
	Config config.Serve
	Log    *slog.Logger // nil discards
	// OnCommit, if set, is told about each telemetry transaction and OnEvent
	// about each stored alert event, after the graph's own handling (the
	// benchmarks time the graph through them).
	OnCommit func(reports []*telemetry.Report, stored int, took time.Duration, err error)
	OnEvent  func(*rules.Event)
	// PushAllow are addresses data push may reach although not public: the
	// demo farm's receiver.
	PushAllow []netip.AddrPort
}

// Graph is the service graph of the server: the store, the domain services
// on it, the ingest pipeline with its broker, the background workers and the
// HTTP handler. Build makes it, Start runs the workers, Close stops
// everything and closes the store. The server (Main) and the benchmarks
// (internal/bench) run the same graph.
type Graph struct {
	Config config.Serve
	Log    *slog.Logger

	DB       *store.DB
	Metrics  *metrics.Metrics
	Accounts *accounts.Service
	Devices  *devices.Service
	Writer   *telemetry.Writer
	History  *telemetry.History // every read of stored readings
	Ingest   *ingest.Pipeline
	Commands *commands.Service // commands to devices and their states
	Broker   *ingest.Broker    // the embedded broker, unless every listener is off or --mqtt-broker
	// DeviceCerts issues and checks device certificates; HTTPCert and
	// MQTTCert are the server pairs of HTTPS and the MQTT TLS listeners
	// (nil without), reloaded on change.
	DeviceCerts        *devicecert.Service
	HTTPCert, MQTTCert *devicecert.Reloader
	ACME               *devicecert.ACME // with --acme-domain: HTTPS, and MQTT TLS without a pair of its own
	Consumer           *ingest.Consumer // with --mqtt-broker
	Logins             *ingest.DynSec   // with --mqtt-broker and --mqtt-dynsec
	Exports            *exports.Service // data by e-mail with --smtp-url, else for download
	Rules              *rules.Service
	Briefings          *briefing.Service
	Engine             *rules.Engine  // evaluates committed reports against alert rules
	Notifier           *notify.Worker // delivers alert events by e-mail and WeChat
	WeChat             *wechat.Client // the Official Account API (nil without --wechat-appid)
	Push               *push.Service  // data-push channels
	Pusher             *push.Worker   // delivers reports to channels
	Detect             *detect.Pool   // runs published AI lab applications on new pictures
	OpenAPI            *openapi.Service
	Soil               *soil.Service // soil settings and analyses
	HTTP               *httpapi.Server

	// FeedbackMails mails feedback to --feedback-mail and answers to their authors.
	FeedbackMails *feedback.Worker

	onCommit    func(reports []*telemetry.Report, stored int, took time.Duration, err error)
	onEvent     func(*rules.Event)
	pushAllow   []netip.AddrPort
	loc         *time.Location
	stopWorkers context.CancelFunc
	workersDone []chan struct{}
	draining    atomic.Bool
}

// Drain makes /readyz answer 503 ("shutdown": "draining") from now on, so
// that load balancers stop sending the node traffic before it stops
// (--shutdown-delay); it goes on serving meanwhile.
func (m *Graph) Drain() { m.draining.Store(true) }

// Build opens the configured store (migrating it) and builds the graph on
// it. The embedded broker (or the consumer of an external one) and the
// telemetry writer run from here on; the other workers wait for Start.
func Build(ctx context.Context, o Options) (*Graph, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	m := &Graph{Config: o.Config, Log: o.Log, onCommit: o.OnCommit, onEvent: o.OnEvent, pushAllow: o.PushAllow}
	db, err := OpenStore(ctx, m.Config.Store)
	if err != nil {
		return nil, err
	}
	m.DB = db
	if err := m.build(ctx, db); err != nil {
		m.Close(ctx)
		return nil, err
	}
	return m, nil
}

func (m *Graph) build(ctx context.Context, db *store.DB) error {
	m.Metrics = metrics.New()
	if err := m.startIngest(ctx); err != nil {
		return err
	}
	fc := forecast.New(forecast.Config{BaseURL: m.Config.ForecastURL, TTL: time.Hour, Location: m.loc})
	rd := readings.New(m.History, nil)
	m.Soil = soil.New(soil.Options{Readings: rd, Store: db, Forecast: fc, Log: m.Log})
	m.Briefings = briefing.New(briefing.Options{Store: db, Devices: m.Devices,
		Reports:  briefing.ReportOptions{Readings: rd, Settings: db, Forecast: fc},
		FontPath: m.Config.BriefingFont, Location: m.loc})
	if err := m.buildExports(); err != nil {
		return err
	}
	m.Briefings.Exports = m.Exports
	ao := accounts.Options{Store: db, SessionTTL: m.Config.SessionTTL}
	if m.Notifier.Mail != nil {
		ao.Mail = m.Notifier.Mail
	}
	if c := m.Config; c.SMSURL != "" {
		ao.SMS = &sms.Client{Base: c.SMSURL, AccessKeyID: c.SMSAccessKeyID, AccessKeySecret: c.SMSAccessKeySecret,
			SignName: c.SMSSignName, TemplateCode: c.SMSTemplate}
	}
	if m.WeChat != nil && m.Config.WeChatToken != "" {
		ao.WeChat = m.WeChat
	}
	m.Accounts = accounts.New(ao)
	m.FeedbackMails = feedback.NewWorker(feedback.WorkerOptions{Store: db, URL: m.Config.PublicURL, Location: m.loc, Log: m.Log})
	if m.Notifier.Mail != nil {
		m.FeedbackMails.Mail = m.Notifier.Mail
	}
	tiles, err := maptiles.Parse(m.Config.MapTiles)
	if err != nil {
		return fmt.Errorf("--map-tiles %w", err)
	}
	m.HTTP = httpapi.New(httpapi.Options{
		Soil: m.Soil, Weather: weather.New(weather.Options{Readings: rd, Forecast: fc, Crops: m.Soil,
			Feed: capfeed.New(capfeed.Config{URL: m.Config.WarningFeed}), Log: m.Log}),
		Rain: rain.New(rd), Tilt: tilt.New(rd),
		Accounts: m.Accounts, Devices: m.Devices, History: m.History, Images: db, Ingest: m.Ingest,
		Exports: m.Exports, Rules: m.Rules, Briefings: m.Briefings, Commands: m.Commands, Portal: &portal.Service{Store: m.DB}, ET0Areas: m.DB, Overview: m.DB, Samples: m.DB, Detections: m.DB, MapTiles: tiles, PublicURL: m.Config.PublicURL, MQTTPort: m.mqttPort(),
		Sharing: sharing.New(sharing.Options{Store: db, Devices: m.Devices}), Push: m.Push, OpenAPI: m.OpenAPI, Location: m.loc, Metrics: m.Metrics,
		Ping: db.Ping, Ready: m.ready, App: web.Dist(), Log: m.Log, TrustProxy: m.Config.TrustProxy,
		TrustedProxies: m.Config.TrustedProxies,
		MetricsToken:   m.Config.MetricsToken,
		DeviceCerts:    m.DeviceCerts,
		QRImageOrigin:  m.qrImageOrigin(),
		Feedback:       db,
		FeedbackMail:   m.Config.FeedbackMail,
		FeedbackWake:   m.FeedbackMails.Wake,
		Advice:         advice.New(advice.Options{Readings: rd, Soil: m.Soil, Settings: db, Forecast: fc, Events: m.Rules, Store: db, Log: m.Log}),
		LLM: advice.NewLLM(advice.LLMConfig{URL: m.Config.LLMURL, Model: m.Config.LLMModel, Key: m.Config.LLMKey,
			Timeout: m.Config.LLMTimeout}),
	})
	if token := m.Config.MQTTAuthToken; token != "" {
		u, err := ingest.ParseBrokerURL(m.Config.MQTTBroker)
		if err != nil {
			return fmt.Errorf("--mqtt-broker: %w", err)
		}
		m.HTTP.BrokerAuthToken, m.HTTP.BrokerNodeUser = token, u.User.Username()
		m.HTTP.BrokerNodePassword, _ = u.User.Password()
	}
	if m.WeChat != nil { // a nil *wechat.Client would make a non-nil interface
		m.HTTP.WeChat = m.WeChat
		m.HTTP.WeChatToken = m.Config.WeChatToken
	}
	return nil
}

// startIngest opens what devices talk to: the secret that seals their
// keys, the batched writer, the pipeline, and the embedded broker or the
// consumer of an external one.
func (m *Graph) startIngest(ctx context.Context) error {
	keys, err := secret.Load(m.Config.SecretFile())
	if err != nil {
		return err
	}
	if m.loc, err = m.Config.Location(); err != nil {
		return err
	}
	m.Devices = devices.New(devices.Options{Store: m.DB, Keys: keys})
	if err := m.buildTLS(); err != nil {
		return err
	}
	m.History = telemetry.NewHistory(telemetry.HistoryOptions{Store: m.DB, Location: m.loc})
	m.Notifier = notify.New(notify.Options{Store: m.DB, Location: m.loc, URL: m.Config.PublicURL, Log: m.Log})
	m.Engine = rules.NewEngine(rules.EngineOptions{Store: m.DB, Log: m.Log, OnEvent: func(e *rules.Event) {
		m.Notifier.Wake()
		if m.onEvent != nil {
			m.onEvent(e)
		}
	}})
	m.Rules = rules.New(rules.Options{Store: m.DB, Devices: m.Devices})
	guard := push.Guard{AllowPrivate: m.Config.PushAllowPrivate, Allow: m.pushAllow}
	retries := m.Config.PushRetries
	if retries == nil {
		retries = push.DefaultBackoff
	}
	m.Pusher = push.NewWorker(push.WorkerOptions{Store: m.DB, Keys: keys, Guard: guard, Log: m.Log, Backoff: retries})
	m.Push = push.New(push.Options{Store: m.DB, Devices: m.Devices, Keys: keys, Guard: guard, Worker: m.Pusher, Retries: retries})
	m.OpenAPI = openapi.New(openapi.Options{Store: m.DB, Channels: m.DB, Devices: m.Devices, Keys: keys, Guard: guard, Worker: m.Pusher})
	m.Writer = telemetry.NewWriter(telemetry.WriterOptions{
		Store:    m.DB,
		Location: m.loc,
		OnCommit: func(reports []*telemetry.Report, stored int, took time.Duration, err error) {
			if err != nil {
				m.Log.Error("write telemetry", "reports", len(reports), "err", err)
			} else {
				m.Metrics.Points.Add(float64(stored))
				m.Metrics.Batch.Observe(float64(stored))
				m.Metrics.Commit.Observe(took.Seconds())
				m.Engine.Enqueue(reports)
				m.Pusher.Wake()
			}
			if m.onCommit != nil {
				m.onCommit(reports, stored, took, err)
			}
		},
	})
	m.Commands = commands.New(commands.Options{Store: m.DB, Devices: m.Devices, Log: m.Log})
	if err := m.Commands.Load(ctx); err != nil {
		return err
	}
	m.Detect = detect.New(detect.Options{Store: m.DB, Writer: m.Writer, Log: m.Log})
	m.Ingest = ingest.New(ingest.Options{Devices: m.Devices, Writer: m.Writer, Images: m.DB, Commands: m.Commands,
		Metrics: m.Metrics, Log: m.Log, OnImage: m.Detect.Wake})
	switch {
	case m.Config.MQTTBroker != "":
		m.Consumer, err = ingest.StartConsumer(ctx, ingest.ConsumerOptions{Broker: m.Config.MQTTBroker, ClientID: m.Config.MQTTClientID}, m.Ingest)
		if err != nil {
			return fmt.Errorf("--mqtt-broker: %w", err)
		}
		m.Commands.SetLink(m.Consumer)
		if m.Config.MQTTDynSec {
			if m.Logins, err = ingest.StartDynSec(ctx, m.Config.MQTTBroker, m.Consumer.ClientID()+"-logins", m.Log); err != nil {
				return fmt.Errorf("--mqtt-dynsec: %w", err)
			}
			m.Devices.OnLoginChange(func(sn string) {
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
					defer cancel()
					m.syncLogins(ctx, []string{sn}, true)
				}()
			})
		}
	case m.Config.EmbeddedBroker():
		ls, err := m.brokerListeners()
		if err != nil {
			return err
		}
		if m.Broker, err = ingest.StartBrokerOn(ls, m.Ingest, m.Log); err != nil {
			return brokerError(err, syscall.EADDRINUSE)
		}
		m.DeviceCerts.OnRevoke = m.Broker.DropCertificate
		for _, id := range []string{ingest.ListenerTCP, ingest.ListenerTLS, ingest.ListenerWS} {
			if a := m.Broker.ListenerAddr(id); a != nil {
				m.Log.Info("mqtt broker listening", "listener", id, "addr", a.String())
			}
		}
		m.Commands.SetLink(m.Broker)
		m.Devices.OnKeyChange(m.Broker.DisconnectDevice)
	}
	return nil
}

// buildExports builds the export service, with the mail server of
// --smtp-url when one is set; without it exported files wait under
// {--data}/exports for download.
func (m *Graph) buildExports() error {
	o := exports.Options{Store: m.DB, Devices: m.Devices, History: m.History, Location: m.loc, Log: m.Log,
		FileDir: filepath.Join(m.Config.Data, "exports"), Briefings: m.Briefings}
	if m.Config.SMTPURL != "" {
		sender, err := mail.New(mail.Config{URL: m.Config.SMTPURL, From: m.Config.MailFrom})
		if err != nil {
			return fmt.Errorf("--smtp-url: %w", err)
		}
		o.Mailer = sender
		m.Notifier.Mail = sender
		m.Log.Info("mail server", "addr", sender.Server())
	}
	m.Exports = exports.New(o)
	if c := m.Config; c.WeChatAppID != "" {
		m.WeChat = &wechat.Client{Base: c.WeChatAPI, MPBase: c.WeChatMP, AppID: c.WeChatAppID, Secret: c.WeChatSecret}
		m.Notifier.WeChat, m.Notifier.WeChatTemplate = m.WeChat, c.WeChatTemplate
	}
	return nil
}

// Start runs the background workers until Close: housekeeping, the alert
// engine and notifier, the data-push worker, the export worker, the
// expiry of unanswered commands and the AI lab's detection workers.
func (m *Graph) Start() {
	ctx, stop := context.WithCancel(context.Background())
	m.stopWorkers = stop
	run := func(worker func(context.Context)) {
		done := make(chan struct{})
		m.workersDone = append(m.workersDone, done)
		go func() {
			defer close(done)
			worker(ctx)
		}()
	}
	run(m.housekeeping)
	run(m.Exports.Run)
	run(func(ctx context.Context) { m.Briefings.RunSchedule(ctx, m.DB, 0, m.Log) })
	run(m.Notifier.Run)
	run(m.Engine.Run)
	run(m.Pusher.Run)
	run(m.Commands.Run)
	run(m.FeedbackMails.Run)
	run(m.Detect.Run)
	if m.Logins != nil {
		run(m.keepLogins)
	}
}

// loginsEvery is how often every device's broker login is made again, for
// changes made outside this node's console (the fieldwatch device commands).
const loginsEvery = 10 * time.Minute

// keepLogins makes the external broker's device logins match the store at
// start and every loginsEvery; the console's own changes go at once
// (devices.Service.OnLoginChange).
func (m *Graph) keepLogins(ctx context.Context) {
	t := time.NewTicker(loginsEvery)
	defer t.Stop()
	for {
		if sns, err := m.DB.DeviceSNs(ctx); err != nil {
			if ctx.Err() == nil {
				m.Log.Warn("broker logins", "err", err)
			}
		} else {
			m.syncLogins(ctx, sns, false)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// syncLogins makes the broker's logins of these devices what the store says;
// rekey sends the key of a login the broker has already (ingest.DynSec.Apply).
func (m *Graph) syncLogins(ctx context.Context, sns []string, rekey bool) {
	logins := make([]devices.BrokerLogin, 0, len(sns))
	for _, sn := range sns {
		l, err := m.Devices.Login(ctx, sn)
		if err != nil {
			m.Log.Warn("broker login", "sn", sn, "err", err)
			continue
		}
		logins = append(logins, l)
	}
	if err := m.Logins.Apply(ctx, logins, rekey); err != nil && ctx.Err() == nil {
		m.Log.Warn("broker logins", "devices", len(logins), "err", err)
	} else if err == nil && len(sns) > 1 {
		m.Log.Info("broker logins in step", "devices", len(logins))
	}
}

// mqttPort is the embedded broker's port, or 0 without one.
func (m *Graph) mqttPort() int {
	if m.Broker == nil {
		return 0
	}
	if a, ok := m.Broker.Addr().(*net.TCPAddr); ok {
		return a.Port
	}
	return 0
}

// MQTTAddr is the embedded broker's address, or "" without one.
func (m *Graph) MQTTAddr() string {
	if m.Broker == nil {
		return ""
	}
	return m.Broker.Addr().String()
}

// ready is what /readyz checks: the store answers, every migration of this
// binary is applied, and devices can reach the node (the embedded broker
// listens, or the external broker's connection is up).
func (m *Graph) ready(ctx context.Context) map[string]error {
	out := map[string]error{"store": m.DB.Ping(ctx)}
	if m.draining.Load() {
		out["shutdown"] = errors.New("draining: the node is stopping")
	}
	if out["store"] == nil {
		if pending, err := m.DB.PendingMigrations(ctx); err != nil {
			out["migrations"] = err
		} else if pending {
			out["migrations"] = errors.New("pending: run fieldwatch migrate, or start a node of this version")
		} else {
			out["migrations"] = nil
		}
	}
	switch {
	case m.Consumer != nil:
		wait, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		if err := m.Consumer.Connected(wait); err != nil {
			out["broker"] = errors.New("external broker not connected")
		} else {
			out["broker"] = nil
		}
	case m.Broker != nil:
		out["broker"] = nil
	}
	return out
}

// housekeeping runs the periodic jobs: expired sessions out hourly
// (Authenticate already refuses them; this keeps the table small), old
// readings compacted into chunks hourly, and
// daily the next months' readings partitions in (PostgreSQL) and raw
// readings past --retention-raw out.
func (m *Graph) housekeeping(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	lastPurge := time.Time{}
	for {
		if n, err := m.Accounts.PurgeExpiredSessions(ctx); err != nil && ctx.Err() == nil {
			m.Log.Warn("purge sessions", "err", err)
		} else if n > 0 {
			m.Log.Info("purged expired sessions", "count", n)
		}
		// Readings of the days before yesterday (UTC) move into chunks
		// (docs/storage.md): an hour's new days, or the rest of a
		// conversion an earlier run left half done.
		if res, err := m.DB.CompactReadingsPaced(ctx, time.Now(), store.BackgroundShare, nil); err != nil && ctx.Err() == nil {
			m.Log.Warn("compact readings", "err", err)
		} else if res.Readings > 0 {
			m.Log.Info("compacted readings", "readings", res.Readings, "chunks", res.Chunks, "devices", res.Devices)
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

// Close stops the workers, the broker or consumer and the writer (which
// commits what it holds), then closes the store. A graph that failed half
// way through Build closes what it had opened.
func (m *Graph) Close(ctx context.Context) error {
	var errsOut []error
	if m.stopWorkers != nil {
		m.stopWorkers()
		for _, done := range m.workersDone {
			<-done
		}
	}
	if m.Logins != nil {
		m.Logins.Close()
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
	if c.DBConns > 0 {
		db.LimitConns(c.DBConns)
	}
	if _, err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// NewDevices returns the device service over db, with the server secret of c.
func NewDevices(c config.Store, db *store.DB) (*devices.Service, error) {
	keys, err := secret.Load(c.SecretFile())
	if err != nil {
		return nil, err
	}
	return devices.New(devices.Options{Store: db, Keys: keys}), nil
}

// NewAccounts returns the account service over db with the default policy.
func NewAccounts(db *store.DB) *accounts.Service {
	return accounts.New(accounts.Options{Store: db})
}

// qrImageOrigin is the origin WeChat QR code images load from, when
// accounts can link WeChat and log in by QR code; "" otherwise.
func (m *Graph) qrImageOrigin() string {
	if m.WeChat == nil || m.Config.WeChatToken == "" {
		return ""
	}
	u, err := url.Parse(m.Config.WeChatMP)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
