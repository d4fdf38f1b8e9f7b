package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/feedback"
)

const feedbackColumns = `f.id, f.account_id, f.category, f.body, f.contact, f.lang, f.created_at, f.answer, f.answered_at,
	a.account_number, a.name, a.mail, a.phone`

// CreateFeedback stores f (checked by f.Check) with its screenshots (from
// feedback.Sniff) and sets the IDs. With operatorMail set it queues the
// mail of the new feedback to that address in the same transaction.
func (db *DB) CreateFeedback(ctx context.Context, f *feedback.Feedback, operatorMail string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO feedback (account_id, category, body, contact, lang, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, f.AccountID, f.Category, f.Text, f.Contact, f.Lang,
			millis(f.CreatedAt)).Scan(&f.ID); err != nil {
			return errs.Internal("create feedback: %w", err)
		}
		for i := range f.Shots {
			s := &f.Shots[i]
			if err := tx.QueryRowContext(ctx, `INSERT INTO feedback_screenshots (feedback_id, content_type, width, height, size, data)
				VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, f.ID, s.ContentType, s.Width, s.Height, len(s.Data), s.Data).Scan(&s.ID); err != nil {
				return errs.Internal("create feedback: %w", err)
			}
			s.Size = len(s.Data)
		}
		if operatorMail != "" {
			return queueFeedbackMail(ctx, tx, f.ID, feedback.MailReceived, operatorMail, f.CreatedAt)
		}
		return nil
	})
}

func queueFeedbackMail(ctx context.Context, tx *sql.Tx, id int64, kind, to string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO feedback_mails (feedback_id, kind, recipient, next_at) VALUES ($1, $2, $3, $4)`,
		id, kind, to, millis(now)); err != nil {
		return errs.Internal("queue feedback mail: %w", err)
	}
	return nil
}

// Feedbacks lists an account's feedback, newest first, with its
// screenshots' descriptions (no bytes).
func (db *DB) Feedbacks(ctx context.Context, accountID int64) ([]feedback.Feedback, error) {
	return db.feedbacks(ctx, `WHERE f.account_id = $1 ORDER BY f.id DESC`, accountID)
}

// AllFeedback lists every account's feedback for the operator, oldest
// first; openOnly leaves the answered out.
func (db *DB) AllFeedback(ctx context.Context, openOnly bool) ([]feedback.Feedback, error) {
	return db.feedbacks(ctx, `WHERE ($1 = FALSE OR f.answered_at IS NULL) ORDER BY f.id`, openOnly)
}

func (db *DB) feedbacks(ctx context.Context, where string, args ...any) ([]feedback.Feedback, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+feedbackColumns+` FROM feedback f JOIN accounts a ON a.id = f.account_id `+where, args...)
	if err != nil {
		return nil, errs.Internal("feedback: %w", err)
	}
	out := []feedback.Feedback{}
	index := map[int64]int{}
	for rows.Next() {
		f, err := scanFeedback(rows)
		if err != nil {
			rows.Close()
			return nil, errs.Internal("feedback: %w", err)
		}
		index[f.ID] = len(out)
		out = append(out, *f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("feedback: %w", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	ids := make([]string, 0, len(out))
	for _, f := range out {
		ids = append(ids, fmt.Sprint(f.ID))
	}
	shots, err := db.sql.QueryContext(ctx, `SELECT feedback_id, id, content_type, width, height, size FROM feedback_screenshots
		WHERE feedback_id IN (`+strings.Join(ids, ",")+`) ORDER BY id`)
	if err != nil {
		return nil, errs.Internal("feedback screenshots: %w", err)
	}
	defer shots.Close()
	for shots.Next() {
		var (
			fid int64
			s   feedback.Screenshot
		)
		if err := shots.Scan(&fid, &s.ID, &s.ContentType, &s.Width, &s.Height, &s.Size); err != nil {
			return nil, errs.Internal("feedback screenshots: %w", err)
		}
		f := &out[index[fid]]
		f.Shots = append(f.Shots, s)
	}
	return out, shots.Err()
}

// FeedbackByID returns one of an account's feedback. Another account's
// is ENOTFOUND, as one that does not exist.
func (db *DB) FeedbackByID(ctx context.Context, accountID, id int64) (*feedback.Feedback, error) {
	list, err := db.feedbacks(ctx, `WHERE f.id = $1 AND f.account_id = $2`, id, accountID)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errs.NotFound()
	}
	return &list[0], nil
}

// FeedbackScreenshot returns a screenshot with its bytes, of a feedback
// of accountID. ENOTFOUND otherwise.
func (db *DB) FeedbackScreenshot(ctx context.Context, accountID, feedbackID, shotID int64) (*feedback.Screenshot, error) {
	var s feedback.Screenshot
	err := db.sql.QueryRowContext(ctx, `SELECT s.id, s.content_type, s.width, s.height, s.size, s.data
		FROM feedback_screenshots s JOIN feedback f ON f.id = s.feedback_id
		WHERE s.id = $1 AND s.feedback_id = $2 AND f.account_id = $3`, shotID, feedbackID, accountID).
		Scan(&s.ID, &s.ContentType, &s.Width, &s.Height, &s.Size, &s.Data)
	if err != nil {
		return nil, notFound(err, "feedback screenshot")
	}
	return &s, nil
}

// AnswerFeedback records the operator's answer (checked by
// feedback.CheckAnswer) to feedback id; answering again replaces it. When
// the author has a bound e-mail address the answer is queued to it, which
// is returned ("" when none).
func (db *DB) AnswerFeedback(ctx context.Context, id int64, answer string, now time.Time) (mailedTo string, err error) {
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT a.mail FROM feedback f JOIN accounts a ON a.id = f.account_id
			WHERE f.id = $1`+db.dialect.forUpdate(), id).Scan(&mailedTo); err != nil {
			return notFound(err, "answer feedback")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE feedback SET answer = $1, answered_at = $2 WHERE id = $3`, answer, millis(now), id); err != nil {
			return errs.Internal("answer feedback: %w", err)
		}
		if mailedTo == "" {
			return nil
		}
		return queueFeedbackMail(ctx, tx, id, feedback.MailAnswer, mailedTo, now)
	})
	return mailedTo, err
}

