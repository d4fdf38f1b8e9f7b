package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

var _ accounts.Store = (*DB)(nil)

const accountColumns = `id, account_number, name, password_hash, phone, mail, wechat_openid, created_at, last_login_at, disabled_at`

func scanAccount(row interface{ Scan(...any) error }) (*accounts.Account, error) {
	var (
		a         accounts.Account
		created   int64
		lastLogin sql.NullInt64
		disabled  sql.NullInt64
	)
	err := row.Scan(&a.ID, &a.AccountNumber, &a.Name, &a.PasswordHash, &a.Phone, &a.Mail, &a.WechatOpenID, &created, &lastLogin, &disabled)
	if err != nil {
		return nil, err
	}
	a.CreatedAt = fromMillis(created)
	a.LastLoginAt = fromNullMillis(lastLogin)
	a.DisabledAt = fromNullMillis(disabled)
	return &a, nil
}

// CreateAccount inserts a and sets a.ID. Returns EINVALID (accountNumber):
// account.number.taken when the number is taken.
func (db *DB) CreateAccount(ctx context.Context, a *accounts.Account) error {
	err := db.writeRow(ctx,
		`INSERT INTO accounts (account_number, name, password_hash, phone, mail, wechat_openid, created_at)
		 VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
		[]any{a.AccountNumber, a.Name, a.PasswordHash, a.Phone, a.Mail, a.WechatOpenID, millis(a.CreatedAt)}, &a.ID)
	if isUniqueViolation(err) {
		return errs.Invalid("accountNumber", "account.number.taken")
	}
	if err != nil {
		return errs.Internal("create account: %w", err)
	}
	return nil
}

// FindAccountByNumber looks an account up by its number, ignoring case. Returns ENOTFOUND.
func (db *DB) FindAccountByNumber(ctx context.Context, number string) (*accounts.Account, error) {
	a, err := scanAccount(db.sql.QueryRowContext(ctx,
		`SELECT `+accountColumns+` FROM accounts WHERE lower(account_number) = lower($1)`, number))
	if err != nil {
		return nil, notFound(err, "find account")
	}
	return a, nil
}

// FindAccountByID returns ENOTFOUND when absent.
func (db *DB) FindAccountByID(ctx context.Context, id int64) (*accounts.Account, error) {
	a, err := scanAccount(db.sql.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE id = $1`, id))
	if err != nil {
		return nil, notFound(err, "find account")
	}
	return a, nil
}

// UpdateAccountName returns ENOTFOUND when the account is absent.
func (db *DB) UpdateAccountName(ctx context.Context, id int64, name string) error {
	return db.execOne(ctx, "rename account", `UPDATE accounts SET name = $1 WHERE id = $2`, name, id)
}

// UpdateAccountMail sets the address alert notifications go to. Returns ENOTFOUND.
func (db *DB) UpdateAccountMail(ctx context.Context, id int64, mail string) error {
	return db.execOne(ctx, "account mail", `UPDATE accounts SET mail = $1 WHERE id = $2`, mail, id)
}

// UpdatePassword stores a new hash and, in the same transaction, deletes every
// session of the account but keepSessionID. Returns ENOTFOUND.
func (db *DB) UpdatePassword(ctx context.Context, id int64, hash, keepSessionID string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET password_hash = $1 WHERE id = $2`, hash, id)
		if err != nil {
			return errs.Internal("update password: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = $1 AND id <> $2`, id, keepSessionID); err != nil {
			return errs.Internal("revoke sessions: %w", err)
		}
		return nil
	})
}

// SetLastLogin records the time of a successful login and, unless lang is
// empty, the language the client uses.
func (db *DB) SetLastLogin(ctx context.Context, id int64, at time.Time, lang string) error {
	return db.execOne(ctx, "set last login", `UPDATE accounts SET last_login_at = $1,
		lang = CASE WHEN $2 = '' THEN lang ELSE $2 END WHERE id = $3`, millis(at), lang, id)
}

// CreateSession stores s.
func (db *DB) CreateSession(ctx context.Context, s *accounts.Session) error {
	_, err := db.exec(ctx,
		`INSERT INTO sessions (id, account_id, created_at, expires_at, user_agent, client_ip) VALUES ($1, $2, $3, $4, $5, $6)`,
		s.ID, s.AccountID, millis(s.CreatedAt), millis(s.ExpiresAt), s.UserAgent, s.ClientIP)
	if err != nil {
		return errs.Internal("create session: %w", err)
	}
	return nil
}

// FindSession returns ENOTFOUND when absent.
func (db *DB) FindSession(ctx context.Context, id string) (*accounts.Session, error) {
	var (
		s                accounts.Session
		created, expires int64
	)
	err := db.sql.QueryRowContext(ctx,
		`SELECT id, account_id, created_at, expires_at, user_agent, client_ip FROM sessions WHERE id = $1`, id,
	).Scan(&s.ID, &s.AccountID, &created, &expires, &s.UserAgent, &s.ClientIP)
	if err != nil {
		return nil, notFound(err, "find session")
	}
	s.CreatedAt, s.ExpiresAt = fromMillis(created), fromMillis(expires)
	return &s, nil
}

