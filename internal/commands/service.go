package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Store is what the command service needs from the database.
type Store interface {
	// CreateCommand inserts c and sets its ID.
	CreateCommand(ctx context.Context, c *Command) error
	// MarkCommandsDelivered records the first delivery of each command, at
	// its time.
	MarkCommandsDelivered(ctx context.Context, at map[int64]time.Time) error
	// FinishCommand moves a command of the device that is open (or expired:
	// a late acknowledgement tells the truth) to state at at, recording it
	// delivered at delivered unless it is already; ENOTFOUND when the device
	// has no such command. It returns the command as it now is.
	FinishCommand(ctx context.Context, deviceID, id int64, state State, by Confirmation, code, reason string, at, delivered time.Time) (*Command, error)
	// ExpireCommands expires the open commands whose time to live ended.
	ExpireCommands(ctx context.Context, now time.Time, notDelivered, noAck string) (int64, error)
	FindCommand(ctx context.Context, deviceID, id int64) (*Command, error)
	// DeviceCommands returns a page of the device's commands, newest first,
	// and how many it has.
	DeviceCommands(ctx context.Context, deviceID int64, offset, limit int) ([]*Command, int, error)
	// OpenCommands returns the device's open commands, oldest first.
	OpenCommands(ctx context.Context, deviceID int64) ([]*Command, error)
	// DevicesWithOpenCommands lists the devices that have any.
	DevicesWithOpenCommands(ctx context.Context) ([]int64, error)
}

// Link hands a command to a device: the embedded broker, or an external
// one. Deliver reports whether the command went out (false: the device is
// not connected now, and the command waits for it). A link that learns the
// device received it (its PUBACK) calls Service.Delivered.
type Link interface {
	Deliver(ctx context.Context, sn string, c *Command) (sent bool, err error)
}

// Options configure the service.
type Options struct {
	Store   Store
	Devices *devices.Service
	Log     *slog.Logger
	Now     func() time.Time
	// TTL is how long a command to d may wait for its acknowledgement;
	// default DefaultTTL.
	TTL func(d *devices.Device) time.Duration
}

// DefaultTTL gives a device as long as it may stay silent before it counts
// as offline (two intervals and a margin), and at least 10 minutes: a
// sleeping device gets the command at its next report, and has time for
// one more to answer it.
func DefaultTTL(d *devices.Device) time.Duration {
	return max(devices.OfflineAfter(d.Interval()), 10*time.Minute)
}

// Service sends commands and follows them.
type Service struct {
	o    Options
	link atomic.Pointer[linkBox]

	// open holds the devices with open commands, so the device link checks
	// a map, not the database, for each of thousands of reports. The value
	// is a generation: forgetting a device races with a new command.
	open sync.Map // device id → uint64
	gen  atomic.Uint64
	// locks serializes deliveries per device.
	locks sync.Map // device id → *sync.Mutex
	// sent holds commands handed to a link and not yet known delivered, so
	// a second trigger does not send them twice meanwhile.
	sent sync.Map // command id → time.Time

	// Deliveries learnt of wait here for their write, which takes all that
	// gathered meanwhile in one statement.
	dmu       sync.Mutex
	delivered map[int64]time.Time
	dwriting  bool
	unwritten sync.Map // command id → time.Time, until written
}

type linkBox struct{ Link }

// New returns the service.
func New(o Options) *Service {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.TTL == nil {
		o.TTL = DefaultTTL
	}
	return &Service{o: o}
}

// SetLink sets the device link commands go out through (the broker is
// started after the service). Without one, commands wait for the device's
// next HTTP report.
func (s *Service) SetLink(l Link) {
	if l == nil {
		s.link.Store(nil)
		return
	}
	s.link.Store(&linkBox{l})
}

// Sender is who sends a command: an account, through a part of the product.
type Sender struct {
	Account int64
	Source  Source
}

// Send validates a command against the device's type, records it and hands
// it to the device, or queues it until the device is next reachable. The
// sender must hold the control right. Returns ENOTFOUND (a device the
// sender cannot see), EFORBIDDEN (device.noModifyRight), EINVALID
// (name: command.unknown; params…: devices.CommandDef.Check's codes).
func (s *Service) Send(ctx context.Context, by Sender, deviceID int64, name string, params json.RawMessage) (*Command, error) {
	d, _, err := s.o.Devices.Authorize(ctx, by.Account, deviceID, devices.NeedControl)
	if err != nil {
		return nil, err
	}
	return s.SendAuthorized(ctx, by, d, name, params)
}

