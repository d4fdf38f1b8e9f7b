// Package store is the one SQL implementation of every domain Store, for
// SQLite (embedded default) and PostgreSQL. SQL is written once with $n
// placeholders; dialect differences live in dialect.go, the two
// specific_*.go files and the migrations.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations
var migrations embed.FS

// DB is an open store.
type DB struct {
	sql     *sql.DB
	dialect Dialect
	ops     ops // the statements that differ by dialect (dialect.go)

	// Parameter identifiers and their codes in the readings tables; set by
	// Migrate, read-only afterwards.
	paramCode map[string]int
	paramID   map[int]string

	rollupCache rollupCache
	writeMu     sync.Mutex // SQLite: see writeLock
}

// Open opens the store named by dsn: a postgres:// (or postgresql://) URL
// selects PostgreSQL; otherwise dsn is empty and the SQLite file
// fieldwatch.db under dataDir is used, created if absent.
func Open(ctx context.Context, dsn, dataDir string) (*DB, error) {
	var (
		driver, source string
		dialect        Dialect
	)
	switch {
	case strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://"):
		driver, source, dialect = "pgx", dsn, Postgres
	case dsn == "":
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return nil, fmt.Errorf("create data dir: %w", err)
		}
		file := filepath.Join(dataDir, "fieldwatch.db")
		if err := private(file); err != nil {
			return nil, err
		}
		driver, dialect = "sqlite", SQLite
		// WAL lets readers run beside the one writer; immediate transactions take
		// the write lock up front so two writers queue on busy_timeout instead of
		// failing with SQLITE_BUSY half-way through. synchronous(FULL) syncs the
		// WAL at every commit, so an acknowledged report survives a power cut,
		// not only a crash of this process.
		source = "file:" + file +
			"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)" +
			"&_pragma=synchronous(FULL)&_pragma=mmap_size(268435456)&_txlock=immediate"
	default:
		return nil, fmt.Errorf("unsupported database URL %q: use postgres://… or leave it empty for SQLite", redact(dsn))
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dialect, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect %s: %w", dialect, err)
	}
	s := &DB{sql: db, dialect: dialect}
	s.ops = newOps(s)
	return s, nil
}

// private makes the SQLite file readable by its owner only, creating it
// empty when absent: SQLite gives the -wal and -shm files it creates the
// database file's mode. Files of an older, world-readable install are
// narrowed too.
func private(file string) error {
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("open %s: %w", file, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("open %s: %w", file, err)
	}
	for _, p := range []string{file, file + "-wal", file + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("restrict %s: %w", p, err)
		}
	}
	return nil
}

// Dialect reports which database this is.
func (db *DB) Dialect() Dialect { return db.dialect }

// Migrate applies every pending migration and returns the resulting version.
func (db *DB) Migrate(ctx context.Context) (int64, error) {
	sub, err := fs.Sub(migrations, "migrations/"+string(db.dialect))
	if err != nil {
		return 0, err
	}
	var opts []goose.ProviderOption
	if db.dialect == Postgres {
		// Nodes starting together on one database migrate one at a time: a
		// session advisory lock per schema, probed every second for 5 minutes.
		var schema string
		if err := db.sql.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
			return 0, fmt.Errorf("migrations: %w", err)
		}
		h := fnv.New64a()
		h.Write([]byte("fieldwatch.migrate." + schema))
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(int64(h.Sum64())), lock.WithLockTimeout(1, 300))
		if err != nil {
			return 0, fmt.Errorf("migrations: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(db.dialect.goose(), db.sql, sub, opts...)
	if err != nil {
		return 0, fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	if err := db.loadParams(ctx); err != nil {
		return 0, err
	}
	if err := db.PreparePartitions(ctx, time.Now()); err != nil {
		return 0, err
	}
	return p.GetDBVersion(ctx)
}

// LimitConns bounds PostgreSQL's connections from this process (SQLite
// keeps its own settings): a burst of requests waits for a free connection
// instead of failing on the server's max_connections.
func (db *DB) LimitConns(n int) {
	if db.dialect != Postgres {
		return
	}
	db.sql.SetMaxOpenConns(n)
	db.sql.SetMaxIdleConns(n)
}

// PendingMigrations reports whether migrations this binary has are not
// applied (another node of a newer version migrates; an older one waits).
func (db *DB) PendingMigrations(ctx context.Context) (bool, error) {
	sub, err := fs.Sub(migrations, "migrations/"+string(db.dialect))
	if err != nil {
		return false, err
	}
	p, err := goose.NewProvider(db.dialect.goose(), db.sql, sub)
	if err != nil {
		return false, fmt.Errorf("migrations: %w", err)
	}
	return p.HasPending(ctx)
}

// Ping checks the connection (for /healthz).
func (db *DB) Ping(ctx context.Context) error { return db.sql.PingContext(ctx) }

// Close closes the connection pool.
func (db *DB) Close() error { return db.sql.Close() }

// redact hides a password in a database URL.
func redact(dsn string) string {
	if i := strings.Index(dsn, "@"); i >= 0 {
		if j := strings.Index(dsn, "://"); j >= 0 && j < i {
			return dsn[:j+3] + "…" + dsn[i:]
		}
	}
	return dsn
}

func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms) }

func fromNullMillis(ms sql.NullInt64) *time.Time {
	if !ms.Valid {
		return nil
	}
	t := time.UnixMilli(ms.Int64)
	return &t
}
