package exports

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// Devices answers who may export a device (devices.Service).
type Devices interface {
	// Authorize returns the device when the viewer holds need on it.
	// Returns ENOTFOUND, EFORBIDDEN.
	Authorize(ctx context.Context, viewer, id int64, need devices.Need) (*devices.Device, devices.Right, error)
}

// Mailer sends a message (mail.Sender).
type Mailer interface {
	Send(ctx context.Context, m *mail.Message) error
}

// Options configure the service and its worker.
type Options struct {
	Store   Store
	Devices Devices
	// History reads what an export writes.
	History *telemetry.History
	// Briefings writes the files of briefing jobs; nil fails them.
	Briefings Briefings
	// Mailer sends the files; without one (no mail server) they are kept in
	// FileDir for their owners to download.
	Mailer Mailer
	// Location is where days begin and the times in files are written.
	Location *time.Location
	Log      *slog.Logger

	// MaxAttempts is how many times a job is tried before it fails (3).
	MaxAttempts int
	// Backoff is the wait before the second, third, … attempt; the last
	// value repeats (1 and 5 minutes).
	Backoff []time.Duration
	// Lease is how long a running job stays with its worker without a
	// heartbeat before another may take it over (1 minute); Heartbeat is
	// how often a worker renews it and records progress (2 s).
	Lease     time.Duration
	Heartbeat time.Duration
	// Poll is how often an idle worker looks for due jobs (5 s): jobs made
	// on another node, and retries whose wait is over. A job made on this
	// node wakes it at once.
	Poll time.Duration
	// Keep is how long finished jobs stay readable (30 days).
	Keep time.Duration
	// TempDir holds files while they are written and sent (os.TempDir).
	TempDir string
	// FileDir keeps the files of exports without mail until FileKeep has
	// passed since they were finished (TempDir/fieldwatch-exports, 24 hours).
	// Nodes sharing a database need a shared FileDir to serve each other's.
	FileDir  string
	FileKeep time.Duration
}

// Service creates export jobs, answers for them, and runs them (Run).
type Service struct {
	o    Options
	now  func() time.Time
	wake chan struct{}
}

// New returns the service with defaults filled in.
func New(o Options) *Service {
	if o.Location == nil {
		o.Location = time.UTC
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 3
	}
	if len(o.Backoff) == 0 {
		o.Backoff = []time.Duration{time.Minute, 5 * time.Minute}
	}
	if o.Lease <= 0 {
		o.Lease = time.Minute
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = 2 * time.Second
	}
	if o.Poll <= 0 {
		o.Poll = 5 * time.Second
	}
	if o.Keep <= 0 {
		o.Keep = 30 * 24 * time.Hour
	}
	if o.FileDir == "" {
		dir := o.TempDir
		if dir == "" {
			dir = os.TempDir()
		}
		o.FileDir = filepath.Join(dir, "fieldwatch-exports")
	}
	if o.FileKeep <= 0 {
		o.FileKeep = 24 * time.Hour
	}
	return &Service{o: o, now: time.Now, wake: make(chan struct{}, 1)}
}

// Enabled reports whether exports are sent by e-mail (a mail server is set
// up); without one, finished files wait for download.
func (s *Service) Enabled() bool { return s.o.Mailer != nil }

// FileKeep is how long the file of an export without mail is kept.
func (s *Service) FileKeep() time.Duration { return s.o.FileKeep }

// Create queues an export of a device's data for the viewer, mailed to the
// request's address, or without a mail server kept for download. Returns
// ENOTFOUND (the viewer cannot see the device), EFORBIDDEN (export.noRight),
// EUNAVAILABLE (export.mailNotConfigured: an address without a mail
// server), EINVALID naming the field: export.params.required or
// query.unknownParam (params), query.unknownNode (nodes),
// query.unknownValue (dim, format), error.required (begin, end),
// query.endBeforeBegin (end), export.range.tooLong (begin: more than a
// calendar year), export.email.required or export.email.invalid (email,
// with a mail server).
func (s *Service) Create(ctx context.Context, viewer, deviceID int64, r Request) (*Job, error) {
	d, _, err := s.o.Devices.Authorize(ctx, viewer, deviceID, devices.NeedExport)
	if err != nil {
		return nil, err
	}
	t := d.Type()
	if t == nil {
		return nil, errs.Internal("device %d: unknown type %d", d.ID, d.TypeID)
	}
	j, err := r.job(t, s.o.Location, s.Enabled())
	if err != nil {
		return nil, err
	}
	now := s.now()
	j.ID, j.AccountID, j.DeviceID = newID(), viewer, d.ID
	j.Status, j.CreatedAt, j.NextAt = StatusQueued, now, now
	if err := s.o.Store.CreateExport(ctx, j); err != nil {
		return nil, err
	}
	s.Wake()
	return j, nil
}

// Get returns one of the viewer's jobs on a device. Returns ENOTFOUND for
// an unknown job, another account's, one on another device, or a device
// the viewer cannot see.
func (s *Service) Get(ctx context.Context, viewer, deviceID int64, id string) (*Job, error) {
	if _, _, err := s.o.Devices.Authorize(ctx, viewer, deviceID, devices.NeedRead); err != nil {
		return nil, err
	}
	j, err := s.o.Store.FindExport(ctx, id)
	if err != nil {
		return nil, err
	}
	if j.AccountID != viewer || j.DeviceID != deviceID {
		return nil, errs.NotFound()
	}
	return j, nil
}

// Download is the kept file of a finished export, to be closed by whoever
// sends it.
type Download struct {
	*os.File
	Name        string // to save it under
	ContentType string
}

// File opens the kept file of one of the viewer's exports. Returns
// ENOTFOUND as Get does, for a job that is not ready for download, and
// export.fileGone once its file is no longer kept; EFORBIDDEN
// (export.noRight) when the viewer lost the export right.
func (s *Service) File(ctx context.Context, viewer, deviceID int64, id string) (*Download, error) {
	d, _, err := s.o.Devices.Authorize(ctx, viewer, deviceID, devices.NeedExport)
	if err != nil {
		return nil, err
	}
	j, err := s.o.Store.FindExport(ctx, id)
	if err != nil {
		return nil, err
	}
	if j.AccountID != viewer || j.DeviceID != deviceID || j.Status != StatusReady || j.FinishedAt == nil {
		return nil, errs.NotFound()
	}
	gone := errs.New(errs.ENotFound, "export.fileGone")
	if s.now().Sub(*j.FinishedAt) > s.o.FileKeep {
		return nil, gone
	}
	f, err := os.Open(s.path(j))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, gone
	}
	if err != nil {
		return nil, errs.Internal("export file: %w", err)
	}
	return &Download{File: f, Name: s.fileName(j, d), ContentType: j.Format.ContentType()}, nil
}

// path is where the file of an export without mail is kept.
func (s *Service) path(j *Job) string {
	return filepath.Join(s.o.FileDir, j.ID+"."+string(j.Format))
}

// purgeFiles removes the kept files older than FileKeep.
func (s *Service) purgeFiles(now time.Time) {
	entries, err := os.ReadDir(s.o.FileDir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.o.Log.Warn("purge export files", "err", err)
		}
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() || now.Sub(info.ModTime()) <= s.o.FileKeep {
			continue
		}
		if err := os.Remove(filepath.Join(s.o.FileDir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.o.Log.Warn("purge export files", "err", err)
		}
	}
}

// Wake makes an idle worker of this process look for jobs now.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func newID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}