// SendAuthorized is Send for a device the caller has authorized already.
func (s *Service) SendAuthorized(ctx context.Context, by Sender, d *devices.Device, name string, params json.RawMessage) (*Command, error) {
	t := d.Type()
	var def *devices.CommandDef
	if t != nil {
		def, _ = t.Command(name)
	}
	if def == nil {
		return nil, errs.Invalid("name", "command.unknown")
	}
	p, err := def.Check(params)
	if err != nil {
		return nil, err
	}
	// Submitted, checked and queued for the device in one write: it is
	// recorded pending before it goes out, since the acknowledgement may
	// come back before this call returns.
	now := s.o.Now()
	c := &Command{DeviceID: d.ID, Name: name, Params: p, By: by.Account, Source: by.Source,
		State: StatePending, SubmittedAt: now, PendingAt: &now, ExpiresAt: now.Add(s.o.TTL(d))}
	if err := s.o.Store.CreateCommand(ctx, c); err != nil {
		return nil, err
	}
	s.open.Store(d.ID, s.gen.Add(1))
	s.Flush(ctx, d)
	return s.o.Store.FindCommand(ctx, d.ID, c.ID)
}

// List returns a page of a device's commands, newest first, with the total.
// Returns ENOTFOUND, EFORBIDDEN as Send.
func (s *Service) List(ctx context.Context, viewer, deviceID int64, offset, limit int) ([]*Command, int, error) {
	if _, _, err := s.o.Devices.Authorize(ctx, viewer, deviceID, devices.NeedControl); err != nil {
		return nil, 0, err
	}
	return s.o.Store.DeviceCommands(ctx, deviceID, offset, limit)
}

// ListAuthorized is List for a device the caller has authorized already
// (the unified portal, whose link is its authorization).
func (s *Service) ListAuthorized(ctx context.Context, d *devices.Device, offset, limit int) ([]*Command, int, error) {
	return s.o.Store.DeviceCommands(ctx, d.ID, offset, limit)
}

// Get returns one command of a device. Returns ENOTFOUND (the device, or
// no such command of it), EFORBIDDEN as Send.
func (s *Service) Get(ctx context.Context, viewer, deviceID, id int64) (*Command, error) {
	if _, _, err := s.o.Devices.Authorize(ctx, viewer, deviceID, devices.NeedControl); err != nil {
		return nil, err
	}
	return s.o.Store.FindCommand(ctx, deviceID, id)
}

// HasOpen reports whether the device may have commands waiting.
func (s *Service) HasOpen(deviceID int64) bool {
	_, ok := s.open.Load(deviceID)
	return ok
}

func (s *Service) lock(deviceID int64) *sync.Mutex {
	m, _ := s.locks.LoadOrStore(deviceID, &sync.Mutex{})
	return m.(*sync.Mutex)
}

// Flush hands the device's queued commands to the link: called when a
// command is sent, when the device connects or subscribes, and on each of
// its uplinks. Commands already delivered, or sent and awaiting their
// delivery, are not sent again. Errors are logged: the commands stay queued.
func (s *Service) Flush(ctx context.Context, d *devices.Device) {
	box := s.link.Load()
	if box == nil || !s.HasOpen(d.ID) {
		return
	}
	gen, _ := s.open.Load(d.ID)
	mu := s.lock(d.ID)
	mu.Lock()
	defer mu.Unlock()
	open, err := s.o.Store.OpenCommands(ctx, d.ID)
	if err != nil {
		s.o.Log.Warn("open commands", "sn", d.SN, "err", err)
		return
	}
	if len(open) == 0 {
		s.open.CompareAndDelete(d.ID, gen)
		return
	}
	now := s.o.Now()
	for _, c := range open {
		if c.DeliveredAt != nil {
			continue
		}
		if at, ok := s.sent.Load(c.ID); ok && now.Sub(at.(time.Time)) < resendAfter {
			continue
		}
		s.sent.Store(c.ID, now)
		sent, err := box.Deliver(ctx, d.SN, c)
		if err != nil || !sent {
			s.sent.Delete(c.ID)
			if err != nil {
				s.o.Log.Warn("deliver command", "sn", d.SN, "command", c.ID, "err", err)
			}
			return // not connected: the rest waits too, in order
		}
	}
}

