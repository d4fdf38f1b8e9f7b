package ingest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/fieldwatch/fieldwatch/internal/commands"
)

// Broker is the embedded MQTT broker (3.1.1 and 5) devices connect to.
type Broker struct {
	server *mqtt.Server
	lns    map[string]net.Listener // by listener id (ListenerTCP, …)
	h      *deviceHook
}

// StartBroker listens on addr and serves MQTT, authenticating devices and
// handing their messages to p. It returns once the listener is bound.
func StartBroker(addr string, p *Pipeline, log *slog.Logger) (*Broker, error) {
	return StartBrokerOn(Listeners{MQTT: addr}, p, log)
}

// StartBrokerOn serves MQTT on each listener of ls (plain, TLS,
// WebSocket). It returns once they are bound.
func StartBrokerOn(ls Listeners, p *Pipeline, log *slog.Logger) (*Broker, error) {
	lns, err := ls.bind()
	if err != nil {
		return nil, err
	}
	closeAll := func() {
		for _, ln := range lns {
			ln.Close()
		}
	}
	caps := mqtt.NewDefaultServerCapabilities()
	// An image is the largest message; anything bigger is refused by the
	// broker before it is read into memory.
	caps.MaximumPacketSize = MaxImage + 64<<10
	// A device has few reports in flight; a flood is a broken device.
	caps.ReceiveMaximum = 64
	// Sessions of devices that went away are kept a day, then dropped, so a
	// broker that has seen many devices does not grow without bound.
	caps.MaximumSessionExpiryInterval = 24 * 60 * 60
	// Devices have no use for retained messages, and a retained message is
	// something one device leaves for others to read.
	caps.RetainAvailable = 0
	// What a connection holds is sized for a device, not for a subscriber
	// of busy topics: mochi's default queue of 8,192 messages to send is
	// 64 KB of channel per connection. A message that finds the queue full
	// closes the connection (OnPublishDropped); the device gets it again
	// when it reconnects.
	caps.MaximumClientWritesPending = int32(cmp.Or(ls.Queue, DefaultQueue))
	// A device never sends topic aliases worth keeping many of.
	caps.TopicAliasMaximum = 16
	s := mqtt.New(&mqtt.Options{
		Capabilities:             caps,
		ClientNetReadBufferSize:  cmp.Or(ls.Buffer, DefaultBuffer),
		ClientNetWriteBufferSize: cmp.Or(ls.Buffer, DefaultBuffer),
		Logger:                   slog.New(quietHandler{log.With("component", "mqtt").Handler()}),
		// $SYS topics would tell any device how many others are connected.
		SysTopicResendInterval: 0,
		// Commands are published by the server itself.
		InlineClient: true,
	})
	h := &deviceHook{p: p, inFlight: int(caps.ReceiveMaximum), server: s}
	if err := s.AddHook(h, nil); err != nil {
		closeAll()
		return nil, err
	}
	stalled := func() {
		if p.Metrics != nil {
			p.Metrics.Full.Inc()
		}
		p.Log.Warn("mqtt device stopped reading: connection closed")
	}
	if err := addListeners(s, lns, ls.TLS, cmp.Or(ls.WriteTimeout, DefaultWriteTimeout), stalled); err != nil {
		closeAll()
		return nil, err
	}
	if err := s.Serve(); err != nil {
		closeAll()
		return nil, err
	}
	return &Broker{server: s, lns: lns, h: h}, nil
}

// Deliver publishes a command to device sn at QoS 1 if the device is
// connected and subscribed to its command topic; otherwise it reports
// false and the command waits. The device's PUBACK marks it delivered
// (at once, for a subscription at QoS 0, which has none).
func (b *Broker) Deliver(ctx context.Context, sn string, c *commands.Command) (bool, error) {
	topic := CommandTopic(sn)
	connected, qos0 := false, false
	for id, sub := range b.server.Topics.Subscribers(topic).Subscriptions {
		cl, ok := b.server.Clients.Get(id)
		if ok && !cl.Closed() && string(cl.Properties.Username) == sn {
			connected = true
			qos0 = qos0 || sub.Qos == 0
		}
	}
	if !connected {
		return false, nil
	}
	if err := b.server.Publish(topic, c.Payload(), false, 1); err != nil {
		return false, err
	}
	if qos0 {
		b.h.p.Commands.Delivered(ctx, c.ID)
	}
	return true, nil
}

