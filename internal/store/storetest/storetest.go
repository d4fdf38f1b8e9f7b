// Package storetest runs a test against every store backend: SQLite always,
// and PostgreSQL when FIELDWATCH_TEST_POSTGRES names one or a server answers
// on 127.0.0.1:5432. With CI=true a missing PostgreSQL fails the test.
// Each test gets its own SQLite file or PostgreSQL schema.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/store"
)

const defaultPostgres = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

var (
	pgOnce sync.Once
	pgURL  string
	pgErr  string
)

// PostgresURL returns the PostgreSQL server to test against, or "" with the
// reason it is unavailable.
func PostgresURL() (string, string) {
	pgOnce.Do(func() {
		if u := os.Getenv("FIELDWATCH_TEST_POSTGRES"); u != "" {
			pgURL = u
			return
		}
		c, err := net.DialTimeout("tcp", "127.0.0.1:5432", time.Second)
		if err != nil {
			pgErr = "no PostgreSQL: FIELDWATCH_TEST_POSTGRES is unset and 127.0.0.1:5432 does not answer"
			return
		}
		c.Close()
		pgURL = defaultPostgres
	})
	return pgURL, pgErr
}

// ForEach runs fn once per backend, as subtests named "sqlite" and "postgres".
func ForEach(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, OpenSQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, OpenPostgres(t)) })
}

// OpenSQLite returns a migrated store in a temporary directory.
func OpenSQLite(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

// OpenPostgres returns a migrated store in a fresh schema, dropped afterwards.
// It skips when no server is reachable, unless CI=true.
func OpenPostgres(t testing.TB) *store.DB {
	t.Helper()
	u := DSN(t)
	db, err := store.Open(context.Background(), u, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

// DSN creates a fresh schema and returns a URL whose search_path points at it.
// The schema is dropped when the test ends.
func DSN(t testing.TB) string {
	t.Helper()
	base, why := PostgresURL()
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true requires PostgreSQL: %s", why)
		}
		t.Skip(why)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "fwtest_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatalf("create schema on %s: %v", base, err)
	}
	t.Cleanup(func() {
		a, err := sql.Open("pgx", base)
		if err != nil {
			return
		}
		defer a.Close()
		_, _ = a.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
	})
	pu, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := pu.Query()
	q.Set("search_path", schema)
	pu.RawQuery = q.Encode()
	return pu.String()
}
