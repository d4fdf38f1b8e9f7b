package ingest_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

func TestParseTopic(t *testing.T) {
	for topic, ok := range map[string]bool{
		"devices/LQ0000001/telemetry":    true,
		"devices/LQ0000001/status":       true,
		"devices/LQ0000001/image":        true,
		"devices/LQ0000001/commands":     false,
		"devices/LQ0000001/commands/ack": true,
		"devices/LQ0000001/commands/x":   false,
		"devices/+/telemetry":            false,
		"devices/LQ/telemetry":           false, // too short to be an SN
		"devices/LQ0000001/telemetry/x":  false,
		"other/LQ0000001/telemetry":      false,
		"":                               false,
	} {
		if _, got := ingest.ParseTopic(topic); got != ok {
			t.Errorf("%q: %v, want %v", topic, got, ok)
		}
	}
}

// newPipeline is a pipeline over a fresh SQLite store.
func newPipeline(t *testing.T) (*ingest.Pipeline, *store.DB) {
	db := storetest.OpenSQLite(t)
	keys, _ := secret.New(make([]byte, secret.Size))
	w := telemetry.NewWriter(telemetry.WriterOptions{Store: db, Location: time.UTC})
	t.Cleanup(w.Close)
	return ingest.New(ingest.Options{Devices: devices.New(devices.Options{Store: db, Keys: keys}), Writer: w, Images: db, Metrics: metrics.New(),
		Log: slog.New(slog.DiscardHandler)}), db
}

func TestPipeline_RightsAndErrors(t *testing.T) {
	p, db := newPipeline(t)
	svc := p.Devices
	ctx := context.Background()

	host, hostKey, err := svc.Register(ctx, devices.Registration{SN: "LQM0000001", TypeID: 19})
	if err != nil {
		t.Fatal(err)
	}
	slave, _, err := svc.Register(ctx, devices.Registration{SN: "LQS0000001", TypeID: 19, Slave: true, HostSN: host.SN})
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := svc.Register(ctx, devices.Registration{SN: "RG00000001", TypeID: 6})
	if err != nil {
		t.Fatal(err)
	}

	if _, err := p.Authenticate(ctx, host.SN, hostKey); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][2]string{{host.SN, "wrong"}, {"NOSUCH0001", hostKey}, {host.SN, ""}} {
		if _, err := p.Authenticate(ctx, bad[0], bad[1]); errs.KindOf(err) != errs.EUnauthorized {
			t.Errorf("%v: %v", bad, err)
		}
	}
	// A retired device logs in nowhere, until it is back in service.
	retired, retiredKey, err := svc.Register(ctx, devices.Registration{SN: "RG00000009", TypeID: 6})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.SetState(ctx, retired.SN, devices.StateScrap); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Authenticate(ctx, retired.SN, retiredKey); errs.KindOf(err) != errs.EUnauthorized {
		t.Errorf("a retired device: %v", err)
	}
	if err := svc.SetState(ctx, retired.SN, devices.StateRepair); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Authenticate(ctx, retired.SN, retiredKey); err != nil {
		t.Errorf("back from retirement: %v", err)
	}
	cases := []struct {
		sn, topic string
		ok        bool
	}{
		{host.SN, "devices/" + host.SN + "/telemetry", true},
		{host.SN, "devices/" + slave.SN + "/telemetry", true}, // a host speaks for its slave
		{slave.SN, "devices/" + host.SN + "/telemetry", false},
		{host.SN, "devices/" + other.SN + "/telemetry", false},
		{other.SN, "devices/" + host.SN + "/status", false},
		{host.SN, "devices/" + host.SN + "/commands", false},
	}
	for _, c := range cases {
		if _, _, ok := p.MayPublish(ctx, c.sn, c.topic); ok != c.ok {
			t.Errorf("%s on %s: %v, want %v", c.sn, c.topic, ok, c.ok)
		}
	}

	// A slave's report decodes against the slave catalogue.
	target, tp, _ := p.MayPublish(ctx, host.SN, "devices/"+slave.SN+"/telemetry")
	if err := p.Handle(ctx, ingest.MQTT, target, tp.Kind, []byte(`{"values":{"waterLevel":1.25}}`)); err != nil {
		t.Fatalf("slave report: %v", err)
	}
	if err := p.Handle(ctx, ingest.MQTT, target, tp.Kind, []byte(`{"values":{"waterTemp":12}}`)); errs.KindOf(err) != errs.EInvalid {
		t.Fatalf("the slave has no water temperature: %v", err)
	}
	d, _ := db.FindDeviceByID(ctx, slave.ID)
	if d.LastError == nil || d.LastError.Code != "ingest.unknownParam" || d.LastError.Field != "values.waterTemp" {
		t.Fatalf("last error: %+v", d.LastError)
	}
	// Images only from cameras, and only real images.
	if err := p.Handle(ctx, ingest.HTTP, host, ingest.KindImage, []byte{0xff, 0xd8, 0xff}); errs.KindOf(err) != errs.EInvalid {
		t.Fatalf("image from a level gauge: %v", err)
	}
}
