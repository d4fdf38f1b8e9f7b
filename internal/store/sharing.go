package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/sharing"
)

var _ sharing.Store = (*DB)(nil)

// CreateLink stores a link and its devices.
func (db *DB) CreateLink(ctx context.Context, l *sharing.Link) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO share_links (id, kind, owner_id, can_rename, can_settings, can_export,
			created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			l.ID, string(l.Kind), l.OwnerID, l.Right.Rename, l.Right.Settings, l.Right.Export,
			millis(l.CreatedAt), millis(l.ExpiresAt)); err != nil {
			return errs.Internal("create link: %w", err)
		}
		for _, id := range l.DeviceIDs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO share_link_devices (link_id, device_id) VALUES ($1, $2)`, l.ID, id); err != nil {
				return errs.Internal("create link: %w", err)
			}
		}
		return nil
	})
}

// FindLink returns a link with its devices. Returns ENOTFOUND.
func (db *DB) FindLink(ctx context.Context, id string) (*sharing.Link, error) {
	var (
		l               sharing.Link
		kind            string
		created, expire int64
		used, usedBy    sql.NullInt64
	)
	err := db.sql.QueryRowContext(ctx, `SELECT id, kind, owner_id, can_rename, can_settings, can_export, created_at,
		expires_at, used_at, used_by FROM share_links WHERE id = $1`, id).Scan(&l.ID, &kind, &l.OwnerID,
		&l.Right.Rename, &l.Right.Settings, &l.Right.Export, &created, &expire, &used, &usedBy)
	if err != nil {
		return nil, notFound(err, "find link")
	}
	l.Kind, l.CreatedAt, l.ExpiresAt = sharing.Kind(kind), fromMillis(created), fromMillis(expire)
	l.UsedAt, l.UsedBy = fromNullMillis(used), usedBy.Int64
	rows, err := db.sql.QueryContext(ctx, `SELECT device_id FROM share_link_devices WHERE link_id = $1 ORDER BY device_id`, id)
	if err != nil {
		return nil, errs.Internal("find link: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var d int64
		if err := rows.Scan(&d); err != nil {
			return nil, errs.Internal("find link: %w", err)
		}
		l.DeviceIDs = append(l.DeviceIDs, d)
	}
	return &l, rows.Err()
}

const deviceRefColumns = `d.id, d.hash_id, d.sn, d.name, d.type_id, d.slave`

func deviceRefScan(r *sharing.DeviceRef) []any {
	return []any{&r.ID, &r.HashID, &r.SN, &r.Name, &r.TypeID, &r.Slave}
}

// LinkDevices returns the devices of a link that its owner still owns.
func (db *DB) LinkDevices(ctx context.Context, l *sharing.Link) ([]sharing.DeviceRef, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+deviceRefColumns+` FROM share_link_devices s
		JOIN devices d ON d.id = s.device_id WHERE s.link_id = $1 AND d.owner_id = $2 ORDER BY d.id`, l.ID, l.OwnerID)
	if err != nil {
		return nil, errs.Internal("link devices: %w", err)
	}
	defer rows.Close()
	var out []sharing.DeviceRef
	for rows.Next() {
		var r sharing.DeviceRef
		if err := rows.Scan(deviceRefScan(&r)...); err != nil {
			return nil, errs.Internal("link devices: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// AcceptLink uses a link once: in one transaction it marks the link used
// and grants or transfers those of its devices, with their slaves, that its
// owner still owns. Two people accepting at once: one wins, the other finds
// it unavailable.
func (db *DB) AcceptLink(ctx context.Context, id string, account int64, now time.Time) ([]int64, error) {
	unavailable := errs.New(errs.EConflict, "share.linkUnavailable")
	var ids []int64
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE share_links SET used_at = $1, used_by = $2
			WHERE id = $3 AND used_at IS NULL AND expires_at > $1`, millis(now), account, id)
		if err != nil {
			return errs.Internal("accept link: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return unavailable
		}
		var (
			kind  string
			owner int64
			right devices.Right
		)
		if err := tx.QueryRowContext(ctx, `SELECT kind, owner_id, can_rename, can_settings, can_export
			FROM share_links WHERE id = $1`, id).Scan(&kind, &owner, &right.Rename, &right.Settings, &right.Export); err != nil {
			return errs.Internal("accept link: %w", err)
		}
		if ids, err = txIDs(ctx, tx, `SELECT d.id FROM devices d WHERE d.owner_id = $2 AND (d.id IN
			(SELECT device_id FROM share_link_devices WHERE link_id = $1) OR d.host_id IN
			(SELECT device_id FROM share_link_devices WHERE link_id = $1)) ORDER BY d.id`, id, owner); err != nil {
			return err
		}
		if len(ids) == 0 {
			return unavailable
		}
		type stmt struct {
			q    string
			args []any
		}
		for _, dev := range ids {
			var stmts []stmt
			switch sharing.Kind(kind) {
			case sharing.KindGrant:
				stmts = []stmt{{`INSERT INTO grants (device_id, grantee_id, can_rename, can_settings, can_export, created_at)
					VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (device_id, grantee_id) DO UPDATE SET
					can_rename = excluded.can_rename, can_settings = excluded.can_settings, can_export = excluded.can_export`,
					[]any{dev, account, right.Rename, right.Settings, right.Export, millis(now)}}}
			case sharing.KindTransfer:
				// The new owner starts clean: nobody keeps a grant the old owner
				// made, and tags (each account's own labels) and the portal link
				// stay behind, as do the old owner's AI lab applications. History,
				// settings and the plot's soil settings go with the device.
				stmts = []stmt{
					{`UPDATE devices SET owner_id = $2 WHERE id = $1 AND owner_id = $3`, []any{dev, account, owner}},
					{`DELETE FROM grants WHERE device_id = $1`, []any{dev}},
					{`DELETE FROM device_tags WHERE device_id = $1`, []any{dev}},
					{`DELETE FROM device_portals WHERE device_id = $1`, []any{dev}},
					// The old owner's AI lab applications stop watching it.
					{`DELETE FROM ailab_app_devices WHERE device_id = $1`, []any{dev}},
					{`DELETE FROM ailab_jobs WHERE device_id = $1 AND status = 'queued'`, []any{dev}},
					{`UPDATE soil_settings SET owner_id = $2 WHERE device_id = $1`, []any{dev, account}},
					{`INSERT INTO transfers (device_id, from_id, to_id, at) VALUES ($1, $2, $3, $4)`, []any{dev, owner, account, millis(now)}},
				}
			default:
				return errs.Internal("link %s: unknown kind %q", id, kind)
			}
			for _, st := range stmts {
				if _, err := tx.ExecContext(ctx, st.q, st.args...); err != nil {
					return errs.Internal("accept link: %w", err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

func txIDs(ctx context.Context, tx *sql.Tx, q string, args ...any) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, errs.Internal("ids: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, errs.Internal("ids: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// entryWhere turns a filter into conditions on g and d.
func entryWhere(f sharing.EntryFilter) (string, []any) {
	var (
		where []string
		args  []any
	)
	add := func(cond string, v int64) {
		if v != 0 {
			args = append(args, v)
			where = append(where, fmt.Sprintf(cond, len(args)))
		}
	}
	add("d.owner_id = $%d", f.OwnerID)
	add("g.grantee_id = $%d", f.GranteeID)
	add("g.device_id = $%d", f.DeviceID)
	if len(where) == 0 {
		return "FALSE", nil
	}
	return strings.Join(where, " AND "), args
}

// Entries returns the grants matching f, newest first.
func (db *DB) Entries(ctx context.Context, f sharing.EntryFilter) ([]sharing.Entry, error) {
	where, args := entryWhere(f)
	rows, err := db.sql.QueryContext(ctx, `SELECT `+deviceRefColumns+`, o.id, o.name, o.account_number,
		a.id, a.name, a.account_number, g.can_rename, g.can_settings, g.can_export, g.created_at
		FROM grants g JOIN devices d ON d.id = g.device_id JOIN accounts o ON o.id = d.owner_id
		JOIN accounts a ON a.id = g.grantee_id WHERE `+where+` ORDER BY g.created_at DESC, d.id, a.id`, args...)
	if err != nil {
		return nil, errs.Internal("grants: %w", err)
	}
	defer rows.Close()
	var out []sharing.Entry
	for rows.Next() {
		var (
			e  sharing.Entry
			at int64
		)
		dest := append(deviceRefScan(&e.Device), &e.Owner.ID, &e.Owner.Name, &e.Owner.AccountNumber,
			&e.Grantee.ID, &e.Grantee.Name, &e.Grantee.AccountNumber, &e.Right.Rename, &e.Right.Settings, &e.Right.Export, &at)
		if err := rows.Scan(dest...); err != nil {
			return nil, errs.Internal("grants: %w", err)
		}
		e.At = fromMillis(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// Revoke removes the grants matching f and the grantees' tags on those
// devices, and returns how many grants went.
func (db *DB) Revoke(ctx context.Context, f sharing.EntryFilter) (int, error) {
	where, args := entryWhere(f)
	n := 0
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT g.device_id, g.grantee_id FROM grants g
			JOIN devices d ON d.id = g.device_id WHERE `+where, args...)
		if err != nil {
			return errs.Internal("revoke: %w", err)
		}
		var pairs [][2]int64
		for rows.Next() {
			var p [2]int64
			if err := rows.Scan(&p[0], &p[1]); err != nil {
				rows.Close()
				return errs.Internal("revoke: %w", err)
			}
			pairs = append(pairs, p)
		}
		rows.Close()
		for _, p := range pairs {
			for _, q := range []string{
				`DELETE FROM grants WHERE device_id = $1 AND grantee_id = $2`,
				`DELETE FROM device_tags WHERE device_id = $1 AND account_id = $2`,
			} {
				if _, err := tx.ExecContext(ctx, q, p[0], p[1]); err != nil {
					return errs.Internal("revoke: %w", err)
				}
			}
		}
		n = len(pairs)
		return nil
	})
	return n, err
}

// SetRight changes one grant's flags. Returns ENOTFOUND.
func (db *DB) SetRight(ctx context.Context, device, grantee int64, r devices.Right) error {
	return db.execOne(ctx, "set right", `UPDATE grants SET can_rename = $3, can_settings = $4, can_export = $5
		WHERE device_id = $1 AND grantee_id = $2`, device, grantee, r.Rename, r.Settings, r.Export)
}

// FindAccount returns an account as others see it. Returns ENOTFOUND.
func (db *DB) FindAccount(ctx context.Context, id int64) (*sharing.Person, error) {
	var p sharing.Person
	err := db.sql.QueryRowContext(ctx, `SELECT id, name, account_number FROM accounts WHERE id = $1`, id).
		Scan(&p.ID, &p.Name, &p.AccountNumber)
	if err != nil {
		return nil, notFound(err, "find account")
	}
	return &p, nil
}

// DeviceRights returns viewer's grant flags on those of ids shared with
// them (owned devices are not in the answer).
func (db *DB) DeviceRights(ctx context.Context, viewer int64, ids []int64) (map[int64]devices.Right, error) {
	out := map[int64]devices.Right{}
	if len(ids) == 0 {
		return out, nil
	}
	list := make([]string, len(ids))
	for i, id := range ids {
		list[i] = fmt.Sprint(id)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT device_id, can_rename, can_settings, can_export FROM grants
		WHERE grantee_id = $1 AND device_id IN (`+strings.Join(list, ",")+`)`, viewer)
	if err != nil {
		return nil, errs.Internal("device rights: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id int64
			r  devices.Right
		)
		if err := rows.Scan(&id, &r.Rename, &r.Settings, &r.Export); err != nil {
			return nil, errs.Internal("device rights: %w", err)
		}
		out[id] = r
	}
	return out, rows.Err()
}

// Transfers returns a device's changes of ownership, oldest first.
func (db *DB) Transfers(ctx context.Context, device int64) ([]sharing.Transfer, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT device_id, COALESCE(from_id, 0), COALESCE(to_id, 0), at
		FROM transfers WHERE device_id = $1 ORDER BY at, from_id`, device)
	if err != nil {
		return nil, errs.Internal("transfers: %w", err)
	}
	defer rows.Close()
	var out []sharing.Transfer
	for rows.Next() {
		var (
			tr sharing.Transfer
			at int64
		)
		if err := rows.Scan(&tr.DeviceID, &tr.From, &tr.To, &at); err != nil {
			return nil, errs.Internal("transfers: %w", err)
		}
		tr.At = fromMillis(at)
		out = append(out, tr)
	}
	return out, rows.Err()
}
