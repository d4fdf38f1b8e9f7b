package app

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
)

// The demo login printed by `make run` and used by the browser tests.
const (
	DemoAccount  = "demo01"
	DemoMail     = "demo01@fieldwatch.example"
	DemoPassword = "demo123456"
	demoName     = "示范农场"
)

// demoPerType is how many demo devices of each type the farm has.
const demoPerType = 2

// demoHistoryStep is the spacing of the demo's history.
const demoHistoryStep = 10 * time.Minute

// backfillWindow is how many history reports of one demo device are queued
// at once.
const backfillWindow = 64

// seedDemo creates what --demo promises, leaving anything that exists alone:
// the demo account and its fleet, at least demoPerType devices of every type.
func seedDemo(ctx context.Context, m *Main) error {
	created, err := m.Accounts.EnsureAccount(ctx, DemoAccount, DemoPassword, demoName)
	if err != nil {
		return err
	}
	if created {
		m.Log.Info("demo account created", "account", DemoAccount)
	}
	a, err := m.DB.FindAccountByNumber(ctx, DemoAccount)
	if err != nil {
		return err
	}
	// Alert e-mails of the demo account go to a reserved address (RFC 2606):
	// with --smtp-url they reach that server; nothing is sent anywhere else.
	if a.Mail == "" {
		if err := m.DB.UpdateAccountMail(ctx, a.ID, DemoMail); err != nil {
			return err
		}
	}
	n := 0
	for _, t := range devices.Types() {
		for i := range demoPerType {
			n++
			sn := demoSN(t.ID, n)
			lat, lng := simulator.Place(simulator.DefaultRegion, n, int64(n))
			_, _, err := m.Devices.Register(ctx, devices.New{SN: sn, TypeID: t.ID, Owner: a.ID, Lat: &lat, Lng: &lng,
				Name: fmt.Sprintf("%s-%02d", t.Model, i+1)})
			if err != nil && errs.KindOf(err) != errs.EConflict {
				return fmt.Errorf("demo device %s: %w", sn, err)
			}
			if t.Slave != nil {
				slave := demoSlaveSN(sn)
				_, _, err := m.Devices.Register(ctx, devices.New{SN: slave, TypeID: t.ID, Slave: true, HostSN: sn,
					Lat: &lat, Lng: &lng, Name: fmt.Sprintf("%s-%02d", t.Slave.Model, i+1)})
				if err != nil && errs.KindOf(err) != errs.EConflict {
					return fmt.Errorf("demo device %s: %w", slave, err)
				}
			}
		}
	}
	return nil
}

// demoSN numbers demo devices across types, so the last five digits of
// each SN (what users search by) are distinct.
func demoSN(typeID, n int) string { return fmt.Sprintf("DM%02d%06d", typeID, n) }

func demoSlaveSN(host string) string { return host + "-S1" }

// demoDevice is one device of the demo fleet with its simulation.
type demoDevice struct {
	dev *devices.Device
	key string
	sim *simulator.Sim
}

// runDemoFleet fills each demo device's history up to now through the
// ingest pipeline (the last --demo-days, or the gap since the device last
// reported), then publishes live reports over MQTT to the embedded broker
// until ctx ends.
func (m *Main) runDemoFleet(ctx context.Context) {
	defer close(m.demoDone)
	fleet, err := m.demoFleet(ctx)
	if err != nil {
		if ctx.Err() == nil {
			m.Log.Error("demo fleet", "err", err)
		}
		return
	}
	start := time.Now()
	points := m.backfill(ctx, fleet)
	if ctx.Err() != nil {
		return
	}
	close(m.demoLoaded)
	m.Log.Info("demo history loaded", "devices", len(fleet), "readings", points, "took", time.Since(start).Round(time.Millisecond))

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
	err = simulator.Run(ctx, simulator.Options{Broker: "tcp://" + loopback(m.MQTTAddr()), Interval: m.Config.DemoInterval,
		QoS: 1, Log: m.Log.With("component", "demo")}, creds)
	if err != nil && ctx.Err() == nil {
		m.Log.Error("demo fleet", "err", err)
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

// demoFleet loads the demo account's devices with their keys.
func (m *Main) demoFleet(ctx context.Context) ([]*demoDevice, error) {
	a, err := m.DB.FindAccountByNumber(ctx, DemoAccount)
	if err != nil {
		return nil, err
	}
	list, err := m.Devices.All(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	var fleet []*demoDevice
	for i, d := range list {
		_, key, err := m.Devices.Credentials(ctx, a.ID, d.ID)
		if err != nil {
			return nil, err
		}
		sd := simulator.Device{SN: d.SN, Type: d.Type(), Seed: int64(d.ID)}
		if d.Lat != nil && d.Lng != nil {
			sd.Lat, sd.Lng = *d.Lat, *d.Lng
		} else {
			sd.Lat, sd.Lng = simulator.Place(simulator.DefaultRegion, i, int64(d.ID))
		}
		fleet = append(fleet, &demoDevice{dev: d, key: key, sim: simulator.New(sd)})
	}
	return fleet, nil
}

// backfill writes each device's missing history through the pipeline, one
// goroutine per device, each keeping up to backfillWindow reports in flight
// (as a device catching up over MQTT may), so the writer commits them in
// large batches.
func (m *Main) backfill(ctx context.Context, fleet []*demoDevice) int {
	now := time.Now()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		points int
	)
	for _, d := range fleet {
		from := now.Add(-time.Duration(m.Config.DemoDays) * 24 * time.Hour).Truncate(demoHistoryStep)
		if d.dev.LastReportAt != nil && d.dev.LastReportAt.After(from) {
			from = d.dev.LastReportAt.Add(demoHistoryStep).Truncate(demoHistoryStep)
		}
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
							m.Log.Error("demo history", "sn", d.dev.SN, "err", err)
						}
						return false
					}
					window = window[1:]
				}
				return true
			}
			for at := from; at.Before(now) && ctx.Err() == nil; at = at.Add(demoHistoryStep) {
				window = append(window, m.Ingest.Submit(ctx, ingest.HTTP, d.dev, ingest.KindTelemetry, d.sim.Telemetry(at)))
				if !settle(backfillWindow - 1) {
					return
				}
				n += d.sim.Points()
				// A status message and, from cameras, an image each midday; the
				// latest status at the end, after the readings it follows.
				last := at.Add(demoHistoryStep).After(now)
				if noon := at.Minute() == 0 && at.Hour() == 12; noon || last {
					if last && !settle(0) {
						return
					}
					if err := m.Ingest.Handle(ctx, ingest.HTTP, d.dev, ingest.KindStatus, d.sim.Status(at)); err != nil && ctx.Err() == nil {
						m.Log.Warn("demo status", "sn", d.dev.SN, "err", err)
					}
					if img := d.sim.Image(at); img != nil && noon {
						if err := m.Ingest.HandleAt(ctx, ingest.HTTP, d.dev, ingest.KindImage, img, at); err != nil && ctx.Err() == nil {
							m.Log.Warn("demo image", "sn", d.dev.SN, "err", err)
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
