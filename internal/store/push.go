package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/push"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

var (
	_ push.Store       = (*DB)(nil)
	_ push.WorkerStore = (*DB)(nil)
)

// CreateChannel inserts c with its devices and sets its ID.
func (db *DB) CreateChannel(ctx context.Context, c *push.Channel, sealed string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if c.Kind != push.KindApp {
			c.Enabled = true
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO push_channels (owner_id, kind, name, url, enabled, all_devices, secret_sealed, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`, c.OwnerID, c.Kind, c.Name, c.URL, c.Enabled, c.AllDevices, sealed,
			millis(c.CreatedAt), millis(c.UpdatedAt)).Scan(&c.ID); err != nil {
			return errs.Internal("create channel: %w", err)
		}
		return setChannelDevices(ctx, tx, c.ID, c.DeviceIDs)
	})
}

func setChannelDevices(ctx context.Context, tx *sql.Tx, id int64, ids []int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM push_channel_devices WHERE channel_id = $1`, id); err != nil {
		return errs.Internal("channel devices: %w", err)
	}
	for _, d := range ids {
		if _, err := tx.ExecContext(ctx, `INSERT INTO push_channel_devices (channel_id, device_id) VALUES ($1, $2)`, id, d); err != nil {
			return errs.Internal("channel devices: %w", err)
		}
	}
	return nil
}

// UpdateChannel replaces name, URL and devices. Returns ENOTFOUND.
func (db *DB) UpdateChannel(ctx context.Context, c *push.Channel) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE push_channels SET name = $1, url = $2, all_devices = $3, updated_at = $4 WHERE id = $5 AND owner_id = $6`,
			c.Name, c.URL, c.AllDevices, millis(c.UpdatedAt), c.ID, c.OwnerID)
		if err != nil {
			return errs.Internal("update channel: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		return setChannelDevices(ctx, tx, c.ID, c.DeviceIDs)
	})
}

// SetChannelEnabled switches a channel. Returns ENOTFOUND.
func (db *DB) SetChannelEnabled(ctx context.Context, owner, id int64, enabled bool, at time.Time) error {
	return db.execOne(ctx, "switch channel", `UPDATE push_channels SET enabled = $1, updated_at = $2 WHERE id = $3 AND owner_id = $4`,
		enabled, millis(at), id, owner)
}

// SetChannelSecret replaces a channel's sealed secret. Returns ENOTFOUND.
func (db *DB) SetChannelSecret(ctx context.Context, owner, id int64, sealed string) error {
	return db.execOne(ctx, "channel secret", `UPDATE push_channels SET secret_sealed = $1 WHERE id = $2 AND owner_id = $3`, sealed, id, owner)
}

// DeleteChannel removes a channel, its devices and its log. Returns ENOTFOUND.
func (db *DB) DeleteChannel(ctx context.Context, owner, id int64) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM push_channels WHERE id = $1 AND owner_id = $2`, id, owner)
		if err != nil {
			return errs.Internal("delete channel: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		// SQLite enforces the cascades only with foreign keys on; say it.
		for _, q := range []string{`DELETE FROM push_channel_devices WHERE channel_id = $1`, `DELETE FROM push_deliveries WHERE channel_id = $1`} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return errs.Internal("delete channel: %w", err)
			}
		}
		return nil
	})
}

const channelColumns = `c.id, c.owner_id, c.kind, c.name, c.url, c.enabled, c.all_devices, c.created_at, c.updated_at`

func scanChannel(row interface{ Scan(...any) error }) (*push.Channel, error) {
	var (
		c                push.Channel
		created, updated int64
	)
	if err := row.Scan(&c.ID, &c.OwnerID, &c.Kind, &c.Name, &c.URL, &c.Enabled, &c.AllDevices, &created, &updated); err != nil {
		return nil, err
	}
	c.CreatedAt, c.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &c, nil
}

