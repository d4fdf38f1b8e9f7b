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

// WriteReports stores reports in one transaction: the readings of the
// reports not stored yet (a redelivered report is recognised and skipped,
// see ops.insertReadings), their daily rollups and each device's last
// report time. It returns the number of readings stored.
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

	err := db.ops.ensurePartitions(ctx, monthsOf(keys, func(k reportKey) int64 { return k.ts }))
	if err != nil {
		return 0, err
	}
	stored := 0
	err = db.inConnTx(ctx, func(tx *sql.Tx, conn *sql.Conn) error {
		fresh, rows, err := db.ops.insertReadings(ctx, tx, conn, keys, byKey)
		if err != nil {
			return err
		}
		stored = len(rows)
		if len(rows) == 0 {
			return nil
		}
		order, add := foldRollups(rows, loc)
		if err := db.ops.upsertRollups(ctx, tx, order, add); err != nil {
			return err
		}
		if err := db.ops.updateLastReports(ctx, tx, newestReports(fresh)); err != nil {
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

type deviceDay struct {
	device, day int64
}

// foldRollups folds rows into daily rollups, one list per device and local
// day, and returns the device-days in order.
func foldRollups(rows []reading, loc *time.Location) ([]deviceDay, map[deviceDay][]rollup) {
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
	return order, add
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

// lastReport is a device's newest report of a batch and the time of its
// oldest: a silence before the oldest is a gap in its data.
type lastReport struct {
	*telemetry.Report
	first int64 // unix ms
}

// newestReports returns each device's newest report, in device order: what
// the device's last report time, battery and signal move forward to.
func newestReports(reports []*telemetry.Report) []lastReport {
	newest := map[int64]*lastReport{}
	for _, r := range reports {
		prev, ok := newest[r.DeviceID]
		if !ok {
			newest[r.DeviceID] = &lastReport{r, r.Time.UnixMilli()}
			continue
		}
		if prev.Time.Before(r.Time) {
			prev.Report = r
		}
		prev.first = min(prev.first, r.Time.UnixMilli())
	}
	out := make([]lastReport, 0, len(newest))
	for _, r := range newest {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b lastReport) int { return cmp.Compare(a.DeviceID, b.DeviceID) })
	return out
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

// Readings returns raw readings ordered by param, node, time: Series'
// readings, one by one.
func (db *DB) Readings(ctx context.Context, q telemetry.Query) ([]telemetry.Reading, error) {
	ss, err := db.Series(ctx, q)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, s := range ss {
		n += len(s.TS)
	}
	out := make([]telemetry.Reading, 0, n)
	for _, s := range ss {
		for i, ts := range s.TS {
			out = append(out, telemetry.Reading{Param: s.Param, Node: s.Node, Time: time.UnixMilli(ts), Value: s.V[i]})
		}
	}
	return out, nil
}

// Series returns raw readings as one column pair per series, ordered by
// param identifier and node, times ascending: the compacted days' chunks
// merged with the hot rows. It is the one reader of both tables.
func (db *DB) Series(ctx context.Context, q telemetry.Query) ([]telemetry.Series, error) {
	cold, err := db.chunkSeries(ctx, q)
	if err != nil {
		return nil, err
	}
	hot, err := db.hotSeries(ctx, q)
	if err != nil {
		return nil, err
	}
	return mergeSeriesLists(cold, hot), nil
}

// hotSeries returns the hot rows of q as one column pair per series,
// ordered by param identifier and node: the scan appends to pointer-free
// slices, so a year of one series costs no per-reading allocation or sort.
func (db *DB) hotSeries(ctx context.Context, q telemetry.Query) ([]telemetry.Series, error) {
	if len(q.Params) > 0 && len(q.Nodes) > 0 && len(q.Params)*len(q.Nodes) <= 8 {
		return db.seriesEach(ctx, q)
	}
	where := []string{"device_id = $1", "ts >= $2", "ts < $3"}
	args := []any{q.DeviceID, q.Begin.UnixMilli(), q.End.UnixMilli()}
	where, args, _ = db.seriesFilter(q, where, args)
	// Sorted by the database only where that is free (see keyOrder); each
	// series is sorted here only when it is not already.
	rows, err := db.sql.QueryContext(ctx, `SELECT param, node, ts, value FROM telemetry WHERE `+
		strings.Join(where, " AND ")+db.dialect.keyOrder(` ORDER BY param, node, ts`), args...)
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
	order := db.dialect.keyOrder(` ORDER BY ts`)
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
// daily rollups and latest values stay. Compacted days go as whole chunks
// (see purgeChunks). On PostgreSQL the readings' monthly
// partitions that end by before are dropped whole, their rows counted from
// the catalogue's estimate, and only the month straddling before is
// deleted by row.
func (db *DB) PurgeReadings(ctx context.Context, before time.Time) (int64, error) {
	n, err := db.ops.purgeReadings(ctx, before.UnixMilli())
	if err != nil {
		return 0, errs.Internal("purge readings: %w", err)
	}
	k, err := db.purgeChunks(ctx, before.UnixMilli())
	if err != nil {
		return 0, err
	}
	n += k
	if _, err := db.exec(ctx, `DELETE FROM reports WHERE ts < $1`, before.UnixMilli()); err != nil {
		return 0, errs.Internal("purge reports: %w", err)
	}
	return n, nil
}

// PreparePartitions makes the raw readings' partitions of now's month and
// the next two on PostgreSQL, where missing (SQLite has none). Migrate
// calls it; a long-running server calls it daily.
func (db *DB) PreparePartitions(ctx context.Context, now time.Time) error {
	return db.ops.preparePartitions(ctx, now)
}

// monthStart returns the first instant of ms's UTC month.
func monthStart(ms int64) time.Time {
	y, m, _ := time.UnixMilli(ms).UTC().Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
}

// monthsOf returns the UTC months (month starts, unix ms) that the times
// of xs fall in, each once.
func monthsOf[T any](xs []T, at func(T) int64) []int64 {
	var (
		months []int64
		lo, hi int64 = 1, 0 // the last month found: [lo, hi)
	)
	for _, x := range xs {
		ts := at(x)
		if ts >= lo && ts < hi {
			continue
		}
		m := monthStart(ts)
		lo, hi = m.UnixMilli(), m.AddDate(0, 1, 0).UnixMilli()
		if !slices.Contains(months, lo) {
			months = append(months, lo)
		}
	}
	return months
}

// InsertReadingsRaw inserts readings straight into the readings table, with
// the statement WriteReports uses, without report keys or rollups: the
// store's raw insert rate, the limit the ingest benchmark compares with.
func (db *DB) InsertReadingsRaw(ctx context.Context, reports []*telemetry.Report) error {
	rows, err := db.readingsOf(reports)
	if err != nil {
		return err
	}
	if err := db.ops.ensurePartitions(ctx, monthsOf(rows, func(r reading) int64 { return r.ts })); err != nil {
		return err
	}
	return db.inConnTx(ctx, func(tx *sql.Tx, conn *sql.Conn) error {
		return db.ops.insertRaw(ctx, tx, conn, rows)
	})
}
