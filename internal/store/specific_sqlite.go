package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// sqliteOps are the SQLite statements of ops. modernc binds the many $n
// parameters of one multi-row statement slowly, and a row at a time costs
// little inside a transaction: these are prepared single-row statements.
type sqliteOps struct {
	db *DB
}

// insertReadings inserts a row at a time and learns from each insert
// whether the reading was new: the readings' own key dedupes, with no
// report-key table to write.
func (o *sqliteOps) insertReadings(ctx context.Context, tx *sql.Tx, conn *sql.Conn, keys []reportKey, byKey map[reportKey]*telemetry.Report) ([]*telemetry.Report, []reading, error) {
	all := make([]*telemetry.Report, 0, len(keys))
	for _, k := range keys {
		all = append(all, byKey[k])
	}
	rows, err := o.db.readingsOf(all)
	if err != nil {
		return nil, nil, err
	}
	// Readings of compacted days merge into their chunks (see mergeLate).
	added, rest, err := o.db.mergeLate(ctx, tx, rows, time.Now())
	if err != nil {
		return nil, nil, err
	}
	if rows, err = o.insertNew(ctx, conn, rest); err != nil {
		return nil, nil, err
	}
	if len(added) > 0 {
		rows = append(rows, added...)
		slices.SortFunc(rows, compareReadings)
	}
	var fresh []*telemetry.Report
	seen := map[reportKey]bool{}
	for _, r := range rows {
		if k := (reportKey{r.device, r.ts}); !seen[k] {
			seen[k] = true
			fresh = append(fresh, byKey[k])
		}
	}
	return fresh, rows, nil
}

func (o *sqliteOps) insertRaw(ctx context.Context, _ *sql.Tx, conn *sql.Conn, rows []reading) error {
	_, err := o.insertNew(ctx, conn, rows)
	return err
}

// insertNew inserts sorted rows one at a time and returns those that were
// not stored yet. It runs on the transaction's connection through the
// driver's own interfaces: database/sql's per-call argument conversion and
// locking cost a fifth of the time of a row.
func (o *sqliteOps) insertNew(ctx context.Context, conn *sql.Conn, rows []reading) ([]reading, error) {
	n := 0
	err := conn.Raw(func(dc any) error {
		st, err := prepareRaw(ctx, dc, `INSERT INTO telemetry (device_id, param, node, ts, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`)
		if err != nil {
			return err
		}
		defer st.Close()
		exec, ok := st.(driver.StmtExecContext)
		if !ok {
			return fmt.Errorf("driver statement %T cannot execute with a context", st)
		}
		args := []driver.NamedValue{{Ordinal: 1}, {Ordinal: 2}, {Ordinal: 3}, {Ordinal: 4}, {Ordinal: 5}}
		for _, r := range rows {
			args[0].Value, args[1].Value, args[2].Value, args[3].Value, args[4].Value = r.device, int64(r.param), int64(r.node), r.ts, r.value
			res, err := exec.ExecContext(ctx, args)
			if err != nil {
				return err
			}
			if k, _ := res.RowsAffected(); k == 1 {
				rows[n] = r
				n++
			}
		}
		return nil
	})
	if err != nil {
		return nil, errs.Internal("insert readings: %w", err)
	}
	return rows[:n], nil
}

