// Package bench holds the load benchmarks of `fieldwatch bench`: ingest
// throughput, alert latency and data-push delivery, each measured on the
// service graph the server runs (app.Build) over a fresh store.
package bench

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
)

// Percentile returns the p-th percentile (0–100) of sorted durations.
func Percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := int(float64(len(d)-1) * p / 100)
	return d[i]
}

// graph builds the server's service graph over a fresh store (see
// freshStore), with the embedded broker on a loopback port; edit adjusts
// the configuration first. The workers wait for Start. The cleanup closes
// the graph, then removes the store.
func graph(ctx context.Context, dsn string, o app.Options, edit func(*config.Serve)) (*app.Graph, func(), error) {
	st, clean, err := freshStore(ctx, dsn)
	if err != nil {
		return nil, nil, err
	}
	o.Config = config.DefaultServe()
	o.Config.Data, o.Config.DB = st.Data, st.DB
	o.Config.MQTT = "127.0.0.1:0"
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if edit != nil {
		edit(&o.Config)
	}
	g, err := app.Build(ctx, o)
	if err != nil {
		clean()
		return nil, nil, err
	}
	return g, func() { g.Close(context.Background()); clean() }, nil
}

// freshStore makes an empty store: SQLite in a temporary directory, or a
// new schema in the PostgreSQL database of dsn (the directory then holds
// only the server secret). Its cleanup removes both.
func freshStore(ctx context.Context, dsn string) (config.Store, func(), error) {
	dir, err := os.MkdirTemp("", "fieldwatch-bench-")
	if err != nil {
		return config.Store{}, nil, err
	}
	if dsn == "" {
		return config.Store{Data: dir}, func() { os.RemoveAll(dir) }, nil
	}
	raw, err := sql.Open("pgx", dsn)
	if err != nil {
		os.RemoveAll(dir)
		return config.Store{}, nil, err
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "fieldwatch_bench_" + hex.EncodeToString(b)
	if _, err := raw.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		raw.Close()
		os.RemoveAll(dir)
		return config.Store{}, nil, err
	}
	drop := func() {
		raw.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		raw.Close()
		os.RemoveAll(dir)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		drop()
		return config.Store{}, nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return config.Store{Data: dir, DB: u.String()}, drop, nil
}

// createAccount creates the account that owns the benchmark's devices.
func createAccount(ctx context.Context, db interface {
	CreateAccount(context.Context, *accounts.Account) error
}) (int64, error) {
	a := &accounts.Account{AccountNumber: "bench01", Name: "Bench", PasswordHash: "-", Mail: "bench@fieldwatch.example", CreatedAt: time.Now()}
	if err := db.CreateAccount(ctx, a); err != nil {
		return 0, err
	}
	return a.ID, nil
}

// connect connects one device over MQTT 3.1.1.
func connect(addr, sn, key string) (mqtt.Client, error) {
	opts := mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(sn).SetUsername(sn).SetPassword(key).
		SetCleanSession(true).SetAutoReconnect(false).SetOrderMatters(false)
	c := mqtt.NewClient(opts)
	if tok := c.Connect(); tok.Wait() && tok.Error() != nil {
		return nil, fmt.Errorf("connect %s: %w", sn, tok.Error())
	}
	return c, nil
}
