package exports_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/exports"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

var shanghai, _ = time.LoadLocation("Asia/Shanghai")

// fixture is a store with one account, the device service, a mail server
// and the export service sending to it.
type fixture struct {
	t       *testing.T
	db      *store.DB
	devices *devices.Service
	smtp    *mailtest.Server
	owner   int64
	svc     *exports.Service
}

func newFixture(t *testing.T, db *store.DB, edit func(*exports.Options)) *fixture {
	t.Helper()
	ctx := context.Background()
	a := &accounts.Account{AccountNumber: "farmer01", Name: "东坡农场", PasswordHash: "h", CreatedAt: time.Now()}
	if err := db.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		t.Fatal(err)
	}
	smtp, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	sender, err := mail.New(mail.Config{URL: smtp.URL(), From: "Fieldwatch <exports@fieldwatch.test>"})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, db: db, devices: devices.New(devices.Options{Store: db, Keys: keys}), smtp: smtp, owner: a.ID}
	o := exports.Options{Store: db, Devices: f.devices, History: telemetry.NewHistory(telemetry.HistoryOptions{Store: db, Location: shanghai}), Mailer: sender, Location: shanghai,
		Backoff: []time.Duration{time.Millisecond}, Heartbeat: 5 * time.Millisecond, Poll: 5 * time.Millisecond,
		TempDir: t.TempDir()}
	if edit != nil {
		edit(&o)
	}
	f.svc = exports.New(o)
	return f
}

// run starts the worker until the test ends.
func (f *fixture) run() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.svc.Run(ctx)
	}()
	f.t.Cleanup(func() {
		cancel()
		<-done
	})
}

func (f *fixture) device(sn string, typeID int) *devices.Device {
	f.t.Helper()
	d, _, err := f.devices.Register(context.Background(), devices.Registration{SN: sn, TypeID: typeID, Owner: f.owner})
	if err != nil {
		f.t.Fatal(err)
	}
	return d
}

func (f *fixture) create(d *devices.Device, r exports.Request) *exports.Job {
	f.t.Helper()
	j, err := f.svc.Create(context.Background(), f.owner, d.ID, r)
	if err != nil {
		f.t.Fatal(err)
	}
	return j
}

