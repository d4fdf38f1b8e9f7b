package store

import (
	"context"
	"database/sql"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// inTx runs fn in a transaction, committing when it returns nil.
func (db *DB) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	defer db.writeLock()()
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return errs.Internal("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return errs.Internal("commit: %w", err)
	}
	return nil
}

// inConnTx is inTx that also hands fn the transaction's connection, for
// statements run on the driver directly (see insertNewReadings).
func (db *DB) inConnTx(ctx context.Context, fn func(*sql.Tx, *sql.Conn) error) error {
	defer db.writeLock()()
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return errs.Internal("connect: %w", err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return errs.Internal("begin: %w", err)
	}
	if err := fn(tx, conn); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return errs.Internal("commit: %w", err)
	}
	return nil
}

// exec runs one write outside a transaction, queued behind this process's
// other SQLite writers like a transaction (see writeLock): a login or a
// tag during heavy ingest waits its turn instead of failing busy.
func (db *DB) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	defer db.writeLock()()
	return db.sql.ExecContext(ctx, query, args...)
}

// writeRow runs one INSERT … RETURNING outside a transaction, queued as
// exec is, and scans the row into dest.
func (db *DB) writeRow(ctx context.Context, query string, args []any, dest ...any) error {
	defer db.writeLock()()
	return db.sql.QueryRowContext(ctx, query, args...).Scan(dest...)
}

// execOne runs a statement that must touch exactly one row; none is ENOTFOUND.
func (db *DB) execOne(ctx context.Context, what, query string, args ...any) error {
	res, err := db.exec(ctx, query, args...)
	if err != nil {
		return errs.Internal("%s: %w", what, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return errs.Internal("%s: %w", what, err)
	} else if n == 0 {
		return errs.NotFound()
	}
	return nil
}

// writeLock queues this process's SQLite write transactions in Go, in
// arrival order, and returns the unlock. SQLite admits one writer; left to
// itself, a transaction that finds the database busy polls with growing
// sleeps and loses the race to a writer that commits and begins again at
// once — under sustained ingest an alert or a job could wait seconds. A
// Go mutex hands the lock over fairly. (PostgreSQL needs nothing.)
func (db *DB) writeLock() func() {
	if !db.dialect.singleWriter() {
		return func() {}
	}
	db.writeMu.Lock()
	return db.writeMu.Unlock
}
