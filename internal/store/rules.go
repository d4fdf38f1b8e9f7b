package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

var _ rules.Store = (*DB)(nil)

const ruleColumns = `r.id, r.owner_id, r.name, r.enabled, r.type_id, r.level, r.expressions, r.notify,
	r.silent_hours, r.description, r.template, r.lang, r.created_at, r.updated_at`

func scanRule(s interface{ Scan(...any) error }) (*rules.Rule, error) {
	var (
		r            rules.Rule
		exprs, notif string
		created, upd int64
		level, lang  string
	)
	if err := s.Scan(&r.ID, &r.OwnerID, &r.Name, &r.Enabled, &r.TypeID, &level, &exprs, &notif,
		&r.SilentHours, &r.Description, &r.Template, &lang, &created, &upd); err != nil {
		return nil, err
	}
	r.Level, r.Lang = rules.Level(level), i18n.Parse(lang)
	if err := json.Unmarshal([]byte(exprs), &r.Expressions); err != nil {
		return nil, fmt.Errorf("rule %d expressions: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(notif), &r.Notify); err != nil {
		return nil, fmt.Errorf("rule %d notify: %w", r.ID, err)
	}
	r.CreatedAt, r.UpdatedAt = fromMillis(created), fromMillis(upd)
	return &r, nil
}

func ruleJSON(r *rules.Rule) (exprs, notify string) {
	e, _ := json.Marshal(r.Expressions)
	n, _ := json.Marshal(r.Notify)
	if r.Notify == nil {
		n = []byte("[]")
	}
	return string(e), string(n)
}

// ownedDevicesCheck fails with ENOTFOUND unless every id is a device the
// owner can see (a device that is not theirs looks like a missing one).
func (db *DB) ownedDevicesCheck(ctx context.Context, tx *sql.Tx, owner int64, ids []int64) error {
	for _, id := range ids {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM devices d WHERE d.id = $1 AND `+visibleTo("$2"), id, owner).Scan(&one)
		if err != nil {
			return notFound(err, "rule devices")
		}
	}
	return nil
}

func (db *DB) replaceRuleDevices(ctx context.Context, tx *sql.Tx, ruleID int64, ids []int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM rule_devices WHERE rule_id = $1`, ruleID); err != nil {
		return errs.Internal("rule devices: %w", err)
	}
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `INSERT INTO rule_devices (rule_id, device_id) VALUES ($1, $2)`, ruleID, id); err != nil {
			return errs.Internal("rule devices: %w", err)
		}
	}
	// A device taken off the rule forgets its state: added back, it starts clear.
	if _, err := tx.ExecContext(ctx, `DELETE FROM rule_states WHERE rule_id = $1
		AND device_id NOT IN (SELECT device_id FROM rule_devices WHERE rule_id = $1)`, ruleID); err != nil {
		return errs.Internal("rule states: %w", err)
	}
	return nil
}

// CreateRule stores a validated rule with its devices.
func (db *DB) CreateRule(ctx context.Context, r *rules.Rule) error {
	exprs, notify := ruleJSON(r)
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := db.ownedDevicesCheck(ctx, tx, r.OwnerID, r.DeviceIDs); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO rules (owner_id, name, enabled, type_id, level, expressions, notify,
			silent_hours, description, template, lang, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
			r.OwnerID, r.Name, r.Enabled, r.TypeID, string(r.Level), exprs, notify, r.SilentHours, r.Description, r.Template,
			string(r.Lang), millis(r.CreatedAt), millis(r.UpdatedAt)).Scan(&r.ID); err != nil {
			return errs.Internal("create rule: %w", err)
		}
		return db.replaceRuleDevices(ctx, tx, r.ID, r.DeviceIDs)
	})
}

