package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// AlertsOptions configure the alert latency benchmark.
type AlertsOptions struct {
	DB        string // PostgreSQL URL, or "" for SQLite in a temporary directory
	Crossings int    // frost crossings to time
	Load      int    // readings per second of other telemetry meanwhile
}

// AlertsResult holds the measured latencies, sorted.
type AlertsResult struct {
	Dialect   string
	Load      float64         // readings/s of other telemetry actually stored during the run
	ToEvent   []time.Duration // publish → event stored
	ToSMTP    []time.Duration // publish → mail accepted by the SMTP server
	Crossings int
}

// Alerts times alerts end to end through the server's path: a weather
// station publishes over MQTT to the embedded broker, the writer commits,
// the rule engine stores the event, the notifier hands the e-mail to an
// SMTP server on loopback. Meanwhile soil stations publish Load readings/s.
func Alerts(ctx context.Context, o AlertsOptions) (*AlertsResult, error) {
	smtp, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		return nil, err
	}
	defer smtp.Close()
	var (
		mu        sync.Mutex
		eventAt   = map[int64]time.Time{} // report time (unix ms) → event stored
		other     atomic.Int64
		stationID atomic.Int64
	)
	g, clean, err := graph(ctx, o.DB, app.Options{
		OnEvent: func(e *rules.Event) {
			mu.Lock()
			eventAt[e.At.UnixMilli()] = time.Now()
			mu.Unlock()
		},
		OnCommit: func(reports []*telemetry.Report, _ int, _ time.Duration, err error) {
			if err == nil {
				for _, r := range reports {
					if r.DeviceID != stationID.Load() {
						other.Add(int64(len(r.Points)))
					}
				}
			}
		}}, func(c *config.Serve) {
		c.SMTPURL = smtp.URL()
		c.Timezone = "UTC" // the times in the mails, matched below
	})
	if err != nil {
		return nil, err
	}
	defer clean()
	owner, err := createAccount(ctx, g.DB)
	if err != nil {
		return nil, err
	}
	station, stationKey, err := g.Devices.Register(ctx, devices.Registration{SN: "BENCHTQ000001", TypeID: 5, Owner: owner})
	if err != nil {
		return nil, err
	}
	stationID.Store(station.ID)
	zero := 0.0
	rule := &rules.Rule{OwnerID: owner, Name: "Frost", Enabled: true, TypeID: 5, DeviceIDs: []int64{station.ID}, Level: rules.LevelAlarm,
		Notify: []rules.Method{rules.MethodEmail}, Lang: i18n.EnUS, CreatedAt: time.Now(), UpdatedAt: time.Now(),
		Expressions: []rules.Expression{{Param: "airTemp", Agg: rules.AggMin, Op: rules.OpLTE, Threshold: &zero}}}
	if err := rule.Validate(rules.RegistryCatalogue{}); err != nil {
		return nil, err
	}
	if err := g.DB.CreateRule(ctx, rule); err != nil {
		return nil, err
	}
	g.Start()
	runCtx, stop := context.WithCancel(ctx)
	defer stop()

	// Background load: soil stations of 20 readings a report.
	loadDevices := max(1, o.Load/20/2) // each reports twice a second
	var loadWG sync.WaitGroup
	soil, _ := devices.TypeByID(2)
	for i := range loadDevices {
		sn := fmt.Sprintf("BENCHZS%06d", i+1)
		_, key, err := g.Devices.Register(ctx, devices.Registration{SN: sn, TypeID: 2, Owner: owner})
		if err != nil {
			return nil, err
		}
		c, err := connect(g.MQTTAddr(), sn, key)
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

	c, err := connect(g.MQTTAddr(), station.SN, stationKey)
	if err != nil {
		return nil, err
	}
	defer c.Disconnect(50)
	res := &AlertsResult{Dialect: string(g.DB.Dialect()), Crossings: o.Crossings}
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
