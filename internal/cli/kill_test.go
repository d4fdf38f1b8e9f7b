package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// A device of the kill test: its reports, and how far its publishing got.
type killDevice struct {
	sn, key string
	id      int64
	// Each report is one battery reading: even ones of now (the hot window),
	// odd ones late, five minutes off the history's grid in its last days,
	// which the compaction is moving into chunks or has moved.
	times  []time.Time
	values []float64

	mu    sync.Mutex
	acked int // reports 0..acked-1 are acknowledged
	sent  int // reports 0..sent-1 were published, acknowledged or not
	// gap is the pause after each acknowledged report.
	gap time.Duration
}

func (d *killDevice) payload(k int) string {
	return fmt.Sprintf(`{"ts":%d,"values":{"battery":%g}}`, d.times[k].UnixMilli(), d.values[k])
}

// publish sends the device's reports from the first one not acknowledged,
// one at a time with QoS 1 as a device with its own outbox does, until all
// are acknowledged, the connection fails or stop closes.
func (d *killDevice) publish(broker string, stop <-chan struct{}) error {
	opts := mqtt.NewClientOptions().AddBroker(broker).SetClientID(d.sn).SetUsername(d.sn).SetPassword(d.key).
		SetCleanSession(true).SetAutoReconnect(false).SetConnectRetry(false).SetConnectTimeout(5 * time.Second)
	c := mqtt.NewClient(opts)
	if tok := c.Connect(); tok.Wait() && tok.Error() != nil {
		return tok.Error()
	}
	defer c.Disconnect(0)
	for {
		d.mu.Lock()
		k := d.acked
		d.sent = max(d.sent, k+1)
		d.mu.Unlock()
		if k == len(d.times) {
			return nil
		}
		select {
		case <-stop:
			return nil
		default:
		}
		tok := c.Publish("devices/"+d.sn+"/telemetry", 1, false, d.payload(k))
		if !tok.WaitTimeout(30*time.Second) || tok.Error() != nil || !c.IsConnectionOpen() {
			return fmt.Errorf("report %d of %s: not acknowledged (%v)", k, d.sn, tok.Error())
		}
		d.mu.Lock()
		d.acked = k + 1
		d.mu.Unlock()
		time.Sleep(d.gap)
	}
}

// server runs fieldwatch serve with args as its own process (the test
// binary standing in for it), and returns it once it listens.
func server(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd, _ := serverAt(t, args...)
	return cmd
}

// serverAt is server, also returning the address the node serves HTTP at.
func serverAt(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--", "serve", "--addr", "127.0.0.1:0", "--log-format", "json"}, args...)...)
	cmd.Env = append(os.Environ(), "FIELDWATCH_AS_MAIN=1")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(pipe)
	var log strings.Builder
	for lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		if strings.Contains(lines.Text(), `"msg":"listening"`) {
			var line struct {
				URL string `json:"url"`
			}
			_ = json.Unmarshal(lines.Bytes(), &line)
			// The rest of its log is shown if the test fails: a race report
			// or a panic of the server is there.
			var mu sync.Mutex
			var rest strings.Builder
			done := make(chan struct{})
			go func() {
				defer close(done)
				for lines.Scan() {
					mu.Lock()
					rest.WriteString(lines.Text() + "\n")
					mu.Unlock()
				}
			}()
			t.Cleanup(func() {
				if t.Failed() {
					_ = cmd.Process.Kill()
					<-done
					mu.Lock()
					defer mu.Unlock()
					if s := rest.String(); !strings.Contains(s, "WARNING: DATA RACE") && !strings.Contains(s, "panic:") {
						return
					}
					t.Logf("serve %s:\n%s", line.URL, rest.String())
				}
			})
			return cmd, line.URL
		}
	}
	t.Fatalf("serve did not start:\n%s", log.String())
	return nil, ""
}

func freeTCPPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// readingsOf counts a device's readings and sums their values.
func readingsOf(t *testing.T, db *store.DB, id int64) (int, float64) {
	t.Helper()
	rs, err := db.Readings(context.Background(), telemetry.Query{DeviceID: id, Begin: time.Unix(0, 0), End: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, r := range rs {
		sum += r.Value
	}
	return len(rs), sum
}

// TestServe_Kill9DuringCompaction_QoS1 is the QoS 1 accounting across a
// crash, with a compaction under way: soil stations with weeks of history
// as rows publish reports with QoS 1 (now, and late ones into the days being
// compacted) while the server, started as its own process, compacts that
// history in the background; it is killed (SIGKILL) mid-compaction and
// mid-publishing. Right after the kill every acknowledged report is stored
// and none more than once; after a restart the devices send again what was
// not acknowledged, the compaction finishes, and every reading, old and
// new, reads back exactly once, with the old days all in chunks. On both
// stores.
func TestServe_Kill9DuringCompaction_QoS1(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			cfg := config.Store{Data: t.TempDir()}
			if dialect == "postgres" {
				cfg.DB = storetest.DSN(t)
			}
			flags := []string{"--data", cfg.Data}
			if cfg.DB != "" {
				flags = append(flags, "--db", cfg.DB)
			}

			// Devices with 40 days of history as rows, and their reports.
			const devs, days, reports = 6, 40, 400
			db, err := app.OpenStore(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			svc, err := app.NewDevices(cfg, db)
			if err != nil {
				t.Fatal(err)
			}
			fleet := make([]*killDevice, devs)
			old := map[int64][2]float64{}
			now, end := time.Now().Truncate(time.Second), historyEnd()
			for i := range fleet {
				d, key, err := svc.Register(ctx, devices.Registration{SN: fmt.Sprintf("KILL%02d%04d", 2, i), TypeID: 2})
				if err != nil {
					t.Fatal(err)
				}
				kd := &killDevice{sn: d.SN, key: key, id: d.ID}
				for k := range reports {
					at := now.Add(-time.Duration(k) * time.Second)
					if k%2 == 1 {
						at = end.Add(-time.Duration(k*10+5) * time.Minute)
					}
					kd.times = append(kd.times, at)
					kd.values = append(kd.values, 3+float64((i*reports+k)%1700)/100) // volts, within the range
				}
				fleet[i] = kd
				old[d.ID] = writeHistory(t, db, d.ID, i, days)
			}
			var history float64
			for _, o := range old {
				history += o[0]
			}

			// The server compacts the history from its start (housekeeping's first
			// round); the devices publish from then on.
			port := freeTCPPort(t)
			broker := fmt.Sprintf("tcp://127.0.0.1:%d", port)
			srv := server(t, append(flags, "--mqtt", fmt.Sprintf("127.0.0.1:%d", port))...)
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for _, d := range fleet {
				wg.Go(func() { _ = d.publish(broker, stop) })
			}
			// Killed once chunks hold some of the history but not all of it, and
			// every device has had reports acknowledged.
			var mid []store.StorageTable
			for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
				st, err := db.StorageStats(ctx)
				if err != nil {
					t.Fatal(err)
				}
				someAcked := true
				for _, d := range fleet {
					d.mu.Lock()
					someAcked = someAcked && d.acked >= 10
					d.mu.Unlock()
				}
				if st[1].Readings > 0 && someAcked {
					mid = st
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no compaction or no acknowledgement seen: %+v", st)
				}
			}
			if err := srv.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = srv.Wait()
			close(stop)
			wg.Wait()

			if float64(mid[1].Readings) >= history {
				t.Fatalf("the compaction had finished before the kill: %+v", mid)
			}
			for _, d := range fleet {
				n, _ := readingsOf(t, db, d.id)
				d.mu.Lock()
				acked, sent := d.acked, d.sent
				d.mu.Unlock()
				if lo, hi := int(old[d.id][0])+acked, int(old[d.id][0])+sent; n < lo || n > hi {
					t.Fatalf("after kill -9, %s holds %d readings: want %d (history and acknowledged reports) to %d (and those sent)", d.sn, n, lo, hi)
				}
				if acked == reports {
					t.Fatalf("%s had every report acknowledged before the kill", d.sn)
				}
			}
			st, err := db.StorageStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("killed with %d of %.0f history readings in chunks; after the kill %d", mid[1].Readings, history, st[1].Readings)

			// Restarted: the devices send again from their first report not
			// acknowledged; the compaction goes on where it stopped.
			srv = server(t, append(flags, "--mqtt", fmt.Sprintf("127.0.0.1:%d", port))...)
			for _, d := range fleet {
				if err := d.publish(broker, nil); err != nil {
					t.Fatalf("after the restart: %v", err)
				}
			}
			if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if err := srv.Wait(); err != nil {
				t.Fatalf("serve after SIGTERM: %v", err)
			}
			code, _, errOut := runCmd(t, "", append([]string{"storage", "compact"}, flags...)...)
			if code != 0 {
				t.Fatalf("compact: %d %s", code, errOut)
			}

			for _, d := range fleet {
				wantN, wantSum := old[d.id][0], old[d.id][1]
				for _, v := range d.values {
					wantN++
					wantSum += v
				}
				n, sum := readingsOf(t, db, d.id)
				if float64(n) != wantN || math.Abs(sum-wantSum) > 1e-6*wantSum {
					t.Fatalf("%s reads %d readings summing %v, want %v summing %v", d.sn, n, sum, wantN, wantSum)
				}
			}
			st, err = db.StorageStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// In rows: the reports of now only; the history and the late ones are in chunks.
			if hot := int64(devs * reports / 2); st[0].Readings != hot || float64(st[1].Readings) != history+float64(devs*reports/2) {
				t.Fatalf("stats: %+v, want %d readings in rows and %.0f in chunks", st, hot, history+float64(devs*reports/2))
			}
		})
	}
}
