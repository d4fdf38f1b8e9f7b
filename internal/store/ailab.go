package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

const sampleColumns = `id, owner_id, device_id, image_id, device_name, sn, sample_time, tag, duration,
	location, content_type, width, height, labels, created_at`

// SampleFromImage makes camera picture imageID of one of the owner's
// devices into a sample that references the picture; a picture already
// made into a sample returns that sample. Returns ENOTFOUND when the
// picture is not on a device of ownerID.
func (db *DB) SampleFromImage(ctx context.Context, ownerID, imageID int64, width, height int, now time.Time) (*ailab.Sample, error) {
	var id int64
	err := db.writeRow(ctx, `INSERT INTO ailab_samples (owner_id, device_id, image_id, device_name, sn, sample_time,
		location, content_type, width, height, created_at)
		SELECT d.owner_id, d.id, i.id, d.name, d.sn, i.ts, '', i.content_type, $3, $4, $5
		FROM images i JOIN devices d ON d.id = i.device_id
		WHERE i.id = $1 AND d.owner_id = $2
		ON CONFLICT (owner_id, image_id) DO UPDATE SET owner_id = excluded.owner_id RETURNING id`,
		[]any{imageID, ownerID, width, height, millis(now)}, &id)
	if err != nil {
		return nil, notFound(err, "sample from image")
	}
	return db.Sample(ctx, ownerID, id)
}

