package ingest_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// subscribe subscribes to topic at QoS 1 and waits for the SUBACK.
func (m *mqttConn) subscribe(t *testing.T, id uint16, topic string) {
	t.Helper()
	body := binary.BigEndian.AppendUint16(nil, id)
	if m.v5 {
		body = append(body, 0)
	}
	body = append(append(body, mqttString(topic)...), 1)
	m.write(t, mqttPacket(0x82, body))
	if typ, rest := m.read(t); typ != 0x90 || rest[len(rest)-1] != 1 {
		t.Fatalf("SUBACK %#x %v", typ, rest)
	}
}

// A device that stops reading while commands keep coming is disconnected —
// its send queue (--mqtt-queue) fills, or a write waits past the write
// timeout — instead of the broker holding ever more for it (or holding the
// publisher); it is counted, and the device's reports land again once it
// reconnects.
func TestBroker_FullQueueClosesTheConnection(t *testing.T) {
	for _, v5 := range []bool{false, true} {
		t.Run(fmt.Sprintf("v5=%v", v5), func(t *testing.T) {
			p, db := newPipeline(t)
			ctx := context.Background()
			b, err := ingest.StartBrokerOn(ingest.Listeners{MQTT: "127.0.0.1:0", Queue: 2, Buffer: 512, WriteTimeout: time.Second}, p, p.Log)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { b.Close() })
			sn := "RG00000007"
			dev, key, err := p.Devices.Register(ctx, devices.Registration{SN: sn, TypeID: 6})
			if err != nil {
				t.Fatal(err)
			}
			m := dialMQTT(t, b.Addr().String(), v5, sn, key)
			m.subscribe(t, 1, ingest.CommandTopic(sn))

			// The device reads nothing more. Large commands fill the socket's
			// buffers, then the two places of the queue.
			big := strings.Repeat("x", 64<<10)
			sent := 0
			for ; sent < 2000 && testutil.ToFloat64(p.Metrics.Full) == 0; sent++ {
				c := &commands.Command{ID: int64(sent + 1), DeviceID: dev.ID, Name: "note", Params: map[string]any{"text": big},
					SubmittedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)}
				ok, err := b.Deliver(ctx, sn, c)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
			}
			waitFor(t, "the connection closed and counted", func() bool { return testutil.ToFloat64(p.Metrics.Full) > 0 })
			// The connection ends: what was written reads out, then EOF or a reset.
			m.c.SetReadDeadline(time.Now().Add(30 * time.Second))
			n, err := io.Copy(io.Discard, m.c)
			if err != nil && !strings.Contains(err.Error(), "reset") {
				t.Fatalf("after %d bytes: %v, want the connection closed", n, err)
			}
			waitFor(t, "the broker to forget the connection", func() bool {
				ok, _ := b.Deliver(ctx, sn, &commands.Command{ID: 99999, DeviceID: dev.ID, Name: "note"})
				return !ok
			})

			// It reconnects and reports; the report is stored.
			again := dialMQTT(t, b.Addr().String(), v5, sn, key)
			at := time.Now().Add(-time.Minute).Truncate(time.Second)
			again.publish(t, 1, "devices/"+sn+"/telemetry", fmt.Sprintf(`{"ts": %d, "values": {"rainfall": 1.5}}`, at.Unix()))
			if id, reason := again.puback(t); id != 1 || reason != 0 {
				t.Fatalf("PUBACK %d reason %#x", id, reason)
			}
			got, err := db.Readings(ctx, telemetry.Query{DeviceID: dev.ID, Begin: at.Add(-time.Second), End: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Value != 1.5 {
				t.Fatalf("readings after reconnecting: %+v", got)
			}
		})
	}
}

// waitFor polls cond until it holds, failing after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}
