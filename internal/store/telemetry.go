package store

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

var _ telemetry.Store = (*DB)(nil)

// loadParams gives every parameter of the type registry a code, once, and
// caches the mapping. Codes are assigned in order of first appearance and
// never change, so stored readings keep their meaning across releases.
func (db *DB) loadParams(ctx context.Context) error {
	var ids []string
	seen := map[string]bool{}
	for _, t := range devices.Types() {
		ps := t.Params
		if t.Slave != nil {
			ps = append(slices.Clone(ps), t.Slave.Params...)
		}
		for _, p := range ps {
			if !seen[p.ID] {
				seen[p.ID] = true
				ids = append(ids, p.ID)
			}
		}
	}
	for attempt := 0; ; attempt++ {
		codes, err := db.readParams(ctx)
		if err != nil {
			return err
		}
		next := 0
		for _, c := range codes {
			next = max(next, c)
		}
		var missing []string
		for _, id := range ids {
			if _, ok := codes[id]; !ok {
				missing = append(missing, id)
			}
		}
		if len(missing) == 0 {
			db.paramCode = codes
			db.paramID = make(map[int]string, len(codes))
			for id, c := range codes {
				db.paramID[c] = id
			}
			return nil
		}
		err = db.inTx(ctx, func(tx *sql.Tx) error {
			for _, id := range missing {
				next++
				if _, err := tx.ExecContext(ctx, `INSERT INTO params (code, id) VALUES ($1, $2)`, next, id); err != nil {
					return err
				}
			}
			return nil
		})
		// Another node may have registered the same codes meanwhile: read again.
		if err != nil && !(isUniqueViolation(err) && attempt < 3) {
			return errs.Internal("register params: %w", err)
		}
	}
}

