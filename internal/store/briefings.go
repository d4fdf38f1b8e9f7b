package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/briefing"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

var _ briefing.Store = (*DB)(nil)

const briefingColumns = `id, owner_id, config, last_run_at, created_at, updated_at`

func scanBriefing(s interface{ Scan(...any) error }) (*briefing.Preset, error) {
	var (
		p            briefing.Preset
		id, owner    int64
		config       string
		created, upd int64
		last         sql.NullInt64
	)
	if err := s.Scan(&id, &owner, &config, &last, &created, &upd); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(config), &p); err != nil {
		return nil, fmt.Errorf("briefing %d config: %w", id, err)
	}
	p.ID, p.OwnerID = id, owner
	p.CreatedAt, p.UpdatedAt = fromMillis(created), fromMillis(upd)
	p.LastRunAt = fromNullMillis(last)
	return &p, nil
}

func briefingConfig(p *briefing.Preset) (string, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return "", errs.Internal("briefing config: %w", err)
	}
	return string(b), nil
}

// CreateBriefing stores a validated preset. Its schedule counts from its
// creation: a scheduled time already past does not come out.
func (db *DB) CreateBriefing(ctx context.Context, p *briefing.Preset) error {
	config, err := briefingConfig(p)
	if err != nil {
		return err
	}
	if err := db.writeRow(ctx, `INSERT INTO soil_briefings (owner_id, name, template_id, config,
		schedule_enabled, last_run_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		[]any{p.OwnerID, p.Name, p.TemplateID, config, p.Schedule.Enabled, millis(p.CreatedAt), millis(p.CreatedAt), millis(p.UpdatedAt)}, &p.ID); err != nil {
		return errs.Internal("create briefing: %w", err)
	}
	return nil
}

// UpdateBriefing replaces one of p.OwnerID's presets. A schedule switched
// on counts from then. Returns ENOTFOUND.
func (db *DB) UpdateBriefing(ctx context.Context, p *briefing.Preset) error {
	config, err := briefingConfig(p)
	if err != nil {
		return err
	}
	return db.execOne(ctx, "update briefing", `UPDATE soil_briefings SET name = $1, template_id = $2, config = $3,
		last_run_at = CASE WHEN $4 AND NOT schedule_enabled THEN $5 ELSE last_run_at END,
		schedule_enabled = $4, updated_at = $5 WHERE id = $6 AND owner_id = $7`,
		p.Name, p.TemplateID, config, p.Schedule.Enabled, millis(p.UpdatedAt), p.ID, p.OwnerID)
}

// Briefing returns one of owner's presets. Returns ENOTFOUND.
func (db *DB) Briefing(ctx context.Context, owner, id int64) (*briefing.Preset, error) {
	p, err := scanBriefing(db.sql.QueryRowContext(ctx, `SELECT `+briefingColumns+` FROM soil_briefings
		WHERE id = $1 AND owner_id = $2`, id, owner))
	if err != nil {
		return nil, notFound(err, "briefing")
	}
	return p, nil
}

// Briefings returns a page of owner's presets, newest first.
func (db *DB) Briefings(ctx context.Context, owner int64, page, size int) ([]*briefing.Preset, int, error) {
	var total int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM soil_briefings WHERE owner_id = $1`, owner).Scan(&total); err != nil {
		return nil, 0, errs.Internal("briefings: %w", err)
	}
	return db.queryBriefings(ctx, total, `SELECT `+briefingColumns+` FROM soil_briefings WHERE owner_id = $1
		ORDER BY id DESC LIMIT $2 OFFSET $3`, owner, size, (page-1)*size)
}

// ScheduledBriefings returns every preset whose schedule is on, of every
// owner, for the scheduler.
func (db *DB) ScheduledBriefings(ctx context.Context) ([]*briefing.Preset, error) {
	list, _, err := db.queryBriefings(ctx, 0, `SELECT `+briefingColumns+` FROM soil_briefings
		WHERE schedule_enabled ORDER BY id`)
	return list, err
}

func (db *DB) queryBriefings(ctx context.Context, total int, query string, args ...any) ([]*briefing.Preset, int, error) {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, 0, errs.Internal("briefings: %w", err)
	}
	defer rows.Close()
	out := []*briefing.Preset{}
	for rows.Next() {
		p, err := scanBriefing(rows)
		if err != nil {
			return nil, 0, errs.Internal("briefings: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, errs.Internal("briefings: %w", err)
	}
	return out, total, nil
}

// DeleteBriefing deletes one of owner's presets. Returns ENOTFOUND.
func (db *DB) DeleteBriefing(ctx context.Context, owner, id int64) error {
	return db.execOne(ctx, "delete briefing", `DELETE FROM soil_briefings WHERE id = $1 AND owner_id = $2`, id, owner)
}

// ClaimBriefingRun records that the scheduled report of slot is queued,
// unless it (or a later one) already was: true when this call claimed it.
func (db *DB) ClaimBriefingRun(ctx context.Context, id int64, slot time.Time) (bool, error) {
	res, err := db.exec(ctx, `UPDATE soil_briefings SET last_run_at = $1
		WHERE id = $2 AND schedule_enabled AND (last_run_at IS NULL OR last_run_at < $1)`, millis(slot), id)
	if err != nil {
		return false, errs.Internal("claim briefing run: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
