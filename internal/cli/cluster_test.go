package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/mosquittotest"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// mosquitto starts a Mosquitto of its own on a free loopback port
// (anonymous, no persistence, queues unbounded so a node's session keeps
// everything while the node restarts) and returns its URL.
func mosquitto(t *testing.T) string {
	t.Helper()
	return mosquittotest.Start(t, mosquittotest.Options{Conf: []string{
		"max_queued_messages 0",
		"max_inflight_messages 0",
		"sys_interval 1",
	}}).URL()
}

// TestCluster_TwoNodesKill9 runs two fieldwatch serve processes on one
// PostgreSQL database and one Mosquitto, each in the shared subscription
// group with its own persistent session. 200 soil stations publish QoS 1
// reports to the broker, one every 25 ms; on the way node a is killed
// (SIGKILL) and restarted with its client id, then both nodes are
// restarted in turn (SIGTERM), as a rolling upgrade does. Every report the
// broker acknowledged is then stored, once: nothing is lost with a node
// that died or stopped (the broker keeps what the node had not
// acknowledged in its session) and a redelivery stores nothing twice.
func TestCluster_TwoNodesKill9(t *testing.T) {
	ctx := context.Background()
	dsn := storetest.DSN(t)
	broker := mosquitto(t)
	secret := filepath.Join(t.TempDir(), "secret.key")
	cfg := config.Store{Data: t.TempDir(), DB: dsn, Secret: secret}
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc, err := app.NewDevices(cfg, db)
	if err != nil {
		t.Fatal(err)
	}

	const devs, reports = 200, 200
	now := time.Now().Truncate(time.Second)
	owner := &accounts.Account{AccountNumber: "cluster01", Name: "Cluster farm", PasswordHash: "h", Mail: "farm@example.com", CreatedAt: now}
	if err := db.CreateAccount(ctx, owner); err != nil {
		t.Fatal(err)
	}
	// Every station's battery is low from its 55th report to its 70th:
	// one crossing, between the kill of node a and the stop of node b.
	const lowFrom, lowTo = 55, 70
	fleet := make([]*killDevice, devs)
	ids := make([]int64, devs)
	for i := range fleet {
		d, key, err := svc.Register(ctx, devices.Registration{SN: fmt.Sprintf("NODE%02d%04d", 2, i), TypeID: 2, Owner: owner.ID})
		if err != nil {
			t.Fatal(err)
		}
		kd := &killDevice{sn: d.SN, key: key, id: d.ID, gap: 25 * time.Millisecond}
		for k := range reports {
			kd.times = append(kd.times, now.Add(-time.Duration(reports-k)*time.Second))
			v := 3 + float64((i*reports+k)%1700)/100
			if k >= lowFrom && k < lowTo {
				v = 1.5
			}
			kd.values = append(kd.values, v)
		}
		fleet[i], ids[i] = kd, d.ID
	}
	low := &rules.Rule{OwnerID: owner.ID, Name: "Battery low", Enabled: true, TypeID: 2, DeviceIDs: ids,
		Level: rules.LevelAlarm, Notify: []rules.Method{rules.MethodEmail},
		Expressions: []rules.Expression{{Param: "battery", Agg: rules.AggMin, Op: rules.OpLTE, Threshold: &[]float64{2}[0]}},
		CreatedAt:   now, UpdatedAt: now}
	if err := low.Validate(rules.RegistryCatalogue{}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateRule(ctx, low); err != nil {
		t.Fatal(err)
	}
	smtp, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	var (
		mailsMu sync.Mutex
		mails   = map[string]int{} // by SN
	)
	go func() {
		for m := range smtp.C {
			mailsMu.Lock()
			for _, d := range fleet {
				if strings.Contains(string(m.Data), d.sn) {
					mails[d.sn]++
				}
			}
			mailsMu.Unlock()
		}
	}()

	urls := map[string]string{}
	node := func(name string) *exec.Cmd {
		cmd, url := serverAt(t, "--db", dsn, "--data", t.TempDir(), "--secret-file", secret, "--mqtt-broker", broker, "--mqtt-client-id", "fieldwatch-"+name,
			"--smtp-url", smtp.URL())
		urls[name] = url
		return cmd
	}
	nodes := map[string]*exec.Cmd{"a": node("a"), "b": node("b")}
	waitSubscribed(t, broker, 2)
	// A node reports itself ready once its store, schema and broker connection are.
	res, err := http.Get(urls["a"] + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"broker":"ok"`) || !strings.Contains(string(body), `"migrations":"ok"`) {
		t.Fatalf("readyz: %d %s", res.StatusCode, body)
	}

	var wg sync.WaitGroup
	errs := make(chan error, devs)
	for _, d := range fleet {
		wg.Go(func() {
			if err := d.publish(broker, nil); err != nil {
				errs <- err
			}
		})
	}
	// Once a share of the reports is acknowledged by the broker, a node goes
	// down and comes back.
	steps := []struct {
		share float64
		node  string
		sig   syscall.Signal
	}{{0.2, "a", syscall.SIGKILL}, {0.45, "b", syscall.SIGTERM}, {0.7, "a", syscall.SIGTERM}}
	for _, step := range steps {
		acked := waitAcked(t, fleet, int(step.share*devs*reports))
		cmd := nodes[step.node]
		if err := cmd.Process.Signal(step.sig); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		if step.sig == syscall.SIGTERM && err != nil {
			t.Fatalf("node %s after SIGTERM: %v", step.node, err)
		}
		nodes[step.node] = node(step.node)
		t.Logf("node %s: %v with %d of %d reports acknowledged, back after %d", step.node, step.sig, acked, devs*reports, waitAcked(t, fleet, 0))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	// Every report is stored, once.
	total := devs * reports
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		st, err := db.StorageStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st[0].Readings >= int64(total) || time.Now().After(deadline) {
			break
		}
	}
	for _, d := range fleet {
		var wantSum float64
		for _, v := range d.values {
			wantSum += v
		}
		n, sum := readingsOf(t, db, d.id)
		if n != reports || math.Abs(sum-wantSum) > 1e-6*wantSum {
			t.Fatalf("%s: %d readings summing %v stored, want %d summing %v", d.sn, n, sum, reports, wantSum)
		}
	}

	// A station's crossing raised one warning and one return, whichever
	// node judged its reports and in whatever order, and one e-mail: never
	// twice. Nearly every crossing is raised: all 200 here on a quiet
	// machine, with and without the race detector; under the full test
	// suite's load one has been missed (docs/scaling.md, "Not yet"), and
	// without judging the stored reports in order 65 of 200 were raised.
	byDevice := map[string][]*rules.Event{}
	eventsSeen := func() int {
		clear(byDevice)
		n := 0
		for page := 1; ; page++ {
			evs, total, err := db.Events(ctx, owner.ID, rules.EventFilter{Page: page, Size: 100})
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				byDevice[ev.SN] = append(byDevice[ev.SN], ev)
			}
			n += len(evs)
			if len(evs) == 0 || n >= total {
				return n
			}
		}
	}
	mailed := func() int {
		mailsMu.Lock()
		defer mailsMu.Unlock()
		n := 0
		for _, k := range mails {
			n += k
		}
		return n
	}
	// Until every report is judged (what a stopped node had queued is
	// judged by the catch-up, each minute, on the node that is up), the
	// events stop changing and every warning is mailed.
	for last, deadline := -1, time.Now().Add(3*time.Minute); ; {
		time.Sleep(2 * time.Second)
		unjudged, err := db.Unevaluated(ctx, now.Add(-time.Hour), time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		n := eventsSeen()
		warnings := 0
		for _, evs := range byDevice {
			for _, ev := range evs {
				if ev.Kind == rules.KindWarning {
					warnings++
				}
			}
		}
		if (len(unjudged) == 0 && n == last && mailed() >= warnings) || time.Now().After(deadline) {
			break
		}
		last = n
	}
	time.Sleep(2 * time.Second) // anything mailed twice arrives meanwhile
	eventsSeen()
	mailsMu.Lock()
	defer mailsMu.Unlock()
	raised := 0
	for _, d := range fleet {
		evs := byDevice[d.sn] // newest first
		if len(evs) == 0 {
			if mails[d.sn] != 0 {
				t.Fatalf("%s: %d e-mails without an event", d.sn, mails[d.sn])
			}
			t.Logf("%s: its crossing was not raised", d.sn)
			continue
		}
		if len(evs) != 2 || evs[1].Kind != rules.KindWarning || evs[0].Kind != rules.KindCommon ||
			evs[1].At.Before(d.times[lowFrom]) || !evs[1].At.Before(d.times[lowTo]) || evs[0].At.Before(d.times[lowTo]) {
			var got []string
			for _, ev := range evs {
				got = append(got, fmt.Sprintf("%s at report %v", ev.Kind, ev.At.Sub(d.times[0])/time.Second))
			}
			t.Fatalf("%s: events %v, want a warning at report %d–%d and a return from report %d", d.sn, got, lowFrom, lowTo-1, lowTo)
		}
		if mails[d.sn] != 1 {
			t.Fatalf("%s: %d e-mails, want 1", d.sn, mails[d.sn])
		}
		raised++
	}
	// How many are raised depends on the load (docs/scaling.md, "Not yet"):
	// reported, and at least one.
	t.Logf("crossings raised: %d of %d", raised, devs)
	if raised == 0 {
		t.Fatal("no crossing raised")
	}
}

// waitAcked waits until the fleet has at least n reports acknowledged and
// returns how many it has.
func waitAcked(t *testing.T, fleet []*killDevice, n int) int {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(5 * time.Millisecond) {
		acked := 0
		for _, d := range fleet {
			d.mu.Lock()
			acked += d.acked
			d.mu.Unlock()
		}
		if acked >= n {
			return acked
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d reports acknowledged, want %d", acked, n)
		}
	}
}

// waitSubscribed waits until the broker counts the shared subscriptions of
// nodes nodes ($SYS/broker/shared_subscriptions/count, published every second).
func waitSubscribed(t *testing.T, broker string, nodes int) {
	t.Helper()
	want := nodes * len(ingest.SharedTopics)
	got := make(chan int, 16)
	c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker(broker).SetClientID("cluster-test-watch"))
	if tok := c.Connect(); tok.Wait() && tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer c.Disconnect(0)
	c.Subscribe("$SYS/broker/shared_subscriptions/count", 0, func(_ mqtt.Client, m mqtt.Message) {
		if n, err := strconv.Atoi(string(m.Payload())); err == nil {
			select {
			case got <- n:
			default:
			}
		}
	}).Wait()
	deadline := time.After(time.Minute)
	last := -1
	for {
		select {
		case n := <-got:
			if last = n; last >= want {
				return
			}
		case <-deadline:
			t.Fatalf("the broker counts %d shared subscriptions, want %d", last, want)
		}
	}
}
