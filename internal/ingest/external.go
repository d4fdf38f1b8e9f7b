package ingest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// SharedGroup is the shared-subscription group every server node joins, so
// the broker hands each device message to exactly one node.
const SharedGroup = "fieldwatch"

// SharedTopics are the subscriptions of external-broker mode.
var SharedTopics = []string{
	"$share/" + SharedGroup + "/devices/+/" + KindTelemetry,
	"$share/" + SharedGroup + "/devices/+/" + KindStatus,
	"$share/" + SharedGroup + "/devices/+/" + KindImage,
	"$share/" + SharedGroup + "/devices/+/commands/ack",
}

// maxConcurrent bounds the messages of an external broker being stored at
// once: enough for the writer to batch many reports per commit.
const maxConcurrent = 512

// Consumer reads device messages from an external broker (Mosquitto, EMQX)
// with MQTT 5 shared subscriptions. There the broker authenticates devices
// and confines them to their topics; the consumer trusts the topic's SN.
type Consumer struct {
	p    *Pipeline
	id   string
	cm   *autopaho.ConnectionManager
	sem  chan struct{}
	done chan struct{}
}

// ClientID is the consumer's MQTT client id (ConsumerOptions.ClientID or
// its default): the node's name on the broker.
func (c *Consumer) ClientID() string { return c.id }

// ParseBrokerURL accepts tcp://, mqtt://, ssl://, tls:// and mqtts:// URLs
// with optional user:password.
func ParseBrokerURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%q is not a broker URL such as tcp://host:1883", raw)
	}
	switch u.Scheme {
	case "tcp", "mqtt":
		u.Scheme = "mqtt"
	case "ssl", "tls", "mqtts":
		u.Scheme = "tls"
	default:
		return nil, fmt.Errorf("%q: scheme must be tcp, mqtt, ssl, tls or mqtts", raw)
	}
	if u.Port() == "" {
		port := "1883"
		if u.Scheme == "tls" {
			port = "8883"
		}
		u.Host += ":" + port
	}
	return u, nil
}

// ConsumerOptions configure a Consumer.
type ConsumerOptions struct {
	Broker   string // tcp://user:pass@host:port
	ClientID string // default fieldwatch-{hostname}: stable, so the broker keeps the session across restarts
}

