package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
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
	"github.com/fieldwatch/fieldwatch/internal/devicecert"
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
			"every device uses --key (for a broker that does its own authentication).\n"+
			"--tls connects over TLS (default broker ssl://127.0.0.1:8883), checking the server\n"+
			"with --ca (default: the system's CAs); --device-certs (with --register and --owner)\n"+
			"issues each device a certificate from the device CA and logs in with it.", stderr)
	var (
		store              config.Store
		broker, key, types string
		prefix, owner      string
		n                  int
		interval, duration time.Duration
		register           bool
		useTLS, deviceCert bool
		caFile             string
		deviceCA           [2]string
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
	fs.BoolVar(&useTLS, "tls", false, "connect over TLS (implied by an ssl://, tls://, mqtts:// or wss:// --broker)")
	fs.StringVar(&caFile, "ca", "", "with TLS: PEM file of the CA that signed the broker's certificate (default: the system's CAs)")
	fs.BoolVar(&deviceCert, "device-certs", false, "with TLS, --register and --owner: issue each device a certificate from the device CA and log in with it instead of the key")
	fs.StringVar(&deviceCA[0], "device-ca-cert", "", "with --device-certs: the server's --device-ca-cert (default {data}/device-ca.pem)")
	fs.StringVar(&deviceCA[1], "device-ca-key", "", "with --device-certs: the server's --device-ca-key (default {data}/device-ca.key)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if n < 1 {
		return errors.New("--devices must be at least 1")
	}
	if useTLS && !brokerFlagSet(fs) {
		broker = "ssl://127.0.0.1:8883"
	}
	for _, scheme := range []string{"ssl://", "tls://", "mqtts://", "wss://"} {
		useTLS = useTLS || strings.HasPrefix(broker, scheme)
	}
	if useTLS && (strings.HasPrefix(broker, "tcp://") || strings.HasPrefix(broker, "mqtt://") || strings.HasPrefix(broker, "ws://")) {
		return fmt.Errorf("--tls: --broker %s is plain; use ssl://host:8883 or wss://host:port", broker)
	}
	if deviceCert && (!useTLS || !register || owner == "") {
		return errors.New("--device-certs needs TLS, --register and --owner")
	}
	var tlsConfig *tls.Config
	if useTLS {
		tlsConfig = &tls.Config{MinVersion: tls.VersionTLS12}
		if caFile != "" {
			pem, err := os.ReadFile(caFile)
			if err != nil {
				return fmt.Errorf("--ca: %w", err)
			}
			tlsConfig.RootCAs = x509.NewCertPool()
			if !tlsConfig.RootCAs.AppendCertsFromPEM(pem) {
				return fmt.Errorf("--ca %s: no PEM certificate in it", caFile)
			}
		}
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
		var certs *devicecert.Service
		if deviceCert {
			certs = &devicecert.Service{CertFile: deviceCA[0], KeyFile: deviceCA[1]}
			if certs.CertFile == "" {
				certs.CertFile, certs.KeyFile = devicecert.DefaultFiles(store.Data)
				certs.Create = true
			}
		}
		if err := registerFleet(ctx, store, owner, fleet, certs); err != nil {
			return err
		}
	}
	var reports, points atomic.Int64
	start := time.Now()
	fmt.Fprintf(stdout, "simulating %d devices against %s, a report every %s each\n", n, broker, interval)
	err := simulator.Run(ctx, simulator.Options{Broker: broker, TLS: tlsConfig, Interval: interval, QoS: 1,
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
// puts each device's own key in its credentials; with certs, also a new
// device certificate.
func registerFleet(ctx context.Context, store config.Store, owner string, fleet []simulator.Cred, certs *devicecert.Service) error {
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
		dev, key, err := svc.Register(ctx, devices.Registration{SN: c.SN, TypeID: d.Type.ID, Owner: ownerID, Lat: &d.Lat, Lng: &d.Lng})
		if errs.KindOf(err) == errs.EConflict {
			existing, ferr := db.FindDeviceBySN(ctx, c.SN)
			if ferr != nil {
				return ferr
			}
			dev = existing
			key, err = svc.Key(ctx, existing.ID)
		}
		if err != nil {
			return fmt.Errorf("register %s: %w", c.SN, err)
		}
		c.Key = key
		if certs != nil {
			if certs.Store == nil {
				certs.Store = db
			}
			is, err := certs.Issue(ctx, ownerID, dev)
			if err != nil {
				return fmt.Errorf("certificate of %s (is it owned by --owner?): %w", c.SN, err)
			}
			pair, err := tls.X509KeyPair(is.CertPEM, is.KeyPEM)
			if err != nil {
				return err
			}
			c.Cert = &pair
		}
	}
	return nil
}

// brokerFlagSet reports whether --broker was given (on the command line or
// in the environment).
func brokerFlagSet(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "broker" })
	_, env := os.LookupEnv(config.EnvName("broker"))
	return set || env
}
