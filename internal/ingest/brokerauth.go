package ingest

import (
	"context"
	"crypto/subtle"
	"strings"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Access is what a broker asks to allow on a topic.
type Access int

const (
	AccessPublish   Access = 1 << iota // the client sends a message on the topic
	AccessSubscribe                    // the client subscribes to the filter
	AccessReceive                      // the client is sent a message on the topic
)

// BrokerAuth answers an external broker that asks who may connect and what
// they may do (EMQX's HTTP authenticator and authorizer, mosquitto-go-auth's
// HTTP backend; the wire formats are httpapi's). A device logs in with its
// SN and key and may use its own topics only, a host also its slaves'
// (as on the embedded broker); the nodes log in with the --mqtt-broker user
// and may read every device's messages and send commands. Every answer is
// looked up afresh: a retired device or a replaced key is refused at its
// next question.
type BrokerAuth struct {
	Pipeline *Pipeline
	// NodeUser and NodePassword are the nodes' own login (the --mqtt-broker
	// URL's user); empty NodeUser: the broker logs the nodes in itself.
	NodeUser, NodePassword string
}

// Authenticate reports whether username and password may connect.
func (a BrokerAuth) Authenticate(ctx context.Context, username, password string) (ok bool, err error) {
	defer func() { a.count(ok, err, "credentials") }()
	if a.node(username) {
		return subtle.ConstantTimeCompare([]byte(password), []byte(a.NodePassword)) == 1, nil
	}
	if !devices.ValidSN(username) {
		return false, nil
	}
	_, err = a.Pipeline.Devices.Authenticate(ctx, username, password)
	if errs.KindOf(err) == errs.EUnauthorized {
		return false, nil
	}
	return err == nil, err
}

// Authorize reports whether the client logged in as username may have
// access to topic (a topic filter for AccessSubscribe). Several bits ask
// for all of them.
func (a BrokerAuth) Authorize(ctx context.Context, username, topic string, access Access) (ok bool, err error) {
	defer func() {
		reason := "publish"
		if access&AccessPublish == 0 {
			reason = "subscribe"
		}
		a.count(ok, err, reason)
	}()
	if access == 0 {
		return false, nil
	}
	if a.node(username) {
		return nodeMay(topic, access), nil
	}
	if !devices.ValidSN(username) {
		return false, nil
	}
	me, err := a.find(ctx, username)
	if me == nil || err != nil || me.State == devices.StateScrap {
		return false, err
	}
	if access&(AccessSubscribe|AccessReceive) != 0 && topic != CommandTopic(username) {
		return false, nil
	}
	if access&AccessPublish != 0 {
		target, _, err := mayPublish(ctx, username, topic, a.find)
		if target == nil || err != nil {
			return false, err
		}
	}
	return true, nil
}

// count counts a refusal as the embedded broker does.
func (a BrokerAuth) count(ok bool, err error, reason string) {
	if !ok && err == nil && a.Pipeline.Metrics != nil {
		a.Pipeline.Metrics.Denied.WithLabelValues(reason).Inc()
	}
}

// find looks a device up in the store, not the pipeline's cache.
func (a BrokerAuth) find(ctx context.Context, sn string) (*devices.Device, error) {
	d, err := a.Pipeline.Devices.FindBySN(ctx, sn)
	if errs.KindOf(err) == errs.ENotFound {
		return nil, nil
	}
	return d, err
}

func (a BrokerAuth) node(username string) bool {
	return a.NodeUser != "" && subtle.ConstantTimeCompare([]byte(username), []byte(a.NodeUser)) == 1
}

// nodeMay are a node's rights: subscribe to (and be sent) the devices'
// messages, in the shared group or not, and publish commands.
func nodeMay(topic string, access Access) bool {
	if access&(AccessSubscribe|AccessReceive) != 0 {
		filter := strings.TrimPrefix(topic, "$share/"+SharedGroup+"/")
		if !strings.HasPrefix(filter, "devices/") {
			return false
		}
	}
	if access&AccessPublish != 0 {
		t := strings.Split(topic, "/")
		if len(t) != 3 || t[0] != "devices" || !devices.ValidSN(t[1]) || t[2] != "commands" {
			return false
		}
	}
	return true
}
