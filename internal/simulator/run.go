package simulator

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/devices"
)

// Cred is one device of a fleet as Run drives it: a device with its own
// modem and MQTT credentials, and the slave units that report through it.
type Cred struct {
	SN  string // MQTT client id and username
	Key string // MQTT password
	// Cert, if set, is the device certificate it logs in with over TLS
	// instead of its key (no username, no password).
	Cert *tls.Certificate
	Sim  *Sim // the device's simulation; its Device().SN should be SN
	// Slaves are the paired units without a modem, each simulated on its
	// own (Device.SN the slave's SN, Device.Type the host type's
	// SlaveType()). Their reports go out on devices/{slave SN}/… over this
	// device's connection, in the same rhythm as the host's.
	Slaves []*Sim
}

// Options configure Run.
type Options struct {
	Broker string // tcp://host:port, or ssl://host:port with TLS
	// TLS, if set, is the client TLS configuration (the CA that checks the
	// server); an ssl://, tls:// or wss:// broker needs it.
	TLS *tls.Config
	// Interval is the time between reports of each device; zero means
	// each device's nominal interval (devices.Type.Interval).
	Interval time.Duration
	// QoS of every publish, 1 or 2; zero means 1. QoS 0 is not offered:
	// OnPublish counts acknowledged reports.
	QoS byte
	Log *slog.Logger // nil discards
	// OnPublish, if set, is called after each acknowledged publish with the
	// SN the message is about and its number of readings (0 for status
	// and image messages). It is called from many goroutines at once.
	OnPublish func(sn string, points int)
}

// Timing of the MQTT side.
const (
	connectTimeout = 10 * time.Second
	// A publish not acknowledged by then is given up (the connection is
	// likely being re-established); the device goes on with its next report.
	ackTimeout = 30 * time.Second
	// Devices connect a few dozen at a time so that a large fleet does not
	// hit the broker with thousands of simultaneous handshakes.
	connectParallel = 32
	statusEvery     = 6 // a status message every this many reports
	imageEvery      = time.Hour
)

// Run connects one MQTT client per device of the fleet (client id and
// username the SN, password the key) and, until ctx ends, publishes every
// Interval a telemetry report on devices/{sn}/telemetry, every sixth report
// (the first included) a status on devices/{sn}/status, and for camera types
// an image on devices/{sn}/image at the first report and then once an hour.
// Devices start at a random phase within the interval so that they do not
// all fire at once. Reports are dated by the wall clock. Lost connections are
// re-established automatically; reports due meanwhile are dropped, as a
// device's modem would.
//
// Run returns an error at once if a device's first connection fails (the
// broker is unreachable, or refuses the credentials); otherwise it returns
// nil when ctx ends, after disconnecting every client.
func Run(ctx context.Context, o Options, fleet []Cred) error {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	switch o.QoS {
	case 0:
		o.QoS = 1
	case 1, 2:
	default:
		return fmt.Errorf("simulator: QoS %d: want 1 or 2", o.QoS)
	}
	if o.Broker == "" {
		return errors.New("simulator: no broker")
	}
	if len(fleet) == 0 {
		return errors.New("simulator: empty fleet")
	}
	seen := map[string]bool{}
	for _, c := range fleet {
		if c.Sim == nil || c.SN == "" {
			return fmt.Errorf("simulator: device %q: SN and Sim are required", c.SN)
		}
		if seen[c.SN] {
			return fmt.Errorf("simulator: device %s listed twice", c.SN)
		}
		seen[c.SN] = true
	}

	runners := make([]*runner, len(fleet))
	for i, c := range fleet {
		runners[i] = &runner{o: o, cred: c, cmds: make(chan command, 16)}
	}
	clients, err := connectAll(ctx, o, runners)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for i, r := range runners {
		r.c = clients[i]
		wg.Go(func() {
			defer clients[i].Disconnect(250)
			if ctx.Err() == nil {
				r.loop(ctx)
			}
		})
	}
	wg.Wait()
	return nil
}