// wait returns the job once it is sent, ready or failed.
func (f *fixture) wait(j *exports.Job) *exports.Job {
	f.t.Helper()
	for {
		got, err := f.svc.Get(context.Background(), f.owner, j.DeviceID, j.ID)
		if err != nil {
			f.t.Fatal(err)
		}
		if got.Status == exports.StatusSent || got.Status == exports.StatusReady || got.Status == exports.StatusFailed {
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// attachment waits for the next message and returns its one attachment.
func (f *fixture) attachment() (*mailtest.Parsed, mailtest.Part) {
	f.t.Helper()
	m := <-f.smtp.C
	p, err := mailtest.Parse(m.Data)
	if err != nil {
		f.t.Fatal(err)
	}
	if len(p.Attachments) != 1 {
		f.t.Fatalf("%d attachments", len(p.Attachments))
	}
	return p, p.Attachments[0]
}

func sheetRows(t *testing.T, data []byte) [][]string {
	t.Helper()
	x, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, err := x.GetRows(x.GetSheetName(0))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func ptr[T any](v T) *T { return &v }

// TestWorker_YearOfTenMinuteData exports a whole year of one parameter
// reported every 10 minutes: every row arrives, in order.
func TestWorker_YearOfTenMinuteData(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		// A heartbeat a second: this test is about volume, not about progress.
		f := newFixture(t, db, func(o *exports.Options) { o.Heartbeat = time.Second })
		rain := f.device("RG0000000001", 6)
		begin := time.Date(2025, 1, 1, 0, 0, 0, 0, shanghai)
		end := begin.AddDate(1, 0, 0)
		const n = 365 * 144
		value := func(i int) float64 { return float64(i%13) / 10 }
		reports := make([]*telemetry.Report, 0, 5000)
		for i := range n {
			at := begin.Add(time.Duration(i) * 10 * time.Minute)
			reports = append(reports, &telemetry.Report{DeviceID: rain.ID, Time: at, OfflineAt: at.Add(time.Hour),
				Points: []telemetry.Point{{Param: "rainfall", Value: value(i)}}})
			if len(reports) == cap(reports) || i == n-1 {
				if _, err := db.WriteReports(context.Background(), reports, shanghai); err != nil {
					t.Fatal(err)
				}
				reports = reports[:0]
			}
		}
		f.run()
		j := f.create(rain, exports.Request{Params: []string{"rainfall"}, Email: "farmer@example.com",
			Begin: &begin, End: &end, Lang: i18n.ZhCN})
		msg, att := f.attachment()
		if att.Name != "RG0000000001_raw_20250101-20251231.xlsx" || msg.Subject != "Fieldwatch 数据导出："+rain.Name {
			t.Fatalf("message %q, attachment %q", msg.Subject, att.Name)
		}
		rows := sheetRows(t, att.Data)
		if len(rows) != n+1 || !slices.Equal(rows[0], []string{"时间", "降雨量 (mm)"}) {
			t.Fatalf("%d rows, header %q", len(rows), rows[0])
		}
		for i, row := range rows[1:] {
			want := []string{begin.Add(time.Duration(i) * 10 * time.Minute).Format("2006-01-02 15:04:05"),
				strconv.FormatFloat(value(i), 'f', -1, 64)}
			if !slices.Equal(row, want) {
				t.Fatalf("row %d: %q, want %q", i+2, row, want)
			}
		}
		got := f.wait(j)
		if got.Status != exports.StatusSent || got.Rows != n || got.Progress != 100 || got.Attempts != 1 {
			t.Fatalf("job: %+v", got)
		}
	})
}

func TestWorker_RetriesThenDelivers(t *testing.T) {
	f := newFixture(t, storetest.OpenSQLite(t), nil)
	d := f.device("RG0000000002", 6)
	at := time.Date(2026, 5, 1, 8, 0, 0, 0, shanghai)
	if _, err := f.db.WriteReports(context.Background(), []*telemetry.Report{{DeviceID: d.ID, Time: at, OfflineAt: at.Add(time.Hour),
		Points: []telemetry.Point{{Param: "rainfall", Value: 2.5}}}}, shanghai); err != nil {
		t.Fatal(err)
	}
	f.smtp.Refuse(1)
	f.run()
	j := f.create(d, exports.Request{Params: []string{"rainfall"}, Email: "farmer@example.com", Format: "csv",
		Begin: ptr(at.Add(-time.Hour)), End: ptr(at.Add(time.Hour)), Lang: i18n.EnUS})
	_, att := f.attachment()
	if att.Name != "RG0000000002_raw_20260501-20260501.csv" || string(att.Data) != "\ufeffTime,Rainfall (mm)\r\n2026-05-01 08:00:00,2.5\r\n" {
		t.Fatalf("attachment %q: %q", att.Name, att.Data)
	}
	got := f.wait(j)
	if got.Status != exports.StatusSent || got.Attempts != 2 || got.Error != "" || got.Rows != 1 {
		t.Fatalf("job: %+v", got)
	}
}

func TestWorker_FailsAfterLastAttempt(t *testing.T) {
	f := newFixture(t, storetest.OpenSQLite(t), nil)
	d := f.device("RG0000000003", 6)
	f.smtp.Refuse(-1)
	f.run()
	at := time.Now()
	j := f.create(d, exports.Request{Params: []string{"rainfall"}, Email: "farmer@example.com",
		Begin: ptr(at.Add(-time.Hour)), End: &at, Lang: i18n.EnUS})
	got := f.wait(j)
	if got.Status != exports.StatusFailed || got.Attempts != 3 || got.Error != "export.failed" || got.FinishedAt == nil {
		t.Fatalf("job: %+v", got)
	}
	for lang, want := range map[i18n.Lang]string{i18n.ZhCN: "导出失败，请稍后重试", i18n.ZhTW: "匯出失敗，請稍後重試",
		i18n.EnUS: "Export failed, please try again later"} {
		if msg := i18n.T(lang, got.Error, nil); msg != want {
			t.Errorf("%s: %q", lang, msg)
		}
	}
}

func TestWorker_TakesOverACrashedRun(t *testing.T) {
	f := newFixture(t, storetest.OpenSQLite(t), nil)
	d := f.device("RG0000000004", 6)
	at := time.Now()
	j := f.create(d, exports.Request{Params: []string{"rainfall"}, Email: "farmer@example.com",
		Begin: ptr(at.Add(-time.Hour)), End: &at, Lang: i18n.EnUS})
	// A node claimed it and died: its last heartbeat's lease ran out a minute ago.
	claimed, err := f.db.ClaimExport(context.Background(), time.Now(), time.Minute, 3)
	if err != nil || claimed == nil || claimed.ID != j.ID {
		t.Fatalf("claim: %+v %v", claimed, err)
	}
	if err := f.db.ExportProgress(context.Background(), j.ID, 1, 40, 100, time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	f.run()
	f.attachment()
	got := f.wait(j)
	if got.Status != exports.StatusSent || got.Attempts != 2 {
		t.Fatalf("job: %+v", got)
	}
}

// blockingTelemetry holds the second window's read until the store shows the
// progress of the first.
type blockingTelemetry struct {
	telemetry.HistoryStore
	db    *store.DB
	job   atomic.Pointer[string]
	calls atomic.Int32
	seen  atomic.Pointer[exports.Job]
}

func (b *blockingTelemetry) Series(ctx context.Context, q telemetry.Query) ([]telemetry.Series, error) {
	if b.calls.Add(1) == 2 {
		for {
			j, err := b.db.FindExport(ctx, *b.job.Load())
			if err != nil {
				return nil, err
			}
			if j.Progress > 0 && j.Rows > 0 {
				b.seen.Store(j)
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	return b.HistoryStore.Series(ctx, q)
}

func TestWorker_ProgressWhileWriting(t *testing.T) {
	db := storetest.OpenSQLite(t)
	bt := &blockingTelemetry{HistoryStore: db, db: db}
	f := newFixture(t, db, func(o *exports.Options) {
		o.History = telemetry.NewHistory(telemetry.HistoryOptions{Store: bt, Location: shanghai})
	})
	d := f.device("RG0000000005", 6)
	begin := time.Date(2026, 3, 1, 0, 0, 0, 0, shanghai)
	end := begin.AddDate(0, 0, 21)
	var reports []*telemetry.Report
	for at := begin; at.Before(end); at = at.Add(time.Hour) {
		reports = append(reports, &telemetry.Report{DeviceID: d.ID, Time: at, OfflineAt: at.Add(time.Hour),
			Points: []telemetry.Point{{Param: "rainfall", Value: 0.5}}})
	}
	if _, err := db.WriteReports(context.Background(), reports, shanghai); err != nil {
		t.Fatal(err)
	}
	j := f.create(d, exports.Request{Params: []string{"rainfall"}, Email: "farmer@example.com",
		Begin: &begin, End: &end, Lang: i18n.EnUS})
	bt.job.Store(&j.ID)
	f.run()
	f.attachment()
	got := f.wait(j)
	// The first of three weeks was written when the second was read.
	if seen := bt.seen.Load(); seen == nil || seen.Status != exports.StatusRunning || seen.Progress != 30 || seen.Rows != 7*24 {
		t.Fatalf("progress after the first week: %+v", seen)
	}
	if got.Status != exports.StatusSent || got.Progress != 100 || got.Rows != 21*24 || bt.calls.Load() != 3 {
		t.Fatalf("job: %+v after %d reads", got, bt.calls.Load())
	}
}

// rights answers with the device of the real service but a chosen right.
type rights struct {
	exports.Devices
	mu    sync.Mutex
	right devices.Right
}

func (r *rights) Authorize(ctx context.Context, viewer, id int64, need devices.Need) (*devices.Device, devices.Right, error) {
	d, _, err := r.Devices.Authorize(ctx, viewer, id, devices.NeedRead)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil && !r.right.Allows(need) {
		return nil, devices.Right{}, need.Denied()
	}
	return d, r.right, err
}

func (r *rights) set(right devices.Right) {
	r.mu.Lock()
	r.right = right
	r.mu.Unlock()
}

func TestService_ExportRight(t *testing.T) {
	db := storetest.OpenSQLite(t)
	rs := &rights{}
	f := newFixture(t, db, func(o *exports.Options) {
		rs.Devices = o.Devices
		o.Devices = rs
	})
	d := f.device("RG0000000006", 6)
	at := time.Now()
	req := exports.Request{Params: []string{"rainfall"}, Email: "farmer@example.com", Begin: ptr(at.Add(-time.Hour)), End: &at}

	t.Run("ErrNoExportRight", func(t *testing.T) {
		// A user the device is shared with, allowed to rename and configure it but not to export.
		rs.set(devices.Right{Rename: true, Settings: true})
		_, err := f.svc.Create(context.Background(), f.owner, d.ID, req)
		e := errs.As(err)
		if e == nil || e.Kind != errs.EForbidden || e.Code != "export.noRight" {
			t.Fatalf("got %v", err)
		}
		for lang, want := range map[i18n.Lang]string{i18n.ZhCN: "没有导出权限！", i18n.ZhTW: "沒有匯出權限！", i18n.EnUS: "No permission to export!"} {
			if msg := i18n.Message(lang, e.Code, e.Field, e.Params); msg != want {
				t.Errorf("%s: %q", lang, msg)
			}
		}
	})
	t.Run("ErrNotFoundForAnotherAccount", func(t *testing.T) {
		rs.set(devices.OwnerRight)
		if _, err := f.svc.Create(context.Background(), f.owner+1, d.ID, req); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("got %v", err)
		}
		j := f.create(d, req)
		if _, err := f.svc.Get(context.Background(), f.owner+1, d.ID, j.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another account reads the job: %v", err)
		}
		other := f.device("RG0000000007", 6)
		if _, err := f.svc.Get(context.Background(), f.owner, other.ID, j.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("the job through another device: %v", err)
		}
	})
	t.Run("RevokedBeforeTheRunFails", func(t *testing.T) {
		rs.set(devices.OwnerRight)
		j := f.create(d, req)
		rs.set(devices.Right{Rename: true})
		f.run()
		got := f.wait(j)
		if got.Status != exports.StatusFailed || got.Error != "export.noRight" || got.Attempts != 1 {
			t.Fatalf("job: %+v", got)
		}
	})
	t.Run("ErrUnavailableWithoutMail", func(t *testing.T) {
		rs.set(devices.OwnerRight)
		svc := exports.New(exports.Options{Store: db, Devices: rs, History: telemetry.NewHistory(telemetry.HistoryOptions{Store: db, Location: nil})})
		_, err := svc.Create(context.Background(), f.owner, d.ID, req)
		if e := errs.As(err); e == nil || e.Kind != errs.EUnavailable || e.Code != "export.mailNotConfigured" {
			t.Fatalf("got %v", err)
		}
		if svc.Enabled() {
			t.Fatal("enabled without a mailer")
		}
	})
	if n := len(f.smtp.C); n != 0 {
		t.Fatalf("%d messages sent", n)
	}
}

// Without a mail server the worker writes the file and keeps it for its
// owner to download, for FileKeep; nobody else gets it.
func TestWorker_WithoutMailKeepsTheFile(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		files := t.TempDir()
		f := newFixture(t, db, func(o *exports.Options) { o.Mailer, o.FileDir = nil, files })
		if f.svc.Enabled() {
			t.Fatal("mail enabled without a mailer")
		}
		// A file left from a day ago is removed when the worker starts.
		stale := filepath.Join(files, "0123456789abcdef01234567.csv")
		if err := os.WriteFile(stale, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-25 * time.Hour)
		if err := os.Chtimes(stale, old, old); err != nil {
			t.Fatal(err)
		}
		rain := f.device("RG0000000011", 6)
		at := time.Date(2026, 5, 1, 8, 0, 0, 0, shanghai)
		if _, err := db.WriteReports(context.Background(), []*telemetry.Report{{DeviceID: rain.ID, Time: at, OfflineAt: at.Add(time.Hour),
			Points: []telemetry.Point{{Param: "rainfall", Value: 1.5}}}}, shanghai); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		// Queued before the worker starts, so it is certainly not finished yet.
		j := f.create(rain, exports.Request{Params: []string{"rainfall"}, Begin: ptr(at.Add(-time.Hour)), End: ptr(at.Add(time.Hour)),
			Format: "csv", Lang: i18n.EnUS})
		if _, err := f.svc.File(ctx, f.owner, rain.ID, j.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("a file before the job finished: %v", err)
		}
		f.run()
		got := f.wait(j)
		if got.Status != exports.StatusReady || got.Rows != 1 || got.Progress != 100 || got.Error != "" {
			t.Fatalf("job: %+v", got)
		}
		file, err := f.svc.File(ctx, f.owner, rain.ID, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		name := file.Name
		data, err := io.ReadAll(file)
		file.Close()
		if err != nil {
			t.Fatal(err)
		}
		if name != "RG0000000011_raw_20260501-20260501.csv" || file.ContentType != "text/csv" || !strings.Contains(string(data), "2026-05-01 08:00:00,1.5") {
			t.Fatalf("%s: %q", name, data)
		}
		if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a file older than FileKeep is still kept: %v", err)
		}
		if _, err := f.svc.File(ctx, f.owner+1, rain.ID, j.ID); errs.KindOf(err) != errs.ENotFound {
			t.Errorf("another account downloads the file: %v", err)
		}
		other := f.device("RG0000000012", 6)
		if _, err := f.svc.File(ctx, f.owner, other.ID, j.ID); errs.KindOf(err) != errs.ENotFound {
			t.Errorf("the file through another device: %v", err)
		}
		// Past FileKeep the file is gone, with a message saying so.
		later := exports.New(exports.Options{Store: db, Devices: f.devices, FileDir: files, FileKeep: time.Nanosecond})
		if _, err := later.File(ctx, f.owner, rain.ID, j.ID); errs.As(err) == nil || errs.As(err).Code != "export.fileGone" {
			t.Errorf("after FileKeep: %v", err)
		}
		if n := len(f.smtp.C); n != 0 {
			t.Fatalf("%d messages sent", n)
		}
	})
}
