package store

import (
	"context"
	"database/sql"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/et0grid"
)

// AddET0Area keeps an account's area and sets its ID.
func (db *DB) AddET0Area(ctx context.Context, a *et0grid.Area) error {
	err := db.sql.QueryRowContext(ctx, `INSERT INTO et0_areas (account_id, name, west, south, east, north, cell, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		a.AccountID, a.Name, a.Box.West, a.Box.South, a.Box.East, a.Box.North, a.Cell, millis(a.CreatedAt)).Scan(&a.ID)
	if err != nil {
		return errs.Internal("add ET0 area: %w", err)
	}
	return nil
}

// ET0Areas lists an account's areas, newest first.
func (db *DB) ET0Areas(ctx context.Context, account int64) ([]et0grid.Area, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, account_id, name, west, south, east, north, cell, created_at
		FROM et0_areas WHERE account_id = $1 ORDER BY id DESC`, account)
	if err != nil {
		return nil, errs.Internal("ET0 areas: %w", err)
	}
	defer rows.Close()
	out := []et0grid.Area{}
	for rows.Next() {
		a, err := scanET0Area(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *a)
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("ET0 areas: %w", err)
	}
	return out, nil
}

// ET0Area returns one of the account's areas; ENOTFOUND for another's, as
// for none.
func (db *DB) ET0Area(ctx context.Context, account, id int64) (*et0grid.Area, error) {
	a, err := scanET0Area(db.sql.QueryRowContext(ctx, `SELECT id, account_id, name, west, south, east, north, cell, created_at
		FROM et0_areas WHERE id = $1 AND account_id = $2`, id, account))
	if err == sql.ErrNoRows {
		return nil, errs.NotFound()
	}
	return a, err
}

// DeleteET0Area removes one of the account's areas; ENOTFOUND otherwise.
func (db *DB) DeleteET0Area(ctx context.Context, account, id int64) error {
	return db.execOne(ctx, "delete ET0 area", `DELETE FROM et0_areas WHERE id = $1 AND account_id = $2`, id, account)
}

func scanET0Area(row interface{ Scan(...any) error }) (*et0grid.Area, error) {
	var (
		a       et0grid.Area
		created int64
	)
	err := row.Scan(&a.ID, &a.AccountID, &a.Name, &a.Box.West, &a.Box.South, &a.Box.East, &a.Box.North, &a.Cell, &created)
	if err == sql.ErrNoRows {
		return nil, err
	}
	if err != nil {
		return nil, errs.Internal("ET0 area: %w", err)
	}
	a.CreatedAt = fromMillis(created)
	return &a, nil
}
