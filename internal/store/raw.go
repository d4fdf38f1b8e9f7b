package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
)

// prepareRaw prepares query on a driver connection (inside sql.Conn.Raw).
func prepareRaw(ctx context.Context, dc any, query string) (driver.Stmt, error) {
	prep, ok := dc.(driver.ConnPrepareContext)
	if !ok {
		return nil, fmt.Errorf("driver %T cannot prepare with a context", dc)
	}
	return prep.PrepareContext(ctx, query)
}

// rawQuery runs query on one connection through the driver's own
// interfaces and calls each with every row's values (reused for the next
// row). For the reads of thousands of rows, database/sql's per-row locking
// and conversion cost a fifth of the time: a year-long series, the map.
func (db *DB) rawQuery(ctx context.Context, query string, args []any, each func(row []driver.Value) error) error {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		st, err := prepareRaw(ctx, dc, query)
		if err != nil {
			return err
		}
		defer st.Close()
		sq, ok := st.(driver.StmtQueryContext)
		if !ok {
			return fmt.Errorf("driver statement %T cannot query with a context", st)
		}
		named := make([]driver.NamedValue, len(args))
		for i, a := range args {
			named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
		}
		rows, err := sq.QueryContext(ctx, named)
		if err != nil {
			return err
		}
		defer rows.Close()
		row := make([]driver.Value, len(rows.Columns()))
		for {
			if err := rows.Next(row); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
			if err := each(row); err != nil {
				return err
			}
		}
	})
}

// asFloat reads a REAL column: SQLite hands back an integer for a whole
// number stored in a REAL column's integer form.
func asFloat(v driver.Value) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	}
	return 0, false
}
