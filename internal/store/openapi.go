package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/openapi"
)

var _ openapi.Store = (*DB)(nil)

// CreateApp inserts an application with its devices and sets its ID.
func (db *DB) CreateApp(ctx context.Context, a *openapi.App, sealed string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO openapi_apps (owner_id, name, app_key, secret_sealed, push_url, all_devices,
			published, channel_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
			a.OwnerID, a.Name, a.AppKey, sealed, a.PushURL, a.AllDevices, a.Published, nullID(a.ChannelID),
			millis(a.CreatedAt), millis(a.UpdatedAt)).Scan(&a.ID); err != nil {
			return errs.Internal("create app: %w", err)
		}
		return setAppDevices(ctx, tx, a.ID, a.DeviceIDs)
	})
}

func setAppDevices(ctx context.Context, tx *sql.Tx, id int64, ids []int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM openapi_app_devices WHERE app_id = $1`, id); err != nil {
		return errs.Internal("app devices: %w", err)
	}
	for _, d := range ids {
		if _, err := tx.ExecContext(ctx, `INSERT INTO openapi_app_devices (app_id, device_id) VALUES ($1, $2)`, id, d); err != nil {
			return errs.Internal("app devices: %w", err)
		}
	}
	return nil
}

// UpdateApp stores an application's editable fields. Returns ENOTFOUND.
func (db *DB) UpdateApp(ctx context.Context, a *openapi.App) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE openapi_apps SET name = $1, push_url = $2, all_devices = $3, published = $4,
			channel_id = $5, updated_at = $6 WHERE id = $7 AND owner_id = $8`, a.Name, a.PushURL, a.AllDevices, a.Published,
			nullID(a.ChannelID), millis(a.UpdatedAt), a.ID, a.OwnerID)
		if err != nil {
			return errs.Internal("update app: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		return setAppDevices(ctx, tx, a.ID, a.DeviceIDs)
	})
}

// SetAppSecret replaces an application's sealed secret. Returns ENOTFOUND.
func (db *DB) SetAppSecret(ctx context.Context, owner, id int64, sealed string) error {
	return db.execOne(ctx, "app secret", `UPDATE openapi_apps SET secret_sealed = $1 WHERE id = $2 AND owner_id = $3`, sealed, id, owner)
}

// DeleteApp removes an application. Returns ENOTFOUND.
func (db *DB) DeleteApp(ctx context.Context, owner, id int64) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM openapi_apps WHERE id = $1 AND owner_id = $2`, id, owner)
		if err != nil {
			return errs.Internal("delete app: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		for _, q := range []string{`DELETE FROM openapi_app_devices WHERE app_id = $1`, `DELETE FROM openapi_nonces WHERE app_id = $1`} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return errs.Internal("delete app: %w", err)
			}
		}
		return nil
	})
}

const appColumns = `a.id, a.owner_id, a.name, a.app_key, a.push_url, a.all_devices, a.published, a.channel_id, a.created_at, a.updated_at`

func scanApp(row interface{ Scan(...any) error }, extra ...any) (*openapi.App, error) {
	var (
		a                openapi.App
		channel          sql.NullInt64
		created, updated int64
	)
	if err := row.Scan(append([]any{&a.ID, &a.OwnerID, &a.Name, &a.AppKey, &a.PushURL, &a.AllDevices, &a.Published, &channel,
		&created, &updated}, extra...)...); err != nil {
		return nil, err
	}
	a.ChannelID, a.CreatedAt, a.UpdatedAt = channel.Int64, fromMillis(created), fromMillis(updated)
	return &a, nil
}

func (db *DB) attachAppDevices(ctx context.Context, as []*openapi.App) error {
	if len(as) == 0 {
		return nil
	}
	byID := map[int64]*openapi.App{}
	ids := make([]string, len(as))
	for i, a := range as {
		byID[a.ID] = a
		ids[i] = strconv.FormatInt(a.ID, 10)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT app_id, device_id FROM openapi_app_devices WHERE app_id IN (`+
		strings.Join(ids, ",")+`) ORDER BY app_id, device_id`)
	if err != nil {
		return errs.Internal("app devices: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var app, dev int64
		if err := rows.Scan(&app, &dev); err != nil {
			return errs.Internal("app devices: %w", err)
		}
		byID[app].DeviceIDs = append(byID[app].DeviceIDs, dev)
	}
	return rows.Err()
}