// StartConsumer connects to the broker and subscribes; it keeps reconnecting
// until ctx ends or Close. It returns an error if the first connection
// cannot be made within ctx.
func StartConsumer(ctx context.Context, o ConsumerOptions, p *Pipeline) (*Consumer, error) {
	u, err := ParseBrokerURL(o.Broker)
	if err != nil {
		return nil, err
	}
	if o.ClientID == "" {
		host, _ := os.Hostname()
		o.ClientID = "fieldwatch-" + host
	}
	c := &Consumer{p: p, id: o.ClientID, sem: make(chan struct{}, maxConcurrent), done: make(chan struct{})}
	pass, _ := u.User.Password()
	cfg := autopaho.ClientConfig{
		ServerUrls:      []*url.URL{u},
		ConnectUsername: u.User.Username(),
		ConnectPassword: []byte(pass),
		KeepAlive:       30,
		// Queued messages wait for this node for an hour while it restarts.
		SessionExpiryInterval:         3600,
		CleanStartOnInitialConnection: false,
		ConnectRetryDelay:             2 * time.Second,
		OnConnectionUp: func(cm *autopaho.ConnectionManager, _ *paho.Connack) {
			subs := make([]paho.SubscribeOptions, len(SharedTopics))
			for i, t := range SharedTopics {
				subs[i] = paho.SubscribeOptions{Topic: t, QoS: 1}
			}
			go func() {
				sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				if _, err := cm.Subscribe(sctx, &paho.Subscribe{Subscriptions: subs}); err != nil {
					p.Log.Error("subscribe on external broker", "err", err)
				}
			}()
			p.Log.Info("connected to external broker", "broker", u.Redacted())
		},
		OnConnectError: func(err error) { p.Log.Warn("external broker", "err", err) },
		ClientConfig: paho.ClientConfig{
			ClientID: o.ClientID,
			// Acknowledge each message only once it is stored, so the broker
			// redelivers what a crash interrupted.
			EnableManualAcknowledgment: true,
			SendAcksInterval:           50 * time.Millisecond,
		},
	}
	cfg.ClientConfig.OnPublishReceived = []func(paho.PublishReceived) (bool, error){
		func(pr paho.PublishReceived) (bool, error) {
			c.receive(p, pr.Client, pr.Packet)
			return true, nil
		},
	}
	cm, err := autopaho.NewConnection(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	c.cm = cm
	if err := cm.AwaitConnection(ctx); err != nil {
		cm.Disconnect(context.Background())
		return nil, fmt.Errorf("external broker %s: %w", u.Redacted(), err)
	}
	return c, nil
}

// receive stores one message in its own goroutine (bounded), so many are
// in flight and the writer batches them; each is acknowledged once stored.
// Acknowledgements go out in arrival order, so a message that cannot be
// stored is retried rather than left unacknowledged: while the store is
// down the consumer holds back, and the broker queues.
func (c *Consumer) receive(p *Pipeline, cl *paho.Client, pb *paho.Publish) {
	c.sem <- struct{}{}
	go func() {
		defer func() { <-c.sem }()
		for wait := 100 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			err := c.handle(ctx, p, pb)
			cancel()
			if err == nil || IsInvalid(err) {
				break
			}
			p.Log.Error("store device message; retrying", "topic", pb.Topic, "err", err)
			select {
			case <-c.done:
				return // not acknowledged: the broker delivers it again
			case <-time.After(wait):
			}
		}
		if err := cl.Ack(pb); err != nil && !errors.Is(err, paho.ErrManualAcknowledgmentDisabled) {
			p.Log.Debug("ack", "err", err)
		}
	}()
}

func (c *Consumer) handle(ctx context.Context, p *Pipeline, pb *paho.Publish) error {
	t, ok := ParseTopic(strings.TrimPrefix(pb.Topic, "$share/"+SharedGroup+"/"))
	if !ok {
		p.Metrics.Rejected.WithLabelValues(string(MQTT), "ingest.unknownTopic").Inc()
		return invalid("topic", "ingest.unknownTopic", nil)
	}
	d, err := p.Device(ctx, t.SN)
	if errs.KindOf(err) == errs.ENotFound {
		p.Metrics.Rejected.WithLabelValues(string(MQTT), "ingest.unknownDevice").Inc()
		return invalid("topic", "ingest.unknownDevice", nil)
	}
	if err != nil {
		return err // the store did not answer: retried, not dropped
	}
	if err := p.Handle(ctx, MQTT, d, t.Kind, pb.Payload); err != nil {
		return err
	}
	if t.Kind != KindAck && p.Commands != nil && p.Commands.HasOpen(d.ID) {
		// Commands the broker did not take earlier (it was unreachable) go now.
		p.Commands.Flush(ctx, d)
	}
	return nil
}

// Deliver publishes a command to device sn through the external broker at
// QoS 1. The server cannot see the device's connection there: the
// command counts as delivered once the broker has taken it, and the broker
// keeps it for a device with a persistent session until it reconnects
// (docs/device-protocol.md).
func (c *Consumer) Deliver(ctx context.Context, sn string, cmd *commands.Command) (bool, error) {
	if _, err := c.cm.Publish(ctx, &paho.Publish{Topic: CommandTopic(sn), QoS: 1, Payload: cmd.Payload()}); err != nil {
		return false, err
	}
	c.p.Commands.Delivered(ctx, cmd.ID)
	return true, nil
}

// Connected reports whether the connection to the broker is up (waiting
// for it until ctx ends).
func (c *Consumer) Connected(ctx context.Context) error {
	return c.cm.AwaitConnection(ctx)
}

// Close disconnects and waits for messages being stored.
func (c *Consumer) Close(ctx context.Context) error {
	close(c.done)
	err := c.cm.Disconnect(ctx)
	for range cap(c.sem) {
		select {
		case c.sem <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return err
}
