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
