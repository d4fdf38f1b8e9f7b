package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/exports"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/sheet"
)

var _ exports.Store = (*DB)(nil)

const exportColumns = `id, account_id, device_id, params, nodes, email, begin_at, end_at, dim, format, lang,
	status, progress, row_count, attempts, error, created_at, next_at, lease_until, finished_at, kind, briefing_id`

func scanExport(row interface{ Scan(...any) error }) (*exports.Job, error) {
	var (
		j                                    exports.Job
		params, nodes, dim, format, lang, st string
		begin, end, created, next            int64
		lease, finished, device, briefing    sql.NullInt64
		kind                                 string
	)
	err := row.Scan(&j.ID, &j.AccountID, &device, &params, &nodes, &j.Email, &begin, &end, &dim, &format, &lang,
		&st, &j.Progress, &j.Rows, &j.Attempts, &j.Error, &created, &next, &lease, &finished, &kind, &briefing)
	if err != nil {
		return nil, err
	}
	if params != "" {
		j.Params = strings.Split(params, ",")
	}
	for n := range strings.SplitSeq(nodes, ",") {
		if v, err := strconv.Atoi(n); err == nil {
			j.Nodes = append(j.Nodes, v)
		}
	}
	j.Begin, j.End, j.CreatedAt, j.NextAt = fromMillis(begin), fromMillis(end), fromMillis(created), fromMillis(next)
	j.Dim, j.Format, j.Lang, j.Status = exports.Dim(dim), sheet.Format(format), i18n.Lang(lang), exports.Status(st)
	j.LeaseUntil, j.FinishedAt = fromNullMillis(lease), fromNullMillis(finished)
	j.Kind, j.DeviceID, j.BriefingID = exports.Kind(kind), device.Int64, briefing.Int64
	return &j, nil
}

func formatInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

// CreateExport inserts a job.
func (db *DB) CreateExport(ctx context.Context, j *exports.Job) error {
	kind := j.Kind
	if kind == "" {
		kind = exports.KindData
	}
	_, err := db.exec(ctx, `INSERT INTO export_jobs (id, account_id, device_id, params, nodes, email,
		begin_at, end_at, dim, format, lang, status, created_at, next_at, kind, briefing_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
		j.ID, j.AccountID, nullID(j.DeviceID), strings.Join(j.Params, ","), formatInts(j.Nodes), j.Email,
		millis(j.Begin), millis(j.End), string(j.Dim), string(j.Format), string(j.Lang), string(j.Status),
		millis(j.CreatedAt), millis(j.NextAt), string(kind), nullID(j.BriefingID))
	if err != nil {
		return errs.Internal("create export: %w", err)
	}
	return nil
}

// FindExport returns ENOTFOUND when absent.
func (db *DB) FindExport(ctx context.Context, id string) (*exports.Job, error) {
	j, err := scanExport(db.sql.QueryRowContext(ctx, `SELECT `+exportColumns+` FROM export_jobs WHERE id = $1`, id))
	if err != nil {
		return nil, notFound(err, "find export")
	}
	return j, nil
}

// ClaimExport takes the oldest due job for one attempt, or returns nil when
// none is due. The pick and the update are one statement; on PostgreSQL the
// pick skips rows another node is claiming (FOR UPDATE SKIP LOCKED), and the
// update re-checks that the row is still due, so concurrent claims never
// share a job. SQLite has a single writer, which serializes them.
func (db *DB) ClaimExport(ctx context.Context, now time.Time, lease time.Duration, maxAttempts int) (*exports.Job, error) {
	due := `((status = 'queued' AND next_at <= $1) OR (status = 'running' AND lease_until < $1 AND attempts < $2))`
	j, err := scanExport(db.sql.QueryRowContext(ctx, `UPDATE export_jobs
		SET status = 'running', attempts = attempts + 1, lease_until = $3, progress = 0, row_count = 0
		WHERE id = (SELECT id FROM export_jobs WHERE `+due+` ORDER BY next_at, id LIMIT 1`+db.dialect.skipLocked("")+`) AND `+due+`
		RETURNING `+exportColumns, millis(now), maxAttempts, millis(now.Add(lease))))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, errs.Internal("claim export: %w", err)
	}
	return j, nil
}

// ExpireExports fails running jobs whose lease passed after their last
// allowed attempt.
func (db *DB) ExpireExports(ctx context.Context, now time.Time, maxAttempts int, errKey string) (int64, error) {
	res, err := db.exec(ctx, `UPDATE export_jobs SET status = 'failed', error = $1, finished_at = $2, lease_until = NULL
		WHERE status = 'running' AND lease_until < $2 AND attempts >= $3`, errKey, millis(now), maxAttempts)
	if err != nil {
		return 0, errs.Internal("expire exports: %w", err)
	}
	return res.RowsAffected()
}

// ExportProgress records an attempt's progress and extends its lease.
// Returns ENOTFOUND when the attempt no longer holds the job.
func (db *DB) ExportProgress(ctx context.Context, id string, attempt, progress int, rows int64, leaseUntil time.Time) error {
	return db.execOne(ctx, "export progress", `UPDATE export_jobs SET progress = $1, row_count = $2, lease_until = $3
		WHERE id = $4 AND attempts = $5 AND status = 'running'`, progress, rows, millis(leaseUntil), id, attempt)
}

// RetryExport queues an attempt's job again for nextAt. Returns ENOTFOUND
// when the attempt no longer holds the job.
func (db *DB) RetryExport(ctx context.Context, id string, attempt int, nextAt time.Time) error {
	return db.execOne(ctx, "retry export", `UPDATE export_jobs SET status = 'queued', next_at = $1, lease_until = NULL
		WHERE id = $2 AND attempts = $3 AND status = 'running'`, millis(nextAt), id, attempt)
}

// FinishExport ends an attempt's job as sent or ready (progress 100) or
// failed.
// Returns ENOTFOUND when the attempt no longer holds the job.
func (db *DB) FinishExport(ctx context.Context, id string, attempt int, st exports.Status, errKey string, rows int64, at time.Time) error {
	return db.execOne(ctx, "finish export", `UPDATE export_jobs
		SET status = $1, error = $2, row_count = $3, finished_at = $4, lease_until = NULL,
			progress = CASE WHEN $1 IN ('sent', 'ready') THEN 100 ELSE progress END
		WHERE id = $5 AND attempts = $6 AND status = 'running'`, string(st), errKey, rows, millis(at), id, attempt)
}

// PurgeExports deletes finished jobs created before before.
func (db *DB) PurgeExports(ctx context.Context, before time.Time) (int64, error) {
	res, err := db.exec(ctx, `DELETE FROM export_jobs WHERE status IN ('sent', 'ready', 'failed') AND created_at < $1`, millis(before))
	if err != nil {
		return 0, errs.Internal("purge exports: %w", err)
	}
	return res.RowsAffected()
}