// UpdateRule replaces a rule's fields and devices. Changing what a rule
// tests clears its states, so the new condition starts from clear.
func (db *DB) UpdateRule(ctx context.Context, r *rules.Rule) error {
	exprs, notify := ruleJSON(r)
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := db.ownedDevicesCheck(ctx, tx, r.OwnerID, r.DeviceIDs); err != nil {
			return err
		}
		var old string
		if err := tx.QueryRowContext(ctx, `SELECT expressions FROM rules WHERE id = $1 AND owner_id = $2`, r.ID, r.OwnerID).Scan(&old); err != nil {
			return notFound(err, "update rule")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE rules SET name = $1, enabled = $2, type_id = $3, level = $4, expressions = $5,
			notify = $6, silent_hours = $7, description = $8, updated_at = $9, lang = $10 WHERE id = $11 AND owner_id = $12`,
			r.Name, r.Enabled, r.TypeID, string(r.Level), exprs, notify, r.SilentHours, r.Description, millis(r.UpdatedAt),
			string(r.Lang), r.ID, r.OwnerID); err != nil {
			return errs.Internal("update rule: %w", err)
		}
		if old != exprs {
			if _, err := tx.ExecContext(ctx, `DELETE FROM rule_states WHERE rule_id = $1`, r.ID); err != nil {
				return errs.Internal("rule states: %w", err)
			}
		}
		return db.replaceRuleDevices(ctx, tx, r.ID, r.DeviceIDs)
	})
}

// DeleteRule deletes a rule with its states and events.
func (db *DB) DeleteRule(ctx context.Context, owner, id int64) error {
	return db.execOne(ctx, "delete rule", `DELETE FROM rules WHERE id = $1 AND owner_id = $2`, id, owner)
}

func (db *DB) ruleDevices(ctx context.Context, rs []*rules.Rule) error {
	if len(rs) == 0 {
		return nil
	}
	byID := make(map[int64]*rules.Rule, len(rs))
	ids := make([]string, 0, len(rs))
	for _, r := range rs {
		byID[r.ID] = r
		r.DeviceIDs = []int64{}
		ids = append(ids, fmt.Sprint(r.ID))
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT rule_id, device_id FROM rule_devices WHERE rule_id IN (`+strings.Join(ids, ",")+`) ORDER BY rule_id, device_id`)
	if err != nil {
		return errs.Internal("rule devices: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var rid, did int64
		if err := rows.Scan(&rid, &did); err != nil {
			return errs.Internal("rule devices: %w", err)
		}
		byID[rid].DeviceIDs = append(byID[rid].DeviceIDs, did)
	}
	return rows.Err()
}

// Rule returns one of owner's rules.
func (db *DB) Rule(ctx context.Context, owner, id int64) (*rules.Rule, error) {
	r, err := scanRule(db.sql.QueryRowContext(ctx, `SELECT `+ruleColumns+` FROM rules r WHERE r.id = $1 AND r.owner_id = $2`, id, owner))
	if err != nil {
		return nil, notFound(err, "rule")
	}
	return r, db.ruleDevices(ctx, []*rules.Rule{r})
}

// Rules returns a page of owner's rules, newest first, and their count.
func (db *DB) Rules(ctx context.Context, owner int64, page, size int) ([]*rules.Rule, int, error) {
	var total int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM rules WHERE owner_id = $1`, owner).Scan(&total); err != nil {
		return nil, 0, errs.Internal("rules: %w", err)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+ruleColumns+` FROM rules r WHERE r.owner_id = $1 ORDER BY r.id DESC LIMIT $2 OFFSET $3`,
		owner, size, (page-1)*size)
	if err != nil {
		return nil, 0, errs.Internal("rules: %w", err)
	}
	var out []*rules.Rule
	for rows.Next() {
		r, err := scanRule(rows)
		if err != nil {
			rows.Close()
			return nil, 0, errs.Internal("rules: %w", err)
		}
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, errs.Internal("rules: %w", err)
	}
	return out, total, db.ruleDevices(ctx, out)
}

// SetRuleEnabled switches a rule on or off. Switched off, its states are
// forgotten: switched back on, a condition that still holds raises a new event.
func (db *DB) SetRuleEnabled(ctx context.Context, owner, id int64, enabled bool) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE rules SET enabled = $1, updated_at = $2 WHERE id = $3 AND owner_id = $4`,
			enabled, millis(time.Now()), id, owner)
		if err != nil {
			return errs.Internal("enable rule: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		if !enabled {
			if _, err := tx.ExecContext(ctx, `DELETE FROM rule_states WHERE rule_id = $1`, id); err != nil {
				return errs.Internal("rule states: %w", err)
			}
		}
		return nil
	})
}

