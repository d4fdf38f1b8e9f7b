// Package demo is the demo farm of `fieldwatch serve --demo`: an account,
// a fleet of every device type with days of simulated history, soil
// settings, alert rules with past events, a data-push channel to a receiver
// in the process, an open-API application, an AI lab application counting
// the traps' insects with the built-in model, and live reports from the
// fleet over MQTT while the server runs.
package demo

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/openapi"
	"github.com/fieldwatch/fieldwatch/internal/push"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

// The demo login printed by `make run` and used by the browser tests.
const (
	Account  = "demo01"
	Mail     = "demo01@fieldwatch.example"
	Password = "demo123456"
	name     = "示范农场"
)

// perType is how many demo devices of each type the farm has.
const perType = 2

// historyStep is the spacing of the demo's history.
const historyStep = 10 * time.Minute

// backfillWindow is how many history reports of one demo device are queued
// at once.
const backfillWindow = 64

// Store is what the demo reads and writes besides the services.
type Store interface {
	FindAccountByNumber(ctx context.Context, number string) (*accounts.Account, error)
	UpdateAccountMail(ctx context.Context, id int64, mail string) error
}

// Options configure the demo farm.
type Options struct {
	Accounts *accounts.Service
	Devices  *devices.Service
	Store    Store
	Ingest   *ingest.Pipeline
	// Optional: without one, Seed leaves that part of the console empty.
	Soil     *soil.Service
	Rules    *rules.Service
	Push     *push.Service
	OpenAPI  *openapi.Service
	Lab      LabStore      // the AI lab's models and applications
	Receiver *Receiver     // where the demo's push channel delivers (with Push)
	Broker   string        // the embedded broker's address, which the live reports go to
	Days     int           // days of history the fleet starts with
	Interval time.Duration // between live reports of each device
	// Location is the farm's zone (--timezone): cameras take the day's picture
	// at noon on its clock. Nil is UTC.
	Location *time.Location
	Log      *slog.Logger
}

// Farm is the demo farm: Seed creates it, Run keeps it reporting.
type Farm struct {
	Options
	loaded chan struct{}
}

// farmNoon tells whether at is 12:00 on the farm's clock.
func farmNoon(at time.Time, loc *time.Location) bool {
	if loc == nil {
		loc = time.UTC
	}
	local := at.In(loc)
	return local.Hour() == 12 && local.Minute() == 0
}

// New returns the demo farm.
func New(o Options) *Farm { return &Farm{Options: o, loaded: make(chan struct{})} }

// Loaded is closed once Run has stored the fleet's history.
func (f *Farm) Loaded() <-chan struct{} { return f.loaded }

// Seed creates what --demo promises, leaving anything that exists alone:
// the demo account and its fleet, at least perType devices of every type,
// and what shows the rest of the console (features).
func (f *Farm) Seed(ctx context.Context) error {
	created, err := f.Accounts.EnsureAccount(ctx, Account, Password, name)
	if err != nil {
		return err
	}
	if created {
		f.Log.Info("demo account created", "account", Account)
	}
	a, err := f.Store.FindAccountByNumber(ctx, Account)
	if err != nil {
		return err
	}
	// Alert e-mails of the demo account go to a reserved address (RFC 2606):
	// with --smtp-url they reach that server; nothing is sent anywhere else.
	if a.Mail == "" {
		if err := f.Store.UpdateAccountMail(ctx, a.ID, Mail); err != nil {
			return err
		}
	}
	for _, s := range seeded() {
		lat, lng := simulator.Place(simulator.DefaultRegion, s.n, int64(s.n))
		reg := devices.Registration{SN: s.sn, TypeID: s.t.ID, Owner: a.ID, Lat: &lat, Lng: &lng,
			Name: fmt.Sprintf("%s-%02d", s.t.Model, s.i+1)}
		if s.host != "" {
			reg = devices.Registration{SN: s.sn, TypeID: s.t.ID, Slave: true, HostSN: s.host,
				Lat: &lat, Lng: &lng, Name: fmt.Sprintf("%s-%02d", s.t.Slave.Model, s.i+1)}
		}
		if _, _, err := f.Devices.Register(ctx, reg); err != nil && errs.KindOf(err) != errs.EConflict {
			return fmt.Errorf("demo device %s: %w", s.sn, err)
		}
	}
	if err := f.seedFree(ctx); err != nil {
		return err
	}
	own, err := f.own(ctx, a.ID)
	if err != nil {
		return err
	}
	return f.features(ctx, a.ID, own)
}

