package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// postgresOps are the PostgreSQL statements of ops: one statement over
// unnest arrays per batch, since every statement is a round trip; and the
// readings' monthly partitions.
type postgresOps struct {
	db *DB

	mu     sync.Mutex
	months map[int64]bool // month starts (unix ms) known to have a partition
}

// insertReadings inserts the report keys first, so a redelivered report is
// recognised and skipped, then the readings of the new reports.
func (o *postgresOps) insertReadings(ctx context.Context, tx *sql.Tx, _ *sql.Conn, keys []reportKey, byKey map[reportKey]*telemetry.Report) ([]*telemetry.Report, []reading, error) {
	fresh, err := o.insertReportKeys(ctx, tx, keys, byKey)
	if err != nil || len(fresh) == 0 {
		return nil, nil, err
	}
	rows, err := o.db.readingsOf(fresh)
	if err != nil {
		return nil, nil, err
	}
	// Readings of compacted days merge into their chunks (see mergeLate).
	added, rest, err := o.db.mergeLate(ctx, tx, rows, time.Now())
	if err != nil {
		return nil, nil, err
	}
	if err := o.insertRaw(ctx, tx, nil, rest); err != nil {
		return nil, nil, err
	}
	if len(added) > 0 {
		rows = append(rest, added...)
		slices.SortFunc(rows, compareReadings)
	}
	return fresh, rows, nil
}

// insertReportKeys inserts the keys and returns the reports that were new.
func (o *postgresOps) insertReportKeys(ctx context.Context, tx *sql.Tx, keys []reportKey, byKey map[reportKey]*telemetry.Report) ([]*telemetry.Report, error) {
	devs, tss, pts := make([]int64, len(keys)), make([]int64, len(keys)), make([]int64, len(keys))
	for i, k := range keys {
		devs[i], tss[i], pts[i] = k.device, k.ts, int64(len(byKey[k].Points))
	}
	rows, err := tx.QueryContext(ctx, `INSERT INTO reports (device_id, ts, points)
		SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[]) ON CONFLICT DO NOTHING RETURNING device_id, ts`,
		devs, tss, pts)
	if err != nil {
		return nil, errs.Internal("insert reports: %w", err)
	}
	defer rows.Close()
	var fresh []*telemetry.Report
	for rows.Next() {
		var k reportKey
		if err := rows.Scan(&k.device, &k.ts); err != nil {
			return nil, errs.Internal("insert reports: %w", err)
		}
		fresh = append(fresh, byKey[k])
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("insert reports: %w", err)
	}
	return fresh, nil
}

