package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"text/tabwriter"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/store"
)

const storageUsage = `Usage: fieldwatch storage <command> [flags]

Commands:
  stats     print the raw readings' tables: rows, readings, bytes on disk and bytes a reading
  compact   move every reading older than yesterday (UTC) into chunks now, printing progress:
            what a running server does hourly, and the conversion of a database written
            before chunks existed. It can run beside a server, be stopped (Ctrl-C) at any
            point and run again: each device's month is moved in one transaction.

Run "fieldwatch storage <command> --help" for its flags.
`

func storageCmd(args []string, stdout, stderr io.Writer) error {
	return subcommand(storageUsage, args, stdout, stderr, map[string]func() error{
		"stats":   func() error { return storageStats(args[1:], stdout, stderr) },
		"compact": func() error { return storageCompact(args[1:], stdout, stderr) },
	})
}

func storageStats(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("storage stats [flags]", "Prints the raw readings' tables: rows, readings, bytes on disk (table and indexes) and bytes a reading.", stderr)
	var cfg config.Store
	config.BindStore(fs, &cfg)
	if err := parse(fs, args); err != nil {
		return err
	}
	ctx := context.Background()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := db.StorageStats(ctx)
	if err != nil {
		return err
	}
	printStorage(stdout, string(db.Dialect()), st)
	return nil
}

func printStorage(w io.Writer, dialect string, st []store.StorageTable) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "store\ttable\trows\treadings\tbytes\tbytes/reading\t\n")
	var total store.StorageTable
	for _, t := range st {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%.2f\t\n", dialect, t.Name, t.Rows, t.Readings, t.Bytes, t.BytesPerReading())
		total.Rows += t.Rows
		total.Readings += t.Readings
		total.Bytes += t.Bytes
	}
	fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%.2f\t\n", dialect, "all", total.Rows, total.Readings, total.Bytes, total.BytesPerReading())
	tw.Flush()
}

func storageCompact(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("storage compact [flags]", "Moves every reading older than yesterday (UTC) into chunks, printing progress; stop and run again at will.", stderr)
	var cfg config.Store
	config.BindStore(fs, &cfg)
	if err := parse(fs, args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	db, err := app.OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	var last time.Time // the first transaction is reported at once
	res, err := db.CompactReadings(ctx, start, func(r store.CompactResult) {
		if time.Since(last) >= time.Second {
			last = time.Now()
			fmt.Fprintf(stdout, "%d readings into %d chunks so far (%.0f readings/s)\n", r.Readings, r.Chunks,
				float64(r.Readings)/time.Since(start).Seconds())
		}
	})
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(stdout, "stopped after %d readings into %d chunks; run again to go on\n", res.Readings, res.Chunks)
		}
		return err
	}
	fmt.Fprintf(stdout, "%d readings of %d devices into %d chunks in %s\n", res.Readings, res.Devices, res.Chunks,
		time.Since(start).Round(time.Millisecond))
	st, err := db.StorageStats(ctx)
	if err != nil {
		return err
	}
	printStorage(stdout, string(db.Dialect()), st)
	return nil
}