func (db *DB) readParams(ctx context.Context) (map[string]int, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT code, id FROM params`)
	if err != nil {
		return nil, errs.Internal("read params: %w", err)
	}
	defer rows.Close()
	codes := map[string]int{}
	for rows.Next() {
		var (
			code int
			id   string
		)
		if err := rows.Scan(&code, &id); err != nil {
			return nil, errs.Internal("read params: %w", err)
		}
		codes[id] = code
	}
	return codes, rows.Err()
}

func (db *DB) code(param string) (int, error) {
	c, ok := db.paramCode[param]
	if !ok {
		return 0, errs.Internal("unknown parameter %q", param)
	}
	return c, nil
}

// Rows per multi-row statement: under SQLite's 32,766 bound variables and
// PostgreSQL's 65,535 for every table written here.
const chunkRows = 1000

type reportKey struct {
	device int64
	ts     int64
}

type reading struct {
	device      int64
	param, node int
	ts          int64
	value       float64
}

func compareReadings(a, b reading) int {
	return cmp.Or(cmp.Compare(a.device, b.device), cmp.Compare(a.param, b.param), cmp.Compare(a.node, b.node), cmp.Compare(a.ts, b.ts))
}

// WriteReports stores reports in one transaction: the report keys first, so
// a redelivered report is recognised and skipped; then the readings of the
// new reports, their daily rollups and each device's last report time. It
// returns the number of readings stored.
func (db *DB) WriteReports(ctx context.Context, reports []*telemetry.Report, loc *time.Location) (int, error) {
	if len(reports) == 0 {
		return 0, nil
	}
	// Two copies of one report in a batch (a redelivery racing its original)
	// must not both count.
	byKey := make(map[reportKey]*telemetry.Report, len(reports))
	for _, r := range reports {
		k := reportKey{r.DeviceID, r.Time.UnixMilli()}
		if _, dup := byKey[k]; !dup {
			byKey[k] = r
		}
	}
	keys := make([]reportKey, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	// Sorted keys write B-tree pages in order and take row locks in one
	// order on PostgreSQL, so concurrent writers cannot deadlock.
	slices.SortFunc(keys, func(a, b reportKey) int { return cmp.Or(cmp.Compare(a.device, b.device), cmp.Compare(a.ts, b.ts)) })

	stored := 0
	err := db.inConnTx(ctx, func(tx *sql.Tx, conn *sql.Conn) error {
		var (
			fresh []*telemetry.Report
			rows  []reading
			err   error
		)
		if db.dialect == Postgres {
			if fresh, err = db.insertReportKeys(ctx, tx, keys, byKey); err != nil || len(fresh) == 0 {
				return err
			}
			if rows, err = db.readingsOf(fresh); err != nil {
				return err
			}
			if err := db.insertReadings(ctx, tx, rows); err != nil {
				return err
			}
		} else {
			// SQLite inserts a row at a time and learns from each insert
			// whether the reading was new: the readings' own key dedupes, with
			// no report-key table to write.
			all := make([]*telemetry.Report, 0, len(keys))
			for _, k := range keys {
				all = append(all, byKey[k])
			}
			if rows, err = db.readingsOf(all); err != nil {
				return err
			}
			if rows, err = db.insertNewReadings(ctx, conn, rows); err != nil {
				return err
			}
			seen := map[reportKey]bool{}
			for _, r := range rows {
				if k := (reportKey{r.device, r.ts}); !seen[k] {
					seen[k] = true
					fresh = append(fresh, byKey[k])
				}
			}
		}
		stored = len(rows)
		if len(rows) == 0 {
			return nil
		}
		if err := db.updateRollups(ctx, tx, rows, loc); err != nil {
			return err
		}
		if err := db.updateLastReports(ctx, tx, fresh); err != nil {
			return err
		}
		_, err = db.enqueuePushes(ctx, tx, fresh, time.Now())
		return err
	})
	if err != nil {
		db.rollupCache.reset() // the cached rollups may include what was rolled back
		return 0, err
	}
	return stored, nil
}

// insertNewReadings inserts sorted rows one at a time (SQLite) and returns
// those that were not stored yet. It runs on the transaction's connection
// through the driver's own interfaces: database/sql's per-call argument
// conversion and locking cost a fifth of the time of a row.
func (db *DB) insertNewReadings(ctx context.Context, conn *sql.Conn, rows []reading) ([]reading, error) {
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

// runner is a *sql.Tx; the write steps take the interface so they read
// the same whichever way the transaction was begun.
type runner interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// insertReportKeys inserts the keys and returns the reports that were new.
func (db *DB) insertReportKeys(ctx context.Context, tx runner, keys []reportKey, byKey map[reportKey]*telemetry.Report) ([]*telemetry.Report, error) {
	var fresh []*telemetry.Report
	if db.dialect == Postgres {
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
	// SQLite: a prepared single-row statement; modernc binds many $n
	// parameters of one statement slowly, and a row at a time costs little
	// inside a transaction.
	st, err := tx.PrepareContext(ctx, `INSERT INTO reports (device_id, ts, points) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`)
	if err != nil {
		return nil, errs.Internal("insert reports: %w", err)
	}
	defer st.Close()
	for _, k := range keys {
		res, err := st.ExecContext(ctx, k.device, k.ts, len(byKey[k].Points))
		if err != nil {
			return nil, errs.Internal("insert reports: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			fresh = append(fresh, byKey[k])
		}
	}
	return fresh, nil
}

// readingsOf flattens reports into rows sorted by the telemetry key: rows
// in key order touch each B-tree page once, twice as fast as arrival order.
func (db *DB) readingsOf(reports []*telemetry.Report) ([]reading, error) {
	n := 0
	for _, r := range reports {
		n += len(r.Points)
	}
	rows := make([]reading, 0, n)
	for _, r := range reports {
		ts := r.Time.UnixMilli()
		for _, p := range r.Points {
			code, err := db.code(p.Param)
			if err != nil {
				return nil, err
			}
			rows = append(rows, reading{r.DeviceID, code, p.Node, ts, p.Value})
		}
	}
	slices.SortFunc(rows, compareReadings)
	return rows, nil
}

// insertReadings inserts rows of new reports on PostgreSQL: one unnest of
// arrays per 50,000 rows. (SQLite uses insertNewReadings.)
func (db *DB) insertReadings(ctx context.Context, tx runner, rows []reading) error {
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

type deviceDay struct {
	device, day int64
}

// updateRollups folds rows into their devices' daily rollups: one read and
// one write per device and day.
func (db *DB) updateRollups(ctx context.Context, tx runner, rows []reading, loc *time.Location) error {
	add := map[deviceDay][]rollup{}
	var order []deviceDay
	// rows are sorted by device, param, node, time: consecutive rows of one
	// series and day fold into one rollup.
	for _, r := range rows {
		k := deviceDay{r.device, midnight(time.UnixMilli(r.ts), loc)}
		rs, ok := add[k]
		if !ok {
			order = append(order, k)
		}
		if n := len(rs); n > 0 && rs[n-1].param == r.param && rs[n-1].node == r.node {
			last := &rs[n-1]
			last.min, last.max, last.sum, last.count = math.Min(last.min, r.value), math.Max(last.max, r.value), last.sum+r.value, last.count+1
			if r.ts >= last.lastTS {
				last.lastTS, last.last = r.ts, r.value
			}
			continue
		}
		add[k] = append(rs, rollup{param: r.param, node: r.node, min: r.value, max: r.value, sum: r.value, count: 1, lastTS: r.ts, last: r.value})
	}
	slices.SortFunc(order, func(a, b deviceDay) int { return cmp.Or(cmp.Compare(a.device, b.device), cmp.Compare(a.day, b.day)) })

	if db.dialect == Postgres {
		devs, days := make([]int64, len(order)), make([]int64, len(order))
		for i, k := range order {
			devs[i], days[i] = k.device, k.day
		}
		// FOR UPDATE: another node writing the same device-day waits, and
		// then reads what this one wrote.
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
	for _, k := range order {
		data, ok := db.rollupCache.get(k)
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
		db.rollupCache.put(k, merged)
	}
	return nil
}

func mergeEncoded(data []byte, add []rollup) ([]byte, error) {
	base, err := decodeRollups(data)
	if err != nil {
		return nil, errs.Internal("rollups: %w", err)
	}
	return encodeRollups(mergeRollups(base, add)), nil
}

// health returns a report's battery and signal readings, which also
// describe the device itself (its list row, its low-power status).
func health(r *telemetry.Report) (battery, signal *float64) {
	for _, p := range r.Points {
		switch p.Param {
		case "battery":
			battery = &p.Value
		case "signal":
			signal = &p.Value
		}
	}
	return battery, signal
}

// updateLastReports moves each device's last report time forward, with the
// battery and signal the newest report carries.
func (db *DB) updateLastReports(ctx context.Context, tx runner, reports []*telemetry.Report) error {
	newest := map[int64]*telemetry.Report{}
	for _, r := range reports {
		if prev, ok := newest[r.DeviceID]; !ok || prev.Time.Before(r.Time) {
			newest[r.DeviceID] = r
		}
	}
	ids := make([]int64, 0, len(newest))
	for id := range newest {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if db.dialect == Postgres {
		tss, offs := make([]int64, len(ids)), make([]int64, len(ids))
		bats, sigs := make([]*float64, len(ids)), make([]*float64, len(ids))
		for i, id := range ids {
			tss[i], offs[i] = newest[id].Time.UnixMilli(), newest[id].OfflineAt.UnixMilli()
			bats[i], sigs[i] = health(newest[id])
		}
		if _, err := tx.ExecContext(ctx, `UPDATE devices d SET last_report_at = u.ts, offline_at = u.off,
			battery = COALESCE(u.bat, d.battery), signal = COALESCE(u.sig, d.signal)
			FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::float8[], $5::float8[]) AS u(id, ts, off, bat, sig)
			WHERE d.id = u.id AND (d.last_report_at IS NULL OR d.last_report_at <= u.ts)`, ids, tss, offs, bats, sigs); err != nil {
			return errs.Internal("update last report: %w", err)
		}
		return nil
	}
	st, err := tx.PrepareContext(ctx, `UPDATE devices SET last_report_at = ?, offline_at = ?,
		battery = COALESCE(?, battery), signal = COALESCE(?, signal)
		WHERE id = ? AND (last_report_at IS NULL OR last_report_at <= ?)`)
	if err != nil {
		return errs.Internal("update last report: %w", err)
	}
	defer st.Close()
	for _, id := range ids {
		r := newest[id]
		bat, sig := health(r)
		if _, err := st.ExecContext(ctx, r.Time.UnixMilli(), r.OfflineAt.UnixMilli(), bat, sig, id, r.Time.UnixMilli()); err != nil {
			return errs.Internal("update last report: %w", err)
		}
	}
	return nil
}

// midnight returns the unix ms of the local midnight starting t's day.
func midnight(t time.Time, loc *time.Location) int64 {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc).UnixMilli()
}

// seriesFilter appends the param and node conditions of q.
func (db *DB) seriesFilter(q telemetry.Query, where []string, args []any) ([]string, []any, error) {
	if len(q.Params) > 0 {
		var in []string
		for _, p := range q.Params {
			c, ok := db.paramCode[p]
			if !ok {
				continue // never stored, so it matches nothing
			}
			args = append(args, c)
			in = append(in, fmt.Sprintf("$%d", len(args)))
		}
		if len(in) == 0 {
			in = []string{"-1"}
		}
		where = append(where, "param IN ("+strings.Join(in, ",")+")")
	}
	if len(q.Nodes) > 0 {
		var in []string
		for _, n := range q.Nodes {
			args = append(args, n)
			in = append(in, fmt.Sprintf("$%d", len(args)))
		}
		where = append(where, "node IN ("+strings.Join(in, ",")+")")
	}
	return where, args, nil
}

// Readings returns raw readings ordered by param, node, time.
func (db *DB) Readings(ctx context.Context, q telemetry.Query) ([]telemetry.Reading, error) {
	where := []string{"device_id = $1", "ts >= $2", "ts < $3"}
	args := []any{q.DeviceID, q.Begin.UnixMilli(), q.End.UnixMilli()}
	where, args, _ = db.seriesFilter(q, where, args)
	rows, err := db.sql.QueryContext(ctx, `SELECT param, node, ts, value FROM telemetry WHERE `+
		strings.Join(where, " AND ")+` ORDER BY param, node, ts`, args...)
	if err != nil {
		return nil, errs.Internal("readings: %w", err)
	}
	defer rows.Close()
	var out []telemetry.Reading
	for rows.Next() {
		var (
			code, node int
			ts         int64
			v          float64
		)
		if err := rows.Scan(&code, &node, &ts, &v); err != nil {
			return nil, errs.Internal("readings: %w", err)
		}
		out = append(out, telemetry.Reading{Param: db.paramID[code], Node: node, Time: time.UnixMilli(ts), Value: v})
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("readings: %w", err)
	}
	db.sortByParamID(out)
	return out, nil
}

// Series returns raw readings as one column pair per series, ordered by
// param identifier and node: the scan appends to pointer-free slices, so a
// year of one series costs no per-reading allocation or sort.
func (db *DB) Series(ctx context.Context, q telemetry.Query) ([]telemetry.Series, error) {
	if len(q.Params) > 0 && len(q.Nodes) > 0 && len(q.Params)*len(q.Nodes) <= 8 {
		return db.seriesEach(ctx, q)
	}
	where := []string{"device_id = $1", "ts >= $2", "ts < $3"}
	args := []any{q.DeviceID, q.Begin.UnixMilli(), q.End.UnixMilli()}
	where, args, _ = db.seriesFilter(q, where, args)
	// No ORDER BY: on PostgreSQL an IN list on node makes the planner sort
	// every row (on disk past work_mem); rows come in key order from
	// SQLite's clustered key and in heap order, nearly sorted, from a bitmap
	// scan. Each series is sorted here only when it is not already.
	order := ""
	if db.dialect == SQLite {
		order = ` ORDER BY param, node, ts` // the primary key's order: free
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT param, node, ts, value FROM telemetry WHERE `+
		strings.Join(where, " AND ")+order, args...)
	if err != nil {
		return nil, errs.Internal("series: %w", err)
	}
	defer rows.Close()
	type key struct{ code, node int }
	idx := map[key]int{}
	var out []telemetry.Series
	cur, curKey := -1, key{-1, -1}
	var (
		k  key
		ts int64
		v  float64
	)
	for rows.Next() {
		if err := rows.Scan(&k.code, &k.node, &ts, &v); err != nil {
			return nil, errs.Internal("series: %w", err)
		}
		if k != curKey {
			i, ok := idx[k]
			if !ok {
				i = len(out)
				idx[k] = i
				out = append(out, telemetry.Series{Param: db.paramID[k.code], Node: k.node})
			}
			cur, curKey = i, k
		}
		out[cur].TS = append(out[cur].TS, ts)
		out[cur].V = append(out[cur].V, v)
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("series: %w", err)
	}
	for i := range out {
		sortSeries(&out[i])
	}
	slices.SortFunc(out, func(a, b telemetry.Series) int {
		return cmp.Or(strings.Compare(a.Param, b.Param), cmp.Compare(a.Node, b.Node))
	})
	return out, nil
}

