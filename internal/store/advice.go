package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/advice"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

const adviceColumns = `id, account_id, device_id, day, kind, facts, due_at, status, note, created_at, feedback_at`

// SaveAdviceTasks records the tasks proposed for a device on a day (see
// advice.Store) and returns every task of that device and day.
func (db *DB) SaveAdviceTasks(ctx context.Context, account, device int64, day string, tasks []advice.Task, now time.Time) ([]advice.Task, error) {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var kinds []string
		for _, t := range tasks {
			facts, err := json.Marshal(t.Facts)
			if err != nil {
				return errs.Internal("advice facts: %w", err)
			}
			var due *int64
			if t.DueAt != nil {
				d := millis(*t.DueAt)
				due = &d
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO advice_tasks (account_id, device_id, day, kind, facts, due_at, status, note, created_at)
				VALUES ($1, $2, $3, $4, $5, $6, 'open', '', $7)
				ON CONFLICT (account_id, device_id, day, kind) DO UPDATE SET facts = excluded.facts, due_at = excluded.due_at
				WHERE advice_tasks.status = 'open'`,
				account, device, day, t.Kind, string(facts), due, millis(now)); err != nil {
				return errs.Internal("save advice task: %w", err)
			}
			kinds = append(kinds, t.Kind)
		}
		rows, err := tx.QueryContext(ctx, `SELECT id, kind FROM advice_tasks WHERE account_id = $1 AND device_id = $2 AND day = $3 AND status = 'open'`,
			account, device, day)
		if err != nil {
			return errs.Internal("advice tasks: %w", err)
		}
		var stale []int64
		for rows.Next() {
			var id int64
			var kind string
			if err := rows.Scan(&id, &kind); err != nil {
				rows.Close()
				return errs.Internal("advice tasks: %w", err)
			}
			if !slices.Contains(kinds, kind) {
				stale = append(stale, id)
			}
		}
		rows.Close()
		for _, id := range stale {
			if _, err := tx.ExecContext(ctx, `DELETE FROM advice_tasks WHERE id = $1`, id); err != nil {
				return errs.Internal("drop advice task: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return db.adviceTasks(ctx, `SELECT `+adviceColumns+` FROM advice_tasks WHERE account_id = $1 AND device_id = $2 AND day = $3 ORDER BY id`,
		account, device, day)
}

// AdviceTasks lists an account's tasks of a device from day since on,
// newest day first.
func (db *DB) AdviceTasks(ctx context.Context, account, device int64, since string, limit int) ([]advice.Task, error) {
	return db.adviceTasks(ctx, `SELECT `+adviceColumns+` FROM advice_tasks WHERE account_id = $1 AND device_id = $2 AND day >= $3
		ORDER BY day DESC, id LIMIT $4`, account, device, since, limit)
}

// AdviceTask returns one of the account's tasks; ENOTFOUND for another's,
// as for none.
func (db *DB) AdviceTask(ctx context.Context, account, id int64) (*advice.Task, error) {
	list, err := db.adviceTasks(ctx, `SELECT `+adviceColumns+` FROM advice_tasks WHERE id = $1 AND account_id = $2`, id, account)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errs.NotFound()
	}
	return &list[0], nil
}

// SetAdviceFeedback answers one of the account's tasks.
func (db *DB) SetAdviceFeedback(ctx context.Context, account, id int64, status, note string, at time.Time) error {
	return db.execOne(ctx, "advice feedback", `UPDATE advice_tasks SET status = $1, note = $2, feedback_at = $3 WHERE id = $4 AND account_id = $5`,
		status, note, millis(at), id, account)
}

// NotUsefulKinds are the kinds of a device's tasks marked not useful on day.
func (db *DB) NotUsefulKinds(ctx context.Context, account, device int64, day string) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT kind FROM advice_tasks WHERE account_id = $1 AND device_id = $2 AND day = $3 AND status = 'notUseful'`,
		account, device, day)
	if err != nil {
		return nil, errs.Internal("advice kinds: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, errs.Internal("advice kinds: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

func (db *DB) adviceTasks(ctx context.Context, query string, args ...any) ([]advice.Task, error) {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, errs.Internal("advice tasks: %w", err)
	}
	defer rows.Close()
	out := []advice.Task{}
	for rows.Next() {
		var (
			t       advice.Task
			facts   string
			due, fb sql.NullInt64
			created int64
		)
		if err := rows.Scan(&t.ID, &t.AccountID, &t.DeviceID, &t.Day, &t.Kind, &facts, &due, &t.Status, &t.Note, &created, &fb); err != nil {
			return nil, errs.Internal("advice task: %w", err)
		}
		if err := json.Unmarshal([]byte(facts), &t.Facts); err != nil {
			return nil, errs.Internal("advice facts: %w", err)
		}
		if due.Valid {
			d := fromMillis(due.Int64)
			t.DueAt = &d
		}
		if fb.Valid {
			f := fromMillis(fb.Int64)
			t.FeedbackAt = &f
		}
		t.CreatedAt = fromMillis(created)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("advice tasks: %w", err)
	}
	return out, nil
}