// SetRuleDevices replaces the devices of a rule.
func (db *DB) SetRuleDevices(ctx context.Context, owner, id int64, deviceIDs []int64) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := db.ownedDevicesCheck(ctx, tx, owner, deviceIDs); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE rules SET updated_at = $1 WHERE id = $2 AND owner_id = $3`, millis(time.Now()), id, owner)
		if err != nil {
			return errs.Internal("rule devices: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		return db.replaceRuleDevices(ctx, tx, id, deviceIDs)
	})
}

// ruleVisible limits rules to devices their owner can still see: their own
// and those shared with them. A revoked grant or a transfer silences the
// rule for that device at once; giving it back revives it.
var ruleVisible = visibleTo("r.owner_id")

// RulesForDevices returns the enabled rules of each device.
func (db *DB) RulesForDevices(ctx context.Context, deviceIDs []int64) (map[int64][]*rules.Rule, error) {
	out := map[int64][]*rules.Rule{}
	if len(deviceIDs) == 0 {
		return out, nil
	}
	ids := make([]string, len(deviceIDs))
	for i, id := range deviceIDs {
		ids[i] = fmt.Sprint(id)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT rd.device_id, `+ruleColumns+` FROM rule_devices rd
		JOIN rules r ON r.id = rd.rule_id JOIN devices d ON d.id = rd.device_id
		WHERE rd.device_id IN (`+strings.Join(ids, ",")+`) AND r.enabled AND `+ruleVisible+` ORDER BY rd.device_id, r.id`)
	if err != nil {
		return nil, errs.Internal("device rules: %w", err)
	}
	defer rows.Close()
	byID := map[int64]*rules.Rule{}
	for rows.Next() {
		var dev int64
		r, err := scanRule(prefixed{rows, []any{&dev}})
		if err != nil {
			return nil, errs.Internal("device rules: %w", err)
		}
		if rp, ok := byID[r.ID]; ok {
			r = rp
		} else {
			byID[r.ID] = r
		}
		out[dev] = append(out[dev], r)
	}
	return out, rows.Err()
}

// OfflineCandidates returns the devices of enabled offline rules.
func (db *DB) OfflineCandidates(ctx context.Context) ([]rules.OfflineCandidate, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT rd.device_id, d.last_report_at, d.created_at, `+ruleColumns+` FROM rule_devices rd
		JOIN rules r ON r.id = rd.rule_id JOIN devices d ON d.id = rd.device_id
		WHERE r.enabled AND r.expressions LIKE '%"`+rules.ParamOffline+`"%' AND `+ruleVisible+` ORDER BY r.id, rd.device_id`)
	if err != nil {
		return nil, errs.Internal("offline rules: %w", err)
	}
	defer rows.Close()
	var out []rules.OfflineCandidate
	byID := map[int64]*rules.Rule{}
	for rows.Next() {
		var (
			c       rules.OfflineCandidate
			last    sql.NullInt64
			created int64
		)
		r, err := scanRule(prefixed{rows, []any{&c.DeviceID, &last, &created}})
		if err != nil {
			return nil, errs.Internal("offline rules: %w", err)
		}
		if rp, ok := byID[r.ID]; ok {
			r = rp
		} else {
			byID[r.ID] = r
		}
		c.Rule, c.LastReport, c.Created = r, fromNullMillis(last), fromMillis(created)
		out = append(out, c)
	}
	return out, rows.Err()
}

// JudgedUntil returns each device's oldest last-judged report time among
// its enabled rules (see rules.Store).
func (db *DB) JudgedUntil(ctx context.Context, deviceIDs []int64) (map[int64]time.Time, error) {
	out := map[int64]time.Time{}
	if len(deviceIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(deviceIDs))
	marks := make([]string, len(deviceIDs))
	for i, id := range deviceIDs {
		args[i], marks[i] = id, fmt.Sprintf("$%d", i+1)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT rs.device_id, MIN(rs.eval_at) FROM rule_states rs JOIN rules r ON r.id = rs.rule_id
		WHERE r.enabled AND rs.eval_at > 0 AND rs.device_id IN (`+strings.Join(marks, ",")+`) GROUP BY rs.device_id`, args...)
	if err != nil {
		return nil, errs.Internal("judged until: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, at int64
		if err := rows.Scan(&id, &at); err != nil {
			return nil, errs.Internal("judged until: %w", err)
		}
		out[id] = time.UnixMilli(at)
	}
	return out, rows.Err()
}

