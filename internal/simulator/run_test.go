package simulator

import (
	"bytes"
	"context"
	"image/jpeg"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
)

// message is a publish as the broker saw it.
type message struct {
	client, user, topic string
	payload             []byte
}

// recorder is a broker hook that keeps every publish with who sent it.
type recorder struct {
	mqtt.HookBase
	mu   sync.Mutex
	msgs []message
}

func (h *recorder) ID() string { return "recorder" }

func (h *recorder) Provides(b byte) bool { return b == mqtt.OnPublish }

func (h *recorder) OnPublish(cl *mqtt.Client, pk packets.Packet) (packets.Packet, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = append(h.msgs, message{
		client:  cl.ID,
		user:    string(cl.Properties.Username),
		topic:   pk.TopicName,
		payload: bytes.Clone(pk.Payload),
	})
	return pk, nil
}

func (h *recorder) messages() []message {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.msgs)
}

// allowAll lets any client connect and publish anywhere. (mochi's own
// auth.AllowHook would pull in a YAML dependency the module does not carry.)
type allowAll struct{ mqtt.HookBase }

func (h *allowAll) ID() string { return "allow-all" }

func (h *allowAll) Provides(b byte) bool {
	return b == mqtt.OnConnectAuthenticate || b == mqtt.OnACLCheck
}

func (h *allowAll) OnConnectAuthenticate(*mqtt.Client, packets.Packet) bool { return true }

func (h *allowAll) OnACLCheck(*mqtt.Client, string, bool) bool { return true }

// denyAll refuses every connection, as a broker does with wrong credentials.
type denyAll struct{ mqtt.HookBase }

func (h *denyAll) ID() string { return "deny-all" }

func (h *denyAll) Provides(b byte) bool { return b == mqtt.OnConnectAuthenticate }

func (h *denyAll) OnConnectAuthenticate(*mqtt.Client, packets.Packet) bool { return false }

