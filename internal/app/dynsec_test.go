package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/mosquittotest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// dynsecMosquitto starts a Mosquitto of its own with the dynamic-security
// plugin (Debian's mosquitto ships it) on a free port; its admin client
// (admin / adminpass) may also read every device's messages and send
// commands, as a fieldwatch node's broker user does. Returns the port.
func dynsecMosquitto(t *testing.T) int {
	t.Helper()
	b := mosquittotest.Start(t, mosquittotest.Options{DynSec: true, AdminUser: "admin", AdminPassword: "adminpass", Conf: []string{"log_type all"}})
	// The node's rights: every device's messages in, commands out.
	b.Ctl(t, "createRole", "fieldwatch-node")
	b.Ctl(t, "addRoleACL", "fieldwatch-node", "subscribePattern", "devices/#", "allow")
	b.Ctl(t, "addRoleACL", "fieldwatch-node", "publishClientSend", "devices/+/commands", "allow")
	b.Ctl(t, "addClientRole", "admin", "fieldwatch-node")
	return b.Port
}

// TestDynSec_DeviceLogins: with --mqtt-dynsec the console keeps Mosquitto's
// device logins itself. A device added in the console connects with its
// key (Debian's mosquitto_pub) and its report is stored; a wrong key is
// refused by the broker; a publish on another device's topic is refused
// and stores nothing; a rotated key takes over from the old one; a host
// publishes for the slave unit added after it; a retired device is refused.
func TestDynSec_DeviceLogins(t *testing.T) {
	port := dynsecMosquitto(t)
	ctx := context.Background()
	cfg := serveConfig(t)
	cfg.Demo = false
	cfg.MQTTBroker = fmt.Sprintf("tcp://admin:adminpass@127.0.0.1:%d", port)
	cfg.MQTTDynSec = true
	cfg.MQTTClientID = fmt.Sprintf("fwtest-dynsec-%d", time.Now().UnixNano())
	m := start(t, cfg)
	if m.Logins == nil {
		t.Fatal("--mqtt-dynsec started no login keeper")
	}
	owner, err := m.Accounts.Create(ctx, "dynsec01", "secret12", "Dynsec")
	if err != nil {
		t.Fatal(err)
	}
	dev, key, err := m.Devices.Register(ctx, devices.Registration{SN: "DYN000000001", TypeID: 6, Owner: owner.ID})
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := m.Devices.Register(ctx, devices.Registration{SN: "DYN000000002", TypeID: 6, Owner: owner.ID})
	if err != nil {
		t.Fatal(err)
	}

	pub := func(user, pass, topic, payload string) (string, int) {
		return run(t, "mosquitto_pub", "-h", "127.0.0.1", "-p", fmt.Sprint(port), "-V", "mqttv5", "-q", "1",
			"-i", fmt.Sprintf("fwtest-%d", time.Now().UnixNano()), "-u", user, "-P", pass, "-t", topic, "-m", payload)
	}
	// until retries a publish while the console's change reaches the broker (it is sent at once,
	// and the broker applies it on its next loop).
	until := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 10 s", what)
			}
		}
	}
	stored := func(id int64, at int64) bool {
		rs, err := m.DB.Readings(ctx, telemetry.Query{DeviceID: id, Begin: time.Unix(at, 0), End: time.Unix(at+1, 0)})
		if err != nil {
			t.Fatal(err)
		}
		return len(rs) == 1
	}
	report := func(at int64) string { return fmt.Sprintf(`{"ts": %d, "values": {"rainfall": 0.4}}`, at) }
	topic := "devices/" + dev.SN + "/telemetry"

	at := time.Now().Unix()
	until("the new device's key accepted", func() bool { _, code := pub(dev.SN, key, topic, report(at)); return code == 0 })
	until("its report stored", func() bool { return stored(dev.ID, at) })

	if out, code := pub(dev.SN, "wrong-key", topic, report(at+1)); code == 0 {
		t.Fatalf("a wrong key was accepted: %s", out)
	}
	// Its own login on another device's topic: the broker refuses the publish.
	out, _ := pub(dev.SN, key, "devices/"+other.SN+"/telemetry", report(at+2))
	if !strings.Contains(strings.ToLower(out), "not authori") {
		t.Errorf("a publish on another device's topic: %q, want a refusal", out)
	}

	_, newKey, err := m.Devices.RotateKey(ctx, owner.ID, dev.ID)
	if err != nil {
		t.Fatal(err)
	}
	until("the old key refused", func() bool { _, code := pub(dev.SN, key, topic, report(at+3)); return code != 0 })
	if out, code := pub(dev.SN, newKey, topic, report(at+4)); code != 0 {
		t.Fatalf("the new key: %s", out)
	}
	until("the report under the new key stored", func() bool { return stored(dev.ID, at+4) })
	if stored(other.ID, at+2) || stored(dev.ID, at+1) || stored(dev.ID, at+3) {
		t.Fatal("a refused report was stored")
	}

	// A liquid level host publishes for its slave unit, added after it.
	host, hostKey, err := m.Devices.Register(ctx, devices.Registration{SN: "DYNH00000001", TypeID: 19, Owner: owner.ID})
	if err != nil {
		t.Fatal(err)
	}
	until("the host's key accepted", func() bool {
		_, code := pub(host.SN, hostKey, "devices/"+host.SN+"/telemetry", `{"values":{"battery":3.6}}`)
		return code == 0
	})
	slave, _, err := m.Devices.Register(ctx, devices.Registration{SN: "DYNS00000001", TypeID: 19, Slave: true, HostSN: host.SN})
	if err != nil {
		t.Fatal(err)
	}
	slaveReport := fmt.Sprintf(`{"ts": %d, "values": {"waterLevel": 1.25}}`, at+6)
	until("the host's report for its slave stored", func() bool {
		pub(host.SN, hostKey, "devices/"+slave.SN+"/telemetry", slaveReport)
		return stored(slave.ID, at+6)
	})

	if err := m.Devices.SetState(ctx, dev.SN, devices.StateScrap); err != nil {
		t.Fatal(err)
	}
	until("the retired device refused", func() bool { _, code := pub(dev.SN, newKey, topic, report(at+5)); return code != 0 })
}