// Unevaluated returns the last reports not yet judged by every enabled
// rule of their device (see rules.Store).
func (db *DB) Unevaluated(ctx context.Context, since, until time.Time) ([]*telemetry.Report, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT DISTINCT d.id, d.last_report_at FROM rule_devices rd
		JOIN rules r ON r.id = rd.rule_id JOIN devices d ON d.id = rd.device_id
		LEFT JOIN rule_states rs ON rs.rule_id = rd.rule_id AND rs.device_id = rd.device_id
		WHERE r.enabled AND r.expressions NOT LIKE '%"`+rules.ParamOffline+`"%' AND `+ruleVisible+`
		AND d.last_report_at >= $1 AND d.last_report_at < $2 AND d.last_report_at > COALESCE(rs.eval_at, 0)
		ORDER BY d.id`, millis(since), millis(until))
	if err != nil {
		return nil, errs.Internal("unevaluated reports: %w", err)
	}
	var out []*telemetry.Report
	for rows.Next() {
		var id, at int64
		if err := rows.Scan(&id, &at); err != nil {
			rows.Close()
			return nil, errs.Internal("unevaluated reports: %w", err)
		}
		out = append(out, &telemetry.Report{DeviceID: id, Time: time.UnixMilli(at)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("unevaluated reports: %w", err)
	}
	// Each report's readings.
	for _, rep := range out {
		rs, err := db.Readings(ctx, telemetry.Query{DeviceID: rep.DeviceID, Begin: rep.Time, End: rep.Time.Add(time.Millisecond)})
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			rep.Points = append(rep.Points, telemetry.Point{Param: r.Param, Node: r.Node, Value: r.Value})
		}
	}
	return out, nil
}

// Apply records a rule's verdict on a report (see rules.Store).
func (db *DB) Apply(ctx context.Context, t rules.Transition, now time.Time) (*rules.Event, error) {
	var ev *rules.Event
	at := millis(t.At)
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO rule_states (rule_id, device_id, firing, eval_at) VALUES ($1, $2, FALSE, 0)
			ON CONFLICT DO NOTHING`, t.Rule.ID, t.DeviceID); err != nil {
			if isForeignKey(err) {
				return errs.NotFound() // the rule or device is gone
			}
			return errs.Internal("rule state: %w", err)
		}
		var (
			firing    bool
			evalAt    int64
			lastEvent sql.NullInt64
		)
		if err := tx.QueryRowContext(ctx, `SELECT firing, eval_at, last_event_at FROM rule_states WHERE rule_id = $1 AND device_id = $2`+db.dialect.forUpdate(),
			t.Rule.ID, t.DeviceID).Scan(&firing, &evalAt, &lastEvent); err != nil {
			return errs.Internal("rule state: %w", err)
		}
		if at == evalAt {
			return nil // this report was evaluated already
		}
		if at < evalAt {
			return rules.ErrStale // a newer one was
		}
		if firing == t.Firing || t.Unknown {
			_, err := tx.ExecContext(ctx, `UPDATE rule_states SET eval_at = $1 WHERE rule_id = $2 AND device_id = $3`, at, t.Rule.ID, t.DeviceID)
			if err != nil {
				return errs.Internal("rule state: %w", err)
			}
			return nil
		}
		kind := rules.KindCommon
		if t.Firing {
			kind = rules.KindWarning
		}
		// Into the condition within the silent period after the last event:
		// the state flips, nothing is raised. Out of it: an event only if
		// the warning it ends was raised.
		raise := true
		if t.Firing && lastEvent.Valid && t.Rule.Silent() > 0 && at-lastEvent.Int64 < t.Rule.Silent().Milliseconds() {
			raise = false
		}
		if !t.Firing {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM alert_events WHERE rule_id = $1 AND device_id = $2 AND kind = 'warning'
				AND at = (SELECT max(at) FROM alert_events WHERE rule_id = $1 AND device_id = $2)`, t.Rule.ID, t.DeviceID).Scan(&n); err != nil {
				return errs.Internal("rule state: %w", err)
			}
			raise = n > 0
		}
		set := `UPDATE rule_states SET firing = $1, eval_at = $2`
		if raise && t.Firing {
			set += `, last_event_at = $2`
		} else if !raise && t.Firing {
			set += `, suppressed = suppressed + 1`
		}
		if _, err := tx.ExecContext(ctx, set+` WHERE rule_id = $3 AND device_id = $4`, t.Firing, at, t.Rule.ID, t.DeviceID); err != nil {
			return errs.Internal("rule state: %w", err)
		}
		if !raise {
			return nil
		}
		e, err := insertEvent(ctx, tx, t, kind, now)
		if err != nil {
			return err
		}
		ev = e
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ev, nil
}

const eventColumns = `e.id, e.rule_id, r.name, e.device_id, d.sn, d.type_id, e.owner_id, e.kind, e.level, e.at, e.created_at, e.detail, e.read_at`

func scanEvent(s interface{ Scan(...any) error }) (*rules.Event, error) {
	var (
		e                rules.Event
		kind, level, det string
		at, created      int64
		read             sql.NullInt64
	)
	if err := s.Scan(&e.ID, &e.RuleID, &e.RuleName, &e.DeviceID, &e.SN, &e.TypeID, &e.OwnerID, &kind, &level, &at, &created, &det, &read); err != nil {
		return nil, err
	}
	e.Kind, e.Level, e.At, e.Created, e.Read = rules.Kind(kind), rules.Level(level), fromMillis(at), fromMillis(created), read.Valid
	if err := json.Unmarshal([]byte(det), &e.Values); err != nil {
		return nil, fmt.Errorf("event %d: %w", e.ID, err)
	}
	return &e, nil
}

// Events returns a page of owner's events, newest first, and their count.
// Events of devices the owner can no longer see are left out.
func (db *DB) Events(ctx context.Context, owner int64, f rules.EventFilter) ([]*rules.Event, int, error) {
	where := []string{"e.owner_id = $1", visibleTo("e.owner_id")}
	args := []any{owner}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	if f.DeviceID != 0 {
		add("e.device_id = $%d", f.DeviceID)
	}
	if f.RuleID != 0 {
		add("e.rule_id = $%d", f.RuleID)
	}
	if f.Level != "" {
		add("e.level = $%d", string(f.Level))
	}
	if f.Kind != "" {
		add("e.kind = $%d", string(f.Kind))
	}
	if f.UnreadOnly {
		where = append(where, "e.read_at IS NULL")
	}
	if !f.Begin.IsZero() {
		add("e.at >= $%d", millis(f.Begin))
	}
	if !f.End.IsZero() {
		add("e.at < $%d", millis(f.End))
	}
	from := ` FROM alert_events e JOIN rules r ON r.id = e.rule_id JOIN devices d ON d.id = e.device_id WHERE ` + strings.Join(where, " AND ")
	var total int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*)`+from, args...).Scan(&total); err != nil {
		return nil, 0, errs.Internal("events: %w", err)
	}
	args = append(args, f.Size, (f.Page-1)*f.Size)
	rows, err := db.sql.QueryContext(ctx, `SELECT `+eventColumns+from+fmt.Sprintf(` ORDER BY e.id DESC LIMIT $%d OFFSET $%d`, len(args)-1, len(args)), args...)
	if err != nil {
		return nil, 0, errs.Internal("events: %w", err)
	}
	defer rows.Close()
	var out []*rules.Event
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, 0, errs.Internal("events: %w", err)
		}
		out = append(out, e)
	}
	return out, total, rows.Err()
}

