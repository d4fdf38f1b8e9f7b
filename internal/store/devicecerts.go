package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devicecert"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

var _ devicecert.Store = (*DB)(nil)

// AddDeviceCertificate records an issued certificate; ENOTFOUND unless the
// device is owned by c.OwnerID.
func (db *DB) AddDeviceCertificate(ctx context.Context, c devicecert.Certificate) error {
	return db.execOne(ctx, "add device certificate", `INSERT INTO device_certificates
		(serial, device_id, owner_id, created_at, not_after)
		SELECT $1, id, owner_id, $3, $4 FROM devices WHERE id = $2 AND owner_id = $5`,
		c.Serial, c.DeviceID, millis(c.CreatedAt), millis(c.NotAfter), c.OwnerID)
}

// DeviceCertificates lists a device's certificates issued under its current
// owner, newest first.
func (db *DB) DeviceCertificates(ctx context.Context, deviceID int64) ([]devicecert.Certificate, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT c.serial, c.device_id, c.owner_id, c.created_at, c.not_after, c.revoked_at
		FROM device_certificates c JOIN devices d ON d.id = c.device_id AND d.owner_id = c.owner_id
		WHERE c.device_id = $1 ORDER BY c.created_at DESC, c.serial`, deviceID)
	if err != nil {
		return nil, errs.Internal("device certificates: %w", err)
	}
	defer rows.Close()
	out := []devicecert.Certificate{}
	for rows.Next() {
		var (
			c                 devicecert.Certificate
			created, notAfter int64
			revoked           sql.NullInt64
		)
		if err := rows.Scan(&c.Serial, &c.DeviceID, &c.OwnerID, &created, &notAfter, &revoked); err != nil {
			return nil, errs.Internal("device certificates: %w", err)
		}
		c.CreatedAt, c.NotAfter, c.RevokedAt = fromMillis(created), fromMillis(notAfter), fromNullMillis(revoked)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("device certificates: %w", err)
	}
	return out, nil
}

// RevokeDeviceCertificate marks a certificate of the device revoked;
// ENOTFOUND when there is no such certificate under the device's current
// owner, or it is revoked already.
func (db *DB) RevokeDeviceCertificate(ctx context.Context, deviceID int64, serial string, at time.Time) error {
	return db.execOne(ctx, "revoke device certificate", `UPDATE device_certificates SET revoked_at = $3
		WHERE serial = $1 AND device_id = $2 AND revoked_at IS NULL
		AND owner_id = (SELECT owner_id FROM devices WHERE id = $2)`, serial, deviceID, millis(at))
}

// DeviceCertificateValid reports whether serial was issued to the device sn
// under its current owner and is not revoked.
func (db *DB) DeviceCertificateValid(ctx context.Context, serial, sn string) (bool, error) {
	var one int
	err := db.sql.QueryRowContext(ctx, `SELECT 1 FROM device_certificates c
		JOIN devices d ON d.id = c.device_id AND d.owner_id = c.owner_id
		WHERE c.serial = $1 AND d.sn = $2 AND c.revoked_at IS NULL`, serial, sn).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, errs.Internal("device certificate %s: %w", serial, err)
	}
	return true, nil
}