// seriesEach reads each (param, node) pair of q with its own range scan of
// two columns: half the columns to convert of the one-query form.
func (db *DB) seriesEach(ctx context.Context, q telemetry.Query) ([]telemetry.Series, error) {
	order := ""
	if db.dialect == SQLite {
		order = ` ORDER BY ts`
	}
	var out []telemetry.Series
	for _, p := range q.Params {
		code, ok := db.paramCode[p]
		if !ok {
			continue
		}
		for _, n := range q.Nodes {
			s := telemetry.Series{Param: p, Node: n}
			err := db.scanPairs(ctx, `SELECT ts, value FROM telemetry
				WHERE device_id = $1 AND param = $2 AND node = $3 AND ts >= $4 AND ts < $5`+order,
				[]any{q.DeviceID, int64(code), int64(n), q.Begin.UnixMilli(), q.End.UnixMilli()}, &s)
			if err != nil {
				return nil, errs.Internal("series: %w", err)
			}
			if len(s.TS) > 0 {
				sortSeries(&s)
				out = append(out, s)
			}
		}
	}
	slices.SortFunc(out, func(a, b telemetry.Series) int {
		return cmp.Or(strings.Compare(a.Param, b.Param), cmp.Compare(a.Node, b.Node))
	})
	return out, nil
}