// ClaimFeedbackMails leases up to limit due mails (feedback.Worker).
func (db *DB) ClaimFeedbackMails(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*feedback.Mail, error) {
	var out []*feedback.Mail
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id FROM feedback_mails WHERE status IN ('queued', 'sending') AND next_at <= $1
			ORDER BY next_at, id LIMIT $2`+db.dialect.skipLocked(""), millis(now), limit)
		if err != nil {
			return errs.Internal("claim feedback mails: %w", err)
		}
		var ids []string
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return errs.Internal("claim feedback mails: %w", err)
			}
			ids = append(ids, fmt.Sprint(id))
		}
		rows.Close()
		if len(ids) == 0 {
			return nil
		}
		in := strings.Join(ids, ",")
		if _, err := tx.ExecContext(ctx, `UPDATE feedback_mails SET status = 'sending', attempts = attempts + 1, next_at = $1
			WHERE id IN (`+in+`)`, millis(now.Add(lease))); err != nil {
			return errs.Internal("claim feedback mails: %w", err)
		}
		rs, err := tx.QueryContext(ctx, `SELECT m.id, m.kind, m.recipient, m.attempts, `+feedbackColumns+`
			FROM feedback_mails m JOIN feedback f ON f.id = m.feedback_id JOIN accounts a ON a.id = f.account_id
			WHERE m.id IN (`+in+`) ORDER BY m.id`)
		if err != nil {
			return errs.Internal("claim feedback mails: %w", err)
		}
		for rs.Next() {
			m := &feedback.Mail{}
			f, err := scanFeedback(rs, &m.ID, &m.Kind, &m.To, &m.Attempts)
			if err != nil {
				rs.Close()
				return errs.Internal("claim feedback mails: %w", err)
			}
			m.Feedback = f
			out = append(out, m)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return errs.Internal("claim feedback mails: %w", err)
		}
		for _, m := range out {
			if m.Kind != feedback.MailReceived {
				continue
			}
			shots, err := tx.QueryContext(ctx, `SELECT id, content_type, width, height, size, data FROM feedback_screenshots
				WHERE feedback_id = $1 ORDER BY id`, m.Feedback.ID)
			if err != nil {
				return errs.Internal("claim feedback mails: %w", err)
			}
			for shots.Next() {
				var s feedback.Screenshot
				if err := shots.Scan(&s.ID, &s.ContentType, &s.Width, &s.Height, &s.Size, &s.Data); err != nil {
					shots.Close()
					return errs.Internal("claim feedback mails: %w", err)
				}
				m.Feedback.Shots = append(m.Feedback.Shots, s)
			}
			shots.Close()
		}
		return nil
	})
	return out, err
}

// FinishFeedbackMail records a send attempt: sent, queued again at
// retryAt, or failed when retryAt is zero.
func (db *DB) FinishFeedbackMail(ctx context.Context, id int64, now time.Time, sendErr error, retryAt time.Time) error {
	var err error
	switch {
	case sendErr == nil:
		_, err = db.exec(ctx, `UPDATE feedback_mails SET status = 'sent', sent_at = $1, last_error = '' WHERE id = $2`, millis(now), id)
	case !retryAt.IsZero():
		_, err = db.exec(ctx, `UPDATE feedback_mails SET status = 'queued', next_at = $1, last_error = $2 WHERE id = $3`,
			millis(retryAt), truncate(sendErr.Error(), 500), id)
	default:
		_, err = db.exec(ctx, `UPDATE feedback_mails SET status = 'failed', last_error = $1 WHERE id = $2`,
			truncate(sendErr.Error(), 500), id)
	}
	if err != nil {
		return errs.Internal("finish feedback mail: %w", err)
	}
	return nil
}

// FeedbackMailStatus is one mail about a feedback, for the operator.
type FeedbackMailStatus struct {
	Kind, To, Status, LastError string
	Attempts                    int
}

// FeedbackMails returns the mails about feedback id, oldest first.
func (db *DB) FeedbackMails(ctx context.Context, id int64) ([]FeedbackMailStatus, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT kind, recipient, status, last_error, attempts FROM feedback_mails
		WHERE feedback_id = $1 ORDER BY id`, id)
	if err != nil {
		return nil, errs.Internal("feedback mails: %w", err)
	}
	defer rows.Close()
	var out []FeedbackMailStatus
	for rows.Next() {
		var m FeedbackMailStatus
		if err := rows.Scan(&m.Kind, &m.To, &m.Status, &m.LastError, &m.Attempts); err != nil {
			return nil, errs.Internal("feedback mails: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// scanFeedback reads feedbackColumns, after the given leading columns.
func scanFeedback(r rowScanner, lead ...any) (*feedback.Feedback, error) {
	var (
		f        feedback.Feedback
		created  int64
		answered sql.NullInt64
	)
	dest := append(lead, &f.ID, &f.AccountID, &f.Category, &f.Text, &f.Contact, &f.Lang, &created, &f.Answer, &answered,
		&f.AccountNumber, &f.AccountName, &f.AccountMail, &f.AccountPhone)
	if err := r.Scan(dest...); err != nil {
		return nil, err
	}
	f.CreatedAt = fromMillis(created)
	if answered.Valid {
		t := fromMillis(answered.Int64)
		f.AnsweredAt = &t
	}
	f.Shots = []feedback.Screenshot{}
	return &f, nil
}
