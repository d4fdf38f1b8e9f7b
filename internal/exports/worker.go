package exports

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/mail"
)

// Progress milestones: writing the file takes it to writtenPercent, handing
// it to the mail server to sendingPercent; a sent job is at 100.
const (
	writtenPercent = 90
	sendingPercent = 95
)

// Run works on due jobs until ctx ends. Every node may run it: the store
// hands each job to one worker at a time.
func (s *Service) Run(ctx context.Context) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	var lastPurge time.Time
	for {
		now := s.now()
		if n, err := s.o.Store.ExpireExports(ctx, now, s.o.MaxAttempts, "export.timeout"); err != nil && ctx.Err() == nil {
			s.o.Log.Warn("expire exports", "err", err)
		} else if n > 0 {
			s.o.Log.Warn("exports abandoned by their workers after the last attempt", "count", n)
		}
		if now.Sub(lastPurge) >= time.Hour {
			lastPurge = now
			if _, err := s.o.Store.PurgeExports(ctx, now.Add(-s.o.Keep)); err != nil && ctx.Err() == nil {
				s.o.Log.Warn("purge exports", "err", err)
			}
			s.purgeFiles(now)
		}
		for ctx.Err() == nil {
			j, err := s.o.Store.ClaimExport(ctx, s.now(), s.o.Lease, s.o.MaxAttempts)
			if err != nil {
				if ctx.Err() == nil {
					s.o.Log.Error("claim export", "err", err)
				}
				break
			}
			if j == nil {
				break
			}
			s.run(ctx, j)
		}
		timer.Reset(s.o.Poll)
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-timer.C:
		}
	}
}

// progress is how far an attempt got, read by its heartbeat.
type progress struct {
	percent atomic.Int32
	rows    atomic.Int64
}

// permanent is a failure no retry can mend; key is the message to show.
type permanent struct{ key string }

func (p *permanent) Error() string { return "permanent: " + p.key }

// run makes one attempt at a claimed job and records its outcome: sent,
// queued again after a backoff, or failed after the last attempt.
func (s *Service) run(ctx context.Context, j *Job) {
	log := s.o.Log.With("export", j.ID, "kind", j.Kind, "device", j.DeviceID, "briefing", j.BriefingID, "attempt", j.Attempts)
	attemptCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		p      progress
		lost   atomic.Bool
		stopHB = make(chan struct{})
		hbDone = make(chan struct{})
	)
	// The heartbeat keeps the lease while the file is written and sent, and
	// publishes progress. A lease that was taken over ends the attempt.
	go func() {
		defer close(hbDone)
		tick := time.NewTicker(s.o.Heartbeat)
		defer tick.Stop()
		for {
			select {
			case <-stopHB:
				return
			case <-tick.C:
			}
			err := s.o.Store.ExportProgress(attemptCtx, j.ID, j.Attempts, int(p.percent.Load()), p.rows.Load(), s.now().Add(s.o.Lease))
			if errs.KindOf(err) == errs.ENotFound {
				lost.Store(true)
				cancel()
				return
			}
			if err != nil && attemptCtx.Err() == nil {
				log.Warn("export heartbeat", "err", err)
			}
		}
	}()
	err := s.attempt(attemptCtx, j, &p)
	close(stopHB)
	<-hbDone
	if lost.Load() {
		log.Warn("export taken over by another worker; this attempt is dropped")
		return
	}

	// Record the outcome even while shutting down.
	done, stop := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer stop()
	now := s.now()
	var perm *permanent
	switch {
	case err == nil && j.Email == "":
		err = s.o.Store.FinishExport(done, j.ID, j.Attempts, StatusReady, "", p.rows.Load(), now)
		log.Info("export ready for download", "rows", p.rows.Load())
	case err == nil:
		err = s.o.Store.FinishExport(done, j.ID, j.Attempts, StatusSent, "", p.rows.Load(), now)
		log.Info("export sent", "rows", p.rows.Load())
	case ctx.Err() != nil:
		// Shutting down: hand the job back for a worker to take up now.
		err = s.o.Store.RetryExport(done, j.ID, j.Attempts, now)
	case errors.As(err, &perm):
		log.Warn("export failed", "reason", perm.key)
		err = s.o.Store.FinishExport(done, j.ID, j.Attempts, StatusFailed, perm.key, p.rows.Load(), now)
	case j.Attempts >= s.o.MaxAttempts:
		log.Error("export failed after the last attempt", "err", err)
		err = s.o.Store.FinishExport(done, j.ID, j.Attempts, StatusFailed, "export.failed", p.rows.Load(), now)
	default:
		next := now.Add(s.backoff(j.Attempts))
		log.Warn("export attempt failed; trying again", "err", err, "at", next)
		err = s.o.Store.RetryExport(done, j.ID, j.Attempts, next)
	}
	if err != nil {
		log.Error("record export outcome", "err", err)
	}
}

