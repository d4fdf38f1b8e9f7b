package store

import (
	"database/sql"
	"errors"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Dialect names a supported database; it is also the migrations folder.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

func (d Dialect) goose() goose.Dialect {
	if d == Postgres {
		return goose.DialectPostgres
	}
	return goose.DialectSQLite3
}

// isUniqueViolation reports whether err is a unique-constraint failure in either database.
func isUniqueViolation(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23505"
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// notFound maps sql.ErrNoRows to ENOTFOUND and wraps anything else as internal.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return errs.ErrNotFound
	}
	return errs.Internal("%s: %w", what, err)
}
