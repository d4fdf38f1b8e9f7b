package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// SaveImage stores a camera image; a second image of a device at the same
// time (a redelivery) is ignored. With the image, in the same transaction,
// a run of each published AI lab application watching the device is
// queued (ailab_jobs), so no picture is missed across a restart.
func (db *DB) SaveImage(ctx context.Context, deviceID int64, at time.Time, contentType string, data []byte) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO images (device_id, ts, content_type, data) VALUES ($1, $2, $3, $4)
			ON CONFLICT DO NOTHING RETURNING id`, deviceID, at.UnixMilli(), contentType, data).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return errs.Internal("save image: %w", err)
		}
		return queueDetections(ctx, tx, deviceID, id, at, time.Now())
	})
}

// Images lists a device's newest images, without their bytes.
func (db *DB) Images(ctx context.Context, deviceID int64, limit int) ([]telemetry.Image, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, ts, content_type, length(data) FROM images
		WHERE device_id = $1 ORDER BY ts DESC LIMIT $2`, deviceID, limit)
	if err != nil {
		return nil, errs.Internal("images: %w", err)
	}
	defer rows.Close()
	out := []telemetry.Image{}
	for rows.Next() {
		var (
			im telemetry.Image
			ts int64
		)
		if err := rows.Scan(&im.ID, &ts, &im.ContentType, &im.Size); err != nil {
			return nil, errs.Internal("images: %w", err)
		}
		im.Time = time.UnixMilli(ts)
		out = append(out, im)
	}
	return out, rows.Err()
}

// ImageData returns one image of a device. Returns ENOTFOUND.
func (db *DB) ImageData(ctx context.Context, deviceID, id int64) (*telemetry.Image, []byte, error) {
	var (
		im   telemetry.Image
		ts   int64
		data []byte
	)
	err := db.sql.QueryRowContext(ctx, `SELECT id, ts, content_type, data FROM images WHERE id = $1 AND device_id = $2`,
		id, deviceID).Scan(&im.ID, &ts, &im.ContentType, &data)
	if err != nil {
		return nil, nil, notFound(err, "image")
	}
	im.Time, im.Size = time.UnixMilli(ts), len(data)
	return &im, data, nil
}