// backoff is the wait after the attempt-th attempt failed.
func (s *Service) backoff(attempt int) time.Duration {
	return s.o.Backoff[min(attempt, len(s.o.Backoff))-1]
}

// attempt writes the job's file and mails it, or keeps it for download.
func (s *Service) attempt(ctx context.Context, j *Job, p *progress) error {
	if j.Kind == KindBriefing {
		return s.attemptBriefing(ctx, j, p)
	}
	// The right is checked again when the job runs: a grant revoked or a
	// device transferred since the request stops the export.
	d, _, err := s.o.Devices.Authorize(ctx, j.AccountID, j.DeviceID, devices.NeedExport)
	switch {
	case err == nil:
	case errs.KindOf(err) == errs.ENotFound:
		return &permanent{"export.failed"} // unbound or removed since
	case errs.KindOf(err) == errs.EForbidden:
		return &permanent{"export.noRight"}
	default:
		return err
	}
	t := d.Type()
	if t == nil {
		return &permanent{"export.failed"}
	}
	if j.Email != "" && s.o.Mailer == nil {
		return &permanent{"export.mailNotConfigured"} // made on a node with a mail server
	}
	dir := s.o.TempDir
	if j.Email == "" {
		// Written next to where it is kept, so that keeping it is a rename.
		dir = s.o.FileDir
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("export files: %w", err)
		}
	}
	f, err := os.CreateTemp(dir, "fieldwatch-export-*."+string(j.Format))
	if err != nil {
		return fmt.Errorf("export file: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if err := s.write(ctx, f, j, t, p); err != nil {
		return err
	}
	if j.Email == "" {
		if err := f.Close(); err != nil {
			return fmt.Errorf("export file: %w", err)
		}
		return os.Rename(f.Name(), s.path(j))
	}
	p.percent.Store(sendingPercent)
	return s.o.Mailer.Send(ctx, s.message(j, d, t, p.rows.Load(), f))
}

// fileName is the name the file of j on d is sent or saved under.
func (s *Service) fileName(j *Job, d *devices.Device) string {
	loc := s.o.Location
	last := j.End.Add(-time.Millisecond) // End is exclusive
	kind := "daily"
	if j.Dim == DimRaw {
		kind = "raw"
	}
	return d.SN + "_" + kind + "_" + j.Begin.In(loc).Format("20060102") + "-" + last.In(loc).Format("20060102") + "." + string(j.Format)
}

// message is the mail carrying the file, in the job's language.
func (s *Service) message(j *Job, d *devices.Device, t *devices.Type, rows int64, f *os.File) *mail.Message {
	loc := s.o.Location
	names := make([]string, 0, len(j.Params))
	for _, id := range j.Params {
		if p, ok := t.Param(id); ok {
			names = append(names, p.Name(j.Lang))
		}
	}
	sep := "、"
	if j.Lang == i18n.EnUS {
		sep = ", "
	}
	kind := "daily"
	if j.Dim == DimRaw {
		kind = "raw"
	}
	file := s.fileName(j, d)
	params := map[string]any{
		"device": d.Name, "sn": d.SN,
		"begin": j.Begin.In(loc).Format("2006-01-02 15:04"), "end": j.End.In(loc).Format("2006-01-02 15:04"),
		"dim":    i18n.T(j.Lang, "export.dim."+kind, nil),
		"params": strings.Join(names, sep), "rows": strconv.FormatInt(rows, 10), "file": file,
	}
	return &mail.Message{
		To:          j.Email,
		Subject:     i18n.T(j.Lang, "export.mail.subject", params),
		Text:        i18n.T(j.Lang, "export.mail.body", params),
		Attachments: []mail.Attachment{{Name: file, ContentType: j.Format.ContentType(), Content: f}},
	}
}