// Unread counts owner's unread messages.
func (db *DB) Unread(ctx context.Context, owner int64) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM alert_events e JOIN devices d ON d.id = e.device_id
		WHERE e.owner_id = $1 AND `+visibleTo("e.owner_id")+` AND e.read_at IS NULL`, owner).Scan(&n)
	if err != nil {
		return 0, errs.Internal("unread: %w", err)
	}
	return n, nil
}

// MarkRead marks owner's messages read: the given ones, or all when ids is empty.
func (db *DB) MarkRead(ctx context.Context, owner int64, ids []int64, now time.Time) (int, error) {
	q := `UPDATE alert_events SET read_at = $1 WHERE owner_id = $2 AND read_at IS NULL`
	if len(ids) > 0 {
		s := make([]string, len(ids))
		for i, id := range ids {
			s[i] = fmt.Sprint(id)
		}
		q += ` AND id IN (` + strings.Join(s, ",") + `)`
	}
	res, err := db.exec(ctx, q, millis(now), owner)
	if err != nil {
		return 0, errs.Internal("mark read: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// prefixed scans leading columns into pre before the rest.
type prefixed struct {
	s   interface{ Scan(...any) error }
	pre []any
}

func (p prefixed) Scan(dest ...any) error { return p.s.Scan(append(p.pre, dest...)...) }

// isForeignKey reports whether err is a foreign-key failure in either database.
func isForeignKey(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23503"
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
	}
	return false
}

// Episode records a warning and its return that reports judged out of
// order hid (see rules.Store).
func (db *DB) Episode(ctx context.Context, start, end rules.Transition, now time.Time) (*rules.Event, error) {
	var ev *rules.Event
	from, to := millis(start.At), millis(end.At)
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var evalAt int64
		err := tx.QueryRowContext(ctx, `SELECT eval_at FROM rule_states WHERE rule_id = $1 AND device_id = $2`+db.dialect.forUpdate(),
			start.Rule.ID, start.DeviceID).Scan(&evalAt)
		if err == sql.ErrNoRows || (err == nil && to > evalAt) {
			return nil // not judged that far: the reports are not out of order
		}
		if err != nil {
			return errs.Internal("rule state: %w", err)
		}
		// Already told: an event in the span, or a warning going on at its start.
		var inside int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM alert_events WHERE rule_id = $1 AND device_id = $2 AND at BETWEEN $3 AND $4`,
			start.Rule.ID, start.DeviceID, from, to).Scan(&inside); err != nil {
			return errs.Internal("rule episode: %w", err)
		}
		if inside > 0 {
			return nil
		}
		var lastKind string
		var lastWarning sql.NullInt64
		err = tx.QueryRowContext(ctx, `SELECT kind FROM alert_events WHERE rule_id = $1 AND device_id = $2 AND at < $3 ORDER BY at DESC, id DESC LIMIT 1`,
			start.Rule.ID, start.DeviceID, from).Scan(&lastKind)
		if err != nil && err != sql.ErrNoRows {
			return errs.Internal("rule episode: %w", err)
		}
		if lastKind == string(rules.KindWarning) {
			return nil
		}
		if err := tx.QueryRowContext(ctx, `SELECT max(at) FROM alert_events WHERE rule_id = $1 AND device_id = $2 AND kind = 'warning' AND at < $3`,
			start.Rule.ID, start.DeviceID, from).Scan(&lastWarning); err != nil {
			return errs.Internal("rule episode: %w", err)
		}
		if silent := start.Rule.Silent(); lastWarning.Valid && silent > 0 && from-lastWarning.Int64 < silent.Milliseconds() {
			_, err := tx.ExecContext(ctx, `UPDATE rule_states SET suppressed = suppressed + 1 WHERE rule_id = $1 AND device_id = $2`, start.Rule.ID, start.DeviceID)
			if err != nil {
				return errs.Internal("rule state: %w", err)
			}
			return nil
		}
		e, err := insertEvent(ctx, tx, start, rules.KindWarning, now)
		if err != nil {
			return err
		}
		if _, err := insertEvent(ctx, tx, end, rules.KindCommon, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE rule_states SET last_event_at = $1 WHERE rule_id = $2 AND device_id = $3
			AND (last_event_at IS NULL OR last_event_at < $1)`, from, start.Rule.ID, start.DeviceID); err != nil {
			return errs.Internal("rule state: %w", err)
		}
		ev = e
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// insertEvent stores the event of a transition, with a queued notification
// per method (and per grantee with an address for it) for a warning.
func insertEvent(ctx context.Context, tx *sql.Tx, t rules.Transition, kind rules.Kind, now time.Time) (*rules.Event, error) {
	at := millis(t.At)
	detail, _ := json.Marshal(t.Values)
	e := &rules.Event{RuleID: t.Rule.ID, RuleName: t.Rule.Name, DeviceID: t.DeviceID, OwnerID: t.Rule.OwnerID, TypeID: t.Rule.TypeID,
		Kind: kind, Level: t.Rule.Level, At: t.At, Created: now, Values: t.Values, Rule: t.Rule}
	if err := tx.QueryRowContext(ctx, `INSERT INTO alert_events (rule_id, device_id, owner_id, kind, level, at, created_at, detail)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		t.Rule.ID, t.DeviceID, t.Rule.OwnerID, string(kind), string(t.Rule.Level), at, millis(now), string(detail)).Scan(&e.ID); err != nil {
		return nil, errs.Internal("alert event: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT sn FROM devices WHERE id = $1`, t.DeviceID).Scan(&e.SN); err != nil {
		return nil, errs.Internal("alert event: %w", err)
	}
	if kind == rules.KindWarning {
		for _, m := range t.Rule.Notify {
			if _, err := tx.ExecContext(ctx, `INSERT INTO notifications (event_id, method, recipient_id, status, next_at) VALUES ($1, $2, $3, 'queued', $4)`,
				e.ID, string(m), t.Rule.OwnerID, millis(now)); err != nil {
				return nil, errs.Internal("notification: %w", err)
			}
			// Each grantee of the device who has bound an address for the
			// method gets the alert too (docs/decisions.md).
			bound := map[rules.Method]string{rules.MethodEmail: `a.mail <> ''`, rules.MethodWeChat: `a.wechat_openid <> ''`}[m]
			if bound == "" {
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO notifications (event_id, method, recipient_id, status, next_at)
			SELECT $1, $2, g.grantee_id, 'queued', $3 FROM grants g JOIN accounts a ON a.id = g.grantee_id
			WHERE g.device_id = $4 AND g.grantee_id <> $5 AND a.disabled_at IS NULL AND `+bound+` ORDER BY g.grantee_id`,
				e.ID, string(m), millis(now), t.DeviceID, t.Rule.OwnerID); err != nil {
				return nil, errs.Internal("notification: %w", err)
			}
		}
	}
	return e, nil
}
