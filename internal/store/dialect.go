package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Dialect names a supported database; it is also the migrations folder.
//
// Everything the two databases do differently lives here and in the two
// dialect files: the SQL clauses below, and the write paths of ops
// (specific_sqlite.go, specific_postgres.go). The rest of the package
// writes SQL once, with $n placeholders.
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

// forUpdate locks the rows a SELECT reads until the transaction ends, on
// PostgreSQL; SQLite's immediate transactions already hold the one write
// lock, so it needs no clause.
func (d Dialect) forUpdate() string {
	if d == Postgres {
		return " FOR UPDATE"
	}
	return ""
}

// skipLocked is forUpdate for a job queue's pick: rows another node holds
// are skipped rather than waited for, so concurrent claims take different
// rows. of names the table to lock when the SELECT joins ("" for its only
// table).
func (d Dialect) skipLocked(of string) string {
	if d != Postgres {
		return ""
	}
	if of != "" {
		return " FOR UPDATE OF " + of + " SKIP LOCKED"
	}
	return " FOR UPDATE SKIP LOCKED"
}

// likeFold returns the operand of a case-insensitive LIKE on col: SQLite's
// LIKE ignores ASCII case by itself (and folds nothing else, like its
// lower()); PostgreSQL's does not.
func (d Dialect) likeFold(col string) string {
	if d == Postgres {
		return "lower(" + col + ")"
	}
	return col
}

// keyOrder returns orderBy on SQLite, where the readings come in the
// clustered primary key's order anyway and the clause is free, and nothing
// on PostgreSQL: there an IN list on node makes the planner sort every row
// (on disk past work_mem), while rows come nearly sorted from a bitmap
// scan and each series is sorted in Go only when it is not already.
func (d Dialect) keyOrder(orderBy string) string {
	if d == SQLite {
		return orderBy
	}
	return ""
}

// singleWriter reports whether the database admits one writer at a time
// (SQLite), whose transactions this process then queues itself (see
// writeLock).
func (d Dialect) singleWriter() bool { return d == SQLite }

// ops are the statements whose shape, not only a clause, differs: the
// telemetry write path (SQLite: prepared single-row statements on the
// driver; PostgreSQL: one statement over unnest arrays), batched updates,
// and the raw readings' partitions.
type ops interface {
	// insertReadings stores the readings of the reports under keys (sorted)
	// that were not stored yet, and returns those reports and their rows.
	insertReadings(ctx context.Context, tx *sql.Tx, conn *sql.Conn, keys []reportKey, byKey map[reportKey]*telemetry.Report) ([]*telemetry.Report, []reading, error)
	// insertRaw inserts rows with the statement insertReadings uses, and
	// nothing else (see InsertReadingsRaw).
	insertRaw(ctx context.Context, tx *sql.Tx, conn *sql.Conn, rows []reading) error
	// upsertRollups merges add into the daily rollup rows of order (sorted).
	upsertRollups(ctx context.Context, tx *sql.Tx, order []deviceDay, add map[deviceDay][]rollup) error
	// updateLastReports moves each device's last report forward to newest,
	// one report per device in device order.
	updateLastReports(ctx context.Context, tx *sql.Tx, newest []lastReport) error
	// finishDeliveries writes push attempts' outcomes.
	finishDeliveries(ctx context.Context, tx *sql.Tx, rows []deliveryOutcome) error
	// preparePartitions makes the readings' partitions of now's month and
	// the next two (PostgreSQL; nothing on SQLite).
	preparePartitions(ctx context.Context, now time.Time) error
	// ensurePartitions makes the readings' partitions of the months (UTC
	// month starts, unix ms) a batch is about to write, where missing.
	ensurePartitions(ctx context.Context, months []int64) error
	// purgeReadings deletes the raw readings older than before (unix ms)
	// and returns how many.
	purgeReadings(ctx context.Context, before int64) (int64, error)
}

// newOps returns the dialect's ops for db.
func newOps(db *DB) ops {
	if db.dialect == Postgres {
		return &postgresOps{db: db}
	}
	return &sqliteOps{db: db}
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
		return errs.NotFound()
	}
	return errs.Internal("%s: %w", what, err)
}
