package ingest_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// mqttConn is a bare MQTT client: it writes packets as given and reads the
// broker's answers one by one, so the order of acknowledgements shows.
type mqttConn struct {
	c  net.Conn
	r  *bufio.Reader
	v5 bool
}

func mqttString(s string) []byte {
	return append(binary.BigEndian.AppendUint16(nil, uint16(len(s))), s...)
}

func mqttPacket(header byte, body []byte) []byte {
	out := []byte{header}
	for n := len(body); ; {
		b := byte(n % 128)
		if n /= 128; n > 0 {
			b |= 0x80
		}
		out = append(out, b)
		if n == 0 {
			break
		}
	}
	return append(out, body...)
}

func dialMQTT(t *testing.T, addr string, v5 bool, user, pass string) *mqttConn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	m := &mqttConn{c: c, r: bufio.NewReader(c), v5: v5}
	level := byte(4)
	if v5 {
		level = 5
	}
	body := append(mqttString("MQTT"), level, 0xC2, 0, 60) // username, password, clean
	if v5 {
		body = append(body, 0) // no properties
	}
	body = append(body, mqttString("acks-"+user)...)
	body = append(append(body, mqttString(user)...), mqttString(pass)...)
	m.write(t, mqttPacket(0x10, body))
	typ, rest := m.read(t)
	if typ != 0x20 || len(rest) < 2 || rest[1] != 0 {
		t.Fatalf("CONNACK %#x %v", typ, rest)
	}
	return m
}

func (m *mqttConn) write(t *testing.T, b []byte) {
	t.Helper()
	if _, err := m.c.Write(b); err != nil {
		t.Fatal(err)
	}
}

// publish sends a QoS 1 PUBLISH without waiting for its PUBACK.
func (m *mqttConn) publish(t *testing.T, id uint16, topic, payload string) {
	body := binary.BigEndian.AppendUint16(mqttString(topic), id)
	if m.v5 {
		body = append(body, 0)
	}
	m.write(t, mqttPacket(0x32, append(body, payload...)))
}

func (m *mqttConn) read(t *testing.T) (byte, []byte) {
	t.Helper()
	m.c.SetReadDeadline(time.Now().Add(30 * time.Second))
	typ, err := m.r.ReadByte()
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	n, shift := 0, 0
	for {
		b, err := m.r.ReadByte()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		n |= int(b&0x7f) << shift
		if shift += 7; b&0x80 == 0 {
			break
		}
	}
	rest := make([]byte, n)
	if _, err := io.ReadFull(m.r, rest); err != nil {
		t.Fatalf("read: %v", err)
	}
	return typ & 0xf0, rest
}

// puback reads the next PUBACK: its packet id and reason code (0 under 3.1.1).
func (m *mqttConn) puback(t *testing.T) (uint16, byte) {
	t.Helper()
	typ, rest := m.read(t)
	if typ != 0x40 || len(rest) < 2 {
		t.Fatalf("want a PUBACK, got %#x %v", typ, rest)
	}
	reason := byte(0)
	if len(rest) > 2 {
		reason = rest[2]
	}
	return binary.BigEndian.Uint16(rest), reason
}

// A connection keeps many QoS 1 reports in flight; each PUBACK comes once
// its report is stored, in the order the reports were sent, and a refused
// report among them is answered in its place (0x99 under MQTT 5).
func TestBroker_AcksInOrder(t *testing.T) {
	p, db := newPipeline(t)
	svc := p.Devices
	ctx := context.Background()
	b, err := ingest.StartBroker("127.0.0.1:0", p, p.Log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })

	for _, v5 := range []bool{false, true} {
		t.Run(fmt.Sprintf("v5=%v", v5), func(t *testing.T) {
			sn := "RG0000000" + map[bool]string{false: "3", true: "5"}[v5]
			dev, key, err := svc.Register(ctx, devices.Registration{SN: sn, TypeID: 6})
			if err != nil {
				t.Fatal(err)
			}
			m := dialMQTT(t, b.Addr().String(), v5, sn, key)
			const n, bad = 60, 17
			start := time.Now().Add(-2 * time.Hour).Unix()
			for i := range uint16(n) {
				payload := fmt.Sprintf(`{"ts": %d, "values": {"rainfall": %d}}`, start+int64(i)*60, i)
				if i+1 == bad {
					payload = `{"values": {"rainfall": "lots"}}`
				}
				m.publish(t, i+1, "devices/"+sn+"/telemetry", payload)
			}
			for want := range uint16(n) {
				id, reason := m.puback(t)
				if id != want+1 {
					t.Fatalf("PUBACK %d arrived where %d was due", id, want+1)
				}
				wantReason := byte(0)
				if v5 && id == bad {
					wantReason = 0x99
				}
				if reason != wantReason {
					t.Errorf("PUBACK %d: reason %#x, want %#x", id, reason, wantReason)
				}
			}
			// Every acknowledged report is stored already.
			got, err := db.Readings(ctx, telemetry.Query{DeviceID: dev.ID, Begin: time.Unix(start, 0), End: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != n-1 {
				t.Errorf("stored %d readings, want %d", len(got), n-1)
			}
		})
	}
}