// ExtendSession moves a session's expiry. Returns ENOTFOUND.
func (db *DB) ExtendSession(ctx context.Context, id string, expiresAt time.Time) error {
	return db.execOne(ctx, "extend session", `UPDATE sessions SET expires_at = $1 WHERE id = $2`, millis(expiresAt), id)
}

// DeleteSession removes a session; removing an absent one is not an error.
func (db *DB) DeleteSession(ctx context.Context, id string) error {
	if _, err := db.exec(ctx, `DELETE FROM sessions WHERE id = $1`, id); err != nil {
		return errs.Internal("delete session: %w", err)
	}
	return nil
}

// DeleteExpiredSessions removes sessions whose expiry is not after now.
func (db *DB) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	res, err := db.exec(ctx, `DELETE FROM sessions WHERE expires_at <= $1`, millis(now))
	if err != nil {
		return 0, errs.Internal("delete expired sessions: %w", err)
	}
	return res.RowsAffected()
}

// AddLoginFailure records one failure and prunes this key's records older than since.
func (db *DB) AddLoginFailure(ctx context.Context, key string, at, since time.Time) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM login_failures WHERE key = $1 AND at < $2`, key, millis(since)); err != nil {
			return errs.Internal("prune login failures: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO login_failures (key, at) VALUES ($1, $2)`, key, millis(at)); err != nil {
			return errs.Internal("add login failure: %w", err)
		}
		return nil
	})
}

// LoginFailures counts key's failures at or after since, with the oldest and latest of them.
func (db *DB) LoginFailures(ctx context.Context, key string, since time.Time) (accounts.Failures, error) {
	var (
		f              accounts.Failures
		oldest, latest sql.NullInt64
	)
	err := db.sql.QueryRowContext(ctx,
		`SELECT count(*), min(at), max(at) FROM login_failures WHERE key = $1 AND at >= $2`, key, millis(since),
	).Scan(&f.Count, &oldest, &latest)
	if err != nil {
		return f, errs.Internal("count login failures: %w", err)
	}
	if f.Count > 0 {
		f.Oldest, f.Latest = fromMillis(oldest.Int64), fromMillis(latest.Int64)
	}
	return f, nil
}

// ClearLoginFailures forgets key's failures (after a successful login).
func (db *DB) ClearLoginFailures(ctx context.Context, key string) error {
	if _, err := db.exec(ctx, `DELETE FROM login_failures WHERE key = $1`, key); err != nil {
		return errs.Internal("clear login failures: %w", err)
	}
	return nil
}

// DeleteLoginFailures drops every failure recorded before before.
func (db *DB) DeleteLoginFailures(ctx context.Context, before time.Time) error {
	if _, err := db.exec(ctx, `DELETE FROM login_failures WHERE at < $1`, millis(before)); err != nil {
		return errs.Internal("delete login failures: %w", err)
	}
	return nil
}

// AddKnownDevice records that the device whose token hashes to id has
// logged in to the account, or moves the expiry of that record.
func (db *DB) AddKnownDevice(ctx context.Context, id string, accountID int64, now, expiresAt time.Time) error {
	_, err := db.exec(ctx, `INSERT INTO known_devices (id, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id, account_id) DO UPDATE SET expires_at = excluded.expires_at`,
		id, accountID, millis(now), millis(expiresAt))
	if err != nil {
		return errs.Internal("add known device: %w", err)
	}
	return nil
}

// IsKnownDevice reports whether id is a known device of the account, unexpired at now.
func (db *DB) IsKnownDevice(ctx context.Context, id string, accountID int64, now time.Time) (bool, error) {
	var n int
	err := db.sql.QueryRowContext(ctx,
		`SELECT count(*) FROM known_devices WHERE id = $1 AND account_id = $2 AND expires_at > $3`, id, accountID, millis(now),
	).Scan(&n)
	if err != nil {
		return false, errs.Internal("known device: %w", err)
	}
	return n > 0, nil
}

// DeleteExpiredKnownDevices drops the records whose expiry is not after now.
func (db *DB) DeleteExpiredKnownDevices(ctx context.Context, now time.Time) error {
	if _, err := db.exec(ctx, `DELETE FROM known_devices WHERE expires_at <= $1`, millis(now)); err != nil {
		return errs.Internal("delete expired known devices: %w", err)
	}
	return nil
}

// ListAccounts returns every account by account number.
func (db *DB) ListAccounts(ctx context.Context) ([]*accounts.Account, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+accountColumns+` FROM accounts ORDER BY lower(account_number)`)
	if err != nil {
		return nil, errs.Internal("list accounts: %w", err)
	}
	defer rows.Close()
	var out []*accounts.Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			return nil, errs.Internal("list accounts: %w", err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("list accounts: %w", err)
	}
	return out, nil
}

// SetAccountDisabled sets or clears disabled_at; disabling deletes the
// account's sessions in the same transaction. Returns ENOTFOUND.
func (db *DB) SetAccountDisabled(ctx context.Context, id int64, at *time.Time) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		var v any
		if at != nil {
			v = millis(*at)
		}
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET disabled_at = $1 WHERE id = $2`, v, id)
		if err != nil {
			return errs.Internal("disable account: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errs.NotFound()
		}
		if at != nil {
			if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = $1`, id); err != nil {
				return errs.Internal("revoke sessions: %w", err)
			}
		}
		return nil
	})
}
