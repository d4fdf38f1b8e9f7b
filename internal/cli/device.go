package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/store"
)

func device(args []string, stdout, stderr io.Writer) error {
	const use = "Usage: fieldwatch device add [flags]\n       fieldwatch device label --sn SN [--public-url URL]\n" +
		"       fieldwatch device state --sn SN --state STATE\n       fieldwatch device api-only --sn SN [--off]\n"
	if len(args) > 0 && args[0] == "state" {
		return deviceState(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "label" {
		return deviceLabel(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "api-only" {
		return deviceAPIOnly(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "add" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprint(stdout, use+"\nRun \"fieldwatch device add --help\" for their flags.\n")
			return nil
		}
		fmt.Fprint(stderr, use)
		return errUsage
	}
	fs := newFlags("device add [flags]",
		"Registers a device and prints its key (the MQTT password and HTTP ingest secret)\n"+
			"and its label: the code and, with --public-url, the address its QR code holds.\n"+
			"Without --owner the device is free: whoever scans its label (or types its SN and\n"+
			"check code) adds it to their account.", stderr)
	var (
		cfg                        config.Store
		sn, owner, host, name, lat string
		lng, publicURL             string
		typeID                     int
		apiOnly                    bool
	)
	config.BindStore(fs, &cfg)
	fs.StringVar(&sn, "sn", "", "serial number: 6-32 letters, digits or dashes (required)")
	fs.IntVar(&typeID, "type", 0, "device type id, e.g. 2 (ZS006 soil station); see docs/device-types.md (required)")
	fs.StringVar(&owner, "owner", "", "account number of the owner; without it the device waits to be bound by scanning its label")
	fs.StringVar(&host, "host", "", "for a slave unit (type 19's LQS001): the host's SN")
	fs.StringVar(&name, "name", "", "display name, at most 16 characters (default: model and last 5 of the SN)")
	fs.StringVar(&lat, "lat", "", "latitude (WGS84)")
	fs.StringVar(&lng, "lng", "", "longitude (WGS84)")
	fs.StringVar(&publicURL, "public-url", "", "the console's address (as serve --public-url), to print the label's URL")
	fs.BoolVar(&apiOnly, "api-only", false, "reachable only through the owner's open-API applications, not listed in the console")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if sn == "" || typeID == 0 {
		fs.Usage()
		return errUsage
	}
	n := devices.Registration{SN: sn, TypeID: typeID, Name: name, Slave: host != "", HostSN: host}
	if (lat == "") != (lng == "") {
		return errors.New("--lat and --lng must be given together")
	}
	if lat != "" {
		la, err1 := strconv.ParseFloat(lat, 64)
		lo, err2 := strconv.ParseFloat(lng, 64)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("--lat/--lng: %w", err)
		}
		n.Lat, n.Lng = &la, &lo
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	if owner != "" {
		a, err := db.FindAccountByNumber(ctx, owner)
		if err != nil {
			return fmt.Errorf("--owner %s: no such account", owner)
		}
		n.Owner = a.ID
	}
	svc, err := app.NewDevices(cfg, db)
	if err != nil {
		return err
	}
	d, key, err := svc.Register(ctx, n)
	if err != nil {
		return err
	}
	if apiOnly {
		if err := db.SetAPIOnly(ctx, d.ID, true); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "registered device %s (type %d %s, id %d)\nkey:   %s\n", d.SN, d.TypeID, d.Type().Model, d.ID, key)
	printLabel(stdout, svc, d.SN, publicURL)
	return nil
}

// printLabel prints what a device's label carries: the code, the check code
// printed under the QR code, and the URL the QR code holds.
func printLabel(w io.Writer, svc *devices.Service, sn, publicURL string) {
	code := svc.LabelCode(sn)
	fmt.Fprintf(w, "label: %s\ncheck: %s\n", code, code[strings.LastIndex(code, ":")+1:])
	if publicURL != "" {
		fmt.Fprintf(w, "url:   %s/apps/info?code=%s\n", strings.TrimRight(publicURL, "/"), url.QueryEscape(code))
	}
}

func deviceLabel(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("device label [flags]",
		"Prints a device's label again: its code, the check code printed under the QR code, and\n"+
			"with --public-url the address the QR code holds (it opens the console's /apps/info page).", stderr)
	var (
		cfg           config.Store
		sn, publicURL string
	)
	config.BindStore(fs, &cfg)
	fs.StringVar(&sn, "sn", "", "serial number (required)")
	fs.StringVar(&publicURL, "public-url", "", "the console's address (as serve --public-url)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if sn == "" {
		fs.Usage()
		return errUsage
	}
	db, _, err := openDevice(cfg, sn)
	if err != nil {
		return err
	}
	defer db.Close()
	svc, err := app.NewDevices(cfg, db)
	if err != nil {
		return err
	}
	printLabel(stdout, svc, sn, publicURL)
	return nil
}

func deviceState(args []string, stdout, stderr io.Writer) error {
	var states []string
	for _, s := range devices.States {
		states = append(states, string(s))
	}
	fs := newFlags("device state [flags]", "Sets a device's lifecycle state: "+strings.Join(states, ", ")+".", stderr)
	var (
		cfg       config.Store
		sn, state string
	)
	config.BindStore(fs, &cfg)
	fs.StringVar(&sn, "sn", "", "serial number (required)")
	fs.StringVar(&state, "state", "", "the new state (required)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if sn == "" || state == "" {
		fs.Usage()
		return errUsage
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	svc, err := app.NewDevices(cfg, db)
	if err != nil {
		return err
	}
	if err := svc.SetState(ctx, sn, devices.State(state)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "device %s is now %s\n", sn, state)
	return nil
}

func deviceAPIOnly(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("device api-only [flags]",
		"Makes a device reachable only through its owner's open-API applications (not listed in\n"+
			"the console), or with --off lists it again.", stderr)
	var (
		cfg config.Store
		sn  string
		off bool
	)
	config.BindStore(fs, &cfg)
	fs.StringVar(&sn, "sn", "", "serial number (required)")
	fs.BoolVar(&off, "off", false, "list the device in the console again")
	if err := parse(fs, args); err != nil {
		return err
	}
	if sn == "" {
		fs.Usage()
		return errUsage
	}
	db, d, err := openDevice(cfg, sn)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.SetAPIOnly(context.Background(), d.ID, !off); err != nil {
		return err
	}
	if off {
		fmt.Fprintf(stdout, "device %s is listed in the console again\n", sn)
	} else {
		fmt.Fprintf(stdout, "device %s is reachable only through the open API\n", sn)
	}
	return nil
}

// openDevice opens the store and finds the device of --sn in it; the
// caller closes the store.
func openDevice(cfg config.Store, sn string) (*store.DB, *devices.Device, error) {
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	d, err := db.FindDeviceBySN(ctx, sn)
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("--sn %s: no such device", sn)
	}
	return db, d, nil
}
