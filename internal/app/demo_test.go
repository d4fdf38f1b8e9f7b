package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/demo/demotest"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/push"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// waitFor polls cond until it holds or ctx ends (a guard against hanging,
// not a timing assertion).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("gave up waiting: %s", what)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// startDemo starts the server with a day of demo history and live reports
// every interval, and returns the demo account and its devices.
func startDemo(t *testing.T, interval time.Duration) (*app.Main, *accounts.Account, []*devices.Device) {
	t.Helper()
	cfg := serveConfig(t)
	cfg.DemoDays, cfg.DemoInterval = 1, interval
	m := start(t, cfg)
	a, list := demotest.Fleet(t, m.DB, m.Devices)
	return m, a, list
}

func TestMain_DemoFleet(t *testing.T) {
	m, _, list := startDemo(t, time.Second)
	ctx := context.Background()
	perType := map[int]int{}
	slaves := 0
	for _, d := range list {
		if d.Slave {
			slaves++
			continue
		}
		perType[d.TypeID]++
		if d.Lat == nil || d.Lng == nil {
			t.Errorf("%s has no coordinates", d.SN)
		}
	}
	for _, ty := range devices.Types() {
		if perType[ty.ID] < 2 {
			t.Errorf("type %d: %d demo devices, want at least 2", ty.ID, perType[ty.ID])
		}
	}
	if slaves < 2 {
		t.Errorf("%d slaves, want the LQS001 of each LQM001 host", slaves)
	}

	// A day of 10-minute history lands for every device (slaves included),
	// then live reports keep coming over MQTT.
	for _, d := range list {
		waitFor(t, "history of "+d.SN, func() bool {
			rs, err := m.DB.Readings(ctx, telemetry.Query{DeviceID: d.ID, Params: []string{"battery"},
				Begin: time.Now().Add(-25 * time.Hour), End: time.Now().Add(time.Minute)})
			return err == nil && len(rs) >= 140
		})
	}
	soil := list[0]
	before, _ := m.DB.FindDeviceByID(ctx, soil.ID)
	waitFor(t, "a live report", func() bool {
		d, err := m.DB.FindDeviceByID(ctx, soil.ID)
		return err == nil && d.LastReportAt != nil && before.LastReportAt != nil && d.LastReportAt.After(*before.LastReportAt) &&
			d.StatusAt(time.Now()) != devices.StatusOffline
	})
	// Daily rollups answer for the history.
	days, err := m.DB.Days(ctx, telemetry.Query{DeviceID: soil.ID, Begin: time.Now().Add(-48 * time.Hour), End: time.Now()})
	if err != nil || len(days) == 0 {
		t.Fatalf("daily rollups: %v %v", days, err)
	}
}

// The demo shows every part of the console: soil settings on every soil
// device, alert rules with events from the backfilled history (made by the
// rules engine as the history was stored), a push channel delivering to the
// receiver inside the process (past the push guard, without
// --push-allow-private), and a published open-API application.
func TestMain_DemoFeatures(t *testing.T) {
	m, a, list := startDemo(t, time.Minute)
	ctx := context.Background()
	soilDevices := 0
	for _, d := range list {
		c, err := m.Soil.Settings(ctx, d)
		if errs.KindOf(err) == errs.EInvalid {
			continue
		}
		soilDevices++
		if err != nil || !c.Configured || c.Settings.CropType == "" {
			t.Errorf("%s (type %d): settings %+v %v", d.SN, d.TypeID, c, err)
		}
	}
	if soilDevices < 2 {
		t.Errorf("%d soil devices", soilDevices)
	}

	rs, n, err := m.Rules.List(ctx, a.ID, 1, 100)
	if err != nil || n < 2 {
		t.Fatalf("rules: %d %v", n, err)
	}
	<-m.DemoLoaded()
	for _, r := range rs {
		waitFor(t, "events of rule "+r.Name, func() bool {
			evs, total, err := m.Rules.Events(ctx, a.ID, rules.EventFilter{RuleID: r.ID, Page: 1, Size: 10})
			return err == nil && total > 0 && evs[0].At.Before(time.Now().Add(-10*time.Minute))
		})
	}

	channels, err := m.Push.List(ctx, a.ID, push.KindChannel)
	if err != nil || len(channels) != 1 || !channels[0].Enabled || !strings.HasPrefix(channels[0].URL, "http://127.0.0.1:") {
		t.Fatalf("push channels: %+v %v", channels, err)
	}
	waitFor(t, "deliveries to the demo's receiver", func() bool {
		ds, _, err := m.Push.Log(ctx, push.LogFilter{OwnerID: a.ID, ChannelID: channels[0].ID, Status: push.StatusSuccess,
			Since: time.Now().Add(-48 * time.Hour), Limit: 5})
		return err == nil && len(ds) == 5
	})

	apps, err := m.OpenAPI.List(ctx, a.ID)
	if err != nil || len(apps) != 1 || !apps[0].Published || !apps[0].AllDevices {
		t.Fatalf("open-API applications: %+v %v", apps, err)
	}

	// The AI lab application counts the moths of every trap's pictures from
	// the start: a record and a detectCount reading per backfilled noon.
	labApps, err := m.DB.LabApps(ctx, a.ID)
	if err != nil || len(labApps) != 1 || !labApps[0].Published || len(labApps[0].DeviceIDs) < 2 {
		t.Fatalf("AI lab applications: %+v %v", labApps, err)
	}
	for _, id := range labApps[0].DeviceIDs {
		waitFor(t, "detection records of every trap", func() bool {
			_, n, err := m.DB.Records(ctx, a.ID, ailab.RecordFilter{DeviceID: id})
			return err == nil && n > 0
		})
		recs, _, _ := m.DB.Records(ctx, a.ID, ailab.RecordFilter{DeviceID: id, Limit: 1})
		series, err := m.DB.Series(ctx, telemetry.Query{DeviceID: id, Params: []string{"detectCount"},
			Begin: recs[0].DetectedAt, End: recs[0].DetectedAt.Add(time.Second)})
		if err != nil || len(series) != 1 || series[0].V[0] != recs[0].Packages[0].Valid {
			t.Errorf("trap %d: reading %+v for record %+v (%v)", id, series, recs[0], err)
		}
	}
}
