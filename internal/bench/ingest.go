package bench

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devicecert"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// IngestOptions configure the ingest benchmark.
type IngestOptions struct {
	DB       string // PostgreSQL URL, or "" for SQLite in a temporary directory
	Devices  int    // simulated devices, one MQTT connection each
	Reports  int    // reports per device
	TypeID   int    // device type (2: a 20-reading soil station)
	InFlight int    // unacknowledged publishes per connection
	TLS      bool   // connect over TLS (--mqtts, a self-signed server certificate) instead of plain MQTT
	// CompactDays, if > 0, loads that many days of 10-minute history per
	// device, ending before the hot window, before the clock starts, and
	// compacts it (store.CompactReadingsPaced at store.BackgroundShare, as the hourly duty does) while
	// the reports are published.
	CompactDays int
	Log         *slog.Logger
}

// IngestResult is what the ingest benchmark measured.
type IngestResult struct {
	Dialect          store.Dialect
	Devices, Reports int
	Points           int // readings sent, and stored
	TLS              bool
	Connect          time.Duration // every connection made, one after another (TLS handshakes included)
	Ingest           time.Duration // first publish to last acknowledgement
	Raw              time.Duration // batched inserts of the same readings
	WriterBusy       time.Duration // time the writer spent in transactions during Ingest
	Commits          int           // transactions during Ingest
	History          int           // readings of older history loaded (CompactDays)
	Compacted        int64         // of them, moved into chunks while Ingest ran
	CompactDone      time.Duration // when the compaction finished, from the first publish (0: still running at the end)
}

// IngestRate is durably stored readings per second through MQTT.
func (r *IngestResult) IngestRate() float64 { return float64(r.Points) / r.Ingest.Seconds() }

// RawRate is readings per second of plain batched inserts.
func (r *IngestResult) RawRate() float64 { return float64(r.Points) / r.Raw.Seconds() }

