package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// This file keeps the AI lab's applications, the queue of their runs
// (ailab_jobs) and the detection records the runs leave.

const labAppColumns = `a.id, a.owner_id, a.name, a.medium_name, a.description, a.type, a.model_id, a.elements,
	a.published, a.created_at, a.updated_at`

func scanLabApp(r rowScanner) (*ailab.App, error) {
	var (
		a                ailab.App
		elements         string
		created, updated int64
	)
	if err := r.Scan(&a.ID, &a.OwnerID, &a.Name, &a.MediumName, &a.Description, &a.Type, &a.ModelID, &elements,
		&a.Published, &created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(elements), &a.Elements); err != nil {
		return nil, err
	}
	a.CreatedAt, a.UpdatedAt = fromMillis(created), fromMillis(updated)
	a.DeviceIDs = []int64{}
	return &a, nil
}

// checkLabAppDevices refuses devices another published application of the
// owner watches: a device's detection reading comes from one application.
func checkLabAppDevices(ctx context.Context, tx *sql.Tx, a *ailab.App) error {
	if len(a.DeviceIDs) == 0 {
		return nil
	}
	in := make([]string, len(a.DeviceIDs))
	for i, id := range a.DeviceIDs {
		in[i] = strconv.FormatInt(id, 10)
	}
	var device, app string
	err := tx.QueryRowContext(ctx, `SELECT d.name, o.name FROM ailab_app_devices ad
		JOIN ailab_apps o ON o.id = ad.app_id JOIN devices d ON d.id = ad.device_id
		WHERE o.owner_id = $1 AND o.published AND o.id <> $2 AND ad.device_id IN (`+strings.Join(in, ",")+`)
		ORDER BY ad.device_id LIMIT 1`, a.OwnerID, a.ID).Scan(&device, &app)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return errs.Internal("application devices: %w", err)
	}
	return errs.Invalid("deviceIds", "ailab.app.deviceTaken").With(map[string]any{"device": device, "app": app})
}

func setLabAppDevices(ctx context.Context, tx *sql.Tx, a *ailab.App) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM ailab_app_devices WHERE app_id = $1`, a.ID); err != nil {
		return errs.Internal("application devices: %w", err)
	}
	for _, d := range a.DeviceIDs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ailab_app_devices (app_id, device_id) VALUES ($1, $2)`, a.ID, d); err != nil {
			return errs.Internal("application devices: %w", err)
		}
	}
	return nil
}

// CreateLabApp stores a checked application with its devices and sets a.ID.
// A name the owner already uses is EINVALID (name) ailab.app.nameTaken;
// a published one watching a device another published application watches
// is EINVALID (deviceIds) ailab.app.deviceTaken.
func (db *DB) CreateLabApp(ctx context.Context, a *ailab.App) error {
	elements, err := json.Marshal(a.Elements)
	if err != nil {
		return errs.Internal("create application: %w", err)
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if a.Published {
			if err := checkLabAppDevices(ctx, tx, a); err != nil {
				return err
			}
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO ailab_apps (owner_id, name, medium_name, description, type, model_id,
			elements, published, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
			a.OwnerID, a.Name, a.MediumName, a.Description, a.Type, a.ModelID, string(elements), a.Published,
			millis(a.CreatedAt), millis(a.UpdatedAt)).Scan(&a.ID)
		if isUniqueViolation(err) {
			return errs.Invalid("name", "ailab.app.nameTaken")
		}
		if err != nil {
			return errs.Internal("create application: %w", err)
		}
		return setLabAppDevices(ctx, tx, a)
	})
}

// UpdateLabApp replaces an application's form and devices (not its published
// flag). ENOTFOUND for another account's; errors as CreateLabApp.
func (db *DB) UpdateLabApp(ctx context.Context, a *ailab.App) error {
	elements, err := json.Marshal(a.Elements)
	if err != nil {
		return errs.Internal("update application: %w", err)
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT published FROM ailab_apps WHERE id = $1 AND owner_id = $2`,
			a.ID, a.OwnerID).Scan(&a.Published); err != nil {
			return notFound(err, "update application")
		}
		if a.Published {
			if err := checkLabAppDevices(ctx, tx, a); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE ailab_apps SET name = $1, medium_name = $2, description = $3, type = $4,
			model_id = $5, elements = $6, updated_at = $7 WHERE id = $8`,
			a.Name, a.MediumName, a.Description, a.Type, a.ModelID, string(elements), millis(a.UpdatedAt), a.ID)
		if isUniqueViolation(err) {
			return errs.Invalid("name", "ailab.app.nameTaken")
		}
		if err != nil {
			return errs.Internal("update application: %w", err)
		}
		// Runs still waiting for a device no longer watched are dropped.
		if _, err := tx.ExecContext(ctx, `DELETE FROM ailab_jobs WHERE app_id = $1 AND status = 'queued'
			AND device_id NOT IN (SELECT device_id FROM ailab_app_devices WHERE app_id = $1)`, a.ID); err != nil {
			return errs.Internal("update application: %w", err)
		}
		return setLabAppDevices(ctx, tx, a)
	})
}

