package store

import (
	"context"
	"io/fs"

	"github.com/pressly/goose/v3"
)

// MigrateTo applies the migrations up to version and registers the
// parameter codes, as a store of that version had them: for tests of a
// later migration on existing data.
func (db *DB) MigrateTo(ctx context.Context, version int64) error {
	sub, err := fs.Sub(migrations, "migrations/"+string(db.dialect))
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(db.dialect.goose(), db.sql, sub)
	if err != nil {
		return err
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		return err
	}
	return db.loadParams(ctx)
}

// MigrationFiles lists a dialect's migration files.
func MigrationFiles(d Dialect) ([]string, error) {
	return fs.Glob(migrations, "migrations/"+string(d)+"/*.sql")
}

// OneConnection limits the store to one database connection and returns
// its PostgreSQL backend's process id (0 on SQLite): for benchmarks that
// count the server's CPU time beside the client's.
func (db *DB) OneConnection(ctx context.Context) (int, error) {
	db.sql.SetMaxOpenConns(1)
	db.sql.SetMaxIdleConns(1)
	if db.dialect != Postgres {
		return 0, nil
	}
	var pid int
	err := db.sql.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid)
	return pid, err
}
