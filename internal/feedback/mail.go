package feedback

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/queue"

	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/mail"
)

// Kinds of feedback mail.
const (
	MailReceived = "received" // a new feedback, to the operator's --feedback-mail
	MailAnswer   = "answer"   // the operator's answer, to the author's bound address
)

// Mail is one claimed feedback mail with the feedback it is about
// (screenshots with their bytes for MailReceived).
type Mail struct {
	ID       int64
	Kind     string
	To       string
	Attempts int // including this one
	Feedback *Feedback
}

// Store keeps the mails to send, each a row claimed with a lease and
// finished after the attempt, so none is lost across restarts.
type Store interface {
	ClaimFeedbackMails(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*Mail, error)
	FinishFeedbackMail(ctx context.Context, id int64, now time.Time, sendErr error, retryAt time.Time) error
}

// Mailer sends e-mail (a *mail.Sender).
type Mailer interface {
	Send(ctx context.Context, m *mail.Message) error
}

// errPermanent marks a failure no retry can fix.
var errPermanent = errors.New("permanent")

// WorkerOptions configure the mail worker.
type WorkerOptions struct {
	Store    Store
	Mail     Mailer // nil: mails fail at once as "e-mail is not configured"
	URL      string // the console's address for links ("" for none)
	Location *time.Location
	Log      *slog.Logger
	Now      func() time.Time
	Attempts int           // before a mail is marked failed (default 6)
	Backoff  time.Duration // first retry delay, doubled each time (default 30 s)
	Poll     time.Duration // how often due mails are looked for without a wake-up (default 10 s)
}

// Worker sends due feedback mails.
type Worker struct {
	WorkerOptions
	once sync.Once
	wake queue.Signal
}

// NewWorker returns a worker; Run starts it.
func NewWorker(o WorkerOptions) *Worker { return &Worker{WorkerOptions: o} }

const lease = 2 * time.Minute

func (w *Worker) defaults() {
	w.once.Do(func() {
		if w.Now == nil {
			w.Now = time.Now
		}
		if w.Log == nil {
			w.Log = slog.New(slog.DiscardHandler)
		}
		if w.Location == nil {
			w.Location = time.UTC
		}
		w.Attempts = cmp.Or(w.Attempts, 6)
		w.Backoff = cmp.Or(w.Backoff, 30*time.Second)
		w.Poll = cmp.Or(w.Poll, 10*time.Second)
		w.wake = queue.NewSignal(1)
	})
}

// Wake makes the worker look for mails now (after a new feedback).
func (w *Worker) Wake() {
	w.defaults()
	w.wake.Wake()
}

// Run sends until ctx ends. Answers written by "fieldwatch feedback answer"
// in another process are found by the poll.
func (w *Worker) Run(ctx context.Context) {
	w.defaults()
	queue.Loop{
		Poll:    w.Poll,
		Wake:    w.wake,
		Step:    func(ctx context.Context) (bool, error) { n, err := w.RunOnce(ctx); return n > 0, err },
		OnError: func(err error) { w.Log.Error("feedback mail: claim", "err", err) },
	}.Run(ctx)
}

// RunOnce claims and sends one batch of due mails and returns how many it
// handled. A failed send is recorded on its mail (retried with backoff
// unless permanent), not returned.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	w.defaults()
	ms, err := w.Store.ClaimFeedbackMails(ctx, w.Now(), lease, 10)
	if err != nil {
		return 0, err
	}
	for _, m := range ms {
		sendErr := w.send(ctx, m)
		var retryAt time.Time
		if sendErr != nil && m.Attempts < w.Attempts && !errors.Is(sendErr, errPermanent) {
			delay := w.Backoff << (m.Attempts - 1)
			delay += time.Duration(rand.Int64N(int64(delay)/5 + 1))
			retryAt = w.Now().Add(delay)
		}
		if sendErr != nil {
			w.Log.Warn("feedback mail failed", "id", m.ID, "kind", m.Kind, "attempt", m.Attempts, "err", sendErr, "retry", !retryAt.IsZero())
		}
		if err := w.Store.FinishFeedbackMail(ctx, m.ID, w.Now(), sendErr, retryAt); err != nil {
			return 0, err
		}
	}
	return len(ms), nil
}

func (w *Worker) send(ctx context.Context, m *Mail) error {
	if w.Mail == nil {
		return fmt.Errorf("%w: e-mail is not configured on this server (--smtp-url)", errPermanent)
	}
	if m.To == "" {
		return fmt.Errorf("%w: no address", errPermanent)
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return w.Mail.Send(ctx, w.Compose(m))
}

// Compose writes a mail in the author's language: to the operator, the
// feedback with its account, category, contact and screenshots attached;
// to the author, the answer with what they wrote.
func (w *Worker) Compose(m *Mail) *mail.Message {
	w.defaults()
	f := m.Feedback
	lang := i18n.Parse(f.Lang)
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	params := map[string]any{
		"id": f.ID, "account": f.AccountNumber, "name": f.AccountName,
		"category": i18n.T(lang, "feedback.category."+f.Category, nil),
		"contact":  dash(f.Contact), "mail": dash(f.AccountMail), "phone": dash(f.AccountPhone),
		"time": f.CreatedAt.In(w.Location).Format("2006-01-02 15:04:05"),
		"text": f.Text, "answer": f.Answer, "shots": len(f.Shots),
	}
	out := &mail.Message{To: m.To}
	switch m.Kind {
	case MailAnswer:
		out.Subject = i18n.T(lang, "feedback.mail.answerSubject", params)
		out.Text = i18n.T(lang, "feedback.mail.answerBody", params)
		if w.URL != "" {
			out.Text += "\n\n" + i18n.T(lang, "feedback.mail.link", map[string]any{"url": strings.TrimRight(w.URL, "/") + "/console/feedback"})
		}
	default:
		out.Subject = i18n.T(lang, "feedback.mail.receivedSubject", params)
		out.Text = i18n.T(lang, "feedback.mail.receivedBody", params)
		for i, s := range f.Shots {
			out.Attachments = append(out.Attachments, mail.Attachment{
				Name:        "feedback-" + strconv.FormatInt(f.ID, 10) + "-" + strconv.Itoa(i+1) + Extension(s.ContentType),
				ContentType: s.ContentType, Content: bytes.NewReader(s.Data),
			})
		}
	}
	return out
}

// Extension is a file name ending for a screenshot's content type.
func Extension(contentType string) string {
	switch contentType {
	case "image/png":
		return ".png"
	case "image/webp":
		return ".webp"
	}
	return ".jpg"
}
