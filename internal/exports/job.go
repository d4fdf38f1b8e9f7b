// Package exports sends a device's data by e-mail, or keeps it for download
// where no mail server is set up: a request becomes a job in the store, and
// a worker on any node claims it, writes the readings to an XLSX or CSV
// file and mails it or keeps it, trying again when that fails.
package exports

import (
	"context"
	netmail "net/mail"
	"slices"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/sheet"
)

// Status is where a job is.
type Status string

const (
	StatusQueued  Status = "queued"  // waiting for a worker, or for its next attempt
	StatusRunning Status = "running" // a worker holds it
	StatusSent    Status = "sent"    // the mail server accepted the message
	StatusReady   Status = "ready"   // the file waits for its owner to download it
	StatusFailed  Status = "failed"  // given up; Error says why
)

// Dim is the kind of data exported.
type Dim string

const (
	DimRaw   Dim = "raw"   // every reading
	DimDaily Dim = "daily" // the daily statistics of each parameter
)

// Kind is what a job exports.
type Kind string

const (
	KindData     Kind = "data"     // a device's readings (DeviceID)
	KindBriefing Kind = "briefing" // a soil-moisture briefing (BriefingID)
)

// Job is one export request and how far it got.
type Job struct {
	ID         string // taskId, random and unguessable
	AccountID  int64  // who asked; only they may read the job
	Kind       Kind
	DeviceID   int64    // KindData
	BriefingID int64    // KindBriefing; Begin–End is then the report's period
	Params     []string // parameter identifiers, in the device type's order
	Nodes      []int    // depths of per-node parameters; empty: all of the type's
	Email      string   // empty: the file is kept for download instead; a briefing's recipients are comma-separated
	Begin      time.Time
	End        time.Time // exclusive
	Dim        Dim
	Format     sheet.Format
	Lang       i18n.Lang // of the file and the message

	Status     Status
	Progress   int   // percent
	Rows       int64 // data rows written by the current or last attempt
	Attempts   int   // attempts started
	Error      string
	CreatedAt  time.Time
	NextAt     time.Time  // a queued job is not started before this
	LeaseUntil *time.Time // a running job whose lease passed is taken over
	FinishedAt *time.Time
}

// Store is what exports need from the database.
type Store interface {
	// CreateExport inserts a queued job.
	CreateExport(ctx context.Context, j *Job) error
	// FindExport returns ENOTFOUND when absent.
	FindExport(ctx context.Context, id string) (*Job, error)
	// ClaimExport takes the oldest due job (queued and past its NextAt, or
	// running with its lease passed and fewer than maxAttempts attempts),
	// marks it running until now+lease with one more attempt, and returns
	// it; nil when none is due. Two workers never claim the same job.
	ClaimExport(ctx context.Context, now time.Time, lease time.Duration, maxAttempts int) (*Job, error)
	// ExpireExports fails the running jobs whose lease passed after their
	// last allowed attempt, with errKey; it returns how many.
	ExpireExports(ctx context.Context, now time.Time, maxAttempts int, errKey string) (int64, error)
	// ExportProgress records progress and extends the lease of attempt.
	// ENOTFOUND means the attempt lost the job (it was taken over).
	ExportProgress(ctx context.Context, id string, attempt, progress int, rows int64, leaseUntil time.Time) error
	// RetryExport queues attempt's job again for nextAt. ENOTFOUND as above.
	RetryExport(ctx context.Context, id string, attempt int, nextAt time.Time) error
	// FinishExport ends attempt's job as sent or ready (progress 100) or
	// failed (with errKey), with the rows written. ENOTFOUND as above.
	FinishExport(ctx context.Context, id string, attempt int, st Status, errKey string, rows int64, at time.Time) error
	// PurgeExports deletes finished jobs created before before.
	PurgeExports(ctx context.Context, before time.Time) (int64, error)
}

// Request is what a user asks for.
type Request struct {
	Params []string
	Nodes  []int
	Email  string
	Begin  *time.Time
	End    *time.Time
	Dim    string // raw (default) or daily
	Format string // xlsx (default) or csv
	Lang   i18n.Lang
}

// MaxEmail bounds an address (RFC 5321's path limit).
const MaxEmail = 254

// ValidEmail reports whether s is a plain address: local@domain with a
// dotted domain, no display name, no spaces.
func ValidEmail(s string) bool {
	if len(s) > MaxEmail || strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	a, err := netmail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	if at < 1 || !strings.Contains(domain, ".") {
		return false
	}
	for label := range strings.SplitSeq(domain, ".") {
		if label == "" {
			return false
		}
	}
	return true
}

// job checks r against the device type t and returns the job it describes.
// A range may span at most one calendar year in loc (SPEC §9). With mail an
// address is required; without, the file is kept for download and an
// address is refused (export.mailNotConfigured). Returns EINVALID naming
// the field, or EUNAVAILABLE.
func (r *Request) job(t *devices.Type, loc *time.Location, mail bool) (*Job, error) {
	j := &Job{Dim: DimRaw, Format: sheet.XLSX, Lang: r.Lang}
	if len(r.Params) == 0 {
		return nil, errs.Invalid("params", "export.params.required")
	}
	for _, id := range r.Params {
		if _, ok := t.Param(id); !ok {
			return nil, errs.Invalid("params", "query.unknownParam").With(map[string]any{"param": id})
		}
	}
	for _, p := range t.Params {
		if slices.Contains(r.Params, p.ID) {
			j.Params = append(j.Params, p.ID)
		}
	}
	for _, n := range r.Nodes {
		if !slices.Contains(t.Nodes, n) {
			return nil, errs.Invalid("nodes", "query.unknownNode").With(map[string]any{"node": n})
		}
		if !slices.Contains(j.Nodes, n) {
			j.Nodes = append(j.Nodes, n)
		}
	}
	slices.Sort(j.Nodes)
	switch Dim(r.Dim) {
	case "", DimRaw:
	case DimDaily:
		j.Dim = DimDaily
	default:
		return nil, errs.Invalid("dim", "query.unknownValue")
	}
	switch sheet.Format(r.Format) {
	case "", sheet.XLSX:
	case sheet.CSV:
		j.Format = sheet.CSV
	default:
		return nil, errs.Invalid("format", "query.unknownValue")
	}
	if r.Begin == nil {
		return nil, errs.Invalid("begin", "error.required")
	}
	if r.End == nil {
		return nil, errs.Invalid("end", "error.required")
	}
	j.Begin, j.End = *r.Begin, *r.End
	if !j.Begin.Before(j.End) {
		return nil, errs.Invalid("end", "query.endBeforeBegin")
	}
	if j.End.After(j.Begin.In(loc).AddDate(1, 0, 0)) {
		return nil, errs.Invalid("begin", "export.range.tooLong")
	}
	j.Email = strings.TrimSpace(r.Email)
	if !mail {
		if j.Email != "" {
			return nil, errs.New(errs.EUnavailable, "export.mailNotConfigured")
		}
		return j, nil
	}
	if j.Email == "" {
		return nil, errs.Invalid("email", "export.email.required")
	}
	if !ValidEmail(j.Email) {
		return nil, errs.Invalid("email", "export.email.invalid")
	}
	return j, nil
}