// scanPairs appends the (ts, value) rows of query to s (see rawQuery).
func (db *DB) scanPairs(ctx context.Context, query string, args []any, s *telemetry.Series) error {
	return db.rawQuery(ctx, query, args, func(row []driver.Value) error {
		ts, ok1 := row[0].(int64)
		v, ok2 := asFloat(row[1])
		if !ok1 || !ok2 {
			return fmt.Errorf("series row (%T, %T)", row[0], row[1])
		}
		s.TS = append(s.TS, ts)
		s.V = append(s.V, v)
		return nil
	})
}

// sortSeries orders a series by time if it is not already.
func sortSeries(s *telemetry.Series) {
	if slices.IsSorted(s.TS) {
		return
	}
	type tv struct {
		t int64
		v float64
	}
	p := make([]tv, len(s.TS))
	for i := range p {
		p[i] = tv{s.TS[i], s.V[i]}
	}
	slices.SortFunc(p, func(a, b tv) int { return cmp.Compare(a.t, b.t) })
	for i := range p {
		s.TS[i], s.V[i] = p[i].t, p[i].v
	}
}

// sortByParamID orders readings by parameter identifier (codes sort by
// registration order), keeping each series' time order.
func (db *DB) sortByParamID(rs []telemetry.Reading) {
	slices.SortStableFunc(rs, func(a, b telemetry.Reading) int {
		return cmp.Or(strings.Compare(a.Param, b.Param), cmp.Compare(a.Node, b.Node))
	})
}

