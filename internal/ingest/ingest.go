package ingest

import (
	"bytes"
	"context"
	"errors"
	"image"
	_ "image/jpeg" // decodes uploaded camera images
	_ "image/png"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// MaxImage bounds one camera image upload.
const MaxImage = 2 << 20

// Transport names where a message came from, for metrics.
type Transport string

const (
	MQTT Transport = "mqtt"
	HTTP Transport = "http"
)

// ImageStore keeps camera images.
type ImageStore interface {
	SaveImage(ctx context.Context, deviceID int64, at time.Time, contentType string, data []byte) error
}

// Options configure the pipeline: the services it hands messages to.
type Options struct {
	Devices *devices.Service
	Writer  *telemetry.Writer
	Images  ImageStore
	// Commands takes devices' acknowledgements and is told of their
	// uplinks and reports; nil: the pipeline has no downlink.
	Commands *commands.Service
	Metrics  *metrics.Metrics
	Log      *slog.Logger
	Now      func() time.Time
	// OnImage, if set, is told a camera image was stored (which may have
	// queued AI lab runs: it wakes their workers).
	OnImage func()
}

// Pipeline takes messages from every transport (embedded broker, external
// broker, HTTP) through the same steps: who is the device, may it write
// there, is the message sound, store it.
type Pipeline struct {
	Options

	cache sync.Map // sn → *cached
}

// New returns the pipeline.
func New(o Options) *Pipeline { return &Pipeline{Options: o} }

// cached is a device looked up recently: reports arrive every few minutes
// from thousands of devices, and each needs its type and interval.
type cached struct {
	dev *devices.Device
	at  time.Time
}

// cacheFor bounds how stale a cached device may be: a changed interval or a
// removed device is noticed within it.
const cacheFor = 30 * time.Second

func (p *Pipeline) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Authenticate checks a device's credentials. Returns EUNAUTHORIZED.
func (p *Pipeline) Authenticate(ctx context.Context, sn, key string) (*devices.Device, error) {
	d, err := p.Devices.Authenticate(ctx, sn, key)
	if err != nil {
		return nil, err
	}
	p.cache.Store(sn, &cached{dev: d, at: p.now()})
	return d, nil
}

// Device returns the device with serial number sn, cached briefly. Returns ENOTFOUND.
func (p *Pipeline) Device(ctx context.Context, sn string) (*devices.Device, error) {
	if c, ok := p.cache.Load(sn); ok && p.now().Sub(c.(*cached).at) < cacheFor {
		return c.(*cached).dev, nil
	}
	d, err := p.Devices.FindBySN(ctx, sn)
	if err != nil {
		p.cache.Delete(sn)
		return nil, err
	}
	p.cache.Store(sn, &cached{dev: d, at: p.now()})
	return d, nil
}

// Topic is a parsed device topic: devices/{sn}/{kind}, or
// devices/{sn}/commands/ack for KindAck.
type Topic struct {
	SN   string
	Kind string // telemetry, status, image, ack
}

// Kinds of device message.
const (
	KindTelemetry = "telemetry"
	KindStatus    = "status"
	KindImage     = "image"
	KindAck       = "ack" // a command's acknowledgement, on devices/{sn}/commands/ack
)

// CommandTopic is the topic a device receives its commands on.
func CommandTopic(sn string) string { return "devices/" + sn + "/commands" }

// ParseTopic splits a device topic. ok is false for anything else.
func ParseTopic(topic string) (Topic, bool) {
	parts := strings.Split(topic, "/")
	if len(parts) < 3 || parts[0] != "devices" || !devices.ValidSN(parts[1]) {
		return Topic{}, false
	}
	if len(parts) == 4 && parts[2] == "commands" && parts[3] == "ack" {
		return Topic{SN: parts[1], Kind: KindAck}, true
	}
	if len(parts) != 3 {
		return Topic{}, false
	}
	switch parts[2] {
	case KindTelemetry, KindStatus, KindImage:
		return Topic{SN: parts[1], Kind: parts[2]}, true
	}
	return Topic{}, false
}

// MayPublish reports whether the device with serial number sn may publish
// on topic: its own topics, and a host those of its slaves (which have no
// modem of their own). It returns the device the topic is about. Devices
// come from the pipeline's brief cache.
func (p *Pipeline) MayPublish(ctx context.Context, sn, topic string) (*devices.Device, Topic, bool) {
	target, t, err := mayPublish(ctx, sn, topic, p.Device)
	return target, t, err == nil && target != nil
}

// mayPublish is MayPublish with devices looked up by find: target is nil
// when sn may not publish on topic; err is a failure of find's other than
// ENOTFOUND.
func mayPublish(ctx context.Context, sn, topic string, find func(context.Context, string) (*devices.Device, error)) (target *devices.Device, t Topic, err error) {
	t, ok := ParseTopic(topic)
	if !ok {
		return nil, t, nil
	}
	lookup := func(sn string) (*devices.Device, error) {
		d, err := find(ctx, sn)
		if errs.KindOf(err) == errs.ENotFound {
			return nil, nil
		}
		return d, err
	}
	if target, err = lookup(t.SN); target == nil {
		return nil, t, err
	}
	if t.SN == sn {
		return target, t, nil
	}
	if target.Slave && target.HostID != 0 {
		host, err := lookup(sn)
		if host != nil && host.ID == target.HostID {
			return target, t, nil
		}
		return nil, t, err
	}
	return nil, t, nil
}

// Handle processes one message for device d. Bad input is counted, kept as
// the device's last error and returned (EINVALID); it never panics.
func (p *Pipeline) Handle(ctx context.Context, tr Transport, d *devices.Device, kind string, payload []byte) error {
	return p.HandleAt(ctx, tr, d, kind, payload, p.now())
}

// HandleAt is Handle for a message received at a given time: images carry
// no time of their own, so one loaded from an archive keeps its capture time.
func (p *Pipeline) HandleAt(ctx context.Context, tr Transport, d *devices.Device, kind string, payload []byte, received time.Time) error {
	var err error
	switch kind {
	case KindTelemetry:
		var r *telemetry.Report
		if r, err = p.report(d, payload, received); err == nil {
			if err = p.Writer.Write(ctx, r); err == nil {
				p.reported(ctx, d, r)
			}
		}
	case KindStatus:
		err = p.status(ctx, d, payload, received)
	case KindImage:
		err = p.image(ctx, d, payload, received)
	case KindAck:
		if p.Commands == nil {
			err = invalid("topic", "ingest.unknownTopic", nil)
		} else {
			_, err = p.Commands.HandleAck(ctx, d, payload)
		}
	default:
		err = invalid("topic", "ingest.unknownTopic", nil)
	}
	return p.outcome(ctx, tr, d, kind, received, err)
}

// Submit is Handle in two halves, so one connection can keep many reports
// in flight: it decodes and queues a telemetry report and returns at once
// with a function that waits for its commit. A refusal is known at once
// (the function returns it); status and image messages are stored before
// Submit returns. Reports of one caller are committed in submission order.
func (p *Pipeline) Submit(ctx context.Context, tr Transport, d *devices.Device, kind string, payload []byte) (wait func() error) {
	received := p.now()
	if kind != KindTelemetry {
		err := p.HandleAt(ctx, tr, d, kind, payload, received)
		return func() error { return err }
	}
	r, err := p.report(d, payload, received)
	if err != nil {
		err = p.outcome(ctx, tr, d, kind, received, err)
		return func() error { return err }
	}
	done := p.Writer.Enqueue(r)
	return func() error {
		err := <-done
		if err == nil {
			p.reported(context.Background(), d, r)
		}
		return p.outcome(context.Background(), tr, d, kind, received, err)
	}
}

// reported tells the command service of a stored report, which may show a
// command in force.
func (p *Pipeline) reported(ctx context.Context, d *devices.Device, r *telemetry.Report) {
	if p.Commands == nil || !p.Commands.HasOpen(d.ID) {
		return
	}
	p.Commands.Reported(ctx, d, r.Time, func(param string) (float64, bool) {
		for _, pt := range r.Points {
			if pt.Param == param && pt.Node == 0 {
				return pt.Value, true
			}
		}
		return 0, false
	})
}

// Uplink tells the command service that device sn was heard from over a
// connection that can take its queued commands now.
func (p *Pipeline) Uplink(sn string) {
	if p.Commands == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := p.Device(ctx, sn)
	if err != nil || !p.Commands.HasOpen(d.ID) {
		return
	}
	p.Commands.Flush(ctx, d)
}

// outcome counts a message's result and, for a refusal, records it as the
// device's last error.
func (p *Pipeline) outcome(ctx context.Context, tr Transport, d *devices.Device, kind string, received time.Time, err error) error {
	if err != nil {
		if e := errs.As(err); e != nil && e.Kind == errs.EInvalid {
			p.Metrics.Rejected.WithLabelValues(string(tr), e.Code).Inc()
			if rerr := p.Devices.RecordError(ctx, d.ID, &devices.IngestError{At: received, Code: e.Code, Field: e.Field, Params: e.Params}); rerr != nil {
				p.Log.Warn("record ingest error", "sn", d.SN, "err", rerr)
			}
			p.Log.Debug("refused device message", "sn", d.SN, "kind", kind, "code", e.Code, "field", e.Field)
		}
		return err
	}
	p.Metrics.Reports.WithLabelValues(string(tr), kind).Inc()
	return nil
}

// report decodes a telemetry payload of d into the report to store.
func (p *Pipeline) report(d *devices.Device, payload []byte, received time.Time) (*telemetry.Report, error) {
	t := d.Type()
	if t == nil {
		return nil, errs.Internal("device %s has unknown type %d", d.SN, d.TypeID)
	}
	rep, err := DecodeTelemetry(t, payload, received)
	if err != nil {
		return nil, err
	}
	r := &telemetry.Report{DeviceID: d.ID, Time: rep.Time, Points: rep.Points,
		OfflineAt: rep.Time.Add(devices.OfflineAfter(d.Interval()))}
	if r.OfflineAt.Before(received) {
		// A device catching up on old readings is alive now, whatever the
		// readings' own time says.
		r.OfflineAt = received.Add(devices.OfflineAfter(d.Interval()))
	}
	return r, nil
}

func (p *Pipeline) status(ctx context.Context, d *devices.Device, payload []byte, received time.Time) error {
	s, err := DecodeStatus(payload, received)
	if err != nil {
		return err
	}
	return p.Devices.RecordHealth(ctx, d.ID, devices.Health{At: s.Time, Battery: s.Battery,
		ChargeVoltage: s.ChargeVoltage, Signal: s.Signal, Faults: s.Faults})
}

func (p *Pipeline) image(ctx context.Context, d *devices.Device, payload []byte, received time.Time) error {
	if t := d.Type(); t == nil || !t.Camera {
		return invalid("topic", "ingest.notCamera", nil)
	}
	if len(payload) > MaxImage {
		return invalid("image", "ingest.tooLarge", map[string]any{"max": MaxImage})
	}
	ct := http.DetectContentType(payload)
	if ct != "image/jpeg" && ct != "image/png" {
		return invalid("image", "ingest.imageFormat", nil)
	}
	// Check it decodes: a truncated upload should be refused now, not found
	// broken when someone opens it.
	if _, _, err := image.DecodeConfig(bytes.NewReader(payload)); err != nil {
		return invalid("image", "ingest.imageFormat", nil)
	}
	if err := p.Images.SaveImage(ctx, d.ID, received, ct, payload); err != nil {
		return err
	}
	if p.OnImage != nil {
		p.OnImage()
	}
	return nil
}

// IsInvalid reports whether err is bad input (as opposed to a failure of ours).
func IsInvalid(err error) bool {
	var e *errs.Error
	return errors.As(err, &e) && e.Kind == errs.EInvalid
}
