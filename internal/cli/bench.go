package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/bench"
)

const benchUsage = "Usage: fieldwatch bench ingest|alerts|push|commands|connections|cluster [flags]\n"

func benchmark(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "alerts" {
		return benchAlerts(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "push" {
		return benchPush(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "commands" {
		return benchCommands(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "connections" {
		return benchConnections(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "cluster" {
		return benchCluster(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "ingest" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprint(stdout, benchUsage+"\nRun \"fieldwatch bench ingest --help\", \"… alerts --help\", \"… push --help\" or \"… commands --help\" for their flags.\n")
			return nil
		}
		fmt.Fprint(stderr, benchUsage)
		return errUsage
	}
	fs := newFlags("bench ingest [flags]",
		"Publishes reports from many simulated devices through real MQTT connections to the\n"+
			"embedded broker and reports durably stored readings per second; then inserts the\n"+
			"same readings into a fresh store with plain batched inserts (the store's limit)\n"+
			"and prints both rates and their ratio. Uses a temporary SQLite store, or a new\n"+
			"schema (dropped afterwards) in the PostgreSQL database of --db.", stderr)
	var o bench.IngestOptions
	fs.StringVar(&o.DB, "db", "", "PostgreSQL URL; empty benchmarks SQLite")
	fs.IntVar(&o.Devices, "devices", 500, "simulated devices, one MQTT connection each")
	fs.IntVar(&o.Reports, "reports", 40, "reports per device")
	fs.IntVar(&o.TypeID, "type", 2, "device type (2: ZS006, 20 readings per report)")
	fs.IntVar(&o.InFlight, "inflight", 8, "unacknowledged QoS 1 publishes per connection")
	fs.BoolVar(&o.TLS, "tls", false, "connect over MQTT over TLS (--mqtts with a self-signed certificate) instead of plain MQTT")
	fs.IntVar(&o.CompactDays, "compact-days", 0, "load this many days of older history per device first and compact it while the reports are published (0: no compaction)")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	r, err := bench.Ingest(context.Background(), o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "store:     %s (GOMAXPROCS %d)\n", r.Dialect, runtime.GOMAXPROCS(0))
	fmt.Fprintf(stdout, "sent:      %d devices × %d reports = %d readings\n", r.Devices, r.Reports, r.Points)
	transport := "plain MQTT"
	if r.TLS {
		transport = "MQTT over TLS"
	}
	fmt.Fprintf(stdout, "connect:   %d connections over %s in %s (before the clock starts)\n", r.Devices, transport, r.Connect.Round(1e6))
	fmt.Fprintf(stdout, "ingest:    %10.0f readings/s durably stored through MQTT (%s)\n", r.IngestRate(), r.Ingest.Round(1e6))
	fmt.Fprintf(stdout, "writer:    %d transactions, %.0f readings each, busy %.0f%% of the time\n",
		r.Commits, float64(r.Points)/float64(max(r.Commits, 1)), 100*r.WriterBusy.Seconds()/r.Ingest.Seconds())
	if r.History > 0 {
		done := "still running when the last report was acknowledged"
		if r.CompactDone > 0 {
			done = "finished " + r.CompactDone.Round(1e6).String() + " after the first publish"
		}
		fmt.Fprintf(stdout, "compact:   %d of %d older readings moved into chunks during ingest (%s)\n", r.Compacted, r.History, done)
	}
	fmt.Fprintf(stdout, "raw:       %10.0f readings/s batched inserts of the same rows (%s)\n", r.RawRate(), r.Raw.Round(1e6))
	fmt.Fprintf(stdout, "ratio:     %10.2f\n", r.IngestRate()/r.RawRate())
	return nil
}

func benchAlerts(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench alerts [flags]",
		"Times alerts through the real path: a weather station publishes over MQTT to the\n"+
			"embedded broker, the report is committed, the rule engine stores the event and the\n"+
			"notifier hands the e-mail to an SMTP server on loopback, while soil stations publish\n"+
			"--load readings per second. Prints p50/p99 of publish → event and publish → SMTP.", stderr)
	var o bench.AlertsOptions
	fs.StringVar(&o.DB, "db", "", "PostgreSQL URL; empty benchmarks SQLite")
	fs.IntVar(&o.Crossings, "crossings", 100, "frost crossings to time")
	fs.IntVar(&o.Load, "load", 3000, "readings per second of other telemetry")
	if err := parse(fs, args); err != nil {
		return err
	}
	r, err := bench.Alerts(context.Background(), o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "store:     %s (GOMAXPROCS %d)\n", r.Dialect, runtime.GOMAXPROCS(0))
	fmt.Fprintf(stdout, "load:      %.0f readings/s of other telemetry stored meanwhile\n", r.Load)
	fmt.Fprintf(stdout, "event:     p50 %s  p99 %s  (%d crossings, publish → event stored)\n",
		bench.Percentile(r.ToEvent, 50).Round(time.Millisecond), bench.Percentile(r.ToEvent, 99).Round(time.Millisecond), len(r.ToEvent))
	fmt.Fprintf(stdout, "e-mail:    p50 %s  p99 %s  (%d mails, publish → accepted by SMTP)\n",
		bench.Percentile(r.ToSMTP, 50).Round(time.Millisecond), bench.Percentile(r.ToSMTP, 99).Round(time.Millisecond), len(r.ToSMTP))
	return nil
}

func benchPush(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench push [flags]",
		"Measures data-push delivery through the real worker, store and HTTP client to a\n"+
			"receiver on loopback (keep-alive): first how fast a queued backlog of --backlog\n"+
			"deliveries drains, then the delay from a report's commit to its arrival while\n"+
			"telemetry is written at --load readings/s for --duration.", stderr)
	var o bench.PushOptions
	fs.StringVar(&o.DB, "db", "", "PostgreSQL URL; empty benchmarks SQLite")
	fs.IntVar(&o.Backlog, "backlog", 20000, "deliveries queued before the worker starts")
	fs.IntVar(&o.Load, "load", 3000, "readings per second during the latency phase (20 per report)")
	fs.DurationVar(&o.Duration, "duration", 20*time.Second, "length of the latency phase")
	fs.IntVar(&o.Devices, "devices", 100, "reporting devices")
	if err := parse(fs, args); err != nil {
		return err
	}
	r, err := bench.Push(context.Background(), o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "store:     %s (GOMAXPROCS %d)\n", r.Dialect, runtime.GOMAXPROCS(0))
	fmt.Fprintf(stdout, "backlog:   %d deliveries in %s = %.0f deliveries/s\n", r.Backlog, r.Drain.Round(time.Millisecond),
		float64(r.Backlog)/r.Drain.Seconds())
	fmt.Fprintf(stdout, "load:      %.0f readings/s written meanwhile\n", r.Load)
	fmt.Fprintf(stdout, "delivery:  p50 %s  p99 %s  max %s  (%d reports, commit → received)\n",
		bench.Percentile(r.ToDelivery, 50).Round(time.Millisecond), bench.Percentile(r.ToDelivery, 99).Round(time.Millisecond),
		bench.Percentile(r.ToDelivery, 100).Round(time.Millisecond), len(r.ToDelivery))
	return nil
}

func benchCommands(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench commands [flags]",
		"Times the command round trip through the real path: the console's send (checked,\n"+
			"recorded, published at QoS 1 by the embedded broker), the device receiving it over\n"+
			"MQTT and acknowledging it at QoS 1, the acknowledgement stored. --devices valve\n"+
			"controllers take --commands commands each, one after another, all at once.\n"+
			"Prints p50/p99/max of send → acknowledgement stored.", stderr)
	var o bench.CommandsOptions
	fs.StringVar(&o.DB, "db", "", "PostgreSQL URL; empty benchmarks SQLite")
	fs.IntVar(&o.Devices, "devices", 20, "connected valve controllers")
	fs.IntVar(&o.Commands, "commands", 50, "commands per device")
	if err := parse(fs, args); err != nil {
		return err
	}
	r, err := bench.Commands(context.Background(), o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "store:     %s (GOMAXPROCS %d)\n", r.Dialect, runtime.GOMAXPROCS(0))
	fmt.Fprintf(stdout, "commands:  %d devices × %d = %d in %s (%.0f/s)\n", o.Devices, o.Commands, len(r.Trips),
		r.Took.Round(time.Millisecond), float64(len(r.Trips))/r.Took.Seconds())
	fmt.Fprintf(stdout, "round trip: p50 %s  p99 %s  max %s  (send → device's ack stored)\n",
		bench.Percentile(r.Trips, 50).Round(100*time.Microsecond), bench.Percentile(r.Trips, 99).Round(100*time.Microsecond),
		bench.Percentile(r.Trips, 100).Round(100*time.Microsecond))
	return nil
}

func benchConnections(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench connections [flags]",
		"Memory per connected device: runs this binary as a server (serve, SQLite in a\n"+
			"temporary directory, no demo) with --server-args, registers --devices devices,\n"+
			"connects each over its own MQTT connection (source addresses spread over\n"+
			"127.0.0.0/8) and keeps a QoS 1 report flowing from each every --interval for --hold;\n"+
			"then prints the server's resident memory, live heap after a collection, goroutines\n"+
			"and bytes per connection. With --mosquitto (and mosquitto installed) the same\n"+
			"fleet against Mosquitto, and the ratio.", stderr)
	var o bench.ConnectionsOptions
	var serverArgs string
	fs.IntVar(&o.Devices, "devices", 10000, "connected devices")
	fs.DurationVar(&o.Interval, "interval", time.Minute, "between reports of each device")
	fs.DurationVar(&o.Hold, "hold", 2*time.Minute, "how long the connected fleet reports before the figures are read")
	fs.IntVar(&o.TypeID, "type", 2, "device type (2: ZS006, 20 readings per report)")
	fs.StringVar(&serverArgs, "server-args", "", "more flags for the server, space-separated (e.g. \"--mqtt-queue 8192 --mqtt-buffer 2048 --memory-limit off\")")
	fs.StringVar(&o.Data, "data", "", "keep the server's store and the registered devices in this directory across runs (default: a temporary one)")
	fs.BoolVar(&o.Mosquitto, "mosquitto", true, "also run the fleet against mosquitto, when installed")
	if err := parse(fs, args); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	o.Exe, o.ServerArgs, o.Progress = exe, strings.Fields(serverArgs), stderr
	figures, err := bench.Connections(context.Background(), o)
	for _, f := range figures {
		fmt.Fprintf(stdout, "%s\n", f.Name)
		fmt.Fprintf(stdout, "  connected:  %d of %d in %s\n", f.Connected, f.Devices, f.ConnectTime.Round(time.Millisecond))
		fmt.Fprintf(stdout, "  reports:    %d sent, %d acknowledged", f.Sent, f.Acked)
		if f.Stored >= 0 {
			fmt.Fprintf(stdout, ", %d stored by the server's count", f.Stored)
		}
		fmt.Fprintln(stdout)
		fmt.Fprintf(stdout, "  resident:   %.1f MB (%.1f MB before the devices, peak %.1f MB)\n", mb(f.Resident), mb(f.Baseline), mb(f.Peak))
		if f.LiveHeap >= 0 {
			fmt.Fprintf(stdout, "  live heap:  %.0f MB after the last collection, goroutine stacks %.0f MB\n", mb(f.LiveHeap), mb(f.Stacks))
		}
		if f.Goroutines >= 0 {
			fmt.Fprintf(stdout, "  goroutines: %d\n", f.Goroutines)
		}
		fmt.Fprintf(stdout, "  per device: %.0f bytes resident\n", f.PerConnection())
	}
	if len(figures) == 2 {
		fmt.Fprintf(stdout, "ratio:        %.1f× Mosquitto's resident memory per connection\n", figures[0].PerConnection()/figures[1].PerConnection())
	}
	return err
}

func mb(b int64) float64 { return float64(b) / 1e6 }

func benchCluster(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench cluster [flags]",
		"Ingest with several nodes: for 1, 2, … --nodes nodes, runs this binary as that many\n"+
			"servers (serve --mqtt-broker) on a fresh schema of the PostgreSQL database of --db\n"+
			"and one Mosquitto of its own (shared subscription), publishes --reports QoS 1\n"+
			"reports from each of --devices devices to the broker, and times them until the\n"+
			"database holds every reading; prints readings/s and the ratio to one node.", stderr)
	var o bench.ClusterOptions
	fs.StringVar(&o.DB, "db", "", "PostgreSQL URL (required)")
	fs.IntVar(&o.Nodes, "nodes", 3, "largest number of nodes")
	fs.IntVar(&o.Devices, "devices", 200, "simulated devices, one MQTT connection each")
	fs.IntVar(&o.Reports, "reports", 50, "reports per device")
	fs.IntVar(&o.TypeID, "type", 2, "device type (2: ZS006, 20 readings per report)")
	fs.IntVar(&o.InFlight, "inflight", 8, "unacknowledged QoS 1 publishes per connection")
	if err := parse(fs, args); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	o.Exe, o.Progress = exe, stderr
	runs, err := bench.Cluster(context.Background(), o)
	for _, r := range runs {
		fmt.Fprintf(stdout, "%d node(s): %d readings in %s, %.0f readings/s, %.2f× one node\n",
			r.Nodes, r.Readings, r.Ingest.Round(time.Millisecond), r.Rate(), r.Rate()/runs[0].Rate())
	}
	return err
}
