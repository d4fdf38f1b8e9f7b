package store

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
	"github.com/fieldwatch/fieldwatch/internal/tsz"
)

// Readings live in two tables (docs/storage.md): telemetry holds a row per
// reading for the hot window — today and yesterday, UTC, where nearly every
// report lands — and telemetry_chunks holds the older readings, one row per
// series (device, param, node) and UTC day, packed by package tsz. The
// compactor (CompactReadings) moves whole days of a series from the first
// to the second; a late report for a day that already has a chunk is
// merged into it by the writer (mergeLate). Every read of raw readings
// goes through Series, which merges the two.
//
// A day can have both a chunk and hot rows: a report written while its day
// was being compacted on another node. Series merges them (the chunk wins
// on a time both hold, which the report keys rule out anyway) and the next
// compaction folds the rows into the chunk.

// chunkSpan is the time one chunk covers: one UTC day.
const chunkSpan = int64(24 * time.Hour / time.Millisecond)

// chunkDay is the chunk period (UTC days since 1970-01-01) of ts (unix ms).
func chunkDay(ts int64) int64 {
	d := ts / chunkSpan
	if ts%chunkSpan < 0 {
		d--
	}
	return d
}

// compactBefore is the hot window's start at now: the previous UTC day's
// midnight. Days ending by then are compacted.
func compactBefore(now time.Time) int64 {
	return (chunkDay(now.UnixMilli()) - 1) * chunkSpan
}

// lateBefore is where the writer starts looking for chunks to merge into:
// today's UTC midnight, a day later than compactBefore, so that a node
// whose clock runs up to a day ahead of another's is still covered.
func lateBefore(now time.Time) int64 {
	return chunkDay(now.UnixMilli()) * chunkSpan
}

// compactDaysPerTx bounds one compaction transaction to a month of a
// device's days: a database converted from rows compacts a month at a time.
const compactDaysPerTx = 31

// mergePoints merges the sorted points add into the sorted points (ts, v),
// skipping times already there, and returns the result and the points
// that were new.
func mergePoints(ts []int64, v []float64, addTS []int64, addV []float64) (outTS []int64, outV []float64, newTS []int64, newV []float64) {
	outTS = make([]int64, 0, len(ts)+len(addTS))
	outV = make([]float64, 0, len(ts)+len(addTS))
	i, j := 0, 0
	for i < len(ts) || j < len(addTS) {
		switch {
		case j == len(addTS) || (i < len(ts) && ts[i] < addTS[j]):
			outTS, outV = append(outTS, ts[i]), append(outV, v[i])
			i++
		case i == len(ts) || addTS[j] < ts[i]:
			if len(outTS) > 0 && outTS[len(outTS)-1] == addTS[j] {
				j++ // a time twice in add: the first stays
				continue
			}
			outTS, outV = append(outTS, addTS[j]), append(outV, addV[j])
			newTS, newV = append(newTS, addTS[j]), append(newV, addV[j])
			j++
		default: // the same time: the stored reading stays
			j++
		}
	}
	return outTS, outV, newTS, newV
}