// startBroker runs an embedded broker on a random local port with the given
// hooks and returns its address.
func startBroker(t *testing.T, hooks ...mqtt.Hook) string {
	t.Helper()
	server := mqtt.New(&mqtt.Options{InlineClient: true, Logger: slog.New(slog.DiscardHandler)})
	for _, h := range hooks {
		if err := server.AddHook(h, nil); err != nil {
			t.Fatal(err)
		}
	}
	tcp := listeners.NewTCP(listeners.Config{ID: "t", Address: "127.0.0.1:0"})
	if err := server.AddListener(tcp); err != nil {
		t.Fatal(err)
	}
	if err := server.Serve(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	return "tcp://" + tcp.Address()
}

func TestRun(t *testing.T) {
	rec := &recorder{}
	broker := startBroker(t, &allowAll{}, rec)

	weather, host, trap := mustType(t, 5), mustType(t, 19), mustType(t, 20)
	slave := New(Device{SN: "SLAVE1", Type: host.SlaveType(), Lat: 37.4, Lng: 116.2, Seed: 4})
	fleet := []Cred{
		{SN: "WX1", Key: "k1", Sim: New(Device{SN: "WX1", Type: weather, Lat: 37.5, Lng: 116.3, Seed: 1})},
		{SN: "HOST1", Key: "k2", Sim: New(Device{SN: "HOST1", Type: host, Lat: 37.4, Lng: 116.2, Seed: 2}),
			Slaves: []*Sim{slave}},
		{SN: "TRAP1", Key: "k3", Sim: New(Device{SN: "TRAP1", Type: trap, Lat: 37.3, Lng: 116.4, Seed: 3})},
	}
	types := map[string]*devices.Type{"WX1": weather, "HOST1": host, "SLAVE1": host.SlaveType(), "TRAP1": trap}
	owner := map[string]string{"WX1": "WX1", "HOST1": "HOST1", "SLAVE1": "HOST1", "TRAP1": "TRAP1"}

	var mu sync.Mutex
	acked := map[string]int{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{
			Broker:   broker,
			Interval: 50 * time.Millisecond,
			OnPublish: func(sn string, points int) {
				mu.Lock()
				defer mu.Unlock()
				acked[sn] += points
			},
		}, fleet)
	}()

	// Wait until every device has sent a few reports (and a status and
	// the trap an image), then stop.
	enough := func() bool {
		count := map[string]int{}
		for _, m := range rec.messages() {
			count[m.topic]++
		}
		for sn := range types {
			if count["devices/"+sn+"/telemetry"] < 8 || count["devices/"+sn+"/status"] < 2 {
				return false
			}
		}
		return count["devices/TRAP1/image"] >= 1
	}
	for !enough() {
		select {
		case err := <-done:
			t.Fatalf("Run returned early: %v", err)
		case <-ctx.Done():
			t.Fatal("not enough reports before the deadline")
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}

	for _, m := range rec.messages() {
		parts := strings.Split(m.topic, "/")
		if len(parts) != 3 || parts[0] != "devices" {
			t.Fatalf("unexpected topic %q", m.topic)
		}
		sn, kind := parts[1], parts[2]
		ty, ok := types[sn]
		if !ok {
			t.Fatalf("message about unknown device %q", sn)
		}
		if m.user != owner[sn] || m.client != owner[sn] {
			t.Fatalf("%s sent by user %q client %q, want %q", m.topic, m.user, m.client, owner[sn])
		}
		now := time.Now()
		switch kind {
		case "telemetry":
			if _, err := ingest.DecodeTelemetry(ty, m.payload, now); err != nil {
				t.Fatalf("%s: %v\n%s", m.topic, err, m.payload)
			}
		case "status":
			if _, err := ingest.DecodeStatus(m.payload, now); err != nil {
				t.Fatalf("%s: %v\n%s", m.topic, err, m.payload)
			}
		case "image":
			if !ty.Camera {
				t.Fatalf("image from %s", sn)
			}
			if _, err := jpeg.Decode(bytes.NewReader(m.payload)); err != nil {
				t.Fatalf("%s: %v", m.topic, err)
			}
		default:
			t.Fatalf("unexpected topic %q", m.topic)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for sn := range types {
		if acked[sn] == 0 {
			t.Errorf("no acknowledged readings reported for %s", sn)
		}
	}
}

func TestRunRefused(t *testing.T) {
	broker := startBroker(t, &denyAll{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fleet := []Cred{{SN: "WX1", Key: "wrong", Sim: New(Device{SN: "WX1", Type: mustType(t, 5), Seed: 1})}}
	err := Run(ctx, Options{Broker: broker, Interval: 50 * time.Millisecond}, fleet)
	if err == nil {
		t.Fatal("Run accepted a refused connection")
	}
	if ctx.Err() != nil {
		t.Fatal("Run only returned when the context ended")
	}
	if !strings.Contains(err.Error(), "WX1") {
		t.Errorf("error %q does not name the device", err)
	}
}

func TestRunOptions(t *testing.T) {
	sim := New(Device{SN: "A", Type: mustType(t, 5), Seed: 1})
	ctx := context.Background()
	for name, c := range map[string]struct {
		o     Options
		fleet []Cred
	}{
		"no broker": {Options{}, []Cred{{SN: "A", Sim: sim}}},
		"bad QoS":   {Options{Broker: "tcp://127.0.0.1:1", QoS: 3}, []Cred{{SN: "A", Sim: sim}}},
		"empty":     {Options{Broker: "tcp://127.0.0.1:1"}, nil},
		"twice":     {Options{Broker: "tcp://127.0.0.1:1"}, []Cred{{SN: "A", Sim: sim}, {SN: "A", Sim: sim}}},
		"no sim":    {Options{Broker: "tcp://127.0.0.1:1"}, []Cred{{SN: "A"}}},
	} {
		if err := Run(ctx, c.o, c.fleet); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
