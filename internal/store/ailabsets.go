package store

import (
	"context"
	"database/sql"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// CreateSet stores version 1 of a new set of the owner's samples, with
// their labels as they are now, and sets s.ID and s.Version. A sample not
// the owner's is ENOTFOUND; a name already used is EINVALID
// (name) ailab.set.nameTaken.
func (db *DB) CreateSet(ctx context.Context, s *ailab.Set) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM ailab_sets WHERE owner_id = $1 AND name = $2`,
			s.OwnerID, s.Name).Scan(&n); err != nil {
			return errs.Internal("create set: %w", err)
		}
		if n > 0 {
			return errs.Invalid("name", "ailab.set.nameTaken")
		}
		s.Version = 1
		return insertSetVersion(ctx, tx, s)
	})
}

func insertSetVersion(ctx context.Context, tx *sql.Tx, s *ailab.Set) error {
	if err := tx.QueryRowContext(ctx, `INSERT INTO ailab_sets (owner_id, name, version, description, created_at)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`, s.OwnerID, s.Name, s.Version, s.Description, millis(s.CreatedAt)).Scan(&s.ID); err != nil {
		return errs.Internal("create set: %w", err)
	}
	for _, id := range s.SampleIDs {
		res, err := tx.ExecContext(ctx, `INSERT INTO ailab_set_samples (set_id, sample_id, labels)
			SELECT $1, id, labels FROM ailab_samples WHERE id = $2 AND owner_id = $3
			ON CONFLICT DO NOTHING`, s.ID, id, s.OwnerID)
		if err != nil {
			return errs.Internal("create set: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var dup int
			_ = tx.QueryRowContext(ctx, `SELECT count(*) FROM ailab_set_samples WHERE set_id = $1 AND sample_id = $2`, s.ID, id).Scan(&dup)
			if dup == 0 {
				return errs.NotFound()
			}
		}
	}
	s.Used = false
	return nil
}

// UpdateSet edits one of the owner's set versions: in place while it is
// unused, else as its next version (the used one is left as it was). The
// samples' labels are taken as they are now. It returns the version
// written. ENOTFOUND for a set or sample not the owner's.
func (db *DB) UpdateSet(ctx context.Context, s *ailab.Set) (*ailab.Set, error) {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var used bool
		if err := tx.QueryRowContext(ctx, `SELECT used FROM ailab_sets WHERE id = $1 AND owner_id = $2`, s.ID, s.OwnerID).Scan(&used); err != nil {
			return notFound(err, "update set")
		}
		if used {
			if err := tx.QueryRowContext(ctx, `SELECT s.name, (SELECT max(version) FROM ailab_sets v WHERE v.owner_id = s.owner_id AND v.name = s.name) + 1
				FROM ailab_sets s WHERE s.id = $1`, s.ID).Scan(&s.Name, &s.Version); err != nil {
				return errs.Internal("update set: %w", err)
			}
			return insertSetVersion(ctx, tx, s)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ailab_sets SET description = $2 WHERE id = $1`, s.ID, s.Description); err != nil {
			return errs.Internal("update set: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM ailab_set_samples WHERE set_id = $1`, s.ID); err != nil {
			return errs.Internal("update set: %w", err)
		}
		for _, id := range s.SampleIDs {
			res, err := tx.ExecContext(ctx, `INSERT INTO ailab_set_samples (set_id, sample_id, labels)
				SELECT $1, id, labels FROM ailab_samples WHERE id = $2 AND owner_id = $3 ON CONFLICT DO NOTHING`, s.ID, id, s.OwnerID)
			if err != nil {
				return errs.Internal("update set: %w", err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				var mine int
				_ = tx.QueryRowContext(ctx, `SELECT count(*) FROM ailab_samples WHERE id = $1 AND owner_id = $2`, id, s.OwnerID).Scan(&mine)
				if mine == 0 {
					return errs.NotFound()
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return db.Set(ctx, s.OwnerID, s.ID)
}

// MarkSetUsed makes a set version immutable (exported, tested). ENOTFOUND.
func (db *DB) MarkSetUsed(ctx context.Context, ownerID, id int64) error {
	return db.execOne(ctx, "mark set used", `UPDATE ailab_sets SET used = TRUE WHERE id = $1 AND owner_id = $2`, id, ownerID)
}

// DeleteSet removes one of the owner's set versions. ENOTFOUND.
func (db *DB) DeleteSet(ctx context.Context, ownerID, id int64) error {
	return db.execOne(ctx, "delete set", `DELETE FROM ailab_sets WHERE id = $1 AND owner_id = $2`, id, ownerID)
}

// Sets lists the owner's set versions, newest first.
func (db *DB) Sets(ctx context.Context, ownerID int64) ([]ailab.Set, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id FROM ailab_sets WHERE owner_id = $1 ORDER BY id DESC`, ownerID)
	if err != nil {
		return nil, errs.Internal("sets: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, errs.Internal("sets: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	out := []ailab.Set{}
	for _, id := range ids {
		s, err := db.Set(ctx, ownerID, id)
		if err != nil {
			return nil, err
		}
		out = append(out, *s)
	}
	return out, nil
}

// Set returns one of the owner's set versions with its counts. ENOTFOUND.
func (db *DB) Set(ctx context.Context, ownerID, id int64) (*ailab.Set, error) {
	s, items, err := db.setItems(ctx, ownerID, id, false)
	if err != nil {
		return nil, err
	}
	s.Rows, s.Columns = len(items), len(ailab.Classes(items))
	s.SampleIDs = make([]int64, len(items))
	for i, it := range items {
		s.SampleIDs[i] = it.Sample.ID
	}
	return s, nil
}

// SetExport returns a set version's samples with the labels the version
// holds and their pictures. ENOTFOUND.
func (db *DB) SetExport(ctx context.Context, ownerID, id int64) (*ailab.Set, []ailab.ExportItem, error) {
	return db.setItems(ctx, ownerID, id, true)
}

func (db *DB) setItems(ctx context.Context, ownerID, id int64, withData bool) (*ailab.Set, []ailab.ExportItem, error) {
	var (
		s       ailab.Set
		created int64
	)
	err := db.sql.QueryRowContext(ctx, `SELECT id, owner_id, name, version, description, used, created_at
		FROM ailab_sets WHERE id = $1 AND owner_id = $2`, id, ownerID).Scan(&s.ID, &s.OwnerID, &s.Name, &s.Version,
		&s.Description, &s.Used, &created)
	if err != nil {
		return nil, nil, notFound(err, "set")
	}
	s.CreatedAt = fromMillis(created)
	data := "NULL"
	if withData {
		data = "COALESCE(m.data, i.data)"
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT m.id, m.owner_id, m.device_id, m.image_id, m.device_name, m.sn, m.sample_time,
		m.tag, m.duration, m.location, m.content_type, m.width, m.height, ss.labels, m.created_at, `+data+`
		FROM ailab_set_samples ss JOIN ailab_samples m ON m.id = ss.sample_id LEFT JOIN images i ON i.id = m.image_id
		WHERE ss.set_id = $1 ORDER BY m.id`, id)
	if err != nil {
		return nil, nil, errs.Internal("set samples: %w", err)
	}
	defer rows.Close()
	items := []ailab.ExportItem{}
	for rows.Next() {
		var (
			it   ailab.ExportItem
			blob []byte
		)
		smp, err := scanSample(scanFunc(func(dest ...any) error { return rows.Scan(append(dest, &blob)...) }))
		if err != nil {
			return nil, nil, errs.Internal("set samples: %w", err)
		}
		it.Sample, it.Data = *smp, blob
		items = append(items, it)
	}
	return &s, items, rows.Err()
}

type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }
