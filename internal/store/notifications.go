package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/notify"
	"github.com/fieldwatch/fieldwatch/internal/rules"
)

var _ notify.Store = (*DB)(nil)

// ClaimNotifications leases up to limit due deliveries to the caller until
// now+lease: queued ones, and ones whose sender's lease ran out (a node
// that stopped mid-send). On PostgreSQL, nodes claiming at once take
// different rows.
func (db *DB) ClaimNotifications(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*notify.Delivery, error) {
	var out []*notify.Delivery
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id FROM notifications WHERE status IN ('queued', 'sending') AND next_at <= $1
			ORDER BY next_at, id LIMIT $2`+db.dialect.skipLocked(""), millis(now), limit)
		if err != nil {
			return errs.Internal("claim notifications: %w", err)
		}
		var ids []string
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return errs.Internal("claim notifications: %w", err)
			}
			ids = append(ids, fmt.Sprint(id))
		}
		rows.Close()
		if len(ids) == 0 {
			return nil
		}
		in := strings.Join(ids, ",")
		if _, err := tx.ExecContext(ctx, `UPDATE notifications SET status = 'sending', attempts = attempts + 1, next_at = $1 WHERE id IN (`+in+`)`,
			millis(now.Add(lease))); err != nil {
			return errs.Internal("claim notifications: %w", err)
		}
		rs, err := tx.QueryContext(ctx, `SELECT n.id, n.method, n.attempts, n.event_id, e.rule_id, a.mail, a.wechat_openid, d.name,
			n.recipient_id, e.owner_id, a.lang
			FROM notifications n JOIN alert_events e ON e.id = n.event_id
			JOIN devices d ON d.id = e.device_id JOIN accounts a ON a.id = n.recipient_id
			WHERE n.id IN (`+in+`) ORDER BY n.id`)
		if err != nil {
			return errs.Internal("claim notifications: %w", err)
		}
		type ref struct{ event, rule int64 }
		var refs []ref
		for rs.Next() {
			var (
				dl           notify.Delivery
				method, lang string
				r            ref
				owner        int64
			)
			if err := rs.Scan(&dl.ID, &method, &dl.Attempts, &r.event, &r.rule, &dl.Mail, &dl.OpenID, &dl.DeviceName,
				&dl.RecipientID, &owner, &lang); err != nil {
				rs.Close()
				return errs.Internal("claim notifications: %w", err)
			}
			dl.Method = rules.Method(method)
			if dl.RecipientID != owner && lang != "" {
				dl.Lang = i18n.Parse(lang)
			}
			out = append(out, &dl)
			refs = append(refs, r)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return errs.Internal("claim notifications: %w", err)
		}
		for i, r := range refs {
			ev, err := scanEvent(tx.QueryRowContext(ctx, `SELECT `+eventColumns+` FROM alert_events e JOIN rules r ON r.id = e.rule_id
				JOIN devices d ON d.id = e.device_id WHERE e.id = $1`, r.event))
			if err != nil {
				return errs.Internal("claim notifications: %w", err)
			}
			if ev.Rule, err = scanRule(tx.QueryRowContext(ctx, `SELECT `+ruleColumns+` FROM rules r WHERE r.id = $1`, r.rule)); err != nil {
				return errs.Internal("claim notifications: %w", err)
			}
			out[i].Event = ev
		}
		return nil
	})
	return out, err
}

// FinishNotification records a delivery attempt: sent (err nil), tried
// again at retryAt, or failed for good (retryAt zero).
func (db *DB) FinishNotification(ctx context.Context, id int64, now time.Time, sendErr error, retryAt time.Time) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		return finishNotification(ctx, tx, id, now, sendErr, retryAt)
	})
}

func finishNotification(ctx context.Context, tx *sql.Tx, id int64, now time.Time, sendErr error, retryAt time.Time) error {
	var err error
	switch {
	case sendErr == nil:
		_, err = tx.ExecContext(ctx, `UPDATE notifications SET status = 'sent', sent_at = $1, last_error = '' WHERE id = $2`, millis(now), id)
	case !retryAt.IsZero():
		_, err = tx.ExecContext(ctx, `UPDATE notifications SET status = 'queued', next_at = $1, last_error = $2 WHERE id = $3`,
			millis(retryAt), truncate(sendErr.Error(), 500), id)
	default:
		_, err = tx.ExecContext(ctx, `UPDATE notifications SET status = 'failed', last_error = $1 WHERE id = $2`,
			truncate(sendErr.Error(), 500), id)
	}
	if err != nil {
		return errs.Internal("finish notification: %w", err)
	}
	return nil
}

// Notifications returns the deliveries of one of owner's events.
func (db *DB) Notifications(ctx context.Context, owner, eventID int64) ([]notify.Status, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT n.method, n.status, n.attempts, n.last_error, n.sent_at, a.account_number
		FROM notifications n JOIN alert_events e ON e.id = n.event_id JOIN accounts a ON a.id = n.recipient_id
		WHERE e.id = $1 AND e.owner_id = $2 ORDER BY n.id`, eventID, owner)
	if err != nil {
		return nil, errs.Internal("notifications: %w", err)
	}
	defer rows.Close()
	var out []notify.Status
	for rows.Next() {
		var (
			s      notify.Status
			method string
			sent   sql.NullInt64
		)
		if err := rows.Scan(&method, &s.State, &s.Attempts, &s.LastError, &sent, &s.Recipient); err != nil {
			return nil, errs.Internal("notifications: %w", err)
		}
		s.Method, s.SentAt = rules.Method(method), fromNullMillis(sent)
		out = append(out, s)
	}
	return out, rows.Err()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
