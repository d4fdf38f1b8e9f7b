package store

import (
	"context"
	"database/sql"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/portal"
)

var _ portal.Store = (*DB)(nil)

// SetDevicePortal makes or replaces the device's portal link; ENOTFOUND
// unless l.OwnerID owns the device.
func (db *DB) SetDevicePortal(ctx context.Context, l portal.Link, tokenHash string) error {
	return db.execOne(ctx, "set device portal", `INSERT INTO device_portals
		(device_id, owner_id, token_hash, allow_control, created_at)
		SELECT id, owner_id, $2, $3, $4 FROM devices WHERE id = $1 AND owner_id = $5
		ON CONFLICT (device_id) DO UPDATE SET owner_id = excluded.owner_id, token_hash = excluded.token_hash,
		allow_control = excluded.allow_control, created_at = excluded.created_at`,
		l.DeviceID, tokenHash, l.AllowControl, millis(l.CreatedAt), l.OwnerID)
}

// DevicePortal returns the device's portal link under its current owner.
func (db *DB) DevicePortal(ctx context.Context, deviceID int64) (*portal.Link, error) {
	return db.scanPortal(ctx, "device portal", `SELECT p.device_id, p.owner_id, p.allow_control, p.created_at
		FROM device_portals p JOIN devices d ON d.id = p.device_id AND d.owner_id = p.owner_id
		WHERE p.device_id = $1`, deviceID)
}

// DeleteDevicePortal removes the device's portal link.
func (db *DB) DeleteDevicePortal(ctx context.Context, deviceID int64) error {
	return db.execOne(ctx, "delete device portal", `DELETE FROM device_portals WHERE device_id = $1`, deviceID)
}

// OpenDevicePortal returns the link of device sn whose token hashes to
// tokenHash, while the device has the owner who made it.
func (db *DB) OpenDevicePortal(ctx context.Context, sn, tokenHash string) (*portal.Link, error) {
	return db.scanPortal(ctx, "open device portal", `SELECT p.device_id, p.owner_id, p.allow_control, p.created_at
		FROM device_portals p JOIN devices d ON d.id = p.device_id AND d.owner_id = p.owner_id
		WHERE p.token_hash = $1 AND d.sn = $2`, tokenHash, sn)
}

func (db *DB) scanPortal(ctx context.Context, what, query string, args ...any) (*portal.Link, error) {
	var (
		l       portal.Link
		created int64
	)
	err := db.sql.QueryRowContext(ctx, query, args...).Scan(&l.DeviceID, &l.OwnerID, &l.AllowControl, &created)
	if err == sql.ErrNoRows {
		return nil, errs.NotFound()
	}
	if err != nil {
		return nil, errs.Internal("%s: %w", what, err)
	}
	l.CreatedAt = fromMillis(created)
	return &l, nil
}