// FindChannel returns one of owner's channels with its devices. Returns ENOTFOUND.
func (db *DB) FindChannel(ctx context.Context, owner, id int64) (*push.Channel, error) {
	c, err := scanChannel(db.sql.QueryRowContext(ctx, `SELECT `+channelColumns+` FROM push_channels c WHERE c.id = $1 AND c.owner_id = $2`, id, owner))
	if err != nil {
		return nil, notFound(err, "find channel")
	}
	if err := db.attachChannelDevices(ctx, []*push.Channel{c}); err != nil {
		return nil, err
	}
	return c, nil
}

// Channels returns owner's channels of a kind, newest first, with devices.
func (db *DB) Channels(ctx context.Context, owner int64, kind string) ([]*push.Channel, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+channelColumns+` FROM push_channels c WHERE c.owner_id = $1 AND c.kind = $2
		ORDER BY c.id DESC`, owner, kind)
	if err != nil {
		return nil, errs.Internal("channels: %w", err)
	}
	var out []*push.Channel
	for rows.Next() {
		c, err := scanChannel(rows)
		if err != nil {
			rows.Close()
			return nil, errs.Internal("channels: %w", err)
		}
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("channels: %w", err)
	}
	return out, db.attachChannelDevices(ctx, out)
}

func (db *DB) attachChannelDevices(ctx context.Context, cs []*push.Channel) error {
	if len(cs) == 0 {
		return nil
	}
	byID := map[int64]*push.Channel{}
	ids := make([]string, len(cs))
	for i, c := range cs {
		byID[c.ID] = c
		c.DeviceIDs = []int64{}
		ids[i] = strconv.FormatInt(c.ID, 10)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT channel_id, device_id FROM push_channel_devices
		WHERE channel_id IN (`+strings.Join(ids, ",")+`) ORDER BY channel_id, device_id`)
	if err != nil {
		return errs.Internal("channel devices: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ch, dev int64
		if err := rows.Scan(&ch, &dev); err != nil {
			return errs.Internal("channel devices: %w", err)
		}
		byID[ch].DeviceIDs = append(byID[ch].DeviceIDs, dev)
	}
	return rows.Err()
}

// ChannelTarget returns a channel's address, state and sealed secret.
func (db *DB) ChannelTarget(ctx context.Context, id int64) (string, bool, string, error) {
	var (
		url, sealed string
		enabled     bool
	)
	err := db.sql.QueryRowContext(ctx, `SELECT url, enabled, secret_sealed FROM push_channels WHERE id = $1`, id).Scan(&url, &enabled, &sealed)
	if err != nil {
		return "", false, "", notFound(err, "channel target")
	}
	return url, enabled, sealed, nil
}

// pushPayload is the JSON a channel receives for one report (less the
// deliveryId the worker puts first).
type pushPayload struct {
	ChannelID int64                         `json:"channelId"`
	Device    pushDevice                    `json:"device"`
	TS        int64                         `json:"ts"`
	Time      string                        `json:"time"`
	Values    map[string]float64            `json:"values"`
	Nodes     map[string]map[string]float64 `json:"nodes,omitempty"`
}

type pushDevice struct {
	ID     int64  `json:"id"`
	SN     string `json:"sn"`
	TypeID int    `json:"typeId"`
}

// enqueuePushes writes a delivery for each new report of a device in an
// enabled channel whose owner may push its data, in the transaction that
// stores the reports: a report acknowledged to its device is never lost
// to its channels.
func (db *DB) enqueuePushes(ctx context.Context, tx *sql.Tx, fresh []*telemetry.Report, now time.Time) (int, error) {
	if len(fresh) == 0 {
		return 0, nil
	}
	ids := make([]string, 0, len(fresh))
	seen := map[int64]bool{}
	for _, r := range fresh {
		if !seen[r.DeviceID] {
			seen[r.DeviceID] = true
			ids = append(ids, strconv.FormatInt(r.DeviceID, 10))
		}
	}
	in := strings.Join(ids, ",")
	rows, err := tx.QueryContext(ctx, `SELECT cd.device_id, c.id, d.sn, d.type_id FROM push_channel_devices cd
		JOIN push_channels c ON c.id = cd.channel_id JOIN devices d ON d.id = cd.device_id
		WHERE cd.device_id IN (`+in+`) AND c.enabled AND NOT c.all_devices AND (d.owner_id = c.owner_id OR EXISTS
		(SELECT 1 FROM grants g WHERE g.device_id = d.id AND g.grantee_id = c.owner_id AND g.can_export))
		UNION ALL SELECT d.id, c.id, d.sn, d.type_id FROM devices d JOIN push_channels c ON c.owner_id = d.owner_id
		WHERE d.id IN (`+in+`) AND c.enabled AND c.all_devices`)
	if err != nil {
		return 0, errs.Internal("push targets: %w", err)
	}
	type target struct {
		channel int64
		dev     pushDevice
	}
	targets := map[int64][]target{}
	for rows.Next() {
		var t target
		if err := rows.Scan(&t.dev.ID, &t.channel, &t.dev.SN, &t.dev.TypeID); err != nil {
			rows.Close()
			return 0, errs.Internal("push targets: %w", err)
		}
		targets[t.dev.ID] = append(targets[t.dev.ID], t)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(targets) == 0 {
		return 0, err
	}
	n := 0
	for _, r := range fresh {
		for _, t := range targets[r.DeviceID] {
			p := pushPayload{ChannelID: t.channel, Device: t.dev, TS: r.Time.UnixMilli(), Time: r.Time.UTC().Format(time.RFC3339),
				Values: map[string]float64{}}
			for _, pt := range r.Points {
				if pt.Node == 0 {
					p.Values[pt.Param] = pt.Value
					continue
				}
				if p.Nodes == nil {
					p.Nodes = map[string]map[string]float64{}
				}
				k := strconv.Itoa(pt.Node)
				if p.Nodes[k] == nil {
					p.Nodes[k] = map[string]float64{}
				}
				p.Nodes[k][pt.Param] = pt.Value
			}
			b, _ := json.Marshal(p)
			if _, err := tx.ExecContext(ctx, `INSERT INTO push_deliveries (channel_id, device_id, ts, payload, next_at, created_at)
				VALUES ($1, $2, $3, $4, $5, $5)`, t.channel, r.DeviceID, r.Time.UnixMilli(), string(b), millis(now)); err != nil {
				return 0, errs.Internal("enqueue push: %w", err)
			}
			n++
		}
	}
	return n, nil
}

// DueChannels returns the enabled channels with a delivery due.
func (db *DB) DueChannels(ctx context.Context, now time.Time) ([]int64, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT c.id FROM push_channels c WHERE c.enabled AND EXISTS
		(SELECT 1 FROM push_deliveries p WHERE p.channel_id = c.id AND p.status = 'pending' AND p.next_at <= $1)`, millis(now))
	if err != nil {
		return nil, errs.Internal("due channels: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, errs.Internal("due channels: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

const deliveryColumns = `p.id, p.channel_id, p.device_id, p.ts, p.payload, p.status, p.attempts, p.next_at, p.created_at,
	p.pushed_at, p.duration_ms, p.http_status, p.error`

func scanDelivery(row interface{ Scan(...any) error }) (*push.Delivery, error) {
	var (
		d                       push.Delivery
		ts, next, created       int64
		status, payload         string
		pushed, dur, httpStatus sql.NullInt64
	)
	if err := row.Scan(&d.ID, &d.ChannelID, &d.DeviceID, &ts, &payload, &status, &d.Attempts, &next, &created,
		&pushed, &dur, &httpStatus, &d.Error); err != nil {
		return nil, err
	}
	d.CollectedAt, d.NextAt, d.CreatedAt = fromMillis(ts), fromMillis(next), fromMillis(created)
	d.Payload, d.Status = []byte(payload), push.Status(status)
	d.PushedAt = fromNullMillis(pushed)
	d.Duration = time.Duration(dur.Int64) * time.Millisecond
	d.HTTPStatus = int(httpStatus.Int64)
	return &d, nil
}

// ClaimDeliveries leases a channel's due deliveries in device and collect
// order. A device whose earlier delivery waits (a retry, or leased by
// another node) is skipped, so each device's reports arrive in order.
func (db *DB) ClaimDeliveries(ctx context.Context, channel int64, now time.Time, lease time.Duration, limit int) ([]*push.Delivery, error) {
	var out []*push.Delivery
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		q := `SELECT ` + deliveryColumns + ` FROM push_deliveries p
			WHERE p.channel_id = $1 AND p.status = 'pending' AND p.next_at <= $2 AND NOT EXISTS
			(SELECT 1 FROM push_deliveries e WHERE e.channel_id = p.channel_id AND e.device_id = p.device_id
			 AND e.status = 'pending' AND e.next_at > $2 AND (e.ts < p.ts OR e.ts = p.ts AND e.id < p.id))
			ORDER BY p.device_id, p.ts, p.id LIMIT $3` + db.dialect.skipLocked("p")
		rows, err := tx.QueryContext(ctx, q, channel, millis(now), limit)
		if err != nil {
			return errs.Internal("claim deliveries: %w", err)
		}
		for rows.Next() {
			d, err := scanDelivery(rows)
			if err != nil {
				rows.Close()
				return errs.Internal("claim deliveries: %w", err)
			}
			out = append(out, d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return errs.Internal("claim deliveries: %w", err)
		}
		if len(out) == 0 {
			return nil
		}
		ids := make([]string, len(out))
		for i, d := range out {
			ids[i] = strconv.FormatInt(d.ID, 10)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE push_deliveries SET next_at = $1 WHERE id IN (`+strings.Join(ids, ",")+`)`,
			millis(now.Add(lease))); err != nil {
			return errs.Internal("claim deliveries: %w", err)
		}
		return nil
	})
	return out, err
}

// deliveryOutcome is one attempt's outcome as FinishDeliveries writes it.
type deliveryOutcome struct {
	id                 int64
	status             string
	attempts           int
	next               int64
	pushed, dur, httpS any
	err                string
}

// FinishDeliveries stores attempts' outcomes in one transaction: a row at
// a time on SQLite (in process), in one statement per 500 on PostgreSQL
// (a round trip per row would cost more than the deliveries).
func (db *DB) FinishDeliveries(ctx context.Context, ds []*push.Delivery) error {
	rows := make([]deliveryOutcome, len(ds))
	for i, d := range ds {
		r := deliveryOutcome{id: d.ID, status: string(d.Status), attempts: d.Attempts, next: millis(d.NextAt), pushed: nullMillis(d.PushedAt), err: d.Error}
		if d.PushedAt != nil {
			r.dur = d.Duration.Milliseconds()
		}
		if d.HTTPStatus != 0 {
			r.httpS = d.HTTPStatus
		}
		rows[i] = r
	}
	return db.inTx(ctx, func(tx *sql.Tx) error { return db.ops.finishDeliveries(ctx, tx, rows) })
}

func logWhere(f push.LogFilter) (string, []any) {
	args := []any{f.OwnerID, millis(f.Since)}
	where := []string{`c.owner_id = $1`, `p.created_at >= $2`}
	if f.ChannelID != 0 {
		args = append(args, f.ChannelID)
		where = append(where, fmt.Sprintf("p.channel_id = $%d", len(args)))
	}
	if f.DeviceID != 0 {
		args = append(args, f.DeviceID)
		where = append(where, fmt.Sprintf("p.device_id = $%d", len(args)))
	}
	if f.Status != "" {
		args = append(args, string(f.Status))
		where = append(where, fmt.Sprintf("p.status = $%d", len(args)))
	}
	return strings.Join(where, " AND "), args
}

// Deliveries returns one page of the log, newest first, and the total.
func (db *DB) Deliveries(ctx context.Context, f push.LogFilter) ([]*push.Delivery, int, error) {
	where, args := logWhere(f)
	var total int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM push_deliveries p JOIN push_channels c ON c.id = p.channel_id
		WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, errs.Internal("push log: %w", err)
	}
	args = append(args, f.Limit, f.Offset)
	rows, err := db.sql.QueryContext(ctx, `SELECT `+deliveryColumns+` FROM push_deliveries p JOIN push_channels c ON c.id = p.channel_id
		WHERE `+where+fmt.Sprintf(` ORDER BY p.id DESC LIMIT $%d OFFSET $%d`, len(args)-1, len(args)), args...)
	if err != nil {
		return nil, 0, errs.Internal("push log: %w", err)
	}
	defer rows.Close()
	var out []*push.Delivery
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			return nil, 0, errs.Internal("push log: %w", err)
		}
		out = append(out, d)
	}
	return out, total, rows.Err()
}

// ChannelStats computes a channel's figures over the deliveries committed
// since a time.
func (db *DB) ChannelStats(ctx context.Context, channel int64, since time.Time) (push.Stats, error) {
	var st push.Stats
	var last sql.NullInt64
	if err := db.sql.QueryRowContext(ctx, `SELECT max(pushed_at) FROM push_deliveries WHERE channel_id = $1`, channel).Scan(&last); err != nil {
		return st, errs.Internal("channel stats: %w", err)
	}
	st.LastActivity = fromNullMillis(last)
	rows, err := db.sql.QueryContext(ctx, `SELECT status, attempts, duration_ms FROM push_deliveries
		WHERE channel_id = $1 AND created_at >= $2`, channel, millis(since))
	if err != nil {
		return st, errs.Internal("channel stats: %w", err)
	}
	defer rows.Close()
	var durs []int64
	for rows.Next() {
		var (
			status   string
			attempts int
			dur      sql.NullInt64
		)
		if err := rows.Scan(&status, &attempts, &dur); err != nil {
			return st, errs.Internal("channel stats: %w", err)
		}
		switch push.Status(status) {
		case push.StatusSuccess:
			st.Succeeded++
			durs = append(durs, dur.Int64)
		case push.StatusFail:
			st.Failed++
		default:
			st.Pending++
		}
		if attempts > 0 {
			st.Attempted++
		}
	}
	if err := rows.Err(); err != nil {
		return st, errs.Internal("channel stats: %w", err)
	}
	if len(durs) > 0 {
		slices.Sort(durs)
		pick := func(q float64) time.Duration {
			return time.Duration(durs[min(len(durs)-1, int(q*float64(len(durs))))]) * time.Millisecond
		}
		st.P50, st.P95 = pick(0.5), pick(0.95)
	}
	return st, nil
}

// RetryDelivery makes one of owner's failed deliveries pending again, due
// now, with fresh attempts. Returns ENOTFOUND (also for one not failed).
func (db *DB) RetryDelivery(ctx context.Context, owner, id int64, now time.Time) error {
	return db.execOne(ctx, "retry delivery", `UPDATE push_deliveries SET status = 'pending', attempts = 0, next_at = $1, error = ''
		WHERE id = $2 AND status = 'fail' AND channel_id IN (SELECT id FROM push_channels WHERE owner_id = $3)`, millis(now), id, owner)
}

// PrunePushLog deletes finished deliveries committed before a time.
func (db *DB) PrunePushLog(ctx context.Context, before time.Time) (int64, error) {
	res, err := db.exec(ctx, `DELETE FROM push_deliveries WHERE created_at < $1 AND status <> 'pending'`, millis(before))
	if err != nil {
		return 0, errs.Internal("prune push log: %w", err)
	}
	return res.RowsAffected()
}