// Ingest publishes reports from many devices through real MQTT connections
// to the server's embedded broker and measures how fast they are durably
// stored (a QoS 1 acknowledgement is sent only after the commit); then it
// inserts the same readings into a fresh store of the same kind with plain
// batched inserts, the store's limit.
func Ingest(ctx context.Context, o IngestOptions) (*IngestResult, error) {
	t, ok := devices.TypeByID(o.TypeID)
	if !ok {
		return nil, fmt.Errorf("no device type %d", o.TypeID)
	}
	var stored, busy, commits atomic.Int64
	var roots *x509.CertPool
	var setupErr error
	withTLS := func(c *config.Serve) {
		if !o.TLS {
			return
		}
		c.MQTTS = "127.0.0.1:0"
		c.MQTTTLSCert, c.MQTTTLSKey, setupErr = devicecert.SelfSigned(c.Data, "127.0.0.1")
		if setupErr == nil {
			pem, err := os.ReadFile(c.MQTTTLSCert)
			roots, setupErr = x509.NewCertPool(), err
			roots.AppendCertsFromPEM(pem)
		}
	}
	g, cleanA, err := graph(ctx, o.DB, app.Options{Log: o.Log,
		OnCommit: func(_ []*telemetry.Report, n int, took time.Duration, err error) {
			if err == nil {
				stored.Add(int64(n))
				busy.Add(int64(took))
				commits.Add(1)
			}
		}}, withTLS)
	if err == nil && setupErr != nil {
		cleanA()
		err = setupErr
	}
	if err != nil {
		return nil, err
	}
	defer cleanA()
	g.Start()
	res := &IngestResult{Dialect: g.DB.Dialect(), Devices: o.Devices, Reports: o.Reports, TLS: o.TLS}

	// Devices and their reports, made before the clock starts.
	type dev struct {
		sn, key  string
		payloads [][]byte
		reports  []*telemetry.Report
	}
	fleet := make([]*dev, o.Devices)
	end := time.Now().Truncate(10 * time.Minute)
	for i := range fleet {
		sn := fmt.Sprintf("BENCH%02d%06d", t.ID, i+1)
		d, key, err := g.Devices.Register(ctx, devices.Registration{SN: sn, TypeID: t.ID, Owner: 0})
		if err != nil {
			return nil, err
		}
		sim := simulator.New(simulator.Device{SN: sn, Type: t, Seed: int64(i + 1)})
		fd := &dev{sn: sn, key: key}
		for r := range o.Reports {
			at := end.Add(-time.Duration(o.Reports-r) * 10 * time.Minute)
			p := sim.Telemetry(at)
			rep, err := ingest.DecodeTelemetry(t, p, at)
			if err != nil {
				return nil, err
			}
			fd.payloads = append(fd.payloads, p)
			fd.reports = append(fd.reports, &telemetry.Report{DeviceID: d.ID, Time: rep.Time, Points: rep.Points})
			res.Points += len(rep.Points)
		}
		fleet[i] = fd
	}

	if o.CompactDays > 0 {
		// Older history, ending two days before the hot window's start.
		hend := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -2)
		var batch []*telemetry.Report
		for i, d := range fleet {
			sim := simulator.New(simulator.Device{SN: d.sn, Type: t, Seed: int64(i + 1)})
			for at := hend.AddDate(0, 0, -o.CompactDays); at.Before(hend); at = at.Add(10 * time.Minute) {
				rep, err := ingest.DecodeTelemetry(t, sim.Telemetry(at), at)
				if err != nil {
					return nil, err
				}
				batch = append(batch, &telemetry.Report{DeviceID: d.reports[0].DeviceID, Time: rep.Time, Points: rep.Points})
				res.History += len(rep.Points)
				if len(batch) == 1000 {
					if _, err := g.DB.WriteReports(ctx, batch, time.UTC); err != nil {
						return nil, err
					}
					batch = batch[:0]
				}
			}
		}
		if _, err := g.DB.WriteReports(ctx, batch, time.UTC); err != nil {
			return nil, err
		}
	}

	clients := make([]mqtt.Client, len(fleet))
	broker := "tcp://" + g.MQTTAddr()
	if o.TLS {
		broker = "ssl://" + g.Broker.ListenerAddr(ingest.ListenerTLS).String()
	}
	connectStart := time.Now()
	for i, d := range fleet {
		opts := mqtt.NewClientOptions().AddBroker(broker).SetClientID(d.sn).
			SetUsername(d.sn).SetPassword(d.key).SetCleanSession(true).SetAutoReconnect(false).
			SetWriteTimeout(time.Minute).SetOrderMatters(false)
		if o.TLS {
			opts.SetTLSConfig(&tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12})
		}
		clients[i] = mqtt.NewClient(opts)
		if tok := clients[i].Connect(); tok.Wait() && tok.Error() != nil {
			return nil, fmt.Errorf("connect %s: %w", d.sn, tok.Error())
		}
		defer clients[i].Disconnect(100)
	}

	res.Connect = time.Since(connectStart)
	start := time.Now()
	var compacted atomic.Int64
	compactErr, compactDone := make(chan error, 1), make(chan time.Duration, 1)
	if o.CompactDays > 0 {
		go func() {
			_, err := g.DB.CompactReadingsPaced(ctx, time.Now(), store.BackgroundShare, func(r store.CompactResult) { compacted.Store(r.Readings) })
			compactDone <- time.Since(start)
			compactErr <- err
		}()
	}
	var wg sync.WaitGroup
	errc := make(chan error, len(fleet))
	for i, d := range fleet {
		wg.Go(func() {
			window := make(chan mqtt.Token, o.InFlight)
			wait := func(tok mqtt.Token) {
				if tok.Wait(); tok.Error() != nil {
					errc <- tok.Error()
				}
			}
			for _, pl := range d.payloads {
				if len(window) == cap(window) {
					wait(<-window)
				}
				window <- clients[i].Publish("devices/"+d.sn+"/telemetry", 1, false, pl)
			}
			close(window)
			for tok := range window {
				wait(tok)
			}
		})
	}
	wg.Wait()
	res.Ingest = time.Since(start)
	res.WriterBusy, res.Commits = time.Duration(busy.Load()), int(commits.Load())
	res.Compacted = compacted.Load()
	if o.CompactDays > 0 {
		select {
		case d := <-compactDone:
			res.CompactDone = d
		default:
		}
		if err := <-compactErr; err != nil { // waits for the rest of the compaction
			return nil, fmt.Errorf("compact: %w", err)
		}
	}
	close(errc)
	if err := <-errc; err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	if n := stored.Load(); n != int64(res.Points) {
		return nil, fmt.Errorf("sent %d readings, stored %d", res.Points, n)
	}

	// The same readings, inserted directly into a fresh store in batches as
	// large as the writer's.
	st, cleanB, err := freshStore(ctx, o.DB)
	if err != nil {
		return nil, err
	}
	defer cleanB()
	dbB, err := app.OpenStore(ctx, st)
	if err != nil {
		return nil, err
	}
	defer dbB.Close()
	var batches [][]*telemetry.Report
	var cur []*telemetry.Report
	n := 0
	for r := range o.Reports {
		for _, d := range fleet {
			cur = append(cur, d.reports[r])
			if n += len(d.reports[r].Points); n >= 20000 {
				batches, cur, n = append(batches, cur), nil, 0
			}
		}
	}
	if len(cur) > 0 {
		batches = append(batches, cur)
	}
	start = time.Now()
	for _, batch := range batches {
		if err := dbB.InsertReadingsRaw(ctx, batch); err != nil {
			return nil, err
		}
	}
	res.Raw = time.Since(start)
	return res, nil
}
