package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

const scanColumns = `id, scene, purpose, account_id, openid, state, created_at, expires_at`

func scanWeChatScan(row interface{ Scan(...any) error }) (*accounts.WeChatScan, error) {
	var (
		s                accounts.WeChatScan
		account          sql.NullInt64
		created, expires int64
	)
	if err := row.Scan(&s.ID, &s.Scene, &s.Purpose, &account, &s.OpenID, &s.State, &created, &expires); err != nil {
		return nil, err
	}
	s.AccountID = account.Int64
	s.CreatedAt, s.ExpiresAt = fromMillis(created), fromMillis(expires)
	return &s, nil
}

// CreateWeChatScan stores a QR code shown to link or log in with WeChat.
func (db *DB) CreateWeChatScan(ctx context.Context, s *accounts.WeChatScan) error {
	var account any
	if s.AccountID != 0 {
		account = s.AccountID
	}
	_, err := db.exec(ctx, `INSERT INTO wechat_scans (`+scanColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		s.ID, s.Scene, s.Purpose, account, s.OpenID, s.State, millis(s.CreatedAt), millis(s.ExpiresAt))
	if err != nil {
		return errs.Internal("create wechat scan: %w", err)
	}
	return nil
}

// FindWeChatScan returns ENOTFOUND when absent.
func (db *DB) FindWeChatScan(ctx context.Context, id string) (*accounts.WeChatScan, error) {
	s, err := scanWeChatScan(db.sql.QueryRowContext(ctx, `SELECT `+scanColumns+` FROM wechat_scans WHERE id = $1`, id))
	if err != nil {
		return nil, notFound(err, "find wechat scan")
	}
	return s, nil
}

// FindWeChatScanByScene returns ENOTFOUND when absent.
func (db *DB) FindWeChatScanByScene(ctx context.Context, scene string) (*accounts.WeChatScan, error) {
	s, err := scanWeChatScan(db.sql.QueryRowContext(ctx, `SELECT `+scanColumns+` FROM wechat_scans WHERE scene = $1`, scene))
	if err != nil {
		return nil, notFound(err, "find wechat scan")
	}
	return s, nil
}

// MoveWeChatScan moves a scan from one state to another, setting openid;
// it reports whether the scan was in state from.
func (db *DB) MoveWeChatScan(ctx context.Context, id, from, to, openid string) (bool, error) {
	res, err := db.exec(ctx, `UPDATE wechat_scans SET state = $1, openid = $2 WHERE id = $3 AND state = $4`, to, openid, id, from)
	if err != nil {
		return false, errs.Internal("move wechat scan: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, errs.Internal("move wechat scan: %w", err)
	}
	return n == 1, nil
}

// LinkWeChat sets the account's WeChat openid ("" removes it). Returns
// ECONFLICT wechat.bind.taken when another account has it, ENOTFOUND.
func (db *DB) LinkWeChat(ctx context.Context, accountID int64, openid string) error {
	err := db.execOne(ctx, "link wechat", `UPDATE accounts SET wechat_openid = $1 WHERE id = $2`, openid, accountID)
	if isUniqueViolation(err) {
		return errs.New(errs.EConflict, "wechat.bind.taken")
	}
	return err
}

// FindAccountByWeChat returns ENOTFOUND when no account has openid.
func (db *DB) FindAccountByWeChat(ctx context.Context, openid string) (*accounts.Account, error) {
	if openid == "" {
		return nil, errs.NotFound()
	}
	a, err := scanAccount(db.sql.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE wechat_openid = $1`, openid))
	if err != nil {
		return nil, notFound(err, "find account by wechat")
	}
	return a, nil
}

// DeleteWeChatScans drops QR codes made before before.
func (db *DB) DeleteWeChatScans(ctx context.Context, before time.Time) error {
	if _, err := db.exec(ctx, `DELETE FROM wechat_scans WHERE created_at < $1`, millis(before)); err != nil {
		return errs.Internal("delete wechat scans: %w", err)
	}
	return nil
}