// Addr is the address of the plain MQTT listener (without one, of the
// TLS or else the WebSocket listener).
func (b *Broker) Addr() net.Addr {
	for _, id := range []string{ListenerTCP, ListenerTLS, ListenerWS} {
		if ln, ok := b.lns[id]; ok {
			return ln.Addr()
		}
	}
	return nil
}

// ListenerAddr is the address of one listener (ListenerTCP, ListenerTLS,
// ListenerWS); nil when the broker does not serve it.
func (b *Broker) ListenerAddr(id string) net.Addr {
	if ln, ok := b.lns[id]; ok {
		return ln.Addr()
	}
	return nil
}

// DisconnectDevice closes every connection the device sn holds, as after
// its key was replaced: it must connect again with the new one.
func (b *Broker) DisconnectDevice(sn string) {
	for _, cl := range b.server.Clients.GetAll() {
		if !cl.Net.Inline && string(cl.Properties.Username) == sn {
			b.server.DisconnectClient(cl, packets.ErrNotAuthorized)
		}
	}
}

// Close stops accepting connections, disconnects every client and stops
// the broker.
func (b *Broker) Close() error {
	// mochi's own Close lists clients under a read lock that it takes twice;
	// a client leaving at that moment deadlocks it. So the clients are sent
	// away first, and Close runs once they are gone.
	for _, ln := range b.lns {
		ln.Close()
	}
	for _, cl := range b.server.Clients.GetAll() {
		if !cl.Net.Inline {
			b.server.DisconnectClient(cl, packets.ErrServerShuttingDown)
		}
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b.server.Clients.Len() == 0 {
			break
		}
	}
	return b.server.Close()
}

// deviceHook authenticates devices and confines them to their own topics.
type deviceHook struct {
	mqtt.HookBase
	p      *Pipeline
	server *mqtt.Server
	// inFlight bounds the QoS 1 reports of one connection being stored.
	inFlight int
	ackers   sync.Map // *mqtt.Client → *acker
	// commandsOut maps a command publish awaiting its PUBACK to the command.
	commandsOut sync.Map // outKey → command id
}

// outKey names a QoS 1 publish to a client.
type outKey struct {
	cl *mqtt.Client
	id uint16
}

func (h *deviceHook) ID() string { return "fieldwatch-devices" }

func (h *deviceHook) Provides(b byte) bool {
	return bytes.Contains([]byte{mqtt.OnConnectAuthenticate, mqtt.OnACLCheck, mqtt.OnPublish, mqtt.OnDisconnect,
		mqtt.OnSessionEstablished, mqtt.OnSubscribed, mqtt.OnQosPublish, mqtt.OnQosComplete, mqtt.OnPublishDropped}, []byte{b})
}

// OnPublishDropped closes the connection of a device whose queue of
// messages to send is full (a device that stopped reading): MQTT 5 devices
// are told why (reason 0x97, Quota exceeded). The message is not lost: a
// command that was not acknowledged goes out again when the device
// reconnects (OnDisconnect forgets its delivery).
func (h *deviceHook) OnPublishDropped(cl *mqtt.Client, pk packets.Packet) {
	if cl.Net.Inline {
		return
	}
	if h.p.Metrics != nil {
		h.p.Metrics.Full.Inc()
	}
	h.p.Log.Warn("mqtt send queue full: connection closed", "sn", string(cl.Properties.Username), "topic", pk.TopicName,
		"queue", h.server.Options.Capabilities.MaximumClientWritesPending)
	// Not from inside the publish that found the queue full. An MQTT 5
	// device is told why (if its socket still takes the packet; a device
	// that stopped reading holds the writer until the write timeout closes
	// the connection), and the connection closes.
	go func() {
		if cl.Properties.ProtocolVersion == 5 {
			h.server.DisconnectClient(cl, packets.ErrQuotaExceeded)
		}
		cl.Stop(packets.ErrQuotaExceeded)
	}()
}

