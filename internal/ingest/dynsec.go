package ingest

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/devices"
)

// dynsecTopic is the control topic of Mosquitto 2's dynamic-security plugin.
const dynsecTopic = "$CONTROL/dynamic-security/v1"

// DynSec keeps the device logins of a Mosquitto 2 broker in step with the
// console through the broker's dynamic-security plugin: a client per device
// (username its SN, password its key) with a role of its own that allows
// its own topics only. The --mqtt-broker user needs the plugin's admin role.
type DynSec struct {
	c       mqtt.Client
	log     *slog.Logger
	seq     atomic.Uint64
	mu      sync.Mutex
	waiting map[string]chan []dynsecResponse
}

type dynsecResponse struct {
	Command         string `json:"command"`
	Error           string `json:"error"`
	CorrelationData string `json:"correlationData"`
}

// StartDynSec connects to the broker of url (as --mqtt-broker) as clientID
// and listens for the plugin's answers.
func StartDynSec(ctx context.Context, url, clientID string, log *slog.Logger) (*DynSec, error) {
	u, err := ParseBrokerURL(url)
	if err != nil {
		return nil, err
	}
	d := &DynSec{log: log, waiting: map[string]chan []dynsecResponse{}}
	scheme := "tcp"
	if u.Scheme == "tls" {
		scheme = "ssl"
	}
	pass, _ := u.User.Password()
	opts := mqtt.NewClientOptions().AddBroker(scheme + "://" + u.Host).SetClientID(clientID).
		SetUsername(u.User.Username()).SetPassword(pass).SetCleanSession(true).SetAutoReconnect(true).
		SetConnectRetry(true).SetConnectRetryInterval(2 * time.Second)
	if scheme == "ssl" {
		opts.SetTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12})
	}
	opts.SetOnConnectHandler(func(c mqtt.Client) {
		c.Subscribe(dynsecTopic+"/response", 1, d.answer)
	})
	d.c = mqtt.NewClient(opts)
	tok := d.c.Connect()
	select {
	case <-tok.Done():
		if err := tok.Error(); err != nil {
			return nil, fmt.Errorf("dynamic security: %w", err)
		}
	case <-ctx.Done():
		d.c.Disconnect(0)
		return nil, fmt.Errorf("dynamic security: %w", ctx.Err())
	}
	return d, nil
}

// Close disconnects.
func (d *DynSec) Close() { d.c.Disconnect(250) }

func (d *DynSec) answer(_ mqtt.Client, m mqtt.Message) {
	var body struct {
		Responses []dynsecResponse `json:"responses"`
	}
	if err := json.Unmarshal(m.Payload(), &body); err != nil || len(body.Responses) == 0 {
		return
	}
	id, _, _ := strings.Cut(body.Responses[0].CorrelationData, "/")
	d.mu.Lock()
	ch := d.waiting[id]
	delete(d.waiting, id)
	d.mu.Unlock()
	if ch != nil {
		ch <- body.Responses
	}
}

// run sends commands in one message and returns the plugin's answers, in
// the same order.
func (d *DynSec) run(ctx context.Context, cmds []map[string]any) ([]dynsecResponse, error) {
	id := fmt.Sprintf("fw%d", d.seq.Add(1))
	for i, c := range cmds {
		c["correlationData"] = fmt.Sprintf("%s/%d", id, i)
	}
	payload, err := json.Marshal(map[string]any{"commands": cmds})
	if err != nil {
		return nil, err
	}
	ch := make(chan []dynsecResponse, 1)
	d.mu.Lock()
	d.waiting[id] = ch
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.waiting, id)
		d.mu.Unlock()
	}()
	if tok := d.c.Publish(dynsecTopic, 1, false, payload); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		return nil, fmt.Errorf("dynamic security: publish: %v", tok.Error())
	}
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("dynamic security: no answer: %w", ctx.Err())
	}
}

// roleOf is a device's own role.
func roleOf(sn string) string { return "fieldwatch-device-" + sn }

// commandsFor are the commands that make the broker's login of a device what
// l says: its client and role, with its key as the password; or neither.
// With rekey an existing client takes the key too (the broker then closes
// its connections); without, an existing client is left as it is.
func commandsFor(l devices.BrokerLogin, rekey bool) []map[string]any {
	role := roleOf(l.SN)
	if l.Key == "" {
		return []map[string]any{
			{"command": "deleteClient", "username": l.SN},
			{"command": "deleteRole", "rolename": role},
		}
	}
	acl := func(kind, topic string) map[string]any {
		return map[string]any{"acltype": kind, "topic": topic, "priority": 0, "allow": true}
	}
	base := "devices/" + l.SN + "/"
	cmds := []map[string]any{
		{"command": "createRole", "rolename": role, "acls": []map[string]any{
			acl("publishClientSend", base+KindTelemetry), acl("publishClientSend", base+KindStatus),
			acl("publishClientSend", base+KindImage), acl("publishClientSend", base+"commands/ack"),
			acl("subscribeLiteral", base+"commands"), acl("publishClientReceive", base+"commands"),
		}},
		{"command": "createClient", "username": l.SN, "password": l.Key, "roles": []map[string]any{{"rolename": role}}},
	}
	// A host publishes for its slaves; added to an existing role too ("already" answers are fine).
	for _, sl := range l.Slaves {
		c := map[string]any{"command": "addRoleACL", "rolename": role}
		for k, v := range acl("publishClientSend", "devices/"+sl+"/+") {
			c[k] = v
		}
		cmds = append(cmds, c)
	}
	if rekey {
		cmds = append(cmds, map[string]any{"command": "setClientPassword", "username": l.SN, "password": l.Key})
	}
	return cmds
}

// tolerable are the plugin's answers that mean the login already is as asked.
func tolerable(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "already") || strings.Contains(m, "not found")
}

// Apply makes the broker's logins of these devices what they say, in
// messages of up to 50 devices. Without rekey the key of a device the broker
// already knows is not sent again (the periodic pass, which must not close
// every device's connection); with it, it is (a key just replaced).
func (d *DynSec) Apply(ctx context.Context, logins []devices.BrokerLogin, rekey bool) error {
	var errs []error
	for len(logins) > 0 {
		n := min(len(logins), 50)
		var cmds []map[string]any
		for _, l := range logins[:n] {
			cmds = append(cmds, commandsFor(l, rekey)...)
		}
		logins = logins[n:]
		res, err := d.run(ctx, cmds)
		if err != nil {
			return err
		}
		for _, r := range res {
			if r.Error != "" && !tolerable(r.Error) {
				errs = append(errs, fmt.Errorf("%s: %s", r.Command, r.Error))
			}
		}
	}
	return errors.Join(errs...)
}