// Free lists the demo's unowned devices: on the shelf, waiting to be bound
// by whoever holds their label, so adding a device can be tried. They do
// not report.
var Free = []struct {
	SN     string
	TypeID int
}{{"FREE02000001", 2}, {"FREE05000002", 5}}

// seedFree registers the free devices that are missing, and logs their
// label codes.
func (f *Farm) seedFree(ctx context.Context) error {
	for _, d := range Free {
		if _, _, err := f.Devices.Register(ctx, devices.Registration{SN: d.SN, TypeID: d.TypeID}); err != nil && errs.KindOf(err) != errs.EConflict {
			return fmt.Errorf("demo free device %s: %w", d.SN, err)
		}
		f.Log.Info("demo device waiting to be bound", "sn", d.SN, "label", f.Devices.LabelCode(d.SN))
	}
	return nil
}

// seed is one device the demo registers: the i-th of its type t, the n-th
// of the fleet; a slave names its host.
type seed struct {
	sn   string
	t    *devices.Type
	i, n int
	host string
}

// seeded lists the demo's own devices, hosts before their slaves. The list
// depends on nothing but the device types, so after a restart the demo
// knows its fleet by these serial numbers, and never simulates a device a
// user registered to the demo account.
func seeded() []seed {
	var out []seed
	n := 0
	for _, t := range devices.Types() {
		for i := range perType {
			n++
			sn := serial(t.ID, n)
			out = append(out, seed{sn: sn, t: t, i: i, n: n})
			if t.Slave != nil {
				out = append(out, seed{sn: slaveSerial(sn), t: t, i: i, n: n, host: sn})
			}
		}
	}
	return out
}

// serial numbers demo devices across types, so the last five digits of
// each SN (what users search by) are distinct.
func serial(typeID, n int) string { return fmt.Sprintf("DM%02d%06d", typeID, n) }

func slaveSerial(host string) string { return host + "-S1" }

// member is one device of the demo fleet with its simulation.
type member struct {
	dev *devices.Device
	key string
	sim *simulator.Sim
}

// Run fills each demo device's history up to now through the ingest
// pipeline (the last Days, or the gap since the device last reported), then
// publishes live reports over MQTT to the embedded broker until ctx ends.
func (f *Farm) Run(ctx context.Context) {
	fleet, err := f.fleet(ctx)
	if err != nil {
		if ctx.Err() == nil {
			f.Log.Error("demo fleet", "err", err)
		}
		return
	}
	start := time.Now()
	points := f.backfill(ctx, fleet)
	if ctx.Err() != nil {
		return
	}
	close(f.loaded)
	f.Log.Info("demo history loaded", "devices", len(fleet), "readings", points, "took", time.Since(start).Round(time.Millisecond))

	// Hosts publish their slaves' reports on their own connection.
	var creds []simulator.Cred
	byID := map[int64]*simulator.Cred{}
	for _, d := range fleet {
		if d.dev.Slave {
			continue
		}
		creds = append(creds, simulator.Cred{SN: d.dev.SN, Key: d.key, Sim: d.sim})
	}
	for i := range creds {
		for _, d := range fleet {
			if d.dev.SN == creds[i].SN {
				byID[d.dev.ID] = &creds[i]
			}
		}
	}
	for _, d := range fleet {
		if d.dev.Slave {
			if host := byID[d.dev.HostID]; host != nil {
				host.Slaves = append(host.Slaves, d.sim)
			}
		}
	}
	err = simulator.Run(ctx, simulator.Options{Broker: "tcp://" + loopback(f.Broker), Interval: f.Interval,
		QoS: 1, Log: f.Log.With("component", "demo")}, creds)
	if err != nil && ctx.Err() == nil {
		f.Log.Error("demo fleet", "err", err)
	}
}