// connectAll makes every first connection. On a failure it closes those
// already made and reports the first device that failed.
func connectAll(ctx context.Context, o Options, fleet []*runner) ([]mqtt.Client, error) {
	clients := make([]mqtt.Client, len(fleet))
	errs := make([]error, len(fleet))
	sem := make(chan struct{}, connectParallel)
	var wg sync.WaitGroup
	for i, r := range fleet {
		cred := r.cred
		clients[i] = newClient(o, r)
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
				return
			}
			tok := clients[i].Connect()
			select {
			case <-tok.Done():
				if err := tok.Error(); err != nil {
					errs[i] = fmt.Errorf("simulator: connect %s: %w", cred.SN, err)
				}
			case <-ctx.Done():
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, c := range clients {
			c.Disconnect(0)
		}
		// The first is enough to act on; a wrong broker address fails them all.
		for _, e := range errs {
			if e != nil {
				return nil, e
			}
		}
	}
	return clients, nil
}

func newClient(o Options, r *runner) mqtt.Client {
	cred := r.cred
	log := o.Log.With("sn", cred.SN)
	opts := mqtt.NewClientOptions().
		AddBroker(o.Broker).
		SetClientID(cred.SN).
		SetCleanSession(true).
		SetConnectRetry(false). // the first failure is the caller's to see
		SetAutoReconnect(true).
		SetMaxReconnectInterval(30 * time.Second).
		SetConnectTimeout(connectTimeout).
		SetWriteTimeout(connectTimeout).
		SetKeepAlive(60 * time.Second).
		SetOrderMatters(false).
		SetConnectionLostHandler(func(_ mqtt.Client, err error) {
			log.Warn("mqtt connection lost", "err", err)
		}).
		SetReconnectingHandler(func(mqtt.Client, *mqtt.ClientOptions) {
			log.Info("mqtt reconnecting")
		}).
		// A clean session forgets subscriptions: subscribe on every connection.
		SetOnConnectHandler(func(c mqtt.Client) {
			c.Subscribe(commandTopic(cred.SN), 1, func(_ mqtt.Client, m mqtt.Message) {
				r.receive(m.Payload())
			})
		})
	if o.TLS != nil {
		cfg := o.TLS.Clone()
		if cred.Cert != nil {
			cfg.Certificates = []tls.Certificate{*cred.Cert}
		}
		opts.SetTLSConfig(cfg)
	}
	if cred.Cert == nil {
		opts.SetUsername(cred.SN).SetPassword(cred.Key)
	}
	return mqtt.NewClient(opts)
}

// runner publishes the reports of one connection and carries out the
// commands it receives.
type runner struct {
	o    Options
	c    mqtt.Client
	cred Cred
	cmds chan command
	// Set by commands, zero until then.
	interval, imageEvery time.Duration
	done                 []int64 // ids of the latest commands carried out, to skip a redelivery
}

func (r *runner) loop(ctx context.Context) {
	d := r.cred.Sim.Device()
	interval := r.o.Interval
	if interval <= 0 {
		interval = d.Type.Interval
	}
	phase := time.Duration(newRand(d.Seed, 0x9a5e).Int64N(int64(interval)))
	select {
	case <-ctx.Done():
		return
	case <-time.After(phase):
	case c := <-r.cmds:
		// A command wakes the device: it carries it out and starts reporting.
		if r.execute(ctx, c) == newInterval {
			interval = r.interval
		}
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	var lastImage time.Time
	for n := 0; ; n++ {
		at := time.Now()
		r.report(ctx, r.cred.SN, r.cred.Sim, at, n)
		for _, sl := range r.cred.Slaves {
			r.report(ctx, sl.Device().SN, sl, at, n)
		}
		every := imageEvery
		if r.imageEvery > 0 {
			every = r.imageEvery
		}
		if d.Type.Camera && (lastImage.IsZero() || at.Sub(lastImage) >= every) {
			if r.publish(ctx, r.cred.SN, "image", r.cred.Sim.Image(at), 0) {
				lastImage = at
			}
		}
	wait:
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case c := <-r.cmds:
			switch r.execute(ctx, c) {
			case reportNow:
				n-- // an extra report: the status rhythm stays
				continue
			case imageNow:
				if r.publish(ctx, r.cred.SN, "image", r.cred.Sim.Image(time.Now()), 0) {
					lastImage = time.Now()
				}
			case newInterval:
				tick.Reset(r.interval)
			}
			goto wait
		}
	}
}

