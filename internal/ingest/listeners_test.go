package ingest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	pahomqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// Plain WebSocket (no certificate configured): a report published with
// paho over ws:// is stored, with the same login as on TCP; a wrong key is
// refused there too. No plain TCP listener runs.
func TestBroker_WebSocket(t *testing.T) {
	p, db := newPipeline(t)
	ctx := context.Background()
	b, err := ingest.StartBrokerOn(ingest.Listeners{WS: "127.0.0.1:0"}, p, p.Log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if b.ListenerAddr(ingest.ListenerTCP) != nil {
		t.Fatal("a TCP listener without an address")
	}
	sn := "RG00000077"
	dev, key, err := p.Devices.Register(ctx, devices.Registration{SN: sn, TypeID: 6})
	if err != nil {
		t.Fatal(err)
	}
	url := "ws://" + b.ListenerAddr(ingest.ListenerWS).String() + "/mqtt"
	connect := func(pass string) (pahomqtt.Client, error) {
		c := pahomqtt.NewClient(pahomqtt.NewClientOptions().AddBroker(url).SetClientID("ws-test").
			SetUsername(sn).SetPassword(pass).SetAutoReconnect(false).SetProtocolVersion(4))
		tok := c.Connect()
		tok.Wait()
		return c, tok.Error()
	}
	if _, err := connect("wrong"); err == nil {
		t.Fatal("a wrong key connected over WebSocket")
	}
	c, err := connect(key)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Disconnect(100)
	at := time.Now().Add(-time.Minute).Truncate(time.Second)
	tok := c.Publish("devices/"+sn+"/telemetry", 1, false, fmt.Sprintf(`{"ts": %d, "values": {"rainfall": 2.5}}`, at.Unix()))
	if tok.Wait(); tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	got, err := db.Readings(ctx, telemetry.Query{DeviceID: dev.ID, Begin: at, End: time.Now()})
	if err != nil || len(got) != 1 {
		t.Fatalf("stored %d readings (%v), want 1", len(got), err)
	}
}
