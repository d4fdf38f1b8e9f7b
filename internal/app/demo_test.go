package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/demo"
	"github.com/fieldwatch/fieldwatch/internal/devices"
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

func TestMain_DemoFleet(t *testing.T) {
	cfg := serveConfig(t)
	cfg.DemoDays, cfg.DemoInterval = 1, time.Second
	m := start(t, cfg)
	ctx := context.Background()
	a, err := m.DB.FindAccountByNumber(ctx, demo.Account)
	if err != nil {
		t.Fatal(err)
	}
	list, err := m.Devices.All(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
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