// insertRaw inserts rows with one unnest of arrays per 50,000 rows.
func (o *postgresOps) insertRaw(ctx context.Context, tx *sql.Tx, _ *sql.Conn, rows []reading) error {
	for chunk := range slices.Chunk(rows, 50000) {
		devs, params, nodes := make([]int64, len(chunk)), make([]int64, len(chunk)), make([]int64, len(chunk))
		tss, vals := make([]int64, len(chunk)), make([]float64, len(chunk))
		for i, r := range chunk {
			devs[i], params[i], nodes[i], tss[i], vals[i] = r.device, int64(r.param), int64(r.node), r.ts, r.value
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO telemetry (device_id, param, node, ts, value)
			SELECT * FROM unnest($1::bigint[], $2::smallint[], $3::smallint[], $4::bigint[], $5::float8[])
			ON CONFLICT DO NOTHING`, devs, params, nodes, tss, vals); err != nil {
			return errs.Internal("insert readings: %w", err)
		}
	}
	return nil
}

// upsertRollups reads the device-days' rows in one statement and writes
// them back merged in another. FOR UPDATE: another node writing the same
// device-day waits, and then reads what this one wrote.
func (o *postgresOps) upsertRollups(ctx context.Context, tx *sql.Tx, order []deviceDay, add map[deviceDay][]rollup) error {
	devs, days := make([]int64, len(order)), make([]int64, len(order))
	for i, k := range order {
		devs[i], days[i] = k.device, k.day
	}
	rs, err := tx.QueryContext(ctx, `SELECT d.device_id, d.day, d.data FROM telemetry_daily d
		JOIN unnest($1::bigint[], $2::bigint[]) AS k(device_id, day) ON d.device_id = k.device_id AND d.day = k.day
		ORDER BY d.device_id, d.day FOR UPDATE OF d`, devs, days)
	if err != nil {
		return errs.Internal("read rollups: %w", err)
	}
	existing := map[deviceDay][]byte{}
	for rs.Next() {
		var (
			k    deviceDay
			data []byte
		)
		if err := rs.Scan(&k.device, &k.day, &data); err != nil {
			rs.Close()
			return errs.Internal("read rollups: %w", err)
		}
		existing[k] = data
	}
	rs.Close()
	datas := make([][]byte, len(order))
	for i, k := range order {
		merged, err := mergeEncoded(existing[k], add[k])
		if err != nil {
			return err
		}
		datas[i] = merged
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO telemetry_daily (device_id, day, data)
		SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bytea[])
		ON CONFLICT (device_id, day) DO UPDATE SET data = excluded.data`, devs, days, datas); err != nil {
		return errs.Internal("write rollups: %w", err)
	}
	return nil
}

func (o *postgresOps) updateLastReports(ctx context.Context, tx *sql.Tx, newest []lastReport) error {
	ids, tss, offs, firsts := make([]int64, len(newest)), make([]int64, len(newest)), make([]int64, len(newest)), make([]int64, len(newest))
	bats, sigs := make([]*float64, len(newest)), make([]*float64, len(newest))
	for i, r := range newest {
		ids[i], tss[i], offs[i], firsts[i] = r.DeviceID, r.Time.UnixMilli(), r.OfflineAt.UnixMilli(), r.first
		bats[i], sigs[i] = health(r.Report)
	}
	// A device offline before the batch's oldest report was silent from its
	// last report until then: that is its latest gap.
	if _, err := tx.ExecContext(ctx, `UPDATE devices d SET last_report_at = u.ts, offline_at = u.off,
		battery = COALESCE(u.bat, d.battery), signal = COALESCE(u.sig, d.signal),
		gap_from = CASE WHEN d.offline_at < u.first THEN d.last_report_at ELSE d.gap_from END,
		gap_to = CASE WHEN d.offline_at < u.first THEN u.first ELSE d.gap_to END
		FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::float8[], $5::float8[], $6::bigint[]) AS u(id, ts, off, bat, sig, first)
		WHERE d.id = u.id AND (d.last_report_at IS NULL OR d.last_report_at <= u.ts)`, ids, tss, offs, bats, sigs, firsts); err != nil {
		return errs.Internal("update last report: %w", err)
	}
	return nil
}

// finishDeliveries updates in one UPDATE … FROM (VALUES …) per 500 rows: a
// round trip per row would cost more than the deliveries.
func (o *postgresOps) finishDeliveries(ctx context.Context, tx *sql.Tx, rows []deliveryOutcome) error {
	for chunk := range slices.Chunk(rows, 500) {
		var (
			vals []string
			args []any
		)
		for _, r := range chunk {
			n := len(args)
			vals = append(vals, fmt.Sprintf("($%d::bigint, $%d::text, $%d::int, $%d::bigint, $%d::bigint, $%d::int, $%d::int, $%d::text)",
				n+1, n+2, n+3, n+4, n+5, n+6, n+7, n+8))
			args = append(args, r.id, r.status, r.attempts, r.next, r.pushed, r.dur, r.httpS, r.err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE push_deliveries AS p SET status = v.status, attempts = v.attempts,
			next_at = v.next_at, pushed_at = v.pushed_at, duration_ms = v.duration_ms, http_status = v.http_status, error = v.error
			FROM (VALUES `+strings.Join(vals, ",")+`) AS v(id, status, attempts, next_at, pushed_at, duration_ms, http_status, error)
			WHERE p.id = v.id`, args...); err != nil {
			return errs.Internal("finish deliveries: %w", err)
		}
	}
	return nil
}

// Readings are range-partitioned by ts, one partition per UTC month, named
// telemetry_YYYY_MM (migration 00010). Partitions are made ahead — at
// start and daily, the current month and the next two (preparePartitions)
// — and on demand, before a batch that carries a month without one
// (ensurePartitions). telemetry_default catches a reading whose partition
// is missing all the same (a month another node's retention dropped while
// this one still counted it); making a month's partition moves that
// month's rows out of the default.

// partitionsAhead is how many months after the current one get their
// partition in advance.
const partitionsAhead = 2

func partitionName(month time.Time) string {
	return fmt.Sprintf("telemetry_%04d_%02d", month.Year(), int(month.Month()))
}

// partitionMonth parses a name of partitionName.
func partitionMonth(name string) (time.Time, bool) {
	var y, m int
	if n, err := fmt.Sscanf(name, "telemetry_%04d_%02d", &y, &m); err != nil || n != 2 || len(name) != len("telemetry_2006_01") || m < 1 || m > 12 {
		return time.Time{}, false
	}
	return time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC), true
}

// lockPartitions serializes partition changes of this schema's readings
// among nodes until tx ends.
func lockPartitions(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('fieldwatch.telemetry.' || current_schema()))`)
	return err
}

// partitions lists the readings' monthly partitions and their estimated
// row counts.
func partitions(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) (map[time.Time]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT c.relname, GREATEST(c.reltuples, 0)::bigint FROM pg_inherits i
		JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'telemetry'::regclass`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[time.Time]int64{}
	for rows.Next() {
		var (
			name string
			n    int64
		)
		if err := rows.Scan(&name, &n); err != nil {
			return nil, err
		}
		if m, ok := partitionMonth(name); ok {
			out[m] = n
		}
	}
	return out, rows.Err()
}

func (o *postgresOps) preparePartitions(ctx context.Context, now time.Time) error {
	have, err := partitions(ctx, o.db.sql)
	if err != nil {
		return errs.Internal("list partitions: %w", err)
	}
	o.mu.Lock()
	o.months = make(map[int64]bool, len(have))
	for m := range have {
		o.months[m.UnixMilli()] = true
	}
	o.mu.Unlock()
	months := make([]int64, 0, partitionsAhead+1)
	for m, i := monthStart(now.UnixMilli()), 0; i <= partitionsAhead; m, i = m.AddDate(0, 1, 0), i+1 {
		months = append(months, m.UnixMilli())
	}
	return o.ensurePartitions(ctx, months)
}

// ensurePartitions makes the partitions of the months (UTC month starts,
// unix ms) that this process does not know to exist. It runs before a
// batch's transaction: attaching a partition locks the default partition,
// which the batch's own inserts could hold.
func (o *postgresOps) ensurePartitions(ctx context.Context, months []int64) error {
	for _, m := range months {
		o.mu.Lock()
		known := o.months[m]
		o.mu.Unlock()
		if known {
			continue
		}
		month := time.UnixMilli(m).UTC()
		if err := o.addPartition(ctx, month); err != nil {
			return errs.Internal("partition %s: %w", partitionName(month), err)
		}
		o.mu.Lock()
		if o.months == nil {
			o.months = map[int64]bool{}
		}
		o.months[m] = true
		o.mu.Unlock()
	}
	return nil
}

// addPartition makes month's partition unless another node has: a plain
// table, filled with the month's rows from the default partition, then
// attached. ATTACH PARTITION takes a lock on the partitioned table that
// lets reads and inserts go on, where CREATE TABLE … PARTITION OF would
// take one that stops them.
func (o *postgresOps) addPartition(ctx context.Context, month time.Time) error {
	tx, err := o.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := lockPartitions(ctx, tx); err != nil {
		return err
	}
	name := partitionName(month)
	var exists bool
	if err := tx.QueryRowContext(ctx, `SELECT to_regclass($1) IS NOT NULL`, name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return tx.Commit()
	}
	lo, hi := month.UnixMilli(), month.AddDate(0, 1, 0).UnixMilli()
	for _, q := range []string{
		`CREATE TABLE ` + name + ` (LIKE telemetry INCLUDING ALL)`,
		fmt.Sprintf(`WITH moved AS (DELETE FROM telemetry_default WHERE ts >= %d AND ts < %d RETURNING device_id, param, node, ts, value)
			INSERT INTO %s SELECT * FROM moved`, lo, hi, name),
		fmt.Sprintf(`ALTER TABLE telemetry ATTACH PARTITION %s FOR VALUES FROM (%d) TO (%d)`, name, lo, hi),
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// purgeReadings drops the partitions of the months that end by before,
// counting their rows from the catalogue's estimate (a count would read a
// month of cold rows only to throw them away), then deletes the older rows
// of the month straddling before and of the default partition. Dropping a
// partition locks the whole table, so the drops commit on their own,
// giving up after lock_timeout rather than holding ingest behind a long
// read; the row deletes follow in a transaction of their own.
func (o *postgresOps) purgeReadings(ctx context.Context, before int64) (int64, error) {
	var n int64
	err := o.db.inTx(ctx, func(tx *sql.Tx) error {
		if err := lockPartitions(ctx, tx); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `SET LOCAL lock_timeout = '10s'`); err != nil {
			return err
		}
		have, err := partitions(ctx, tx)
		if err != nil {
			return err
		}
		for m, rows := range have {
			if m.AddDate(0, 1, 0).UnixMilli() > before {
				continue
			}
			if _, err := tx.ExecContext(ctx, `DROP TABLE `+partitionName(m)); err != nil {
				return err
			}
			n += rows
			o.mu.Lock()
			delete(o.months, m.UnixMilli())
			o.mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	res, err := o.db.exec(ctx, `DELETE FROM telemetry WHERE ts < $1`, before)
	if err != nil {
		return 0, err
	}
	k, err := res.RowsAffected()
	return n + k, err
}