// report publishes the n-th report of a device: telemetry, and status every
// sixth time.
func (r *runner) report(ctx context.Context, sn string, s *Sim, at time.Time, n int) {
	r.publish(ctx, sn, "telemetry", s.Telemetry(at), s.Points())
	if n%statusEvery == 0 {
		r.publish(ctx, sn, "status", s.Status(at), 0)
	}
}

// publish sends one message and waits for its acknowledgement.
func (r *runner) publish(ctx context.Context, sn, kind string, payload []byte, points int) bool {
	if ctx.Err() != nil {
		return false
	}
	tok := r.c.Publish("devices/"+sn+"/"+kind, r.o.QoS, false, payload)
	timer := time.NewTimer(ackTimeout)
	defer timer.Stop()
	select {
	case <-tok.Done():
		if err := tok.Error(); err != nil {
			lvl := slog.LevelWarn
			if errors.Is(err, mqtt.ErrNotConnected) {
				lvl = slog.LevelDebug // already logged as a lost connection
			}
			r.o.Log.Log(ctx, lvl, "mqtt publish failed", "sn", sn, "kind", kind, "err", err)
			return false
		}
	case <-timer.C:
		r.o.Log.Warn("mqtt publish not acknowledged", "sn", sn, "kind", kind)
		return false
	case <-ctx.Done():
		return false
	}
	if r.o.OnPublish != nil {
		r.o.OnPublish(sn, points)
	}
	return true
}

func commandTopic(sn string) string { return "devices/" + sn + "/commands" }

// commandMinute is a minute of an interval command (tests shorten it).
var commandMinute = time.Minute

// command is a command as the device receives it.
type command struct {
	ID     int64          `json:"id"`
	Name   string         `json:"name"`
	Params map[string]any `json:"params"`
}

// receive queues a command for the runner's loop; a device whose queue is
// full ignores it (it is sent again until acknowledged or expired).
func (r *runner) receive(payload []byte) {
	var c command
	if err := json.Unmarshal(payload, &c); err != nil || c.ID <= 0 {
		r.o.Log.Warn("unreadable command", "sn", r.cred.SN, "err", err)
		return
	}
	select {
	case r.cmds <- c:
	default:
	}
}

// What the loop does after a command.
type followUp int

const (
	nothing     followUp = iota
	reportNow            // report at once: the readings changed
	imageNow             // take a picture now
	newInterval          // reports go at a new interval
)

// execute carries out a command and acknowledges it on
// devices/{sn}/commands/ack: ok, or failed with the reason.
func (r *runner) execute(ctx context.Context, c command) followUp {
	if slices.Contains(r.done, c.ID) {
		r.ack(ctx, c.ID, nil) // the acknowledgement was lost: say it again
		return nothing
	}
	err := r.cred.Sim.Command(c.Name, c.Params, time.Now())
	r.ack(ctx, c.ID, err)
	if r.done = append(r.done, c.ID); len(r.done) > 32 {
		r.done = r.done[1:]
	}
	if err != nil {
		return nothing
	}
	switch c.Name {
	case devices.CmdOpen, devices.CmdClose, devices.CmdOpenFor, devices.CmdLight:
		return reportNow
	case devices.CmdCapture:
		return imageNow
	case devices.CmdCaptureInterval:
		r.imageEvery = time.Duration(minutesParam(c.Params)) * commandMinute
	case devices.CmdReportInterval:
		r.interval = time.Duration(minutesParam(c.Params)) * commandMinute
		return newInterval
	}
	return nothing
}

func (r *runner) ack(ctx context.Context, id int64, err error) {
	a := map[string]any{"id": id, "result": "ok"}
	if err != nil {
		a["result"], a["reason"] = "failed", err.Error()
	}
	b, _ := json.Marshal(a)
	r.publish(ctx, r.cred.SN, "commands/ack", b, 0)
}