// CreateSample stores an uploaded sample (s.ContentType, Width and Height
// from ailab.Sniff) with its bytes, and sets s.ID.
func (db *DB) CreateSample(ctx context.Context, s *ailab.Sample, data []byte) error {
	labels, err := json.Marshal(nonNilLabels(s.Labels))
	if err != nil {
		return errs.Internal("create sample: %w", err)
	}
	err = db.writeRow(ctx, `INSERT INTO ailab_samples (owner_id, device_name, sn, sample_time, tag, duration,
		location, content_type, width, height, data, labels, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
		[]any{s.OwnerID, s.DeviceName, s.SN, millis(s.SampleTime), s.Tag, s.Duration, s.Location,
			s.ContentType, s.Width, s.Height, data, string(labels), millis(s.CreatedAt)}, &s.ID)
	if err != nil {
		return errs.Internal("create sample: %w", err)
	}
	return nil
}

// Samples lists the owner's samples, newest first; tag filters when set.
func (db *DB) Samples(ctx context.Context, ownerID int64, tag string) ([]ailab.Sample, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+sampleColumns+` FROM ailab_samples
		WHERE owner_id = $1 AND ($2 = '' OR tag = $2) ORDER BY id DESC`, ownerID, tag)
	if err != nil {
		return nil, errs.Internal("samples: %w", err)
	}
	defer rows.Close()
	out := []ailab.Sample{}
	for rows.Next() {
		s, err := scanSample(rows)
		if err != nil {
			return nil, errs.Internal("samples: %w", err)
		}
		out = append(out, *s)
	}
	return out, rows.Err()
}

// Sample returns one of the owner's samples. Returns ENOTFOUND for a
// sample of another account as for none.
func (db *DB) Sample(ctx context.Context, ownerID, id int64) (*ailab.Sample, error) {
	s, err := scanSample(db.sql.QueryRowContext(ctx, `SELECT `+sampleColumns+` FROM ailab_samples
		WHERE id = $1 AND owner_id = $2`, id, ownerID))
	if err != nil {
		return nil, notFound(err, "sample")
	}
	return s, nil
}

// SampleData returns the picture of one of the owner's samples: its own
// bytes when uploaded, the camera picture's otherwise. Returns ENOTFOUND.
func (db *DB) SampleData(ctx context.Context, ownerID, id int64) (string, []byte, error) {
	var (
		ct   string
		data []byte
	)
	err := db.sql.QueryRowContext(ctx, `SELECT s.content_type, COALESCE(s.data, i.data)
		FROM ailab_samples s LEFT JOIN images i ON i.id = s.image_id
		WHERE s.id = $1 AND s.owner_id = $2`, id, ownerID).Scan(&ct, &data)
	if err != nil {
		return "", nil, notFound(err, "sample data")
	}
	return ct, data, nil
}

// UpdateSample replaces a sample's tag, location and labels. Returns ENOTFOUND.
func (db *DB) UpdateSample(ctx context.Context, ownerID, id int64, tag, location string, labels []ailab.Label) error {
	b, err := json.Marshal(nonNilLabels(labels))
	if err != nil {
		return errs.Internal("update sample: %w", err)
	}
	return db.execOne(ctx, "update sample", `UPDATE ailab_samples SET tag = $3, location = $4, labels = $5
		WHERE id = $1 AND owner_id = $2`, id, ownerID, tag, location, string(b))
}

// DeleteSample removes one of the owner's samples (never the camera
// picture it references). Returns ENOTFOUND.
func (db *DB) DeleteSample(ctx context.Context, ownerID, id int64) error {
	return db.execOne(ctx, "delete sample", `DELETE FROM ailab_samples WHERE id = $1 AND owner_id = $2`, id, ownerID)
}

func nonNilLabels(l []ailab.Label) []ailab.Label {
	if l == nil {
		return []ailab.Label{}
	}
	return l
}

type rowScanner interface{ Scan(dest ...any) error }

func scanSample(r rowScanner) (*ailab.Sample, error) {
	var (
		s             ailab.Sample
		device, image sql.NullInt64
		at, created   int64
		labels        string
	)
	err := r.Scan(&s.ID, &s.OwnerID, &device, &image, &s.DeviceName, &s.SN, &at, &s.Tag, &s.Duration,
		&s.Location, &s.ContentType, &s.Width, &s.Height, &labels, &created)
	if err != nil {
		return nil, err
	}
	if device.Valid {
		s.DeviceID = &device.Int64
	}
	if image.Valid {
		s.ImageID = &image.Int64
	}
	s.SampleTime, s.CreatedAt = fromMillis(at), fromMillis(created)
	if err := json.Unmarshal([]byte(labels), &s.Labels); err != nil {
		return nil, err
	}
	return &s, nil
}

// CreateElement stores e and sets e.ID; an identifier in use is EINVALID
// (identifier) ailab.element.taken.
func (db *DB) CreateElement(ctx context.Context, e *ailab.Element) error {
	err := db.writeRow(ctx, `INSERT INTO ailab_elements (owner_id, name, unit, identifier) VALUES ($1, $2, $3, $4) RETURNING id`,
		[]any{e.OwnerID, e.Name, e.Unit, e.Identifier}, &e.ID)
	if isUniqueViolation(err) {
		return errs.Invalid("identifier", "ailab.element.taken")
	}
	if err != nil {
		return errs.Internal("create element: %w", err)
	}
	return nil
}

// Elements lists the owner's elements by identifier.
func (db *DB) Elements(ctx context.Context, ownerID int64) ([]ailab.Element, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, owner_id, name, unit, identifier FROM ailab_elements
		WHERE owner_id = $1 ORDER BY identifier`, ownerID)
	if err != nil {
		return nil, errs.Internal("elements: %w", err)
	}
	defer rows.Close()
	out := []ailab.Element{}
	for rows.Next() {
		var e ailab.Element
		if err := rows.Scan(&e.ID, &e.OwnerID, &e.Name, &e.Unit, &e.Identifier); err != nil {
			return nil, errs.Internal("elements: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// DeleteElement removes one of the owner's elements. ENOTFOUND.
func (db *DB) DeleteElement(ctx context.Context, ownerID, id int64) error {
	return db.execOne(ctx, "delete element", `DELETE FROM ailab_elements WHERE id = $1 AND owner_id = $2`, id, ownerID)
}