// mergeLate folds the rows (sorted by the telemetry key) of days that
// already have a chunk into it, under the row lock of the chunk, and
// returns the rows that were new there; the rows of days without a chunk
// come back in rest, to be inserted as hot rows. Rows of today and later
// cost only the comparison of their time.
func (db *DB) mergeLate(ctx context.Context, tx *sql.Tx, rows []reading, now time.Time) (added, rest []reading, err error) {
	cut := lateBefore(now)
	old := false
	for _, r := range rows {
		if r.ts < cut {
			old = true
			break
		}
	}
	if !old {
		return nil, rows, nil
	}
	get, err := tx.PrepareContext(ctx, `SELECT data FROM telemetry_chunks
		WHERE device_id = $1 AND param = $2 AND node = $3 AND day = $4`+db.dialect.forUpdate())
	if err != nil {
		return nil, nil, errs.Internal("merge late readings: %w", err)
	}
	defer get.Close()
	rest = make([]reading, 0, len(rows))
	for i := 0; i < len(rows); {
		r := rows[i]
		if r.ts >= cut {
			rest = append(rest, r)
			i++
			continue
		}
		day := chunkDay(r.ts)
		j := i + 1
		for j < len(rows) && rows[j].device == r.device && rows[j].param == r.param && rows[j].node == r.node && chunkDay(rows[j].ts) == day {
			j++
		}
		group := rows[i:j]
		i = j
		var data []byte
		err := get.QueryRowContext(ctx, r.device, r.param, r.node, day).Scan(&data)
		if err == sql.ErrNoRows {
			rest = append(rest, group...)
			continue
		}
		if err != nil {
			return nil, nil, errs.Internal("merge late readings: %w", err)
		}
		ts, v, err := tsz.Decode(data, nil, nil)
		if err != nil {
			return nil, nil, errs.Internal("chunk %d/%d/%d/%d: %w", r.device, r.param, r.node, day, err)
		}
		addTS, addV := make([]int64, len(group)), make([]float64, len(group))
		for k, g := range group {
			addTS[k], addV[k] = g.ts, g.value
		}
		ts, v, newTS, newV := mergePoints(ts, v, addTS, addV)
		if len(newTS) == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE telemetry_chunks SET n = $5, data = $6
			WHERE device_id = $1 AND param = $2 AND node = $3 AND day = $4`,
			r.device, r.param, r.node, day, len(ts), tsz.Encode(nil, ts, v)); err != nil {
			return nil, nil, errs.Internal("merge late readings: %w", err)
		}
		for k := range newTS {
			added = append(added, reading{r.device, r.param, r.node, newTS[k], newV[k]})
		}
	}
	return added, rest, nil
}

// CompactResult counts what a compaction moved.
type CompactResult struct {
	Devices  int   // devices with readings compacted
	Readings int64 // rows moved into chunks
	Chunks   int64 // chunks written (new or merged into)
}

// CompactReadings moves the readings of every day before the hot window at
// now (see compactBefore) from rows into chunks: a device's days at most a
// month at a time, each move one transaction, so a compaction stopped at
// any point loses nothing and the next one takes up what is left. On
// PostgreSQL a device another node is compacting is skipped. progress, if
// not nil, is called after every transaction with the totals so far.
func (db *DB) CompactReadings(ctx context.Context, now time.Time, progress func(CompactResult)) (CompactResult, error) {
	return db.CompactReadingsPaced(ctx, now, 1, progress)
}

// BackgroundShare is the share of a core the server's hourly compaction
// takes (CompactReadingsPaced): the rest stays with ingest, which a
// compaction at full speed slows on PostgreSQL, whose server process works
// for both on the same cores.
const BackgroundShare = 0.25

// CompactReadingsPaced is CompactReadings taking at most share (0–1] of
// the time: after each transaction it rests for the time the transaction
// took × (1 − share) / share.
func (db *DB) CompactReadingsPaced(ctx context.Context, now time.Time, share float64, progress func(CompactResult)) (CompactResult, error) {
	share = min(max(share, 0.01), 1)
	var res CompactResult
	before := compactBefore(now)
	var ids []int64
	rows, err := db.sql.QueryContext(ctx, `SELECT id FROM devices ORDER BY id`)
	if err != nil {
		return res, errs.Internal("compact: %w", err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return res, errs.Internal("compact: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, errs.Internal("compact: %w", err)
	}
	for _, id := range ids {
		moved := false
		for {
			if err := ctx.Err(); err != nil {
				return res, err
			}
			began := time.Now()
			n, chunks, more, err := db.compactDevice(ctx, id, before)
			if err != nil {
				return res, err
			}
			if rest := time.Duration(float64(time.Since(began)) * (1 - share) / share); rest > 0 && n > 0 {
				select {
				case <-ctx.Done():
					return res, ctx.Err()
				case <-time.After(rest):
				}
			}
			res.Readings += n
			res.Chunks += chunks
			moved = moved || n > 0
			if n > 0 && progress != nil {
				progress(res)
			}
			if !more {
				break
			}
		}
		if moved {
			res.Devices++
		}
	}
	return res, nil
}

// compactDevice moves up to compactDaysPerTx days of each of device's
// series before before into chunks, in one transaction. more reports that
// days are left. On PostgreSQL a transaction that meets a concurrent
// change of a chunk (a late report merged into it) is tried again.
func (db *DB) compactDevice(ctx context.Context, device, before int64) (n, chunks int64, more bool, err error) {
	for try := 0; ; try++ {
		var c compaction
		err = db.compactTx(ctx, func(tx *sql.Tx, conn *sql.Conn) error {
			c = compaction{db: db, tx: tx, conn: conn, device: device}
			return c.run(ctx, before)
		})
		if err == nil {
			return c.n, c.chunks, c.more, nil
		}
		if !isSerializationFailure(err) || try == 2 {
			return 0, 0, false, errs.Internal("compact device %d: %w", device, err)
		}
	}
}

// compactTx runs fn in a transaction on one connection, as inConnTx does;
// on PostgreSQL at REPEATABLE READ, so that the compaction's DELETE removes
// exactly the rows its SELECT read: a row another transaction inserts
// meanwhile is not in the snapshot and stays a row, for the next
// compaction.
func (db *DB) compactTx(ctx context.Context, fn func(*sql.Tx, *sql.Conn) error) error {
	defer db.writeLock()()
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var opts *sql.TxOptions
	if db.dialect == Postgres {
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead}
	}
	tx, err := conn.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	if err := fn(tx, conn); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// isSerializationFailure reports PostgreSQL's 40001, a REPEATABLE READ
// transaction that met a concurrent update.
func isSerializationFailure(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "40001"
}

// compaction is one device's compaction transaction: the rows of each
// series' span read in one ordered scan and deleted by range, the days'
// existing chunks read in one statement, all new chunks written in one
// statement (PostgreSQL) or one prepared statement (SQLite).
type compaction struct {
	db     *DB
	tx     *sql.Tx
	conn   *sql.Conn
	device int64

	spans []compactSpan // the series to move, in key order
	ts    []int64       // their readings, span after span
	v     []float64

	n, chunks int64
	more      bool
}

// compactSpan is one series' rows in [lo, hi), at ts[from:to].
type compactSpan struct {
	param, node int64
	lo, hi      int64
	from, to    int
}

// chunkKey names a chunk.
type chunkKey struct{ param, node, day int64 }

func (c *compaction) run(ctx context.Context, before int64) error {
	if c.db.dialect == Postgres {
		var got bool
		if err := c.tx.QueryRowContext(ctx, `SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || ':compact:' || $1::text))`,
			fmt.Sprint(c.device)).Scan(&got); err != nil {
			return err
		}
		if !got {
			return nil // another node has it
		}
	}
	// Each series' oldest row: an index seek per series, the next node of
	// this parameter or else the next parameter. (Spelt as ORs, PostgreSQL
	// filters every row of the device; as the row value (param, node) >
	// ($2, $3), SQLite seeks on param alone and steps through every row of
	// the current series.) The transaction moves the device's rows from
	// the oldest of them to a month later.
	param, node := int64(-1), int64(-1)
	lo := before
	for {
		var first int64
		err := c.tx.QueryRowContext(ctx, `SELECT * FROM (SELECT param, node, ts FROM telemetry
				WHERE device_id = $1 AND param = $2 AND node > $3 ORDER BY node, ts LIMIT 1) AS same_param
			UNION ALL SELECT * FROM (SELECT param, node, ts FROM telemetry
				WHERE device_id = $1 AND param > $2 ORDER BY param, node, ts LIMIT 1) AS next_param
			ORDER BY param, node LIMIT 1`,
			c.device, param, node).Scan(&param, &node, &first)
		if err == sql.ErrNoRows {
			break
		}
		if err != nil {
			return err
		}
		if first >= before {
			continue
		}
		lo = min(lo, first)
		c.spans = append(c.spans, compactSpan{param: param, node: node, lo: first})
	}
	if len(c.spans) == 0 {
		return nil
	}
	hi := min(before, (chunkDay(lo)+compactDaysPerTx)*chunkSpan)
	c.more = hi < before
	c.spans = slices.DeleteFunc(c.spans, func(sp compactSpan) bool { return sp.lo >= hi })
	for i := range c.spans {
		c.spans[i].hi = hi
	}
	take := c.takeSeries
	if c.db.dialect == Postgres {
		take = c.takeDevice
	}
	if err := c.conn.Raw(func(dc any) error { return take(ctx, dc, lo, hi) }); err != nil {
		return err
	}
	if len(c.ts) == 0 {
		return nil
	}
	existing, err := c.existing(ctx)
	if err != nil {
		return err
	}
	return c.write(ctx, existing)
}

// takeSeries reads every span's rows in time order and deletes them by
// range, a series at a time: SQLite's telemetry is clustered on its key,
// so a series' rows are next to each other. It runs on the driver directly
// (database/sql's per-row locking and conversion would be most of the
// time). The rows deleted must be the rows read.
func (c *compaction) takeSeries(ctx context.Context, dc any, _, _ int64) error {
	const where = ` FROM telemetry WHERE device_id = $1 AND param = $2 AND node = $3 AND ts >= $4 AND ts < $5`
	sel, err := prepareRaw(ctx, dc, `SELECT ts, value`+where+` ORDER BY ts`)
	if err != nil {
		return err
	}
	defer sel.Close()
	del, err := prepareRaw(ctx, dc, `DELETE`+where)
	if err != nil {
		return err
	}
	defer del.Close()
	query, ok1 := sel.(driver.StmtQueryContext)
	exec, ok2 := del.(driver.StmtExecContext)
	if !ok1 || !ok2 {
		return fmt.Errorf("driver statements %T cannot run with a context", sel)
	}
	args := []driver.NamedValue{{Ordinal: 1, Value: c.device}, {Ordinal: 2}, {Ordinal: 3}, {Ordinal: 4}, {Ordinal: 5}}
	row := make([]driver.Value, 2)
	for i := range c.spans {
		sp := &c.spans[i]
		args[1].Value, args[2].Value, args[3].Value, args[4].Value = sp.param, sp.node, sp.lo, sp.hi
		rows, err := query.QueryContext(ctx, args)
		if err != nil {
			return err
		}
		sp.from = len(c.ts)
		for {
			if err := rows.Next(row); err == io.EOF {
				break
			} else if err != nil {
				rows.Close()
				return err
			}
			ts, ok1 := row[0].(int64)
			v, ok2 := asFloat(row[1])
			if !ok1 || !ok2 {
				rows.Close()
				return fmt.Errorf("telemetry row (%T, %T)", row[0], row[1])
			}
			c.ts, c.v = append(c.ts, ts), append(c.v, v)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		sp.to = len(c.ts)
		res, err := exec.ExecContext(ctx, args)
		if err != nil {
			return err
		}
		if k, err := res.RowsAffected(); err != nil || k != int64(sp.to-sp.from) {
			return fmt.Errorf("series %d/%d: read %d rows, deleted %d (%v)", sp.param, sp.node, sp.to-sp.from, k, err)
		}
	}
	return nil
}

// takeDevice reads the device's rows in [lo, hi) in one scan and deletes
// them in one statement: PostgreSQL's heap holds a report's readings side
// by side, so a scan per series would visit every page once per series.
// The rows come in heap order and are sorted into the spans here.
func (c *compaction) takeDevice(ctx context.Context, dc any, lo, hi int64) error {
	const where = ` FROM telemetry WHERE device_id = $1 AND ts >= $2 AND ts < $3`
	sel, err := prepareRaw(ctx, dc, `SELECT param, node, ts, value`+where)
	if err != nil {
		return err
	}
	defer sel.Close()
	query, ok := sel.(driver.StmtQueryContext)
	if !ok {
		return fmt.Errorf("driver statement %T cannot query with a context", sel)
	}
	args := []driver.NamedValue{{Ordinal: 1, Value: c.device}, {Ordinal: 2, Value: lo}, {Ordinal: 3, Value: hi}}
	rows, err := query.QueryContext(ctx, args)
	if err != nil {
		return err
	}
	type bucket struct {
		ts []int64
		v  []float64
	}
	buckets := make([]bucket, len(c.spans))
	find := func(param, node int64) int {
		return slices.IndexFunc(c.spans, func(sp compactSpan) bool { return sp.param == param && sp.node == node })
	}
	row := make([]driver.Value, 4)
	last, lastParam, lastNode, total := -1, int64(-1), int64(-1), 0
	for {
		if err := rows.Next(row); err == io.EOF {
			break
		} else if err != nil {
			rows.Close()
			return err
		}
		param, ok1 := row[0].(int64)
		node, ok2 := row[1].(int64)
		ts, ok3 := row[2].(int64)
		v, ok4 := asFloat(row[3])
		if !ok1 || !ok2 || !ok3 || !ok4 {
			rows.Close()
			return fmt.Errorf("telemetry row (%T, %T, %T, %T)", row[0], row[1], row[2], row[3])
		}
		if last < 0 || param != lastParam || node != lastNode {
			if last = find(param, node); last < 0 {
				rows.Close()
				return fmt.Errorf("series %d/%d has rows before its first", param, node)
			}
			lastParam, lastNode = param, node
		}
		b := &buckets[last]
		b.ts, b.v = append(b.ts, ts), append(b.v, v)
		total++
	}
	if err := rows.Close(); err != nil {
		return err
	}
	c.ts, c.v = make([]int64, 0, total), make([]float64, 0, total)
	for i, b := range buckets {
		sp := &c.spans[i]
		sp.from = len(c.ts)
		c.ts, c.v = append(c.ts, b.ts...), append(c.v, b.v...)
		sp.to = len(c.ts)
		if !slices.IsSorted(c.ts[sp.from:sp.to]) {
			s := telemetry.Series{TS: c.ts[sp.from:sp.to], V: c.v[sp.from:sp.to]}
			sortSeries(&s)
		}
	}
	del, err := prepareRaw(ctx, dc, `DELETE`+where)
	if err != nil {
		return err
	}
	defer del.Close()
	exec, ok := del.(driver.StmtExecContext)
	if !ok {
		return fmt.Errorf("driver statement %T cannot execute with a context", del)
	}
	res, err := exec.ExecContext(ctx, args)
	if err != nil {
		return err
	}
	if k, err := res.RowsAffected(); err != nil || k != int64(total) {
		return fmt.Errorf("read %d rows, deleted %d (%v)", total, k, err)
	}
	return nil
}

// existing reads the chunks already stored for the days of the spans'
// rows, locked on PostgreSQL: an index seek per series.
func (c *compaction) existing(ctx context.Context) (map[chunkKey][]byte, error) {
	get, err := c.tx.PrepareContext(ctx, `SELECT day, data FROM telemetry_chunks
		WHERE device_id = $1 AND param = $2 AND node = $3 AND day >= $4 AND day <= $5`+c.db.dialect.forUpdate())
	if err != nil {
		return nil, err
	}
	defer get.Close()
	var out map[chunkKey][]byte
	for _, sp := range c.spans {
		if sp.to == sp.from {
			continue
		}
		rows, err := get.QueryContext(ctx, c.device, sp.param, sp.node, chunkDay(c.ts[sp.from]), chunkDay(c.ts[sp.to-1]))
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			k := chunkKey{param: sp.param, node: sp.node}
			var data []byte
			if err := rows.Scan(&k.day, &data); err != nil {
				rows.Close()
				return nil, err
			}
			if out == nil {
				out = map[chunkKey][]byte{}
			}
			out[k] = data
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// write encodes each series-day of the spans, merged into its existing
// chunk if there is one, and upserts the chunks.
func (c *compaction) write(ctx context.Context, existing map[chunkKey][]byte) error {
	var (
		keys []chunkKey
		ns   []int64
		ends []int // data[ends[i-1]:ends[i]] is chunk i
		data []byte
	)
	for _, sp := range c.spans {
		for i := sp.from; i < sp.to; {
			day := chunkDay(c.ts[i])
			j := i + 1
			for j < sp.to && chunkDay(c.ts[j]) == day {
				j++
			}
			ts, v := c.ts[i:j], c.v[i:j]
			k := chunkKey{sp.param, sp.node, day}
			if old, ok := existing[k]; ok {
				cts, cv, err := tsz.Decode(old, nil, nil)
				if err != nil {
					return fmt.Errorf("chunk %d/%d/%d/%d: %w", c.device, sp.param, sp.node, day, err)
				}
				ts, v, _, _ = mergePoints(cts, cv, ts, v)
			}
			data = tsz.Encode(data, ts, v)
			keys, ns, ends = append(keys, k), append(ns, int64(len(ts))), append(ends, len(data))
			c.n += int64(j - i)
			i = j
		}
	}
	c.chunks = int64(len(keys))
	const upsert = ` ON CONFLICT (device_id, param, node, day) DO UPDATE SET n = excluded.n, data = excluded.data`
	if c.db.dialect == Postgres {
		// One statement for all of them, arrays unnested.
		devs, params, nodes, days := make([]int64, len(keys)), make([]int64, len(keys)), make([]int64, len(keys)), make([]int64, len(keys))
		blobs := make([][]byte, len(keys))
		for i, k := range keys {
			devs[i], params[i], nodes[i], days[i] = c.device, k.param, k.node, k.day
			blobs[i] = data[chunkStart(ends, i):ends[i]]
		}
		_, err := c.tx.ExecContext(ctx, `INSERT INTO telemetry_chunks (device_id, param, node, day, n, data)
			SELECT * FROM unnest($1::bigint[], $2::smallint[], $3::smallint[], $4::int[], $5::int[], $6::bytea[])`+upsert,
			devs, params, nodes, days, ns, blobs)
		return err
	}
	return c.conn.Raw(func(dc any) error {
		st, err := prepareRaw(ctx, dc, `INSERT INTO telemetry_chunks (device_id, param, node, day, n, data) VALUES (?, ?, ?, ?, ?, ?)`+upsert)
		if err != nil {
			return err
		}
		defer st.Close()
		exec, ok := st.(driver.StmtExecContext)
		if !ok {
			return fmt.Errorf("driver statement %T cannot execute with a context", st)
		}
		args := []driver.NamedValue{{Ordinal: 1, Value: c.device}, {Ordinal: 2}, {Ordinal: 3}, {Ordinal: 4}, {Ordinal: 5}, {Ordinal: 6}}
		for i, k := range keys {
			args[1].Value, args[2].Value, args[3].Value, args[4].Value = k.param, k.node, k.day, ns[i]
			args[5].Value = data[chunkStart(ends, i):ends[i]]
			if _, err := exec.ExecContext(ctx, args); err != nil {
				return err
			}
		}
		return nil
	})
}

// chunkStart is where chunk i starts in write's data.
func chunkStart(ends []int, i int) int {
	if i == 0 {
		return 0
	}
	return ends[i-1]
}

// chunkSeries reads the compacted readings of q as one Series per param
// and node, ordered by param identifier and node, times ascending.
func (db *DB) chunkSeries(ctx context.Context, q telemetry.Query) ([]telemetry.Series, error) {
	begin, end := q.Begin.UnixMilli(), q.End.UnixMilli()
	if end <= begin {
		return nil, nil
	}
	where := []string{"device_id = $1", "day >= $2", "day <= $3"}
	args := []any{q.DeviceID, chunkDay(begin), chunkDay(end - 1)}
	where, args, _ = db.seriesFilter(q, where, args)
	for i, a := range args {
		if x, ok := a.(int); ok {
			args[i] = int64(x) // the driver takes int64 only
		}
	}
	type key struct{ code, node int64 }
	var (
		out    []telemetry.Series
		curKey = key{-1, -1}
		cur    *telemetry.Series
		err    error
	)
	err = db.rawQuery(ctx, `SELECT param, node, day, data FROM telemetry_chunks WHERE `+strings.Join(where, " AND ")+
		` ORDER BY param, node, day`, args, func(row []driver.Value) error {
		code, ok1 := row[0].(int64)
		node, ok2 := row[1].(int64)
		data, ok3 := row[3].([]byte)
		if !ok1 || !ok2 || !ok3 {
			return fmt.Errorf("chunk row (%T, %T, %T)", row[0], row[1], row[3])
		}
		if k := (key{code, node}); k != curKey {
			out = append(out, telemetry.Series{Param: db.paramID[int(code)], Node: int(node)})
			cur, curKey = &out[len(out)-1], k
		}
		n := len(cur.TS)
		cur.TS, cur.V, err = tsz.Decode(data, cur.TS, cur.V)
		if err != nil {
			return fmt.Errorf("chunk %d/%d/%d/%v: %w", q.DeviceID, code, node, row[2], err)
		}
		// Only the first and last days of the range can hold times outside it.
		if cur.TS[n] < begin || cur.TS[len(cur.TS)-1] >= end {
			k := n
			for i := n; i < len(cur.TS); i++ {
				if cur.TS[i] >= begin && cur.TS[i] < end {
					cur.TS[k], cur.V[k] = cur.TS[i], cur.V[i]
					k++
				}
			}
			cur.TS, cur.V = cur.TS[:k], cur.V[:k]
		}
		return nil
	})
	if err != nil {
		return nil, errs.Internal("series: %w", err)
	}
	out = slices.DeleteFunc(out, func(s telemetry.Series) bool { return len(s.TS) == 0 })
	sortSeriesList(out)
	return out, nil
}

func sortSeriesList(ss []telemetry.Series) {
	slices.SortFunc(ss, func(a, b telemetry.Series) int {
		return cmp.Or(strings.Compare(a.Param, b.Param), cmp.Compare(a.Node, b.Node))
	})
}

// mergeSeriesLists merges two lists of series, each ordered by param and
// node with times ascending: a series in both gets the times of both, once
// (a's reading where both have a time).
func mergeSeriesLists(a, b []telemetry.Series) []telemetry.Series {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]telemetry.Series, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var c int
		switch {
		case i == len(a):
			c = 1
		case j == len(b):
			c = -1
		default:
			c = cmp.Or(strings.Compare(a[i].Param, b[j].Param), cmp.Compare(a[i].Node, b[j].Node))
		}
		switch {
		case c < 0:
			out = append(out, a[i])
			i++
		case c > 0:
			out = append(out, b[j])
			j++
		default:
			s := a[i]
			s.TS, s.V, _, _ = mergePoints(a[i].TS, a[i].V, b[j].TS, b[j].V)
			out = append(out, s)
			i, j = i+1, j+1
		}
	}
	return out
}

// purgeChunks deletes the compacted readings older than before (unix ms):
// whole chunks of the days that end by then, and, in the one day that
// straddles it, the older readings of each chunk.
func (db *DB) purgeChunks(ctx context.Context, before int64) (int64, error) {
	var n int64
	day := chunkDay(before)
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var whole sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT SUM(n) FROM telemetry_chunks WHERE day < $1`, day).Scan(&whole); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM telemetry_chunks WHERE day < $1`, day); err != nil {
			return err
		}
		n = whole.Int64
		if before == day*chunkSpan {
			return nil
		}
		type chunk struct {
			device      int64
			param, node int
			data        []byte
		}
		var cs []chunk
		rows, err := tx.QueryContext(ctx, `SELECT device_id, param, node, data FROM telemetry_chunks WHERE day = $1`+db.dialect.forUpdate(), day)
		if err != nil {
			return err
		}
		for rows.Next() {
			var c chunk
			if err := rows.Scan(&c.device, &c.param, &c.node, &c.data); err != nil {
				rows.Close()
				return err
			}
			cs = append(cs, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, c := range cs {
			ts, v, err := tsz.Decode(c.data, nil, nil)
			if err != nil {
				return err
			}
			k, _ := slices.BinarySearch(ts, before)
			if k == 0 {
				continue
			}
			n += int64(k)
			if k == len(ts) {
				_, err = tx.ExecContext(ctx, `DELETE FROM telemetry_chunks WHERE device_id = $1 AND param = $2 AND node = $3 AND day = $4`,
					c.device, c.param, c.node, day)
			} else {
				_, err = tx.ExecContext(ctx, `UPDATE telemetry_chunks SET n = $5, data = $6 WHERE device_id = $1 AND param = $2 AND node = $3 AND day = $4`,
					c.device, c.param, c.node, day, len(ts)-k, tsz.Encode(nil, ts[k:], v[k:]))
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, errs.Internal("purge chunks: %w", err)
	}
	return n, nil
}

// StorageTable is one table's share of the readings' storage.
type StorageTable struct {
	Name     string `json:"name"`
	Rows     int64  `json:"rows"`     // rows of the table
	Readings int64  `json:"readings"` // readings they hold
	Bytes    int64  `json:"bytes"`    // table and index bytes on disk
}

// BytesPerReading is Bytes over Readings (0 without readings).
func (t StorageTable) BytesPerReading() float64 {
	if t.Readings == 0 {
		return 0
	}
	return float64(t.Bytes) / float64(t.Readings)
}

// StorageStats returns the raw readings' tables — hot rows and chunks —
// with their rows, readings and bytes on disk (SQLite: dbstat's pages of
// the table and its indexes; PostgreSQL: pg_total_relation_size, summed
// over telemetry's partitions).
func (db *DB) StorageStats(ctx context.Context) ([]StorageTable, error) {
	hot := StorageTable{Name: "telemetry"}
	chunks := StorageTable{Name: "telemetry_chunks"}
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM telemetry`).Scan(&hot.Rows); err != nil {
		return nil, errs.Internal("storage stats: %w", err)
	}
	hot.Readings = hot.Rows
	var sum sql.NullInt64
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*), SUM(n) FROM telemetry_chunks`).Scan(&chunks.Rows, &sum); err != nil {
		return nil, errs.Internal("storage stats: %w", err)
	}
	chunks.Readings = sum.Int64
	var err error
	if db.dialect == Postgres {
		err = db.sql.QueryRowContext(ctx, `SELECT
			(SELECT COALESCE(SUM(pg_total_relation_size(inhrelid)), 0) FROM pg_inherits WHERE inhparent = 'telemetry'::regclass),
			pg_total_relation_size('telemetry_chunks')`).Scan(&hot.Bytes, &chunks.Bytes)
	} else {
		err = db.sql.QueryRowContext(ctx, `SELECT
			(SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name = 'telemetry'),
			(SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name IN ('telemetry_chunks', 'telemetry_chunks_key'))`).Scan(&hot.Bytes, &chunks.Bytes)
	}
	if err != nil {
		return nil, errs.Internal("storage stats: %w", err)
	}
	return []StorageTable{hot, chunks}, nil
}
