package ingest

import (
	"context"
	"log/slog"
	"testing"

	"github.com/eclipse/paho.golang/paho"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// A message from the external broker is dropped (acknowledged without being
// stored) only when it can never be stored: an unknown device is; a store
// that does not answer the device lookup is not, so the message is tried
// again and, if the node stops meanwhile, the broker delivers it again.
func TestConsumer_StoreErrorIsRetriedNotDropped(t *testing.T) {
	db := storetest.OpenSQLite(t)
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{Devices: devices.New(devices.Options{Store: db, Keys: keys}), Images: db, Metrics: metrics.New(), Log: slog.New(slog.DiscardHandler)})
	c := &Consumer{p: p}
	msg := &paho.Publish{Topic: "$share/" + SharedGroup + "/devices/ZS00000001/telemetry", QoS: 1, Payload: []byte(`{"values":{"battery":3.6}}`)}

	if err := c.handle(context.Background(), p, msg); !IsInvalid(err) {
		t.Fatalf("an unknown device: %v, want a refusal (acknowledged and dropped)", err)
	}
	db.Close()
	if err := c.handle(context.Background(), p, msg); err == nil || IsInvalid(err) {
		t.Fatalf("a store that does not answer: %v, want an error to retry", err)
	}
}