// OnSessionEstablished hands a device that (re)connected its queued
// commands, if its session kept its subscription.
func (h *deviceHook) OnSessionEstablished(cl *mqtt.Client, _ packets.Packet) {
	if !cl.Net.Inline {
		go h.p.Uplink(string(cl.Properties.Username))
	}
}

// OnSubscribed hands a device that subscribed to its command topic its
// queued commands.
func (h *deviceHook) OnSubscribed(cl *mqtt.Client, pk packets.Packet, codes []byte) {
	sn := string(cl.Properties.Username)
	for i, f := range pk.Filters {
		if f.Filter == CommandTopic(sn) && i < len(codes) && codes[i] < 0x80 {
			go h.p.Uplink(sn)
			return
		}
	}
}

// OnQosPublish remembers which command a QoS 1 publish to a device carries.
func (h *deviceHook) OnQosPublish(cl *mqtt.Client, pk packets.Packet, _ int64, _ int) {
	if pk.FixedHeader.Type != packets.Publish || !strings.HasSuffix(pk.TopicName, "/commands") {
		return
	}
	var w struct {
		ID int64 `json:"id"`
	}
	if json.Unmarshal(pk.Payload, &w) == nil && w.ID > 0 {
		h.commandsOut.Store(outKey{cl, pk.PacketID}, w.ID)
	}
}

// OnQosComplete records a command delivered when the device acknowledges
// its publish.
func (h *deviceHook) OnQosComplete(cl *mqtt.Client, pk packets.Packet) {
	if id, ok := h.commandsOut.LoadAndDelete(outKey{cl, pk.PacketID}); ok && h.p.Commands != nil {
		// Recorded aside: the connection reads its next packet (often the
		// acknowledgement) meanwhile. An acknowledgement recorded first
		// records the delivery with it.
		at := time.Now()
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			h.p.Commands.DeliveredAt(ctx, id.(int64), at)
		}()
	}
}

// OnConnectAuthenticate accepts a device whose username is its SN and whose
// password is its key, or one that presented a device certificate at the
// TLS handshake: it is the certificate's SN, no password needed (see
// authenticateCert).
func (h *deviceHook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	sn, key := string(pk.Connect.Username), string(pk.Connect.Password)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if certSN, ok := h.authenticateCert(ctx, cl, sn); ok {
		sn = certSN
	} else if certSN != "" {
		return false
	} else if _, err := h.p.Authenticate(ctx, sn, key); err != nil {
		h.p.Metrics.Denied.WithLabelValues("credentials").Inc()
		h.p.Log.Info("mqtt connection refused", "sn", sn, "remote", cl.Net.Remote, "err", err)
		return false
	}
	// The broker publishes a last will without asking the ACL, so a will is
	// allowed only where the device could publish itself, and never retained.
	if pk.Connect.WillFlag {
		if _, _, ok := h.p.MayPublish(ctx, sn, pk.Connect.WillTopic); !ok || pk.Connect.WillRetain {
			h.p.Metrics.Denied.WithLabelValues("will").Inc()
			h.p.Log.Info("mqtt connection refused: will topic", "sn", sn, "topic", pk.Connect.WillTopic)
			return false
		}
	}
	// Client ids are namespaced by SN, so one device cannot take over
	// another's session by reusing its client id.
	if !strings.HasPrefix(cl.ID, sn+"/") {
		cl.ID = sn + "/" + cl.ID
	}
	return true
}

