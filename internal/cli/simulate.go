package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/simulator"
)

func simulate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("simulate [flags]",
		"Runs a simulated fleet against an MQTT broker until interrupted: every device\n"+
			"connects with its SN and key and reports on devices/{sn}/telemetry and /status.\n"+
			"With --register the devices are registered (if absent) in the store given by\n"+
			"--data/--db and use their own keys, as the embedded broker requires; otherwise\n"+
			"every device uses --key (for a broker that does its own authentication).", stderr)
	var (
		store              config.Store
		broker, key, types string
		prefix, owner      string
		n                  int
		interval, duration time.Duration
		register           bool
	)
	config.BindStore(fs, &store)
	fs.StringVar(&broker, "broker", "tcp://127.0.0.1:1883", "MQTT broker URL")
	fs.IntVar(&n, "devices", 20, "number of devices")
	fs.DurationVar(&interval, "interval", time.Minute, "time between reports of each device")
	fs.DurationVar(&duration, "duration", 0, "stop after this long (0: until interrupted)")
	fs.StringVar(&types, "types", "", "comma-separated type ids to simulate, round robin (default: every type)")
	fs.StringVar(&prefix, "prefix", "SIM", "SN prefix; SNs are prefix + type + number")
	fs.BoolVar(&register, "register", false, "register the devices in the store and use their keys")
	fs.StringVar(&owner, "owner", "", "with --register: account number that owns the devices")
	fs.StringVar(&key, "key", "", "without --register: the MQTT password every device uses")
	if err := parse(fs, args); err != nil {
		return err
	}
	if n < 1 {
		return errors.New("--devices must be at least 1")
	}
	var pick []*devices.Type
	if types == "" {
		pick = devices.Types()
	} else {
		for s := range strings.SplitSeq(types, ",") {
			id, err := strconv.Atoi(strings.TrimSpace(s))
			t, ok := devices.TypeByID(id)
			if err != nil || !ok {
				return fmt.Errorf("--types: %q is not a device type id", s)
			}
			pick = append(pick, t)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, duration)
		defer cancel()
	}

	fleet := make([]simulator.Cred, n)
	for i := range fleet {
		t := pick[i%len(pick)]
		sn := fmt.Sprintf("%s%02d%06d", prefix, t.ID, i+1)
		lat, lng := simulator.Place(simulator.DefaultRegion, i, int64(i))
		fleet[i] = simulator.Cred{SN: sn, Key: key,
			Sim: simulator.New(simulator.Device{SN: sn, Type: t, Lat: lat, Lng: lng, Seed: int64(i + 1)})}
	}
	if register {
		if err := registerFleet(ctx, store, owner, fleet); err != nil {
			return err
		}
	}
	var reports, points atomic.Int64
	start := time.Now()
	fmt.Fprintf(stdout, "simulating %d devices against %s, a report every %s each\n", n, broker, interval)
	err := simulator.Run(ctx, simulator.Options{Broker: broker, Interval: interval, QoS: 1,
		Log: app.NewLogger(config.Log{Format: "text", Level: "warn"}, stderr),
		OnPublish: func(_ string, p int) {
			if p > 0 {
				reports.Add(1)
				points.Add(int64(p))
			}
		}}, fleet)
	fmt.Fprintf(stdout, "%d reports (%d readings) acknowledged in %s\n", reports.Load(), points.Load(), time.Since(start).Round(time.Second))
	return err
}

// registerFleet registers every device that is not yet in the store and
// puts each device's own key in its credentials.
func registerFleet(ctx context.Context, store config.Store, owner string, fleet []simulator.Cred) error {
	db, err := app.OpenStore(ctx, store)
	if err != nil {
		return err
	}
	defer db.Close()
	svc, err := app.NewDevices(store, db)
	if err != nil {
		return err
	}
	var ownerID int64
	if owner != "" {
		a, err := db.FindAccountByNumber(ctx, owner)
		if err != nil {
			return fmt.Errorf("--owner %s: no such account", owner)
		}
		ownerID = a.ID
	}
	for i := range fleet {
		c := &fleet[i]
		d := c.Sim.Device()
		_, key, err := svc.Register(ctx, devices.Registration{SN: c.SN, TypeID: d.Type.ID, Owner: ownerID, Lat: &d.Lat, Lng: &d.Lng})
		if errs.KindOf(err) == errs.EConflict {
			existing, ferr := db.FindDeviceBySN(ctx, c.SN)
			if ferr != nil {
				return ferr
			}
			key, err = svc.Key(ctx, existing.ID)
		}
		if err != nil {
			return fmt.Errorf("register %s: %w", c.SN, err)
		}
		c.Key = key
	}
	return nil
}
