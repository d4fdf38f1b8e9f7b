package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
)

// ClusterOptions configure the cluster benchmark.
type ClusterOptions struct {
	DB       string // PostgreSQL URL (required): each run gets a schema of its own
	Exe      string // the fieldwatch binary run as the nodes
	Nodes    int    // runs with 1, 2, … Nodes nodes
	Devices  int    // simulated devices, one MQTT connection each
	Reports  int    // reports per device
	TypeID   int    // device type (2: a 20-reading soil station)
	InFlight int    // unacknowledged publishes per connection
	Progress io.Writer
}

// ClusterRun is one run's figures.
type ClusterRun struct {
	Nodes    int
	Readings int64         // sent, and stored
	Ingest   time.Duration // first publish until every reading is stored
}

// Rate is stored readings per second.
func (r ClusterRun) Rate() float64 { return float64(r.Readings) / r.Ingest.Seconds() }

// Cluster measures ingest through an external broker with 1 to o.Nodes
// `fieldwatch serve` processes sharing one PostgreSQL schema and one
// Mosquitto (shared subscription): the devices publish QoS 1 reports to the
// broker, and the clock runs until the database holds every reading.
func Cluster(ctx context.Context, o ClusterOptions) ([]ClusterRun, error) {
	if o.DB == "" {
		return nil, errors.New("the cluster benchmark needs PostgreSQL (--db)")
	}
	if _, err := exec.LookPath("mosquitto"); err != nil {
		return nil, errors.New("the cluster benchmark needs mosquitto (Debian's mosquitto package)")
	}
	var runs []ClusterRun
	for n := 1; n <= o.Nodes; n++ {
		r, err := clusterRun(ctx, o, n)
		if err != nil {
			return runs, fmt.Errorf("%d nodes: %w", n, err)
		}
		runs = append(runs, r)
		fmt.Fprintf(o.Progress, "%d node(s): %d readings in %s\n", n, r.Readings, r.Ingest.Round(time.Millisecond))
	}
	return runs, nil
}

func clusterRun(ctx context.Context, o ClusterOptions, nodes int) (ClusterRun, error) {
	run := ClusterRun{Nodes: nodes}
	t, ok := devices.TypeByID(o.TypeID)
	if !ok {
		return run, fmt.Errorf("no device type %d", o.TypeID)
	}
	st, clean, err := freshStore(ctx, o.DB)
	if err != nil {
		return run, err
	}
	defer clean()
	db, err := app.OpenStore(ctx, st)
	if err != nil {
		return run, err
	}
	defer db.Close()
	svc, err := app.NewDevices(st, db)
	if err != nil {
		return run, err
	}
	type dev struct{ sn, key string }
	fleet := make([]dev, o.Devices)
	payloads := make([][][]byte, o.Devices)
	end := time.Now().Truncate(10 * time.Minute)
	for i := range fleet {
		sn := fmt.Sprintf("CLUS%02d%06d", t.ID, i+1)
		_, key, err := svc.Register(ctx, devices.Registration{SN: sn, TypeID: t.ID})
		if err != nil {
			return run, err
		}
		fleet[i] = dev{sn, key}
		sim := simulator.New(simulator.Device{SN: sn, Type: t, Seed: int64(i + 1)})
		for r := range o.Reports {
			at := end.Add(-time.Duration(o.Reports-r) * 10 * time.Minute)
			p := sim.Telemetry(at)
			rep, err := ingest.DecodeTelemetry(t, p, at)
			if err != nil {
				return run, err
			}
			payloads[i] = append(payloads[i], p)
			run.Readings += int64(len(rep.Points))
		}
	}

	// The broker: anonymous, queues unbounded (a node's session keeps its share).
	port, err := freePort()
	if err != nil {
		return run, err
	}
	conf := filepath.Join(st.Data, "mosquitto.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, "listener %d 127.0.0.1\nallow_anonymous true\nmax_connections -1\npersistence false\n"+
		"max_queued_messages 0\nmax_inflight_messages 0\nlog_dest none\n", port), 0o600); err != nil {
		return run, err
	}
	broker := exec.CommandContext(ctx, "mosquitto", "-c", conf)
	if err := broker.Start(); err != nil {
		return run, err
	}
	defer func() { broker.Process.Signal(syscall.SIGTERM); broker.Wait() }()
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	if err := waitListening(ctx, addr); err != nil {
		return run, err
	}

	// The nodes, each ready (store, schema, broker) before the clock starts.
	var procs []*exec.Cmd
	defer func() {
		for _, p := range procs {
			p.Process.Signal(syscall.SIGTERM)
			p.Wait()
		}
	}()
	for k := range nodes {
		httpPort, err := freePort()
		if err != nil {
			return run, err
		}
		dir := filepath.Join(st.Data, fmt.Sprintf("node%d", k+1))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return run, err
		}
		p := exec.CommandContext(ctx, o.Exe, "serve", "--db", st.DB, "--data", dir, "--secret-file", st.SecretFile(),
			"--addr", fmt.Sprintf("127.0.0.1:%d", httpPort), "--mqtt-broker", "tcp://"+addr,
			"--mqtt-client-id", fmt.Sprintf("fieldwatch-bench-%d", k+1), "--log-level", "warn")
		p.Stderr = o.Progress
		if err := p.Start(); err != nil {
			return run, err
		}
		procs = append(procs, p)
		if err := waitReady(ctx, fmt.Sprintf("http://127.0.0.1:%d/readyz", httpPort)); err != nil {
			return run, fmt.Errorf("node %d: %w", k+1, err)
		}
	}
	time.Sleep(2 * time.Second) // the nodes' shared subscriptions settle

	clients := make([]mqtt.Client, len(fleet))
	for i, d := range fleet {
		c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(d.sn).
			SetUsername(d.sn).SetPassword(d.key).SetCleanSession(true).SetAutoReconnect(false))
		if tok := c.Connect(); tok.Wait() && tok.Error() != nil {
			return run, fmt.Errorf("connect %s: %w", d.sn, tok.Error())
		}
		clients[i] = c
		defer c.Disconnect(0)
	}

	start := time.Now()
	var wg sync.WaitGroup
	errc := make(chan error, len(fleet))
	for i, d := range fleet {
		wg.Go(func() {
			window := make(chan mqtt.Token, max(o.InFlight, 1))
			wait := func(tok mqtt.Token) {
				if tok.Wait(); tok.Error() != nil {
					errc <- tok.Error()
				}
			}
			for _, pl := range payloads[i] {
				if len(window) == cap(window) {
					wait(<-window)
				}
				window <- clients[i].Publish("devices/"+d.sn+"/telemetry", 1, false, pl)
			}
			close(window)
			for tok := range window {
				wait(tok)
			}
		})
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		return run, fmt.Errorf("publish: %w", err)
	}
	for deadline := time.Now().Add(10 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		stats, err := db.StorageStats(ctx)
		if err != nil {
			return run, err
		}
		if stats[0].Readings >= run.Readings {
			break
		}
		if time.Now().After(deadline) {
			return run, fmt.Errorf("%d of %d readings stored after 10 minutes", stats[0].Readings, run.Readings)
		}
	}
	run.Ingest = time.Since(start)
	return run, nil
}

// waitReady waits until a node's /readyz answers 200.
func waitReady(ctx context.Context, url string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		res, err := http.Get(url)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("not ready at %s", url)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