// loopback turns a listen address such as [::]:1883 into one to dial.
func loopback(addr string) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// own returns the demo's own devices: those Seed registers, as far as the
// demo account still owns them. Devices a user registered to the demo
// account are not the demo's to simulate: connecting as one would take over
// the real device's MQTT session.
func (f *Farm) own(ctx context.Context, account int64) ([]*devices.Device, error) {
	list, err := f.Devices.All(ctx, account)
	if err != nil {
		return nil, err
	}
	mine := map[string]bool{}
	for _, s := range seeded() {
		mine[s.sn] = true
	}
	var out []*devices.Device
	for _, d := range list {
		if mine[d.SN] {
			out = append(out, d)
		}
	}
	return out, nil
}

// fleet loads the demo's own devices with their keys.
func (f *Farm) fleet(ctx context.Context) ([]*member, error) {
	a, err := f.Store.FindAccountByNumber(ctx, Account)
	if err != nil {
		return nil, err
	}
	list, err := f.own(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	var fleet []*member
	for i, d := range list {
		_, key, err := f.Devices.Credentials(ctx, a.ID, d.ID)
		if err != nil {
			return nil, err
		}
		fleet = append(fleet, &member{dev: d, key: key, sim: simOf(d, i)})
	}
	return fleet, nil
}

// simOf is the simulation of d, the i-th of the fleet.
func simOf(d *devices.Device, i int) *simulator.Sim {
	sd := simulator.Device{SN: d.SN, Type: d.Type(), Seed: int64(d.ID)}
	if d.Lat != nil && d.Lng != nil {
		sd.Lat, sd.Lng = *d.Lat, *d.Lng
	} else {
		sd.Lat, sd.Lng = simulator.Place(simulator.DefaultRegion, i, int64(d.ID))
	}
	return simulator.New(sd)
}

// backfillFrom is the time of d's first missing history report: days
// before now, or the step after its last report.
func backfillFrom(now time.Time, days int, d *devices.Device) time.Time {
	from := now.Add(-time.Duration(days) * 24 * time.Hour).Truncate(historyStep)
	if d.LastReportAt != nil && d.LastReportAt.After(from) {
		from = d.LastReportAt.Add(historyStep).Truncate(historyStep)
	}
	return from
}

// backfill writes each device's missing history through the pipeline, one
// goroutine per device, each keeping up to backfillWindow reports in flight
// (as a device catching up over MQTT may), so the writer commits them in
// large batches.
func (f *Farm) backfill(ctx context.Context, fleet []*member) int {
	now := time.Now()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		points int
	)
	for _, d := range fleet {
		from := backfillFrom(now, f.Days, d.dev)
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			var window []func() error
			// settle waits until at most k reports are in flight.
			settle := func(k int) bool {
				for len(window) > k {
					if err := window[0](); err != nil {
						if ctx.Err() == nil {
							f.Log.Error("demo history", "sn", d.dev.SN, "err", err)
						}
						return false
					}
					window = window[1:]
				}
				return true
			}
			for at := from; at.Before(now) && ctx.Err() == nil; at = at.Add(historyStep) {
				window = append(window, f.Ingest.Submit(ctx, ingest.HTTP, d.dev, ingest.KindTelemetry, d.sim.Telemetry(at)))
				if !settle(backfillWindow - 1) {
					return
				}
				n += d.sim.Points()
				// A status message and, from cameras, an image each midday; the
				// latest status at the end, after the readings it follows.
				last := at.Add(historyStep).After(now)
				if noon := farmNoon(at, f.Location); noon || last {
					if last && !settle(0) {
						return
					}
					if err := f.Ingest.Handle(ctx, ingest.HTTP, d.dev, ingest.KindStatus, d.sim.Status(at)); err != nil && ctx.Err() == nil {
						f.Log.Warn("demo status", "sn", d.dev.SN, "err", err)
					}
					if img := d.sim.Image(at); img != nil && noon {
						if err := f.Ingest.HandleAt(ctx, ingest.HTTP, d.dev, ingest.KindImage, img, at); err != nil && ctx.Err() == nil {
							f.Log.Warn("demo image", "sn", d.dev.SN, "err", err)
						}
					}
				}
			}
			if !settle(0) {
				return
			}
			mu.Lock()
			points += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	return points
}