// OnACLCheck lets a device publish on its own topics (a host also on its
// slaves') and subscribe only to its own command topic.
func (h *deviceHook) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	sn := string(cl.Properties.Username)
	ok := false
	if write {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, _, ok = h.p.MayPublish(ctx, sn, topic)
		cancel()
	} else {
		// A device reads its own command topic and nothing else: no
		// wildcards, no other device's topics, no shared subscriptions.
		ok = topic == CommandTopic(sn)
	}
	if !ok {
		reason := "publish"
		if !write {
			reason = "subscribe"
		}
		h.p.Metrics.Denied.WithLabelValues(reason).Inc()
		h.p.Log.Info("mqtt topic refused", "sn", sn, "topic", topic, "write", write)
	}
	return ok
}

// OnPublish stores a device message before the broker acknowledges it, so a
// PUBACK means the report is durable. Bad input is acknowledged (with
// reason code 0x99 under MQTT 5) and dropped: resending it would not help.
// A failure of ours is not acknowledged, so the device sends it again.
//
// A QoS 1 report is queued and acknowledged later, by the connection's
// acker, once committed: a device (or a gateway speaking for many) can keep
// several reports in flight, and the writer commits them together.
func (h *deviceHook) OnPublish(cl *mqtt.Client, pk packets.Packet) (packets.Packet, error) {
	if cl.Net.Inline {
		return pk, nil
	}
	sn := string(cl.Properties.Username)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	target, t, ok := h.p.MayPublish(ctx, sn, pk.TopicName)
	if !ok { // the ACL check passed a moment ago; the device was just removed
		return pk, packets.ErrRejectPacket
	}
	if h.p.Commands != nil && t.Kind != KindAck && t.SN == sn && h.p.Commands.HasOpen(target.ID) {
		// A device heard from is awake: hand it what waits for it.
		go h.p.Uplink(sn)
	}
	if pk.FixedHeader.Qos == 1 {
		h.acker(cl).add(pk.PacketID, h.p.Submit(ctx, MQTT, target, t.Kind, pk.Payload))
		return pk, packets.ErrRejectPacket // the acker answers
	}
	err := h.p.Handle(ctx, MQTT, target, t.Kind, pk.Payload)
	switch {
	case err == nil:
		// Readings are not relayed to subscribers: nothing but the device
		// itself may subscribe to its topics, and it needs no echo.
		return pk, packets.CodeSuccessIgnore
	case IsInvalid(err):
		if cl.Properties.ProtocolVersion == 5 && pk.FixedHeader.Qos > 0 {
			return nack(cl, pk, packets.ErrPayloadFormatInvalid)
		}
		return pk, packets.CodeSuccessIgnore
	default:
		h.p.Log.Error("store device message", "sn", target.SN, "topic", pk.TopicName, "err", err)
		if cl.Properties.ProtocolVersion == 5 && pk.FixedHeader.Qos > 0 {
			return nack(cl, pk, packets.ErrUnspecifiedError)
		}
		// MQTT 3.1.1 has no negative acknowledgement: drop the connection
		// without one, and the device sends the report again on reconnecting.
		cl.Stop(fmt.Errorf("store: %w", err))
		return pk, packets.ErrRejectPacket
	}
}

// OnDisconnect forgets the connection's acker; acknowledgements it still
// owes are written (and fail) as their reports finish.
func (h *deviceHook) OnDisconnect(cl *mqtt.Client, _ error, _ bool) {
	h.ackers.Delete(cl)
	// Commands in flight on the connection go out again on the next trigger.
	var ids []int64
	h.commandsOut.Range(func(k, v any) bool {
		if k.(outKey).cl == cl {
			h.commandsOut.Delete(k)
			ids = append(ids, v.(int64))
		}
		return true
	})
	if len(ids) > 0 && h.p.Commands != nil {
		h.p.Commands.Forget(ids)
	}
}

func (h *deviceHook) acker(cl *mqtt.Client) *acker {
	if a, ok := h.ackers.Load(cl); ok {
		return a.(*acker)
	}
	a, _ := h.ackers.LoadOrStore(cl, &acker{h: h, cl: cl, slots: make(chan struct{}, max(h.inFlight, 1))})
	return a.(*acker)
}

