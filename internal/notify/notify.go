// Package notify delivers alert events to people: e-mail through SMTP and
// WeChat template messages. Deliveries are rows in the store, claimed with
// a lease, retried with backoff and marked failed only after the last try,
// so a notification is never dropped silently, even across restarts.
package notify

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/queue"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/wechat"
)

// Delivery is one claimed notification.
type Delivery struct {
	ID         int64
	Method     rules.Method
	Attempts   int // including this one
	Event      *rules.Event
	Mail       string // the recipient's address
	OpenID     string // the recipient's WeChat openid
	DeviceName string
	// RecipientID is the account the delivery goes to: the rule's owner or
	// a grantee of the device. Lang is a grantee's language (the one they
	// last logged in with); empty for the owner, whose rule's language is used.
	RecipientID int64
	Lang        i18n.Lang
}

// Status is a delivery as its event's owner sees it.
type Status struct {
	Method    rules.Method `json:"method"`
	State     string       `json:"status"` // queued, sending, sent, failed
	Attempts  int          `json:"attempts"`
	LastError string       `json:"lastError"`
	SentAt    *time.Time   `json:"sentAt"`
	Recipient string       `json:"recipient"` // the account number it goes to
}

// Store is what the worker needs.
type Store interface {
	ClaimNotifications(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*Delivery, error)
	FinishNotification(ctx context.Context, id int64, now time.Time, sendErr error, retryAt time.Time) error
}

// Mailer sends e-mail (a *mail.Sender).
type Mailer interface {
	Send(ctx context.Context, m *mail.Message) error
}

// Permanent marks an error no retry can fix (no address to send to).
type Permanent struct{ Err error }

func (p *Permanent) Error() string { return p.Err.Error() }
func (p *Permanent) Unwrap() error { return p.Err }

// Options configure the notification worker.
type Options struct {
	Store  Store
	Mail   Mailer         // nil: e-mail is not configured
	WeChat *wechat.Client // nil: WeChat is not configured
	// WeChatTemplate is the template id of alert messages (fields first,
	// keyword1-3, remark).
	WeChatTemplate string
	// Location formats event times (the server's time zone).
	Location *time.Location
	// URL is the console's address for links in messages ("" for none).
	URL string
	Log *slog.Logger
	Now func() time.Time
	// Attempts before a delivery is marked failed (default 6: about an
	// hour and a half of backoff).
	Attempts int
	// Backoff is the first retry delay, doubled each time (default 30 s).
	Backoff time.Duration
	// Poll is how often due deliveries are looked for without a wake-up.
	Poll time.Duration
}

// Worker sends due deliveries.
type Worker struct {
	Options

	once sync.Once // fills in the defaults: Wake (the rules engine) and Run may come first at once
	wake queue.Signal
}

// New returns a worker; Run starts it.
func New(o Options) *Worker { return &Worker{Options: o} }

const lease = 2 * time.Minute

func (w *Worker) defaults() { w.once.Do(w.fill) }

func (w *Worker) fill() {
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
}

// Wake makes the worker look for deliveries now (after a new event).
func (w *Worker) Wake() {
	w.defaults()
	w.wake.Wake()
}

// Run delivers until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	w.defaults()
	queue.Loop{
		Poll:    w.Poll,
		Wake:    w.wake,
		Step:    func(ctx context.Context) (bool, error) { n, err := w.RunOnce(ctx); return n > 0, err },
		OnError: func(err error) { w.Log.Error("notify: claim", "err", err) },
	}.Run(ctx)
}

// RunOnce claims and sends one batch of due deliveries and returns how
// many it handled. A failed send is recorded on its delivery (to be retried
// unless it is Permanent), not returned: the error is the store's
// (EINTERNAL).
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	w.defaults()
	ds, err := w.Store.ClaimNotifications(ctx, w.Now(), lease, 20)
	if err != nil {
		return 0, err
	}
	for _, d := range ds {
		sendErr := w.send(ctx, d)
		var retryAt time.Time
		var perm *Permanent
		if sendErr != nil && d.Attempts < w.Attempts && !errors.As(sendErr, &perm) {
			delay := w.Backoff << (d.Attempts - 1)
			delay += time.Duration(rand.Int64N(int64(delay)/5 + 1)) // jitter up to 20 %
			retryAt = w.Now().Add(delay)
		}
		if sendErr != nil {
			w.Log.Warn("notify: delivery failed", "id", d.ID, "method", d.Method, "attempt", d.Attempts, "err", sendErr, "retry", !retryAt.IsZero())
		}
		if err := w.Store.FinishNotification(ctx, d.ID, w.Now(), sendErr, retryAt); err != nil {
			return 0, err
		}
	}
	return len(ds), nil
}