// resendAfter is how long a command handed to the link without news of its
// delivery is left alone before a trigger sends it again (a connection that
// died with it in flight).
const resendAfter = 30 * time.Second

// Forget drops what the service remembers of commands sent on a connection
// that closed: they were not delivered, and go out again on the next
// trigger.
func (s *Service) Forget(ids []int64) {
	for _, id := range ids {
		s.sent.Delete(id)
	}
}

// Delivered records that the device received the command (its PUBACK).
func (s *Service) Delivered(ctx context.Context, id int64) { s.DeliveredAt(ctx, id, s.o.Now()) }

// DeliveredAt is Delivered for a delivery learnt of at a given time. The
// write happens aside, together with the other deliveries that come
// meanwhile; an acknowledgement that comes first records the time with it.
func (s *Service) DeliveredAt(_ context.Context, id int64, at time.Time) {
	s.sent.Delete(id)
	s.unwritten.Store(id, at)
	s.dmu.Lock()
	if s.delivered == nil {
		s.delivered = map[int64]time.Time{}
	}
	s.delivered[id] = at
	start := !s.dwriting
	s.dwriting = true
	s.dmu.Unlock()
	if start {
		go s.writeDeliveries()
	}
}

// writeDeliveries writes the gathered deliveries until none are left.
func (s *Service) writeDeliveries() {
	for {
		s.dmu.Lock()
		batch := s.delivered
		s.delivered = nil
		if len(batch) == 0 {
			s.dwriting = false
			s.dmu.Unlock()
			return
		}
		s.dmu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := s.o.Store.MarkCommandsDelivered(ctx, batch); err != nil {
			s.o.Log.Warn("commands delivered", "commands", len(batch), "err", err)
		}
		cancel()
		for id := range batch {
			s.unwritten.Delete(id)
		}
	}
}

