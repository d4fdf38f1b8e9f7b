package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/notify"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// AlertBenchOptions configure the alert latency benchmark.
type AlertBenchOptions struct {
	DB        string // PostgreSQL URL, or "" for SQLite in a temporary directory
	Crossings int    // frost crossings to time
	Load      int    // readings per second of other telemetry meanwhile
}

// AlertBenchResult holds the measured latencies, sorted.
type AlertBenchResult struct {
	Dialect   string
	Load      float64         // readings/s of other telemetry actually stored during the run
	ToEvent   []time.Duration // publish → event stored
	ToSMTP    []time.Duration // publish → mail accepted by the SMTP server
	Crossings int
}

// Percentile returns the p-th percentile (0–100) of sorted durations.
func Percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := int(float64(len(d)-1) * p / 100)
	return d[i]
}

// BenchAlerts times alerts end to end through the real path: a weather
// station publishes over MQTT to the embedded broker, the writer commits,
// the rule engine stores the event, the notifier hands the e-mail to an SMTP
// server on loopback. Meanwhile soil stations publish Load readings/s.
func BenchAlerts(ctx context.Context, o AlertBenchOptions) (*AlertBenchResult, error) {
	db, clean, err := benchStore(ctx, o.DB)
	if err != nil {
		return nil, err
	}
	defer clean()
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		return nil, err
	}
	svc := devices.NewService(db, keys)
	owner, err := createBenchAccount(ctx, db)
	if err != nil {
		return nil, err
	}
	station, stationKey, err := svc.Register(ctx, devices.New{SN: "BENCHTQ000001", TypeID: 5, Owner: owner})
	if err != nil {
		return nil, err
	}
	zero := 0.0
	rule := &rules.Rule{OwnerID: owner, Name: "Frost", Enabled: true, TypeID: 5, DeviceIDs: []int64{station.ID}, Level: rules.LevelAlarm,
		Notify: []rules.Method{rules.MethodEmail}, Lang: i18n.EnUS, CreatedAt: time.Now(), UpdatedAt: time.Now(),
		Expressions: []rules.Expression{{Param: "airTemp", Agg: rules.AggMin, Op: rules.OpLTE, Threshold: &zero}}}
	if err := rule.Validate(rules.RegistryCatalogue{}); err != nil {
		return nil, err
	}
	if err := db.CreateRule(ctx, rule); err != nil {
		return nil, err
	}

	smtp, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		return nil, err
	}
	defer smtp.Close()
	sender, err := mail.New(mail.Config{URL: smtp.URL()})
	if err != nil {
		return nil, err
	}
	notifier := &notify.Worker{Store: db, Mail: sender, Poll: time.Second}
	var mu sync.Mutex
	eventAt := map[int64]time.Time{} // report time (unix ms) → event stored
	engine := &rules.Engine{Store: db, OnEvent: func(e *rules.Event) {
		mu.Lock()
		eventAt[e.At.UnixMilli()] = time.Now()
		mu.Unlock()
		notifier.Wake()
	}}
	var other atomic.Int64
	w := telemetry.NewWriter(db, telemetry.WriterOptions{Location: time.UTC,
		OnCommit: func(reports []*telemetry.Report, n int, _ time.Duration, err error) {
			if err == nil {
				engine.Enqueue(reports)
				for _, r := range reports {
					if r.DeviceID != station.ID {
						other.Add(int64(len(r.Points)))
					}
				}
			}
		}})
	defer w.Close()
	p := &ingest.Pipeline{Devices: svc, Writer: w, Images: db, Metrics: metrics.New()}
	b, err := ingest.StartBroker("127.0.0.1:0", p, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	defer b.Close()
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go engine.Run(runCtx)
	go notifier.Run(runCtx)

	// Background load: soil stations of 20 readings a report.
	loadDevices := max(1, o.Load/20/2) // each reports twice a second
	var loadWG sync.WaitGroup
	soil, _ := devices.TypeByID(2)
	for i := range loadDevices {
		sn := fmt.Sprintf("BENCHZS%06d", i+1)
		_, key, err := svc.Register(ctx, devices.New{SN: sn, TypeID: 2, Owner: owner})
		if err != nil {
			return nil, err
		}
		c, err := benchClient(b.Addr().String(), sn, key)
		if err != nil {
			return nil, err
		}
		defer c.Disconnect(50)
		sim := simulator.New(simulator.Device{SN: sn, Type: soil, Seed: int64(i + 1)})
		loadWG.Go(func() {
			t := time.NewTicker(500 * time.Millisecond)
			defer t.Stop()
			at := time.Now().Add(-24 * time.Hour).Truncate(time.Second)
			for {
				select {
				case <-runCtx.Done():
					return
				case <-t.C:
					at = at.Add(time.Second) // a distinct report each time
					c.Publish("devices/"+sn+"/telemetry", 1, false, sim.Telemetry(at)).Wait()
				}
			}
		})
	}

	c, err := benchClient(b.Addr().String(), station.SN, stationKey)
	if err != nil {
		return nil, err
	}
	defer c.Disconnect(50)
	res := &AlertBenchResult{Dialect: string(db.Dialect()), Crossings: o.Crossings}
	type arrival struct {
		at   time.Time
		text string
	}
	arrivals := make(chan arrival, 2*o.Crossings+16)
	go func() {
		for {
			select {
			case <-runCtx.Done():
				return
			case m := <-smtp.C:
				at := time.Now()
				if p, err := mailtest.Parse(m.Data); err == nil {
					arrivals <- arrival{at, p.Text}
				}
			}
		}
	}()
	time.Sleep(time.Second) // let the load settle
	startOther := other.Load()
	began := time.Now()
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	sent := map[int64]time.Time{}
	for i := range 2 * o.Crossings {
		at := base.Add(time.Duration(i) * time.Second)
		temp := 3.0
		if i%2 == 0 {
			temp = -2 // into frost: a warning and an e-mail; the next report ends it
		}
		payload, _ := json.Marshal(map[string]any{"ts": at.Unix(), "values": map[string]float64{"airTemp": temp}})
		t0 := time.Now()
		if tok := c.Publish("devices/"+station.SN+"/telemetry", 1, false, payload); tok.Wait() && tok.Error() != nil {
			return nil, tok.Error()
		}
		if temp < 0 {
			sent[at.UnixMilli()] = t0
		}
		time.Sleep(100 * time.Millisecond)
	}
	published := maps.Clone(sent)
	// Match the mails, timed as they arrived: each names its report's time.
	deadline := time.After(30 * time.Second)
	for len(sent) > 0 {
		select {
		case a := <-arrivals:
			for ms, t0 := range sent {
				if strings.Contains(a.text, time.UnixMilli(ms).In(time.UTC).Format("2006-01-02 15:04:05")) {
					res.ToSMTP = append(res.ToSMTP, a.at.Sub(t0))
					delete(sent, ms)
					break
				}
			}
		case <-deadline:
			return nil, fmt.Errorf("%d of %d alert mails did not arrive", len(sent), o.Crossings)
		}
	}
	elapsed := time.Since(began)
	res.Load = float64(other.Load()-startOther) / elapsed.Seconds()
	stop()
	loadWG.Wait()
	mu.Lock()
	for ms, t0 := range published {
		if at, ok := eventAt[ms]; ok {
			res.ToEvent = append(res.ToEvent, at.Sub(t0))
		}
	}
	mu.Unlock()
	slices.Sort(res.ToEvent)
	slices.Sort(res.ToSMTP)
	return res, nil
}

// createBenchAccount creates the account that owns the benchmark's devices.
func createBenchAccount(ctx context.Context, db interface {
	CreateAccount(context.Context, *accounts.Account) error
}) (int64, error) {
	a := &accounts.Account{AccountNumber: "bench01", Name: "Bench", PasswordHash: "-", Mail: "bench@fieldwatch.example", CreatedAt: time.Now()}
	if err := db.CreateAccount(ctx, a); err != nil {
		return 0, err
	}
	return a.ID, nil
}

// benchClient connects one device over MQTT 3.1.1.
func benchClient(addr, sn, key string) (mqtt.Client, error) {
	opts := mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(sn).SetUsername(sn).SetPassword(key).
		SetCleanSession(true).SetAutoReconnect(false).SetOrderMatters(false)
	c := mqtt.NewClient(opts)
	if tok := c.Connect(); tok.Wait() && tok.Error() != nil {
		return nil, fmt.Errorf("connect %s: %w", sn, tok.Error())
	}
	return c, nil
}