// Days returns daily rollups ordered by param, node, day. Begin and End are
// compared with each day's midnight.
func (db *DB) Days(ctx context.Context, q telemetry.Query) ([]telemetry.Day, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT day, data FROM telemetry_daily
		WHERE device_id = $1 AND day >= $2 AND day < $3 ORDER BY day`, q.DeviceID, q.Begin.UnixMilli(), q.End.UnixMilli())
	if err != nil {
		return nil, errs.Internal("days: %w", err)
	}
	defer rows.Close()
	keep := db.seriesMatcher(q)
	// Rows come by day: one slice per series keeps each in day order, and
	// sorting the series (not 365 days times every series) orders them.
	type key struct {
		param string
		node  int
	}
	idx := map[key]int{}
	// A series has at most a row a day: sized once, it is not regrown.
	perSeries := int(min(max(q.End.Sub(q.Begin)/(24*time.Hour)+2, 1), 1000))
	var groups [][]telemetry.Day
	var keys []key
	n := 0
	for rows.Next() {
		var (
			day  int64
			data []byte
		)
		if err := rows.Scan(&day, &data); err != nil {
			return nil, errs.Internal("days: %w", err)
		}
		rs, err := decodeRollups(data)
		if err != nil {
			return nil, errs.Internal("days: %w", err)
		}
		for _, r := range rs {
			if !keep(r.param, r.node) {
				continue
			}
			k := key{db.paramID[r.param], r.node}
			i, ok := idx[k]
			if !ok {
				i = len(groups)
				idx[k] = i
				groups, keys = append(groups, make([]telemetry.Day, 0, perSeries)), append(keys, k)
			}
			groups[i] = append(groups[i], telemetry.Day{Param: k.param, Node: r.node, Day: time.UnixMilli(day),
				Min: r.min, Max: r.max, Sum: r.sum, Count: int(r.count), Last: r.last})
			n++
		}
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("days: %w", err)
	}
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(strings.Compare(keys[a].param, keys[b].param), cmp.Compare(keys[a].node, keys[b].node))
	})
	out := make([]telemetry.Day, 0, n)
	for _, i := range order {
		out = append(out, groups[i]...)
	}
	return out, nil
}

// seriesMatcher reports whether a series is selected by q's params and nodes
// (surface readings, node 0, pass any node filter).
func (db *DB) seriesMatcher(q telemetry.Query) func(param, node int) bool {
	params := map[int]bool{}
	for _, p := range q.Params {
		if c, ok := db.paramCode[p]; ok {
			params[c] = true
		}
	}
	nodes := map[int]bool{0: true}
	for _, n := range q.Nodes {
		nodes[n] = true
	}
	return func(param, node int) bool {
		return (len(q.Params) == 0 || params[param]) && (len(q.Nodes) == 0 || nodes[node])
	}
}

// latestDays is how many of a device's newest days Latest looks through: a
// parameter reported less often than that has no latest value.
const latestDays = 7

// Latest returns each parameter's newest reading of a device, ordered by
// param and node, from the last reading the daily rollups keep.
func (db *DB) Latest(ctx context.Context, deviceID int64) ([]telemetry.Reading, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT data FROM telemetry_daily WHERE device_id = $1 ORDER BY day DESC LIMIT $2`,
		deviceID, latestDays)
	if err != nil {
		return nil, errs.Internal("latest: %w", err)
	}
	defer rows.Close()
	var all []rollup
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return nil, errs.Internal("latest: %w", err)
		}
		rs, err := decodeRollups(data)
		if err != nil {
			return nil, errs.Internal("latest: %w", err)
		}
		all = mergeRollups(all, rs)
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("latest: %w", err)
	}
	out := make([]telemetry.Reading, 0, len(all))
	for _, r := range all {
		out = append(out, telemetry.Reading{Param: db.paramID[r.param], Node: r.node, Time: time.UnixMilli(r.lastTS), Value: r.last})
	}
	db.sortByParamID(out)
	return out, nil
}

// PurgeReadings deletes raw readings and report keys older than before;
// daily rollups and latest values stay.
func (db *DB) PurgeReadings(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM telemetry WHERE ts < $1`, before.UnixMilli())
		if err != nil {
			return errs.Internal("purge readings: %w", err)
		}
		n, _ = res.RowsAffected()
		if _, err := tx.ExecContext(ctx, `DELETE FROM reports WHERE ts < $1`, before.UnixMilli()); err != nil {
			return errs.Internal("purge reports: %w", err)
		}
		return nil
	})
	return n, err
}

// InsertReadingsRaw inserts readings straight into the readings table, with
// the statement WriteReports uses, without report keys or rollups: the
// store's raw insert rate, the limit the ingest benchmark compares with.
func (db *DB) InsertReadingsRaw(ctx context.Context, reports []*telemetry.Report) error {
	rows, err := db.readingsOf(reports)
	if err != nil {
		return err
	}
	return db.inConnTx(ctx, func(tx *sql.Tx, conn *sql.Conn) error {
		if db.dialect == SQLite {
			_, err := db.insertNewReadings(ctx, conn, rows)
			return err
		}
		return db.insertReadings(ctx, tx, rows)
	})
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