// ForHTTP returns the device's open commands for the answer to its HTTP
// report, and records them delivered. They ride in every answer until the
// device acknowledges them (or they expire): a lost answer loses nothing,
// and the device skips an id it has already carried out.
func (s *Service) ForHTTP(ctx context.Context, d *devices.Device) ([]Wire, error) {
	gen, ok := s.open.Load(d.ID)
	if !ok {
		return []Wire{}, nil
	}
	open, err := s.o.Store.OpenCommands(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	if len(open) == 0 {
		s.open.CompareAndDelete(d.ID, gen)
	}
	out := make([]Wire, 0, len(open))
	fresh := map[int64]time.Time{}
	now := s.o.Now()
	for _, c := range open {
		out = append(out, c.Wire())
		if c.DeliveredAt == nil {
			fresh[c.ID] = now
		}
	}
	if len(fresh) > 0 {
		if err := s.o.Store.MarkCommandsDelivered(ctx, fresh); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// MaxReason bounds the reason a device gives for a failure, in characters.
const MaxReason = 200

// Ack is a device's answer to a command, on devices/{sn}/commands/ack or
// POST /ingest/v1/commands/ack.
type Ack struct {
	ID     int64  `json:"id"`
	Result string `json:"result"` // ok or failed
	Reason string `json:"reason"` // with failed: why, in the device's words
}

// Results of an Ack.
const (
	ResultOK     = "ok"
	ResultFailed = "failed"
)

// HandleAck applies a device's acknowledgement. An acknowledgement sent
// again (its PUBACK was lost) changes nothing. Returns EINVALID with an
// ingest code (ingest.tooLarge, ingest.malformed, ingest.wrongShape,
// ingest.badAck, ingest.unknownCommand) naming the field.
func (s *Service) HandleAck(ctx context.Context, d *devices.Device, payload []byte) (*Command, error) {
	if len(payload) > MaxAck {
		return nil, errs.PayloadInvalid("", "ingest.tooLarge", map[string]any{"max": MaxAck})
	}
	var a Ack
	dec := json.NewDecoder(bytes.NewReader(payload))
	if err := dec.Decode(&a); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, errs.PayloadInvalid(te.Field, "ingest.wrongShape", nil)
		}
		return nil, errs.PayloadInvalid("", "ingest.malformed", nil)
	}
	if dec.More() {
		return nil, errs.PayloadInvalid("", "ingest.malformed", nil)
	}
	if a.ID <= 0 {
		return nil, errs.PayloadInvalid("id", "ingest.unknownCommand", nil)
	}
	state, code := StateEffective, ""
	switch a.Result {
	case ResultOK:
		a.Reason = ""
	case ResultFailed:
		state, code = StateFailed, ReasonDevice
		if utf8.RuneCountInString(a.Reason) > MaxReason || !utf8.ValidString(a.Reason) {
			return nil, errs.PayloadInvalid("reason", "ingest.tooLarge", map[string]any{"max": MaxReason})
		}
	default:
		return nil, errs.PayloadInvalid("result", "ingest.badAck", nil)
	}
	now := s.o.Now()
	delivered := now
	if at, ok := s.unwritten.Load(a.ID); ok {
		delivered = at.(time.Time) // its PUBACK, not yet written
	}
	c, err := s.o.Store.FinishCommand(ctx, d.ID, a.ID, state, ByAck, code, a.Reason, now, delivered)
	if errs.KindOf(err) == errs.ENotFound {
		return nil, errs.PayloadInvalid("id", "ingest.unknownCommand", nil)
	}
	s.sent.Delete(a.ID)
	return c, err
}

// MaxAck bounds an acknowledgement's payload.
const MaxAck = 1 << 10

// Reported confirms the device's open commands that a report shows in
// force (a valve reported open after "open"). values gives the report's
// readings by parameter.
func (s *Service) Reported(ctx context.Context, d *devices.Device, at time.Time, value func(param string) (float64, bool)) {
	if !s.HasOpen(d.ID) {
		return
	}
	t := d.Type()
	if t == nil {
		return
	}
	open, err := s.o.Store.OpenCommands(ctx, d.ID)
	if err != nil {
		s.o.Log.Warn("open commands", "sn", d.SN, "err", err)
		return
	}
	// Only the newest command of a kind can be in force: an "open" followed
	// by "close" is not confirmed by the valve reported closed.
	var last *Command
	for _, c := range open {
		def, ok := t.Command(c.Name)
		if !ok || def.Confirms == nil {
			continue
		}
		last = c
	}
	if last == nil || last.DeliveredAt == nil || at.Before(last.DeliveredAt.Add(-time.Second)) {
		return
	}
	def, _ := t.Command(last.Name)
	if def.Confirms(last.Params, value) {
		now := s.o.Now()
		if _, err := s.o.Store.FinishCommand(ctx, d.ID, last.ID, StateEffective, ByReport, "", "", now, now); err != nil {
			s.o.Log.Warn("confirm command", "sn", d.SN, "command", last.ID, "err", err)
		}
	}
}

// Expire ends the open commands whose time to live passed by now: not
// delivered (the device never came), or delivered and never acknowledged.
func (s *Service) Expire(ctx context.Context, now time.Time) (int64, error) {
	return s.o.Store.ExpireCommands(ctx, now, ReasonNotDelivered, ReasonNoAck)
}

// Run expires commands and refreshes the devices with open commands (which
// another node of a PostgreSQL deployment may have sent) every few seconds
// until ctx ends.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		if _, err := s.Expire(ctx, s.o.Now()); err != nil && ctx.Err() == nil {
			s.o.Log.Warn("expire commands", "err", err)
		}
		if ids, err := s.o.Store.DevicesWithOpenCommands(ctx); err == nil {
			for _, id := range ids {
				if _, ok := s.open.Load(id); !ok {
					s.open.Store(id, s.gen.Add(1))
				}
			}
		} else if ctx.Err() == nil {
			s.o.Log.Warn("devices with open commands", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Load reads which devices have open commands; call once at start.
func (s *Service) Load(ctx context.Context) error {
	ids, err := s.o.Store.DevicesWithOpenCommands(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		s.open.Store(id, s.gen.Add(1))
	}
	return nil
}