// acker acknowledges a connection's QoS 1 publishes in the order they
// arrived (MQTT requires it), each once its message is stored. A goroutine
// runs while acknowledgements are owed and ends when none are. At most
// cap(slots) are owed: a device sending faster waits for its earlier
// reports, which is the backpressure of one connection.
type acker struct {
	h     *deviceHook
	cl    *mqtt.Client
	slots chan struct{}

	mu      sync.Mutex
	owed    []owed
	running bool
}

type owed struct {
	id   uint16
	wait func() error
}

func (a *acker) add(id uint16, wait func() error) {
	a.slots <- struct{}{}
	a.mu.Lock()
	a.owed = append(a.owed, owed{id, wait})
	start := !a.running
	a.running = true
	a.mu.Unlock()
	if start {
		go a.run()
	}
}

func (a *acker) run() {
	for {
		a.mu.Lock()
		if len(a.owed) == 0 {
			a.running = false
			a.mu.Unlock()
			return
		}
		o := a.owed[0]
		a.owed = a.owed[1:]
		a.mu.Unlock()
		a.answer(o.id, o.wait())
		<-a.slots
	}
}

// answer acknowledges one publish as OnPublish's synchronous path does.
func (a *acker) answer(id uint16, err error) {
	cl := a.cl
	ack := packets.Packet{FixedHeader: packets.FixedHeader{Type: packets.Puback}, PacketID: id}
	switch {
	case err == nil:
	case IsInvalid(err):
		if cl.Properties.ProtocolVersion == 5 {
			ack.ReasonCode, ack.Properties.ReasonString = packets.ErrPayloadFormatInvalid.Code, packets.ErrPayloadFormatInvalid.Reason
		}
	default:
		a.h.p.Log.Error("store device message", "sn", string(cl.Properties.Username), "err", err)
		if cl.Properties.ProtocolVersion != 5 {
			cl.Stop(fmt.Errorf("store: %w", err))
			return
		}
		ack.ReasonCode, ack.Properties.ReasonString = packets.ErrUnspecifiedError.Code, packets.ErrUnspecifiedError.Reason
	}
	_ = cl.WritePacket(ack) // a connection gone meanwhile: the device resends
}

// nack refuses an MQTT 5 publish with a reason code. The broker answers a
// hook's code with a PUBACK, right for QoS 1; QoS 2 expects a PUBREC.
func nack(cl *mqtt.Client, pk packets.Packet, code packets.Code) (packets.Packet, error) {
	if pk.FixedHeader.Qos == 1 {
		return pk, code
	}
	_ = cl.WritePacket(packets.Packet{FixedHeader: packets.FixedHeader{Type: packets.Pubrec},
		PacketID: pk.PacketID, ReasonCode: code.Code})
	return pk, packets.ErrRejectPacket
}

// quietHandler keeps the broker's own log useful: it drops the packets the
// broker attaches to its messages (a refused 2 MiB image would otherwise be
// logged whole) and cuts long values.
type quietHandler struct{ slog.Handler }

func (q quietHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	closed := false
	r.Attrs(func(a slog.Attr) bool {
		if err, ok := a.Value.Any().(error); ok && errors.Is(err, net.ErrClosed) {
			closed = true // a listener or connection closed on shutdown: not news
			return false
		}
		switch a.Value.Kind() {
		case slog.KindAny, slog.KindGroup:
			if _, isErr := a.Value.Any().(error); !isErr {
				return true // packets and structs
			}
		}
		if s := a.Value.String(); len(s) > 200 {
			a = slog.String(a.Key, s[:200]+"…")
		}
		out.AddAttrs(a)
		return true
	})
	if closed {
		return nil
	}
	return q.Handler.Handle(ctx, out)
}

func (q quietHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return quietHandler{q.Handler.WithAttrs(as)}
}
func (q quietHandler) WithGroup(name string) slog.Handler {
	return quietHandler{q.Handler.WithGroup(name)}
}
