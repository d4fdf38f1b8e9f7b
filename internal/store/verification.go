package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

const verificationColumns = `id, account_id, purpose, channel, address, code_hash, attempts, client_ip, created_at, expires_at, used_at`

func scanVerification(row interface{ Scan(...any) error }) (*accounts.Verification, error) {
	var (
		v                accounts.Verification
		purpose, channel string
		created, expires int64
		used             sql.NullInt64
	)
	if err := row.Scan(&v.ID, &v.AccountID, &purpose, &channel, &v.Address, &v.CodeHash, &v.Attempts, &v.ClientIP,
		&created, &expires, &used); err != nil {
		return nil, err
	}
	v.Purpose, v.Channel = accounts.Purpose(purpose), accounts.Channel(channel)
	v.CreatedAt, v.ExpiresAt, v.UsedAt = fromMillis(created), fromMillis(expires), fromNullMillis(used)
	return &v, nil
}

// CreateVerification stores a code's verification.
func (db *DB) CreateVerification(ctx context.Context, v *accounts.Verification) error {
	_, err := db.exec(ctx, `INSERT INTO verification_codes (`+verificationColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL)`,
		v.ID, v.AccountID, string(v.Purpose), string(v.Channel), v.Address, v.CodeHash, v.Attempts, v.ClientIP,
		millis(v.CreatedAt), millis(v.ExpiresAt))
	if err != nil {
		return errs.Internal("create verification: %w", err)
	}
	return nil
}

// FindVerification returns ENOTFOUND when absent.
func (db *DB) FindVerification(ctx context.Context, id string) (*accounts.Verification, error) {
	v, err := scanVerification(db.sql.QueryRowContext(ctx, `SELECT `+verificationColumns+` FROM verification_codes WHERE id = $1`, id))
	if err != nil {
		return nil, notFound(err, "find verification")
	}
	return v, nil
}

// LatestVerification returns the newest unused code of the account for
// purpose to address on channel; ENOTFOUND when there is none.
func (db *DB) LatestVerification(ctx context.Context, accountID int64, purpose accounts.Purpose, channel accounts.Channel, address string) (*accounts.Verification, error) {
	v, err := scanVerification(db.sql.QueryRowContext(ctx, `SELECT `+verificationColumns+` FROM verification_codes
		WHERE account_id = $1 AND purpose = $2 AND channel = $3 AND address = $4 AND used_at IS NULL
		ORDER BY created_at DESC, id LIMIT 1`, accountID, string(purpose), string(channel), address))
	if err != nil {
		return nil, notFound(err, "latest verification")
	}
	return v, nil
}

// DeleteVerification removes one code; an absent one is not an error.
func (db *DB) DeleteVerification(ctx context.Context, id string) error {
	if _, err := db.exec(ctx, `DELETE FROM verification_codes WHERE id = $1`, id); err != nil {
		return errs.Internal("delete verification: %w", err)
	}
	return nil
}

// CountVerifications counts the codes f selects, with the newest's time.
func (db *DB) CountVerifications(ctx context.Context, f accounts.VerificationFilter) (int, time.Time, error) {
	q := `SELECT count(*), max(created_at) FROM verification_codes WHERE created_at >= $1 AND `
	args := []any{millis(f.Since)}
	switch {
	case f.Address != "":
		q += `channel = $2 AND address = $3`
		args = append(args, string(f.Channel), f.Address)
	case f.AccountID != 0:
		q += `account_id = $2`
		args = append(args, f.AccountID)
	case f.ClientIP != "":
		q += `client_ip = $2`
		args = append(args, f.ClientIP)
	default:
		return 0, time.Time{}, errs.Internal("count verifications: no filter")
	}
	var (
		n      int
		latest sql.NullInt64
	)
	if err := db.sql.QueryRowContext(ctx, q, args...).Scan(&n, &latest); err != nil {
		return 0, time.Time{}, errs.Internal("count verifications: %w", err)
	}
	if !latest.Valid {
		return n, time.Time{}, nil
	}
	return n, fromMillis(latest.Int64), nil
}

// UseVerificationAttempt counts one try unless the code is used or has most
// tries already; it reports whether it counted one. The check and the count
// are one statement, so concurrent tries cannot pass the limit.
func (db *DB) UseVerificationAttempt(ctx context.Context, id string, most int) (bool, error) {
	res, err := db.exec(ctx, `UPDATE verification_codes SET attempts = attempts + 1
		WHERE id = $1 AND attempts < $2 AND used_at IS NULL`, id, most)
	if err != nil {
		return false, errs.Internal("verification attempt: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, errs.Internal("verification attempt: %w", err)
	}
	return n == 1, nil
}

// CompleteVerification marks the code used and applies change in the same
// transaction. Returns ECONFLICT verify.code.used when it was used already,
// ENOTFOUND when the account is gone.
func (db *DB) CompleteVerification(ctx context.Context, id string, at time.Time, change accounts.AccountChange) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE verification_codes SET used_at = $1 WHERE id = $2 AND used_at IS NULL`, millis(at), id)
		if err != nil {
			return errs.Internal("use verification: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.New(errs.EConflict, "verify.code.used")
		}
		var q string
		var arg any
		switch {
		case change.PasswordHash != "":
			q, arg = `UPDATE accounts SET password_hash = $1 WHERE id = $2`, change.PasswordHash
		case change.Channel == accounts.ChannelEmail:
			q, arg = `UPDATE accounts SET mail = $1 WHERE id = $2`, change.Address
		case change.Channel == accounts.ChannelMobile:
			q, arg = `UPDATE accounts SET phone = $1 WHERE id = $2`, change.Address
		case change.Channel == accounts.ChannelWeChat && change.Address == "":
			q, arg = `UPDATE accounts SET wechat_openid = $1 WHERE id = $2`, ""
		default:
			return errs.Internal("complete verification: no change")
		}
		res, err = tx.ExecContext(ctx, q, arg, change.AccountID)
		if err != nil {
			return errs.Internal("complete verification: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		if change.PasswordHash != "" {
			if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = $1`, change.AccountID); err != nil {
				return errs.Internal("revoke sessions: %w", err)
			}
		}
		return nil
	})
}

// DeleteVerifications drops codes created before before.
func (db *DB) DeleteVerifications(ctx context.Context, before time.Time) error {
	if _, err := db.exec(ctx, `DELETE FROM verification_codes WHERE created_at < $1`, millis(before)); err != nil {
		return errs.Internal("delete verifications: %w", err)
	}
	return nil
}
