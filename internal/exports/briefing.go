package exports

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/sheet"
)

// BriefingFile describes a written briefing file.
type BriefingFile struct {
	Name        string // to send or save it under
	ContentType string
	Title       string // the preset's name
	Unit        string // the unit issuing it
	Lang        i18n.Lang
	Begin, End  time.Time // the period, End exclusive
}

// Briefings writes soil-moisture briefing files (briefing.Service).
type Briefings interface {
	// WriteBriefing writes the report of one of owner's presets for the
	// period ending at end in format (pdf or xlsx) to w, telling progress
	// (0–1) as it goes. A failure no retry can mend is a Permanent error.
	WriteBriefing(ctx context.Context, owner, id int64, end time.Time, format string, w io.Writer, progress func(float64)) (*BriefingFile, error)
}

// Permanent is a failure no retry can mend; key is the i18n key of the
// reason recorded in the job.
func Permanent(key string) error { return &permanent{key} }

// BriefingFormats are the formats of briefing files.
var BriefingFormats = []string{"pdf", "xlsx"}

// BriefingRequest asks for a briefing file.
type BriefingRequest struct {
	BriefingID int64
	Format     string // pdf or xlsx
	End        time.Time
	// Recipients, when given, receive the file by e-mail (a scheduled
	// report); else it is kept for download.
	Recipients []string
	Lang       i18n.Lang
}

// CreateBriefing queues a briefing file for viewer, who must own the
// preset (the caller checks). Returns EINVALID (format), EUNAVAILABLE
// (export.mailNotConfigured: recipients without a mail server).
func (s *Service) CreateBriefing(ctx context.Context, viewer int64, r BriefingRequest) (*Job, error) {
	if r.Format != "pdf" && r.Format != "xlsx" {
		return nil, errs.Invalid("format", "query.unknownValue")
	}
	if len(r.Recipients) > 0 && s.o.Mailer == nil {
		return nil, errs.New(errs.EUnavailable, "export.mailNotConfigured")
	}
	now := s.now()
	j := &Job{ID: newID(), AccountID: viewer, Kind: KindBriefing, BriefingID: r.BriefingID, Format: sheet.Format(r.Format),
		Email: strings.Join(r.Recipients, ","), Begin: r.End, End: r.End, Dim: DimDaily, Lang: r.Lang,
		Status: StatusQueued, CreatedAt: now, NextAt: now}
	if err := s.o.Store.CreateExport(ctx, j); err != nil {
		return nil, err
	}
	s.Wake()
	return j, nil
}

// GetBriefing returns one of viewer's briefing jobs. Returns ENOTFOUND for
// an unknown job or another account's.
func (s *Service) GetBriefing(ctx context.Context, viewer int64, id string) (*Job, error) {
	j, err := s.o.Store.FindExport(ctx, id)
	if err != nil {
		return nil, err
	}
	if j.AccountID != viewer || j.Kind != KindBriefing {
		return nil, errs.NotFound()
	}
	return j, nil
}

// BriefingDownload opens the kept file of one of viewer's finished
// briefing jobs. Returns ENOTFOUND as GetBriefing, and export.fileGone once
// the file is no longer kept.
func (s *Service) BriefingDownload(ctx context.Context, viewer int64, id string) (*Download, error) {
	j, err := s.GetBriefing(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	if j.Status != StatusReady || j.FinishedAt == nil {
		return nil, errs.NotFound()
	}
	gone := errs.New(errs.ENotFound, "export.fileGone")
	if s.now().Sub(*j.FinishedAt) > s.o.FileKeep {
		return nil, gone
	}
	f, err := os.Open(s.path(j))
	if err != nil {
		return nil, gone
	}
	name := j.ID + "." + string(j.Format)
	if b, err := os.ReadFile(s.path(j) + ".name"); err == nil {
		name = string(b)
	}
	ct := "application/pdf"
	if j.Format == "xlsx" {
		ct = sheet.XLSX.ContentType()
	}
	return &Download{File: f, Name: name, ContentType: ct}, nil
}

// attemptBriefing writes a briefing job's file and mails it to its
// recipients, or keeps it for download.
func (s *Service) attemptBriefing(ctx context.Context, j *Job, p *progress) error {
	if s.o.Briefings == nil {
		return &permanent{"briefing.export.failed"}
	}
	if j.Email != "" && s.o.Mailer == nil {
		return &permanent{"export.mailNotConfigured"}
	}
	dir := s.o.TempDir
	if j.Email == "" {
		dir = s.o.FileDir
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
	}
	f, err := os.CreateTemp(dir, "fieldwatch-briefing-*."+string(j.Format))
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	bf, err := s.o.Briefings.WriteBriefing(ctx, j.AccountID, j.BriefingID, j.End, string(j.Format), f, func(v float64) {
		p.percent.Store(int32(v * writtenPercent))
	})
	if err != nil {
		return err
	}
	p.percent.Store(writtenPercent)
	if j.Email == "" {
		if err := f.Close(); err != nil {
			return err
		}
		if err := os.WriteFile(s.path(j)+".name", []byte(bf.Name), 0o600); err != nil {
			return err
		}
		return os.Rename(f.Name(), s.path(j))
	}
	p.percent.Store(sendingPercent)
	to := strings.Split(j.Email, ",")
	loc := s.o.Location
	params := map[string]any{"name": bf.Title, "unit": bf.Unit, "begin": bf.Begin.In(loc).Format("2006-01-02"),
		"end": bf.End.Add(-time.Millisecond).In(loc).Format("2006-01-02")}
	return s.o.Mailer.Send(ctx, &mail.Message{To: to[0], Also: to[1:],
		Subject:     i18n.T(bf.Lang, "briefing.mail.subject", params),
		Text:        i18n.T(bf.Lang, "briefing.mail.body", params),
		Attachments: []mail.Attachment{{Name: bf.Name, ContentType: bf.ContentType, Content: f}}})
}
