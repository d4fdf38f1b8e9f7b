package briefing

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/exports"
)

// WriteBriefing writes the report of one of owner's presets for the period
// ending at end (zero: today) as a PDF or XLSX file (exports.Briefings).
// A preset deleted since the job was queued, or a missing font, is a
// permanent failure with its reason.
func (s *Service) WriteBriefing(ctx context.Context, owner, id int64, end time.Time, format string, w io.Writer, progress func(float64)) (*exports.BriefingFile, error) {
	p, err := s.Store.Briefing(ctx, owner, id)
	if errs.KindOf(err) == errs.ENotFound {
		return nil, exports.Permanent("briefing.export.gone")
	} else if err != nil {
		return nil, err
	}
	r, err := s.Compute(ctx, s.Reports, p, end, func(v float64) {
		if progress != nil {
			progress(v * 0.8)
		}
	})
	if err != nil {
		return nil, err
	}
	loc := s.location()
	f := &exports.BriefingFile{Title: p.Name, Unit: p.UnitName, Lang: p.Lang, Begin: r.Begin, End: r.End,
		Name: fileName(p.Name) + "_" + r.Begin.In(loc).Format("20060102") + "-" + r.End.AddDate(0, 0, -1).In(loc).Format("20060102") + "." + format}
	var buf bytes.Buffer
	switch Format(format) {
	case PDF:
		f.ContentType = PDF.ContentType()
		font := s.FontPath
		if font == "" {
			font = DefaultFont
		}
		if err := WritePDF(&buf, r, font, loc); err != nil {
			var fe *FontError
			if errors.As(err, &fe) {
				return nil, exports.Permanent("briefing.export.font")
			}
			return nil, err
		}
	case XLSX:
		f.ContentType = XLSX.ContentType()
		if err := WriteXLSX(&buf, r, loc); err != nil {
			return nil, err
		}
	default:
		return nil, exports.Permanent("briefing.export.failed")
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return nil, err
	}
	if progress != nil {
		progress(1)
	}
	return f, nil
}

func (s *Service) location() *time.Location {
	if s.Location != nil {
		return s.Location
	}
	return time.Local
}

// fileName is a name safe in a file name and an attachment.
func fileName(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) || r < ' ' {
			return '_'
		}
		return r
	}, strings.TrimSpace(s))
	if s == "" {
		s = "briefing"
	}
	return s
}