// upsertRollups reads each device-day's row (unless this process wrote it
// last, see rollupCache) and writes it back merged.
func (o *sqliteOps) upsertRollups(ctx context.Context, tx *sql.Tx, order []deviceDay, add map[deviceDay][]rollup) error {
	get, err := tx.PrepareContext(ctx, `SELECT data FROM telemetry_daily WHERE device_id = ? AND day = ?`)
	if err != nil {
		return errs.Internal("read rollups: %w", err)
	}
	defer get.Close()
	put, err := tx.PrepareContext(ctx, `INSERT INTO telemetry_daily (device_id, day, data) VALUES (?, ?, ?)
		ON CONFLICT (device_id, day) DO UPDATE SET data = excluded.data`)
	if err != nil {
		return errs.Internal("write rollups: %w", err)
	}
	defer put.Close()
	cache := &o.db.rollupCache
	for _, k := range order {
		data, ok := cache.get(k)
		if !ok {
			if err := get.QueryRowContext(ctx, k.device, k.day).Scan(&data); err != nil && err != sql.ErrNoRows {
				return errs.Internal("read rollups: %w", err)
			}
		}
		merged, err := mergeEncoded(data, add[k])
		if err != nil {
			return err
		}
		if _, err := put.ExecContext(ctx, k.device, k.day, merged); err != nil {
			return errs.Internal("write rollups: %w", err)
		}
		cache.put(k, merged)
	}
	return nil
}

func (o *sqliteOps) updateLastReports(ctx context.Context, tx *sql.Tx, newest []lastReport) error {
	// A device offline before the batch's oldest report was silent from its
	// last report until then: that is its latest gap.
	st, err := tx.PrepareContext(ctx, `UPDATE devices SET last_report_at = ?1, offline_at = ?2,
		battery = COALESCE(?3, battery), signal = COALESCE(?4, signal),
		gap_from = CASE WHEN offline_at < ?7 THEN last_report_at ELSE gap_from END,
		gap_to = CASE WHEN offline_at < ?7 THEN ?7 ELSE gap_to END
		WHERE id = ?5 AND (last_report_at IS NULL OR last_report_at <= ?6)`)
	if err != nil {
		return errs.Internal("update last report: %w", err)
	}
	defer st.Close()
	for _, r := range newest {
		bat, sig := health(r.Report)
		if _, err := st.ExecContext(ctx, r.Time.UnixMilli(), r.OfflineAt.UnixMilli(), bat, sig, r.DeviceID, r.Time.UnixMilli(), r.first); err != nil {
			return errs.Internal("update last report: %w", err)
		}
	}
	return nil
}

// finishDeliveries updates a row at a time: in process, a round trip costs
// nothing.
func (o *sqliteOps) finishDeliveries(ctx context.Context, tx *sql.Tx, rows []deliveryOutcome) error {
	for _, r := range rows {
		if _, err := tx.ExecContext(ctx, `UPDATE push_deliveries SET status = $1, attempts = $2, next_at = $3, pushed_at = $4,
			duration_ms = $5, http_status = $6, error = $7 WHERE id = $8`, r.status, r.attempts, r.next,
			r.pushed, r.dur, r.httpS, r.err, r.id); err != nil {
			return errs.Internal("finish deliveries: %w", err)
		}
	}
	return nil
}

// preparePartitions and ensurePartitions have nothing to do: SQLite's
// readings are one table.
func (o *sqliteOps) preparePartitions(context.Context, time.Time) error { return nil }

func (o *sqliteOps) ensurePartitions(context.Context, []int64) error { return nil }

func (o *sqliteOps) purgeReadings(ctx context.Context, before int64) (int64, error) {
	res, err := o.db.exec(ctx, `DELETE FROM telemetry WHERE ts < $1`, before)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// rollupCache keeps the daily rollup rows SQLite wrote last, so the next
// batch of a device-day need not read its row back: with SQLite this
// process is the only writer, and a failed transaction clears the cache.
// (PostgreSQL may have other writers and always reads, under FOR UPDATE.)
type rollupCache struct {
	mu sync.Mutex
	m  map[deviceDay][]byte
}

// rollupCacheMax bounds the cache: a device-day row is about 1 KiB, and a
// fleet's current days fit many times over.
const rollupCacheMax = 100_000

func (c *rollupCache) get(k deviceDay) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[k]
	return b, ok
}

func (c *rollupCache) put(k deviceDay, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= rollupCacheMax {
		c.m = make(map[deviceDay][]byte)
	}
	c.m[k] = b
}

func (c *rollupCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}
