package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

const modelColumns = `id, owner_id, name, version, kind, file_name, size, manifest, operators, created_at`

// CreateModel stores a checked package (m from ailab.ReadPackage) with its
// bytes and sets m.ID. A name and version the owner already has is
// EINVALID (manifest.version) ailab.model.taken.
func (db *DB) CreateModel(ctx context.Context, m *ailab.StoredModel, data []byte) error {
	man, err := json.Marshal(m.Manifest)
	if err != nil {
		return errs.Internal("create model: %w", err)
	}
	err = db.writeRow(ctx, `INSERT INTO ailab_models (owner_id, name, version, kind, file_name, size, manifest,
		operators, data, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
		[]any{m.OwnerID, m.Name, m.Version, m.Kind, m.FileName, int64(len(data)), string(man),
			strings.Join(m.Operators, ","), data, millis(m.CreatedAt)}, &m.ID)
	if isUniqueViolation(err) {
		return errs.Invalid("manifest.version", "ailab.model.taken")
	}
	if err != nil {
		return errs.Internal("create model: %w", err)
	}
	m.Size = int64(len(data))
	return nil
}

// Models lists the owner's models, newest first.
func (db *DB) Models(ctx context.Context, ownerID int64) ([]ailab.StoredModel, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+modelColumns+` FROM ailab_models
		WHERE owner_id = $1 ORDER BY id DESC`, ownerID)
	if err != nil {
		return nil, errs.Internal("models: %w", err)
	}
	defer rows.Close()
	out := []ailab.StoredModel{}
	for rows.Next() {
		m, err := scanModel(rows)
		if err != nil {
			return nil, errs.Internal("models: %w", err)
		}
		out = append(out, *m)
	}
	return out, rows.Err()
}

// Model returns one of the owner's models; ENOTFOUND for another
// account's as for none.
func (db *DB) Model(ctx context.Context, ownerID, id int64) (*ailab.StoredModel, error) {
	m, err := scanModel(db.sql.QueryRowContext(ctx, `SELECT `+modelColumns+` FROM ailab_models
		WHERE id = $1 AND owner_id = $2`, id, ownerID))
	if err != nil {
		return nil, notFound(err, "model")
	}
	return m, nil
}

// ModelData returns the package of one of the owner's models. ENOTFOUND.
func (db *DB) ModelData(ctx context.Context, ownerID, id int64) ([]byte, error) {
	var data []byte
	err := db.sql.QueryRowContext(ctx, `SELECT data FROM ailab_models WHERE id = $1 AND owner_id = $2`,
		id, ownerID).Scan(&data)
	if err != nil {
		return nil, notFound(err, "model data")
	}
	return data, nil
}

// DeleteModel removes one of the owner's models. ENOTFOUND; EINVALID
// (modelId) ailab.model.inUse while an application runs it.
func (db *DB) DeleteModel(ctx context.Context, ownerID, id int64) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := modelInUse(ctx, tx, ownerID, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM ailab_models WHERE id = $1 AND owner_id = $2`, id, ownerID)
		if err != nil {
			return errs.Internal("delete model: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		return nil
	})
}

func scanModel(r rowScanner) (*ailab.StoredModel, error) {
	var (
		m         ailab.StoredModel
		man, opsS string
		created   int64
	)
	if err := r.Scan(&m.ID, &m.OwnerID, &m.Name, &m.Version, &m.Kind, &m.FileName, &m.Size, &man, &opsS, &created); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(man), &m.Manifest); err != nil {
		return nil, err
	}
	m.Operators = []string{}
	if opsS != "" {
		m.Operators = strings.Split(opsS, ",")
	}
	m.CreatedAt = fromMillis(created)
	return &m, nil
}
