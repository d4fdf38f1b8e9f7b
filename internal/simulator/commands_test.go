package simulator

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// A simulated valve obeys commands over MQTT: it acknowledges each, reports
// at once with the water flowing after "openFor", stops it after "close",
// and reports at the interval a "reportInterval" sets.
func TestRun_Commands(t *testing.T) {
	commandMinute = 10 * time.Millisecond
	t.Cleanup(func() { commandMinute = time.Minute })
	rec := &recorder{}
	server := mqtt.New(&mqtt.Options{InlineClient: true, Logger: slog.New(slog.DiscardHandler)})
	for _, h := range []mqtt.Hook{&allowAll{}, rec} {
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

	valve := mustType(t, 10)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		// An hour between reports: anything sooner is the commands' doing.
		done <- Run(ctx, Options{Broker: "tcp://" + tcp.Address(), Interval: time.Hour},
			[]Cred{{SN: "VALVE1", Key: "k", Sim: New(Device{SN: "VALVE1", Type: valve, Lat: 37.5, Lng: 116.3, Seed: 5})}})
	}()
	// after returns the messages on topic after the n-th message overall.
	after := func(n int, topic string) (out []map[string]any) {
		for _, m := range rec.messages()[n:] {
			if m.topic == topic {
				var v map[string]any
				if err := json.Unmarshal(m.payload, &v); err != nil {
					t.Fatalf("%s: %v", m.payload, err)
				}
				out = append(out, v)
			}
		}
		return out
	}
	wait := func(what string, ok func() bool) {
		t.Helper()
		for !ok() {
			select {
			case err := <-done:
				t.Fatalf("Run returned: %v", err)
			case <-ctx.Done():
				t.Fatalf("gave up waiting: %s", what)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	// The device subscribes once connected; commands published before
	// that would reach no one.
	wait("the subscription", func() bool { return len(server.Topics.Subscribers("devices/VALVE1/commands").Subscriptions) > 0 })
	send := func(id int, name, params string) int {
		n := len(rec.messages())
		if err := server.Publish("devices/VALVE1/commands", []byte(`{"id":`+itoa(id)+`,"name":"`+name+`","params":`+params+`}`), false, 1); err != nil {
			t.Fatal(err)
		}
		wait(name+" acknowledged", func() bool {
			for _, a := range after(n, "devices/VALVE1/commands/ack") {
				if a["id"] == float64(id) && a["result"] == "ok" {
					return true
				}
			}
			return false
		})
		return n
	}
	value := func(report map[string]any, param string) float64 {
		return report["values"].(map[string]any)[param].(float64)
	}

	n := send(1, "openFor", `{"minutes": 30}`)
	wait("a report with the valve open", func() bool {
		for _, r := range after(n, "devices/VALVE1/telemetry") {
			if value(r, "valveState") == 1 && value(r, "flowRate") > 0 {
				return true
			}
		}
		return false
	})
	n = send(2, "close", `{}`)
	wait("a report with the valve closed", func() bool {
		for _, r := range after(n, "devices/VALVE1/telemetry") {
			if value(r, "valveState") == 0 && value(r, "flowRate") == 0 {
				return true
			}
		}
		return false
	})
	// A command it does not know is refused, with its reason.
	n = len(rec.messages())
	if err := server.Publish("devices/VALVE1/commands", []byte(`{"id":3,"name":"capture","params":{}}`), false, 1); err != nil {
		t.Fatal(err)
	}
	wait("the refusal", func() bool {
		for _, a := range after(n, "devices/VALVE1/commands/ack") {
			if a["id"] == float64(3) && a["result"] == "failed" && a["reason"] != "" {
				return true
			}
		}
		return false
	})
	// Every 3 "minutes" (30 ms here) from now on: many reports, where the
	// hour's interval would give none.
	n = send(4, "reportInterval", `{"minutes": 3}`)
	wait("reports at the new interval", func() bool { return len(after(n, "devices/VALVE1/telemetry")) >= 5 })
	cancel()
	<-done
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