func (w *Worker) send(ctx context.Context, d *Delivery) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	switch d.Method {
	case rules.MethodEmail:
		if w.Mail == nil {
			return &Permanent{errors.New("e-mail is not configured on this server (--smtp-url)")}
		}
		if d.Mail == "" {
			return &Permanent{errors.New("the account has no e-mail address")}
		}
		subject, body := w.Compose(d)
		return w.Mail.Send(ctx, &mail.Message{To: d.Mail, Subject: subject, Text: body})
	case rules.MethodWeChat:
		if w.WeChat == nil {
			return &Permanent{errors.New("WeChat is not configured on this server (--wechat-appid)")}
		}
		if d.OpenID == "" {
			return &Permanent{errors.New("the account is not linked to WeChat")}
		}
		err := w.WeChat.SendTemplate(ctx, w.templateMessage(d))
		if apiErr, ok := errors.AsType[*wechat.APIError](err); ok && apiErr.Permanent() {
			return &Permanent{err}
		}
		return err
	}
	return &Permanent{fmt.Errorf("unknown method %q", d.Method)}
}

func (w *Worker) lang(d *Delivery) i18n.Lang {
	if d.Lang != "" {
		return d.Lang
	}
	if d.Event.Rule != nil {
		return d.Event.Rule.Lang
	}
	return i18n.ZhCN
}

// Compose returns an e-mail's subject and body in the recipient's language.
func (w *Worker) Compose(d *Delivery) (subject, body string) {
	e, lang := d.Event, w.lang(d)
	typeName := ""
	if t, ok := devices.TypeByID(e.TypeID); ok {
		typeName = t.Name(lang)
	}
	levelKey := "notify.level." + string(e.Level)
	params := map[string]any{
		"rule": e.RuleName, "device": d.DeviceName, "sn": e.SN, "type": typeName,
		"level": i18n.T(lang, levelKey, nil), "time": e.At.In(w.Location).Format("2006-01-02 15:04:05"),
		"description": Describe(e, lang),
	}
	subject = i18n.T(lang, "notify.mail.subject", params)
	body = i18n.T(lang, "notify.mail.body", params)
	if w.URL != "" {
		body += "\n\n" + i18n.T(lang, "notify.mail.link", map[string]any{"url": w.URL + "/apps/events"})
	}
	return subject, body
}

// Describe words an event's values with parameter names and units.
func Describe(e *rules.Event, lang i18n.Lang) string {
	var s string
	for i, v := range e.Values {
		if i > 0 {
			s += "; "
		}
		name, unit := v.Param, ""
		if p, _, ok := (rules.RegistryCatalogue{}).Param(e.TypeID, v.Param); ok {
			name, unit = p.Name(lang), p.Unit
		}
		if len(v.Nodes) > 0 {
			name += " ("
			for j, n := range v.Nodes {
				if j > 0 {
					name += ", "
				}
				name += strconv.Itoa(n)
			}
			name += " cm)"
		}
		s += name + " " + strconv.FormatFloat(v.Value, 'f', -1, 64)
		if unit != "" {
			s += " " + unit
		}
	}
	key := "rule.event.triggered"
	if e.Kind == rules.KindCommon {
		key = "rule.event.recovered"
	}
	return i18n.T(lang, key, map[string]any{"values": s})
}

func (w *Worker) templateMessage(d *Delivery) *wechat.TemplateMessage {
	subject, _ := w.Compose(d)
	e, lang := d.Event, w.lang(d)
	m := &wechat.TemplateMessage{ToUser: d.OpenID, TemplateID: w.WeChatTemplate, Data: map[string]wechat.TemplateValue{
		"first":    {Value: subject},
		"keyword1": {Value: e.RuleName},
		"keyword2": {Value: d.DeviceName + " (" + e.SN + ")"},
		"keyword3": {Value: e.At.In(w.Location).Format("2006-01-02 15:04:05")},
		"remark":   {Value: Describe(e, lang)},
	}}
	if w.URL != "" {
		m.URL = w.URL + "/apps/mobile/messages"
	}
	return m
}
