package app_test

// End-to-end tests of commands: the console's API, the embedded broker's
// downlink to a device (a paho client, and Debian's mosquitto_sub), the
// HTTP downlink, acknowledgements, confirmation by report, expiry, and the
// demo fleet obeying commands.

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	pahomqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/devices"
)

// cmdView is a command as the console's API shows it.
type cmdView struct {
	ID          int64          `json:"id"`
	Name        string         `json:"name"`
	Label       string         `json:"label"`
	Params      map[string]any `json:"params"`
	State       string         `json:"state"`
	ReasonCode  string         `json:"reasonCode"`
	Reason      string         `json:"reason"`
	ConfirmedBy string         `json:"confirmedBy"`
	Source      string         `json:"source"`
	By          *struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"by"`
	SubmittedAt int64  `json:"submittedAt"`
	PendingAt   *int64 `json:"pendingAt"`
	DeliveredAt *int64 `json:"deliveredAt"`
	FinishedAt  *int64 `json:"finishedAt"`
	ExpiresAt   int64  `json:"expiresAt"`
}

// wire is a command as the device receives it.
type wire struct {
	ID        int64          `json:"id"`
	Name      string         `json:"name"`
	Params    map[string]any `json:"params"`
	TS        int64          `json:"ts"`
	ExpiresAt int64          `json:"expiresAt"`
}

func (a *api) send(id int64, body string, lang string) cmdView {
	a.t.Helper()
	status, env := a.do("POST", fmt.Sprintf("/apis/poi/%d/commands", id), body, map[string]string{"lang": lang})
	if status != 200 || env.Code != 0 {
		a.t.Fatalf("send %s: HTTP %d %+v", body, status, env)
	}
	var c cmdView
	if err := json.Unmarshal(env.Data, &c); err != nil {
		a.t.Fatal(err)
	}
	return c
}

func (a *api) command(dev, id int64, lang string) cmdView {
	a.t.Helper()
	var c cmdView
	a.get(fmt.Sprintf("/apis/poi/%d/commands/%d", dev, id), map[string]string{"lang": lang}, &c)
	return c
}

// waitState polls a command until it reaches state.
func (a *api) waitState(dev, id int64, state string) cmdView {
	a.t.Helper()
	var c cmdView
	waitFor(a.t, fmt.Sprintf("command %d %s", id, state), func() bool {
		c = a.command(dev, id, "en_US")
		return c.State == state
	})
	return c
}

// cmdDevice registers a device of the demo account for a test.
func cmdDevice(t *testing.T, m *app.Main, sn string, typeID int) (*devices.Device, string) {
	t.Helper()
	a, err := m.DB.FindAccountByNumber(context.Background(), "demo01")
	if err != nil {
		t.Fatal(err)
	}
	d, key, err := m.Devices.Register(context.Background(), devices.Registration{SN: sn, TypeID: typeID, Owner: a.ID})
	if err != nil {
		t.Fatal(err)
	}
	return d, key
}

// deviceClient is a device on the embedded broker: it subscribes to its
// command topic at QoS 1 and hands each command to the channel.
func deviceClient(t *testing.T, m *app.Main, sn, key string) (pahomqtt.Client, <-chan wire) {
	t.Helper()
	got := make(chan wire, 8)
	c := pahomqtt.NewClient(pahomqtt.NewClientOptions().AddBroker("tcp://" + m.MQTTAddr()).
		SetClientID(sn).SetUsername(sn).SetPassword(key).SetCleanSession(true).SetAutoReconnect(false))
	if tok := c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("connect %s: %v", sn, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(0) })
	tok := c.Subscribe("devices/"+sn+"/commands", 1, func(_ pahomqtt.Client, msg pahomqtt.Message) {
		var w wire
		if err := json.Unmarshal(msg.Payload(), &w); err != nil {
			t.Errorf("command payload %s: %v", msg.Payload(), err)
		}
		got <- w
	})
	if !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	if codes := tok.(*pahomqtt.SubscribeToken).Result(); codes["devices/"+sn+"/commands"] != 1 {
		t.Fatalf("subscription granted %v", codes)
	}
	return c, got
}

func receive(t *testing.T, ch <-chan wire) wire {
	t.Helper()
	select {
	case w := <-ch:
		return w
	case <-time.After(time.Minute):
		t.Fatal("no command arrived")
		return wire{}
	}
}

func ack(t *testing.T, c pahomqtt.Client, sn, payload string) {
	t.Helper()
	tok := c.Publish("devices/"+sn+"/commands/ack", 1, false, payload)
	if !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("ack: %v", tok.Error())
	}
}

func ms(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

func TestCommands_ConnectedDevice(t *testing.T) {
	m := start(t, ingestConfig(t))
	a := loginAPI(t, m.URL())
	dev, key := cmdDevice(t, m, "YYCMD00001", 10)
	c, got := deviceClient(t, m, dev.SN, key)

	sent := a.send(dev.ID, `{"name":"openFor","params":{"minutes":15}}`, "en_US")
	if sent.State != "pending" || sent.PendingAt == nil || sent.SubmittedAt > *sent.PendingAt || sent.FinishedAt != nil {
		t.Fatalf("just sent: %+v", sent)
	}
	if sent.Label != "Open for a time" || sent.Source != "console" || sent.By == nil || sent.By.Name == "" {
		t.Errorf("who and what: %+v", sent)
	}
	w := receive(t, got)
	if w.ID != sent.ID || w.Name != "openFor" || w.Params["minutes"] != float64(15) || w.ExpiresAt <= w.TS {
		t.Fatalf("the device received %+v", w)
	}
	// Delivered (the device's PUBACK), still waiting for the device to act.
	var cv cmdView
	waitFor(t, "delivery", func() bool { cv = a.command(dev.ID, sent.ID, "en_US"); return cv.DeliveredAt != nil })
	if cv.State != "pending" {
		t.Fatalf("delivered but %s", cv.State)
	}
	ack(t, c, dev.SN, fmt.Sprintf(`{"id": %d, "result": "ok"}`, sent.ID))
	done := a.waitState(dev.ID, sent.ID, "effective")
	if done.ConfirmedBy != "ack" || done.FinishedAt == nil ||
		!(done.SubmittedAt <= ms(done.PendingAt) && ms(done.PendingAt) <= ms(done.DeliveredAt) && ms(done.DeliveredAt) <= ms(done.FinishedAt)) {
		t.Errorf("effective: %+v", done)
	}
	// An acknowledgement sent again (its PUBACK lost) changes nothing.
	ack(t, c, dev.SN, fmt.Sprintf(`{"id": %d, "result": "failed", "reason": "late"}`, sent.ID))
	if again := a.command(dev.ID, sent.ID, "en_US"); again.State != "effective" || *again.FinishedAt != *done.FinishedAt {
		t.Errorf("a repeated ack changed the command: %+v", again)
	}

	// A failure the device reports, with its reason in its own words.
	closeCmd := a.send(dev.ID, `{"name":"close"}`, "en_US")
	if w := receive(t, got); w.ID != closeCmd.ID || len(w.Params) != 0 {
		t.Fatalf("received %+v", w)
	}
	ack(t, c, dev.SN, fmt.Sprintf(`{"id": %d, "result": "failed", "reason": "valve jammed"}`, closeCmd.ID))
	failed := a.waitState(dev.ID, closeCmd.ID, "failed")
	if failed.ReasonCode != "command.reason.device" || failed.Reason != "The device reported: valve jammed" {
		t.Errorf("failed: %+v", failed)
	}
	if zh := a.command(dev.ID, closeCmd.ID, "zh_CN"); zh.Reason != "设备回复：valve jammed" {
		t.Errorf("zh_CN reason %q", zh.Reason)
	}

	// Confirmed by the next report: the valve reported open.
	open := a.send(dev.ID, `{"name":"open"}`, "en_US")
	receive(t, got)
	waitFor(t, "delivery", func() bool { return a.command(dev.ID, open.ID, "en_US").DeliveredAt != nil })
	tok := c.Publish("devices/"+dev.SN+"/telemetry", 1, false,
		fmt.Sprintf(`{"ts": %d, "values": {"valveState": 1, "flowRate": 21.5}}`, reportTS()))
	if !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	if byReport := a.waitState(dev.ID, open.ID, "effective"); byReport.ConfirmedBy != "report" {
		t.Errorf("confirmed by %q", byReport.ConfirmedBy)
	}

	// An acknowledgement of a command the device never got is refused and
	// kept as its last error.
	ack(t, c, dev.SN, `{"id": 999999, "result": "ok"}`)
	waitFor(t, "last error", func() bool {
		e := a.lastError(dev.ID, "en_US")
		return e != nil && e.Code == "ingest.unknownCommand" && e.Field == "id"
	})

	// The list, newest first, paged.
	var page struct {
		List  []cmdView `json:"list"`
		Total int       `json:"total"`
	}
	a.get(fmt.Sprintf("/apis/poi/%d/commands?page=1&size=2", dev.ID), nil, &page)
	if page.Total != 3 || len(page.List) != 2 || page.List[0].ID != open.ID || page.List[1].ID != closeCmd.ID {
		t.Errorf("list: %+v", page)
	}
}

func TestCommands_OfflineDeviceGetsThemOnReconnect(t *testing.T) {
	m := start(t, ingestConfig(t))
	a := loginAPI(t, m.URL())
	dev, key := cmdDevice(t, m, "IBCMD00001", 20)

	first := a.send(dev.ID, `{"name":"light","params":{"state":"off"}}`, "en_US")
	second := a.send(dev.ID, `{"name":"capture"}`, "en_US")
	for _, c := range []cmdView{first, second} {
		if c.State != "pending" || c.DeliveredAt != nil {
			t.Fatalf("queued for an offline device: %+v", c)
		}
	}
	if got := a.command(dev.ID, first.ID, "en_US"); got.DeliveredAt != nil {
		t.Fatalf("delivered to nobody: %+v", got)
	}
	// The device connects and subscribes: both arrive, in order.
	c, got := deviceClient(t, m, dev.SN, key)
	if w := receive(t, got); w.ID != first.ID || w.Params["state"] != "off" {
		t.Fatalf("first: %+v", w)
	}
	if w := receive(t, got); w.ID != second.ID {
		t.Fatalf("second: %+v", w)
	}
	for _, id := range []int64{first.ID, second.ID} {
		ack(t, c, dev.SN, fmt.Sprintf(`{"id": %d, "result": "ok"}`, id))
		if done := a.waitState(dev.ID, id, "effective"); done.DeliveredAt == nil {
			t.Errorf("effective without delivery: %+v", done)
		}
	}
}

func TestCommands_HTTPDevice(t *testing.T) {
	m := start(t, ingestConfig(t))
	a := loginAPI(t, m.URL())
	dev, key := cmdDevice(t, m, "YYCMD00002", 10)
	sent := a.send(dev.ID, `{"name":"openFor","params":{"minutes":5}}`, "en_US")

	post := func(path, body string) envelope {
		t.Helper()
		req, err := http.NewRequest("POST", m.URL()+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.SetBasicAuth(dev.SN, key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var env envelope
		if err := json.NewDecoder(res.Body).Decode(&env); err != nil || res.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("%s: HTTP %d %+v %v", path, res.StatusCode, env, err)
		}
		return env
	}
	var answer struct{ Commands []wire }
	for range 2 { // repeated until acknowledged
		env := post("/ingest/v1/telemetry", fmt.Sprintf(`{"ts": %d, "values": {"valveState": 0}}`, reportTS()))
		if err := json.Unmarshal(env.Data, &answer); err != nil || len(answer.Commands) != 1 || answer.Commands[0].ID != sent.ID ||
			answer.Commands[0].Params["minutes"] != float64(5) {
			t.Fatalf("answer %s", env.Data)
		}
	}
	if c := a.command(dev.ID, sent.ID, "en_US"); c.DeliveredAt == nil || c.State != "pending" {
		t.Fatalf("after the answer: %+v", c)
	}
	post("/ingest/v1/commands/ack", fmt.Sprintf(`{"id": %d, "result": "ok"}`, sent.ID))
	if c := a.command(dev.ID, sent.ID, "en_US"); c.State != "effective" || c.ConfirmedBy != "ack" {
		t.Fatalf("after the ack: %+v", c)
	}
	env := post("/ingest/v1/telemetry", fmt.Sprintf(`{"ts": %d, "values": {"valveState": 1}}`, reportTS()+1))
	if err := json.Unmarshal(env.Data, &answer); err != nil || len(answer.Commands) != 0 {
		t.Fatalf("answer after the ack: %s", env.Data)
	}
}

func TestCommands_Expire(t *testing.T) {
	m := start(t, ingestConfig(t))
	a := loginAPI(t, m.URL())
	dev, key := cmdDevice(t, m, "YYCMD00003", 10)
	never := a.send(dev.ID, `{"name":"close"}`, "en_US")
	if never.ExpiresAt-never.SubmittedAt != (15 * time.Minute).Milliseconds() { // twice 5 minutes and 5
		t.Errorf("time to live %d ms", never.ExpiresAt-never.SubmittedAt)
	}
	_, got := deviceClient(t, m, dev.SN, key)
	receive(t, got) // delivered now, never acknowledged
	waitFor(t, "delivery", func() bool { return a.command(dev.ID, never.ID, "en_US").DeliveredAt != nil })

	other, _ := cmdDevice(t, m, "YYCMD00004", 10)
	lost := a.send(other.ID, `{"name":"open"}`, "en_US") // its device never connects

	ctx := context.Background()
	if n, err := m.Commands.Expire(ctx, time.UnixMilli(never.ExpiresAt).Add(-time.Second)); err != nil || n != 0 {
		t.Fatalf("expired early: %d %v", n, err)
	}
	if n, err := m.Commands.Expire(ctx, time.UnixMilli(lost.ExpiresAt).Add(time.Second)); err != nil || n != 2 {
		t.Fatalf("expired %d, %v", n, err)
	}
	c := a.command(dev.ID, never.ID, "en_US")
	if c.State != "expired" || c.ReasonCode != "command.reason.noAck" || !strings.Contains(c.Reason, "did not confirm") || c.FinishedAt == nil {
		t.Errorf("unacknowledged: %+v", c)
	}
	c = a.command(other.ID, lost.ID, "zh_TW")
	if c.State != "expired" || c.ReasonCode != "command.reason.notDelivered" || !strings.Contains(c.Reason, "未送達") || c.DeliveredAt != nil {
		t.Errorf("undelivered: %+v", c)
	}
}

func TestCommands_Strangers(t *testing.T) {
	m := start(t, ingestConfig(t))
	owner := loginAPI(t, m.URL())
	dev, _ := cmdDevice(t, m, "YYCMD00005", 10)
	sent := owner.send(dev.ID, `{"name":"open"}`, "en_US")
	if _, err := m.Accounts.Create(context.Background(), "stranger1", "secret1", "stranger1"); err != nil {
		t.Fatal(err)
	}
	s := loginAs(t, m, "stranger1", "secret1")
	gone := s.call("POST", "/apis/poi/999999999/commands", `{"name":"open"}`)
	for _, call := range []struct{ method, path, body string }{
		{"POST", fmt.Sprintf("/apis/poi/%d/commands", dev.ID), `{"name":"open"}`},
		{"GET", fmt.Sprintf("/apis/poi/%d/commands", dev.ID), ""},
		{"GET", fmt.Sprintf("/apis/poi/%d/commands/%d", dev.ID, sent.ID), ""},
	} {
		got := s.call(call.method, call.path, call.body)
		if got.status != gone.status || got.Code != gone.Code || got.Msg != gone.Msg || gone.status != 404 {
			t.Errorf("%s %s: HTTP %d %d %q; a missing device: HTTP %d %d %q", call.method, call.path,
				got.status, got.Code, got.Msg, gone.status, gone.Code, gone.Msg)
		}
	}
	// Bad input is refused in the caller's language, naming the field,
	// and nothing is recorded.
	for lang, msg := range map[string]string{"zh_CN": "开阀时长须在 1 到 720 之间", "zh_TW": "開閥時長須在 1 到 720 之間",
		"en_US": "Open for must be between 1 and 720"} {
		status, env := owner.do("POST", fmt.Sprintf("/apis/poi/%d/commands", dev.ID), `{"name":"openFor","params":{"minutes":0}}`,
			map[string]string{"lang": lang})
		if status != 400 || env.Message != msg || env.Error == nil || env.Error.Field != "params.minutes" || env.Error.Key != "command.input.range" {
			t.Errorf("%s: HTTP %d %+v", lang, status, env)
		}
	}
	if status, env := owner.do("POST", fmt.Sprintf("/apis/poi/%d/commands", dev.ID), `{"name":"capture"}`,
		map[string]string{"lang": "en_US"}); status != 400 || env.Error == nil || env.Error.Field != "name" || env.Error.Key != "command.unknown" {
		t.Errorf("a camera command to a valve: HTTP %d %+v", status, env)
	}
	var page struct{ Total int }
	owner.get(fmt.Sprintf("/apis/poi/%d/commands", dev.ID), nil, &page)
	if page.Total != 1 {
		t.Errorf("refused or strangers' commands were recorded: %d commands", page.Total)
	}
	// Nor can a command id of another device be read through one's own.
	mine, _ := cmdDevice(t, m, "YYCMD00006", 10)
	if status, env := owner.do("GET", fmt.Sprintf("/apis/poi/%d/commands/%d", mine.ID, sent.ID), "", nil); status != 404 || env.Code != 1404 {
		t.Errorf("another device's command: HTTP %d %+v", status, env)
	}
}

// With Debian's mosquitto_sub subscribed as the device, the command
// arrives; another device cannot subscribe to that topic.
func TestCommands_MosquittoSub(t *testing.T) {
	sub := needTool(t, "mosquitto_sub")
	m := start(t, ingestConfig(t))
	a := loginAPI(t, m.URL())
	dev, key := cmdDevice(t, m, "IBCMD00002", 22)
	other, otherKey := cmdDevice(t, m, "IBCMD00003", 22)
	host, port, _ := net.SplitHostPort(m.MQTTAddr())
	topic := "devices/" + dev.SN + "/commands"

	for _, version := range []string{"mqttv311", "5"} {
		out, _ := run(t, sub, "-d", "-h", host, "-p", port, "-V", version, "-u", other.SN, "-P", otherKey,
			"-i", "thief-"+version, "-q", "1", "-t", topic, "-W", "1", "-C", "1")
		if !strings.Contains(out, "subscription requests were denied") {
			t.Errorf("-V %s: another device subscribed to %s: %s", version, topic, out)
		}
	}

	// mosquitto_sub buffers its output in a pipe until it exits (-C 1: after
	// one message), so the command is sent without waiting for the
	// subscription: one sent first waits for it, and goes out when it comes.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out := make(chan []byte, 1)
	go func() {
		b, err := exec.CommandContext(ctx, sub, "-h", host, "-p", port, "-V", "5", "-u", dev.SN, "-P", key,
			"-i", dev.SN, "-q", "1", "-t", topic, "-C", "1").CombinedOutput()
		if err != nil {
			t.Errorf("mosquitto_sub: %v: %s", err, b)
		}
		out <- b
	}()
	sent := a.send(dev.ID, `{"name":"captureInterval","params":{"minutes":30}}`, "en_US")
	b := <-out
	var w wire
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if w.ID != sent.ID || w.Name != "captureInterval" || w.Params["minutes"] != float64(30) {
		t.Fatalf("mosquitto_sub received %+v", w)
	}
	// mosquitto_sub acknowledged it at QoS 1: delivered.
	waitFor(t, "delivery", func() bool { return a.command(dev.ID, sent.ID, "en_US").DeliveredAt != nil })
}

// The demo valve obeys: opened from the console, it acknowledges and its
// next report shows the water flowing. A saved report interval reaches the
// device as a command.
func TestCommands_DemoFleetObeys(t *testing.T) {
	m := start(t, ingestConfig(t))
	<-m.DemoLoaded()
	a := loginAPI(t, m.URL())
	valves := a.devicesOfType(10)
	if len(valves) == 0 {
		t.Fatal("no demo valve")
	}
	v := valves[0]
	before, _ := a.latest(v.ID, "flowRate")
	sent := a.send(v.ID, `{"name":"openFor","params":{"minutes":30}}`, "en_US")
	done := a.waitState(v.ID, sent.ID, "effective")
	if done.ConfirmedBy != "ack" {
		t.Errorf("confirmed by %q", done.ConfirmedBy)
	}
	waitFor(t, "the flow in the next report", func() bool {
		l, ok := a.latest(v.ID, "flowRate")
		return ok && l.Time > before.Time && l.Value > 0
	})
	if state, _ := a.latest(v.ID, "valveState"); state.Value != 1 {
		t.Errorf("valve state %v", state.Value)
	}
	closeCmd := a.send(v.ID, `{"name":"close"}`, "en_US")
	a.waitState(v.ID, closeCmd.ID, "effective")
	waitFor(t, "the flow stopping", func() bool {
		l, ok := a.latest(v.ID, "flowRate")
		return ok && l.Value == 0
	})

	// Saving the report interval sends it.
	status, env := a.do("PUT", fmt.Sprintf("/apis/poi/%d/config", v.ID), `{"reportInterval":30}`, nil)
	if status != 200 || env.Code != 0 {
		t.Fatalf("config: HTTP %d %+v", status, env)
	}
	var saved struct {
		ReportInterval int      `json:"reportInterval"`
		Command        *cmdView `json:"command"`
	}
	if err := json.Unmarshal(env.Data, &saved); err != nil || saved.Command == nil ||
		saved.Command.Name != "reportInterval" || saved.Command.Params["minutes"] != float64(30) || saved.Command.Source != "settings" {
		t.Fatalf("saved %s", env.Data)
	}
	a.waitState(v.ID, saved.Command.ID, "effective")
}

// With --mqtt-broker, commands go out through the external broker and
// acknowledgements come back through its share group.
func TestCommands_ExternalBroker(t *testing.T) {
	needMosquitto(t)
	ctx := context.Background()
	cfg := serveConfig(t)
	cfg.Demo = false
	cfg.MQTTBroker = "tcp://" + mosquittoAddr
	hostname, _ := os.Hostname()
	t.Cleanup(func() { dropSession(t, "fieldwatch-"+hostname) })
	m := start(t, cfg)
	owner, err := m.Accounts.Create(ctx, "extcmd01", "secret12", "Ext")
	if err != nil {
		t.Fatal(err)
	}
	sn := fmt.Sprintf("EXTYY%07d", rand.IntN(1e7))
	dev, _, err := m.Devices.Register(ctx, devices.Registration{SN: sn, TypeID: 10, Owner: owner.ID})
	if err != nil {
		t.Fatal(err)
	}
	device := mosquittoClient(t, fmt.Sprintf("fwtest-cmd-%d", rand.Int64()))
	defer device.Disconnect(100)
	got := make(chan wire, 4)
	if tok := device.Subscribe("devices/"+sn+"/commands", 1, func(_ pahomqtt.Client, msg pahomqtt.Message) {
		var w wire
		_ = json.Unmarshal(msg.Payload(), &w)
		got <- w
	}); !tok.WaitTimeout(15*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	c, err := m.Commands.Send(ctx, commands.Sender{Account: owner.ID, Source: commands.SourceConsole}, dev.ID, "openFor", json.RawMessage(`{"minutes":9}`))
	if err != nil {
		t.Fatal(err)
	}
	w := receive(t, got)
	if w.ID != c.ID || w.Params["minutes"] != float64(9) {
		t.Fatalf("received %+v", w)
	}
	// The consumer subscribes just after connecting; an acknowledgement
	// published before that finds no one, and is sent again (it is harmless).
	waitFor(t, "the acknowledgement", func() bool {
		publish(t, device, "devices/"+sn+"/commands/ack", fmt.Sprintf(`{"id": %d, "result": "ok"}`, c.ID))
		time.Sleep(200 * time.Millisecond)
		got, err := m.DB.FindCommand(ctx, dev.ID, c.ID)
		return err == nil && got.State == commands.StateEffective && got.DeliveredAt != nil
	})
}