// SetLabAppPublished publishes or withdraws one of the owner's applications.
// Publishing checks its devices as CreateLabApp does; withdrawing drops the
// runs still queued. ENOTFOUND for another account's.
func (db *DB) SetLabAppPublished(ctx context.Context, ownerID, id int64, published bool, at time.Time) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		a, err := scanLabApp(tx.QueryRowContext(ctx, `SELECT `+labAppColumns+` FROM ailab_apps a WHERE a.id = $1 AND a.owner_id = $2`, id, ownerID))
		if err != nil {
			return notFound(err, "publish application")
		}
		if published {
			if a.DeviceIDs, err = labAppDevices(ctx, tx, id); err != nil {
				return err
			}
			if err := checkLabAppDevices(ctx, tx, a); err != nil {
				return err
			}
		} else if _, err := tx.ExecContext(ctx, `DELETE FROM ailab_jobs WHERE app_id = $1 AND status = 'queued'`, id); err != nil {
			return errs.Internal("publish application: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ailab_apps SET published = $1, updated_at = $2 WHERE id = $3`,
			published, millis(at), id); err != nil {
			return errs.Internal("publish application: %w", err)
		}
		return nil
	})
}

// DeleteLabApp removes one of the owner's applications with its devices and
// queued runs; its detection records stay. ENOTFOUND.
func (db *DB) DeleteLabApp(ctx context.Context, ownerID, id int64) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM ailab_apps WHERE id = $1 AND owner_id = $2`, id, ownerID)
		if err != nil {
			return errs.Internal("delete application: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		for _, q := range []string{`DELETE FROM ailab_app_devices WHERE app_id = $1`, `DELETE FROM ailab_jobs WHERE app_id = $1`} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return errs.Internal("delete application: %w", err)
			}
		}
		return nil
	})
}

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func labAppDevices(ctx context.Context, q queryer, id int64) ([]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT device_id FROM ailab_app_devices WHERE app_id = $1 ORDER BY device_id`, id)
	if err != nil {
		return nil, errs.Internal("application devices: %w", err)
	}
	defer rows.Close()
	out := []int64{}
	for rows.Next() {
		var d int64
		if err := rows.Scan(&d); err != nil {
			return nil, errs.Internal("application devices: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// LabApps lists the owner's applications, newest first, with their devices.
func (db *DB) LabApps(ctx context.Context, ownerID int64) ([]ailab.App, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+labAppColumns+` FROM ailab_apps a WHERE a.owner_id = $1 ORDER BY a.id DESC`, ownerID)
	if err != nil {
		return nil, errs.Internal("applications: %w", err)
	}
	out := []ailab.App{}
	for rows.Next() {
		a, err := scanLabApp(rows)
		if err != nil {
			rows.Close()
			return nil, errs.Internal("applications: %w", err)
		}
		out = append(out, *a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("applications: %w", err)
	}
	for i := range out {
		if out[i].DeviceIDs, err = labAppDevices(ctx, db.sql, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// LabApp returns one of the owner's applications; ENOTFOUND for another
// account's as for none.
func (db *DB) LabApp(ctx context.Context, ownerID, id int64) (*ailab.App, error) {
	a, err := scanLabApp(db.sql.QueryRowContext(ctx, `SELECT `+labAppColumns+` FROM ailab_apps a WHERE a.id = $1 AND a.owner_id = $2`, id, ownerID))
	if err != nil {
		return nil, notFound(err, "application")
	}
	if a.DeviceIDs, err = labAppDevices(ctx, db.sql, id); err != nil {
		return nil, err
	}
	return a, nil
}

// LabAppJobCounts counts the runs of the owner's applications by state.
func (db *DB) LabAppJobCounts(ctx context.Context, ownerID int64) (map[int64]ailab.JobCounts, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT j.app_id, j.status, COUNT(*) FROM ailab_jobs j
		JOIN ailab_apps a ON a.id = j.app_id WHERE a.owner_id = $1 GROUP BY j.app_id, j.status`, ownerID)
	if err != nil {
		return nil, errs.Internal("application jobs: %w", err)
	}
	defer rows.Close()
	out := map[int64]ailab.JobCounts{}
	for rows.Next() {
		var (
			app    int64
			status string
			n      int
		)
		if err := rows.Scan(&app, &status, &n); err != nil {
			return nil, errs.Internal("application jobs: %w", err)
		}
		c := out[app]
		switch status {
		case ailab.JobQueued:
			c.Queued = n
		case ailab.JobRunning:
			c.Running = n
		case ailab.JobDone:
			c.Done = n
		case ailab.JobFailed:
			c.Failed = n
		}
		out[app] = c
	}
	return out, rows.Err()
}

// modelInUse refuses to remove a model an application runs.
func modelInUse(ctx context.Context, tx *sql.Tx, ownerID, id int64) error {
	var name string
	err := tx.QueryRowContext(ctx, `SELECT name FROM ailab_apps WHERE owner_id = $1 AND model_id = $2 ORDER BY id LIMIT 1`,
		ownerID, id).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return errs.Internal("model in use: %w", err)
	}
	return errs.Invalid("modelId", "ailab.model.inUse").With(map[string]any{"app": name})
}

// queueDetections queues a run of every published application of the
// device's owner watching it, for a picture just stored, taken at: due
// from then, so the runs of a backlog go in the order of their pictures.
func queueDetections(ctx context.Context, tx *sql.Tx, deviceID, imageID int64, at, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO ailab_jobs (app_id, image_id, device_id, status, next_at, created_at)
		SELECT a.id, $2, $1, 'queued', $3, $4 FROM ailab_app_devices ad
		JOIN ailab_apps a ON a.id = ad.app_id JOIN devices d ON d.id = ad.device_id AND d.owner_id = a.owner_id
		WHERE ad.device_id = $1 AND a.published
		ON CONFLICT DO NOTHING`, deviceID, imageID, millis(at), millis(now))
	if err != nil {
		return errs.Internal("queue detections: %w", err)
	}
	return nil
}

// ClaimDetection takes the oldest due run for one attempt, leased until
// now+lease, or returns nil when none is due: a queued one whose time has
// come, or a running one whose worker's lease ran out (a process that
// stopped mid-run) with attempts left. Pick and update are one statement;
// on PostgreSQL concurrent claims skip each other's rows.
func (db *DB) ClaimDetection(ctx context.Context, now time.Time, lease time.Duration, maxAttempts int) (*ailab.Job, error) {
	due := `((status = 'queued' AND next_at <= $1) OR (status = 'running' AND lease_until < $1 AND attempts < $2))`
	var j ailab.Job
	err := db.writeRow(ctx, `UPDATE ailab_jobs SET status = 'running', attempts = attempts + 1, lease_until = $3
		WHERE id = (SELECT id FROM ailab_jobs WHERE `+due+` ORDER BY next_at, id LIMIT 1`+db.dialect.skipLocked("")+`) AND `+due+`
		RETURNING id, app_id, image_id, device_id, attempts`,
		[]any{millis(now), maxAttempts, millis(now.Add(lease))}, &j.ID, &j.AppID, &j.ImageID, &j.DeviceID, &j.Attempts)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, errs.Internal("claim detection: %w", err)
	}
	return &j, nil
}

// ExpireDetections fails running runs whose lease passed after their last
// allowed attempt.
func (db *DB) ExpireDetections(ctx context.Context, now time.Time, maxAttempts int) (int64, error) {
	res, err := db.exec(ctx, `UPDATE ailab_jobs SET status = 'failed', error = 'the run did not finish', finished_at = $1,
		lease_until = NULL WHERE status = 'running' AND lease_until < $1 AND attempts >= $2`, millis(now), maxAttempts)
	if err != nil {
		return 0, errs.Internal("expire detections: %w", err)
	}
	return res.RowsAffected()
}

// DetectionWork loads what a claimed run works on. ENOTFOUND when the
// application, the picture, or the device's tie to the application's owner
// is gone: nothing to run.
func (db *DB) DetectionWork(ctx context.Context, j *ailab.Job) (*ailab.Work, error) {
	w := &ailab.Work{Job: *j}
	a, err := scanLabApp(db.sql.QueryRowContext(ctx, `SELECT `+labAppColumns+` FROM ailab_apps a WHERE a.id = $1`, j.AppID))
	if err != nil {
		return nil, notFound(err, "detection application")
	}
	w.App = *a
	var ts int64
	err = db.sql.QueryRowContext(ctx, `SELECT d.name, d.sn, d.type_id, d.location, d.lat, d.lng, i.ts, i.data
		FROM images i JOIN devices d ON d.id = i.device_id
		WHERE i.id = $1 AND d.id = $2 AND d.owner_id = $3`, j.ImageID, j.DeviceID, a.OwnerID).
		Scan(&w.DeviceName, &w.SN, &w.TypeID, &w.Location, &w.Lat, &w.Lng, &ts, &w.Picture)
	if err != nil {
		return nil, notFound(err, "detection picture")
	}
	w.PictureAt = fromMillis(ts)
	return w, nil
}

// FinishDetection stores a run's record (once: a record of the same
// application and picture is kept as it is) and marks the run done, if
// this attempt still holds it. ENOTFOUND when it does not.
func (db *DB) FinishDetection(ctx context.Context, j *ailab.Job, r *ailab.Record) error {
	packages, err := json.Marshal(r.Packages)
	if err != nil {
		return errs.Internal("finish detection: %w", err)
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE ailab_jobs SET status = 'done', finished_at = $1, lease_until = NULL, error = ''
			WHERE id = $2 AND attempts = $3 AND status = 'running'`, millis(r.CreatedAt), j.ID, j.Attempts)
		if err != nil {
			return errs.Internal("finish detection: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO ailab_records (owner_id, app_id, app_name, device_id, device_name, sn,
			image_id, detected_at, location, lat, lng, packages, millis, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT DO NOTHING`,
			r.OwnerID, r.AppID, r.AppName, r.DeviceID, r.DeviceName, r.SN, r.ImageID, millis(r.DetectedAt),
			r.Location, r.Lat, r.Lng, string(packages), r.Millis, millis(r.CreatedAt))
		if err != nil {
			return errs.Internal("finish detection: %w", err)
		}
		return nil
	})
}

// RetryDetection queues a failed attempt's run again for nextAt, or fails
// it for good when nextAt is zero. ENOTFOUND when the attempt no longer
// holds the run.
func (db *DB) RetryDetection(ctx context.Context, j *ailab.Job, runErr string, nextAt, now time.Time) error {
	runErr = truncate(runErr, 500)
	if nextAt.IsZero() {
		return db.execOne(ctx, "fail detection", `UPDATE ailab_jobs SET status = 'failed', error = $1, finished_at = $2,
			lease_until = NULL WHERE id = $3 AND attempts = $4 AND status = 'running'`, runErr, millis(now), j.ID, j.Attempts)
	}
	return db.execOne(ctx, "retry detection", `UPDATE ailab_jobs SET status = 'queued', error = $1, next_at = $2,
		lease_until = NULL WHERE id = $3 AND attempts = $4 AND status = 'running'`, runErr, millis(nextAt), j.ID, j.Attempts)
}

const recordColumns = `id, owner_id, app_id, app_name, device_id, device_name, sn, image_id, detected_at, location,
	lat, lng, packages, millis, created_at`

func recordWhere(ownerID int64, f ailab.RecordFilter) (string, []any) {
	where := []string{"owner_id = $1"}
	args := []any{ownerID}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	if f.DeviceID != 0 {
		add("device_id = $%d", f.DeviceID)
	}
	if f.AppID != 0 {
		add("app_id = $%d", f.AppID)
	}
	if !f.Begin.IsZero() {
		add("detected_at >= $%d", millis(f.Begin))
	}
	if !f.End.IsZero() {
		add("detected_at < $%d", millis(f.End))
	}
	return strings.Join(where, " AND "), args
}

// Records lists the owner's detection records matching f, newest first,
// and how many match in all.
func (db *DB) Records(ctx context.Context, ownerID int64, f ailab.RecordFilter) ([]ailab.Record, int, error) {
	where, args := recordWhere(ownerID, f)
	var total int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM ailab_records WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, errs.Internal("records: %w", err)
	}
	q := `SELECT ` + recordColumns + ` FROM ailab_records WHERE ` + where + ` ORDER BY detected_at DESC, id DESC`
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d OFFSET %d", f.Limit, f.Offset)
	}
	rows, err := db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, 0, errs.Internal("records: %w", err)
	}
	defer rows.Close()
	out := []ailab.Record{}
	for rows.Next() {
		var (
			r                 ailab.Record
			packages          string
			detected, created int64
			appID, imageID    sql.NullInt64
		)
		if err := rows.Scan(&r.ID, &r.OwnerID, &appID, &r.AppName, &r.DeviceID, &r.DeviceName, &r.SN, &imageID,
			&detected, &r.Location, &r.Lat, &r.Lng, &packages, &r.Millis, &created); err != nil {
			return nil, 0, errs.Internal("records: %w", err)
		}
		if err := json.Unmarshal([]byte(packages), &r.Packages); err != nil {
			return nil, 0, errs.Internal("records: %w", err)
		}
		if appID.Valid {
			r.AppID = &appID.Int64
		}
		if imageID.Valid {
			r.ImageID = &imageID.Int64
		}
		r.DetectedAt, r.CreatedAt = fromMillis(detected), fromMillis(created)
		out = append(out, r)
	}
	return out, total, rows.Err()
}

// DeleteRecord removes one of the owner's detection records. ENOTFOUND.
func (db *DB) DeleteRecord(ctx context.Context, ownerID, id int64) error {
	return db.execOne(ctx, "delete record", `DELETE FROM ailab_records WHERE id = $1 AND owner_id = $2`, id, ownerID)
}