// FindApp returns one of owner's applications. Returns ENOTFOUND.
func (db *DB) FindApp(ctx context.Context, owner, id int64) (*openapi.App, error) {
	a, err := scanApp(db.sql.QueryRowContext(ctx, `SELECT `+appColumns+` FROM openapi_apps a WHERE a.id = $1 AND a.owner_id = $2`, id, owner))
	if err != nil {
		return nil, notFound(err, "find app")
	}
	return a, db.attachAppDevices(ctx, []*openapi.App{a})
}

// Apps returns owner's applications, newest first.
func (db *DB) Apps(ctx context.Context, owner int64) ([]*openapi.App, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+appColumns+` FROM openapi_apps a WHERE a.owner_id = $1 ORDER BY a.id DESC`, owner)
	if err != nil {
		return nil, errs.Internal("apps: %w", err)
	}
	var out []*openapi.App
	for rows.Next() {
		a, err := scanApp(rows)
		if err != nil {
			rows.Close()
			return nil, errs.Internal("apps: %w", err)
		}
		out = append(out, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("apps: %w", err)
	}
	return out, db.attachAppDevices(ctx, out)
}

// AppByKey returns an application by its public key, with its sealed secret.
func (db *DB) AppByKey(ctx context.Context, key string) (*openapi.App, string, error) {
	var sealed string
	a, err := scanApp(db.sql.QueryRowContext(ctx, `SELECT `+appColumns+`, a.secret_sealed FROM openapi_apps a WHERE a.app_key = $1`, key), &sealed)
	if err != nil {
		return nil, "", notFound(err, "app by key")
	}
	return a, sealed, db.attachAppDevices(ctx, []*openapi.App{a})
}

// UseNonce records a nonce once; a second use is ECONFLICT. Nonces older
// than twice the allowed clock skew are dropped on the way.
func (db *DB) UseNonce(ctx context.Context, app int64, nonce string, at time.Time) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM openapi_nonces WHERE at < $1`, millis(at.Add(-2*openapi.MaxSkew))); err != nil {
			return errs.Internal("nonce: %w", err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO openapi_nonces (app_id, nonce, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			app, nonce, millis(at))
		if err != nil {
			return errs.Internal("nonce: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.New(errs.EConflict, "openapi.auth.replay")
		}
		return nil
	})
}

// AppDevices returns the devices an application reaches: its owner's,
// all or chosen, including those reachable only through the open API.
func (db *DB) AppDevices(ctx context.Context, a *openapi.App) ([]*devices.Device, error) {
	q, args := `SELECT `+deviceColumns+` FROM devices d WHERE d.owner_id = $1`, []any{a.OwnerID}
	if !a.AllDevices {
		q += ` AND d.id IN (SELECT device_id FROM openapi_app_devices WHERE app_id = $2)`
		args = append(args, a.ID)
	}
	rows, err := db.sql.QueryContext(ctx, q+` ORDER BY d.id`, args...)
	if err != nil {
		return nil, errs.Internal("app devices: %w", err)
	}
	defer rows.Close()
	var out []*devices.Device
	for rows.Next() {
		d, err := scanDevice(rows)
		if err != nil {
			return nil, errs.Internal("app devices: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// SetAPIOnly marks a device as reachable only through the open API.
func (db *DB) SetAPIOnly(ctx context.Context, id int64, apiOnly bool) error {
	return db.execOne(ctx, "api only", `UPDATE devices SET api_only = $1 WHERE id = $2`, apiOnly, id)
}
