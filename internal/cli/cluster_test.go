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

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/mosquittotest"
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
	fleet := make([]*killDevice, devs)
	for i := range fleet {
		d, key, err := svc.Register(ctx, devices.Registration{SN: fmt.Sprintf("NODE%02d%04d", 2, i), TypeID: 2})
		if err != nil {
			t.Fatal(err)
		}
		kd := &killDevice{sn: d.SN, key: key, id: d.ID, gap: 25 * time.Millisecond}
		for k := range reports {
			kd.times = append(kd.times, now.Add(-time.Duration(reports-k)*time.Second))
			kd.values = append(kd.values, 3+float64((i*reports+k)%1700)/100)
		}
		fleet[i] = kd
	}

	urls := map[string]string{}
	node := func(name string) *exec.Cmd {
		cmd, url := serverAt(t, "--db", dsn, "--data", t.TempDir(), "--secret-file", secret, "--mqtt-broker", broker, "--mqtt-client-id", "fieldwatch-"+name)
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
