package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

var _ commands.Store = (*DB)(nil)

const commandColumns = `c.id, c.device_id, c.account_id, COALESCE(a.name, ''), c.source, c.name, c.params, c.state,
	c.reason_code, c.reason, c.confirmed_by, c.submitted_at, c.pending_at, c.delivered_at, c.finished_at, c.expires_at`

const commandFrom = ` FROM commands c LEFT JOIN accounts a ON a.id = c.account_id`

func scanCommand(row interface{ Scan(...any) error }) (*commands.Command, error) {
	var (
		c                          commands.Command
		by                         sql.NullInt64
		source, params, state, cby string
		submitted, expires         int64
		pending, delivered, done   sql.NullInt64
	)
	if err := row.Scan(&c.ID, &c.DeviceID, &by, &c.ByName, &source, &c.Name, &params, &state,
		&c.ReasonCode, &c.Reason, &cby, &submitted, &pending, &delivered, &done, &expires); err != nil {
		return nil, err
	}
	c.By, c.Source, c.State, c.ConfirmedBy = by.Int64, commands.Source(source), commands.State(state), commands.Confirmation(cby)
	if err := json.Unmarshal([]byte(params), &c.Params); err != nil {
		return nil, fmt.Errorf("command %d params: %w", c.ID, err)
	}
	c.SubmittedAt, c.ExpiresAt = fromMillis(submitted), fromMillis(expires)
	c.PendingAt, c.DeliveredAt, c.FinishedAt = fromNullMillis(pending), fromNullMillis(delivered), fromNullMillis(done)
	return &c, nil
}

// CreateCommand inserts a command and sets its ID.
func (db *DB) CreateCommand(ctx context.Context, c *commands.Command) error {
	params, err := json.Marshal(c.Params)
	if err != nil {
		return errs.Internal("command params: %w", err)
	}
	if c.Params == nil {
		params = []byte("{}")
	}
	var by any
	if c.By != 0 {
		by = c.By
	}
	err = db.writeRow(ctx, `INSERT INTO commands (device_id, account_id, source, name, params, state, submitted_at, pending_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
		[]any{c.DeviceID, by, string(c.Source), c.Name, string(params), string(c.State), millis(c.SubmittedAt),
			nullMillis(c.PendingAt), millis(c.ExpiresAt)}, &c.ID)
	if err != nil {
		return errs.Internal("create command: %w", err)
	}
	return nil
}

// MarkCommandsDelivered records the first delivery of each command at its
// time, all in one statement.
func (db *DB) MarkCommandsDelivered(ctx context.Context, at map[int64]time.Time) error {
	if len(at) == 0 {
		return nil
	}
	var cases, ids []string
	args := []any{}
	for id, t := range at {
		args = append(args, id, millis(t))
		cases = append(cases, fmt.Sprintf("WHEN $%d THEN CAST($%d AS BIGINT)", len(args)-1, len(args)))
		ids = append(ids, fmt.Sprintf("$%d", len(args)-1))
	}
	_, err := db.exec(ctx, `UPDATE commands SET delivered_at = CASE id `+strings.Join(cases, " ")+` END
		WHERE delivered_at IS NULL AND id IN (`+strings.Join(ids, ", ")+`)`, args...)
	if err != nil {
		return errs.Internal("commands delivered: %w", err)
	}
	return nil
}

// FinishCommand moves an open or expired command of the device to state.
// A command already effective or failed is returned as it is.
func (db *DB) FinishCommand(ctx context.Context, deviceID, id int64, state commands.State, by commands.Confirmation,
	code, reason string, at, delivered time.Time) (*commands.Command, error) {
	_, err := db.exec(ctx, `UPDATE commands SET state = $1, confirmed_by = $2, reason_code = $3, reason = $4, finished_at = $5,
		delivered_at = COALESCE(delivered_at, $8)
		WHERE id = $6 AND device_id = $7 AND state IN ('submitted', 'pending', 'expired')`,
		string(state), string(by), code, reason, millis(at), id, deviceID, millis(delivered))
	if err != nil {
		return nil, errs.Internal("finish command: %w", err)
	}
	return db.FindCommand(ctx, deviceID, id)
}

// ExpireCommands expires open commands whose time to live ended.
func (db *DB) ExpireCommands(ctx context.Context, now time.Time, notDelivered, noAck string) (int64, error) {
	res, err := db.exec(ctx, `UPDATE commands SET state = 'expired', finished_at = $1,
		reason_code = CASE WHEN delivered_at IS NULL THEN $2 ELSE $3 END
		WHERE state IN ('submitted', 'pending') AND expires_at <= $1`, millis(now), notDelivered, noAck)
	if err != nil {
		return 0, errs.Internal("expire commands: %w", err)
	}
	return res.RowsAffected()
}

// FindCommand returns a command of the device; ENOTFOUND otherwise.
func (db *DB) FindCommand(ctx context.Context, deviceID, id int64) (*commands.Command, error) {
	c, err := scanCommand(db.sql.QueryRowContext(ctx, `SELECT `+commandColumns+commandFrom+` WHERE c.id = $1 AND c.device_id = $2`, id, deviceID))
	if err != nil {
		return nil, notFound(err, "find command")
	}
	return c, nil
}

func (db *DB) queryCommands(ctx context.Context, what, query string, args ...any) ([]*commands.Command, error) {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, errs.Internal("%s: %w", what, err)
	}
	defer rows.Close()
	out := []*commands.Command{}
	for rows.Next() {
		c, err := scanCommand(rows)
		if err != nil {
			return nil, errs.Internal("%s: %w", what, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("%s: %w", what, err)
	}
	return out, nil
}

// DeviceCommands returns a page of the device's commands, newest first.
func (db *DB) DeviceCommands(ctx context.Context, deviceID int64, offset, limit int) ([]*commands.Command, int, error) {
	var total int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM commands WHERE device_id = $1`, deviceID).Scan(&total); err != nil {
		return nil, 0, errs.Internal("count commands: %w", err)
	}
	list, err := db.queryCommands(ctx, "device commands", `SELECT `+commandColumns+commandFrom+`
		WHERE c.device_id = $1 ORDER BY c.id DESC LIMIT $2 OFFSET $3`, deviceID, limit, offset)
	return list, total, err
}

// OpenCommands returns the device's open commands, oldest first.
func (db *DB) OpenCommands(ctx context.Context, deviceID int64) ([]*commands.Command, error) {
	return db.queryCommands(ctx, "open commands", `SELECT `+commandColumns+commandFrom+`
		WHERE c.device_id = $1 AND c.state IN ('submitted', 'pending') ORDER BY c.id`, deviceID)
}

// DevicesWithOpenCommands lists the devices that have open commands.
func (db *DB) DevicesWithOpenCommands(ctx context.Context) ([]int64, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT DISTINCT device_id FROM commands WHERE state IN ('submitted', 'pending')`)
	if err != nil {
		return nil, errs.Internal("devices with open commands: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, errs.Internal("devices with open commands: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
