// Package detect runs the AI lab's published applications on the pictures
// their devices send. Each picture queues a run per application (a row of
// ailab_jobs, written with the picture); a small pool of workers in the
// process claims runs with a lease, runs the model, writes the detection
// record and the device's detectCount reading, and retries a failed run
// with backoff a bounded number of times. Runs survive a restart: a run
// whose worker stopped is claimed again once its lease passes.
package detect

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/queue"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// Store is what the workers need.
type Store interface {
	ClaimDetection(ctx context.Context, now time.Time, lease time.Duration, maxAttempts int) (*ailab.Job, error)
	ExpireDetections(ctx context.Context, now time.Time, maxAttempts int) (int64, error)
	DetectionWork(ctx context.Context, j *ailab.Job) (*ailab.Work, error)
	FinishDetection(ctx context.Context, j *ailab.Job, r *ailab.Record) error
	RetryDetection(ctx context.Context, j *ailab.Job, runErr string, nextAt, now time.Time) error
	Model(ctx context.Context, ownerID, id int64) (*ailab.StoredModel, error)
	ModelData(ctx context.Context, ownerID, id int64) ([]byte, error)
}

// Writer stores readings: the telemetry writer every ingest path uses, so
// a detection reading reaches history, exports, data push and alert rules.
type Writer interface {
	Write(ctx context.Context, r *telemetry.Report) error
}

// Options configure the pool.
type Options struct {
	Store  Store
	Writer Writer
	// Workers run at once (default: one per core the process may use).
	Workers int
	// Attempts before a run is failed for good (default 5).
	Attempts int
	// Backoff is the first retry's delay, doubled each time (default 10 s).
	Backoff time.Duration
	// Lease is how long a claimed run is its worker's (default 2 min).
	Lease time.Duration
	// Poll is how often due runs are looked for without a wake-up
	// (default 5 s): retries come due without one.
	Poll time.Duration
	// Models bounds the loaded models each worker keeps (default 4).
	Models int
	Log    *slog.Logger
	Now    func() time.Time
}

// Pool is the detection workers.
type Pool struct {
	Options

	once sync.Once
	wake queue.Signal
}

// New returns the pool; Run starts it.
func New(o Options) *Pool { return &Pool{Options: o} }

func (p *Pool) defaults() {
	p.once.Do(func() {
		p.Workers = cmp.Or(p.Workers, runtime.GOMAXPROCS(0))
		p.Attempts = cmp.Or(p.Attempts, 5)
		p.Backoff = cmp.Or(p.Backoff, 10*time.Second)
		p.Lease = cmp.Or(p.Lease, 2*time.Minute)
		p.Poll = cmp.Or(p.Poll, 5*time.Second)
		p.Models = cmp.Or(p.Models, 4)
		if p.Log == nil {
			p.Log = slog.New(slog.DiscardHandler)
		}
		if p.Now == nil {
			p.Now = time.Now
		}
		p.wake = queue.NewSignal(p.Workers)
	})
}

// Wake tells the workers a picture came: idle ones look for runs now.
func (p *Pool) Wake() {
	p.defaults()
	for range p.Workers {
		p.wake.Wake()
	}
}

// Run works runs with Workers goroutines until ctx ends, then waits for
// the runs in hand to finish.
func (p *Pool) Run(ctx context.Context) {
	p.defaults()
	var wg sync.WaitGroup
	for range p.Workers {
		w := p.NewWorker()
		wg.Go(func() {
			queue.Loop{
				Poll:    p.Poll,
				Wake:    p.wake,
				Step:    w.RunOnce,
				OnError: func(err error) { p.Log.Error("detect: claim", "err", err) },
				OnTick: func(ctx context.Context) {
					if _, err := p.Store.ExpireDetections(ctx, p.Now(), p.Attempts); err != nil && ctx.Err() == nil {
						p.Log.Error("detect: expire", "err", err)
					}
				},
			}.Run(ctx)
		})
	}
	wg.Wait()
}

// Worker runs one run at a time, with the models it has loaded. A loaded
// model runs one picture at a time, so each worker keeps its own.
type Worker struct {
	p      *Pool
	models map[int64]*ailab.Model
	order  []int64 // loaded model ids, oldest first
}

// NewWorker returns a worker of the pool (Run makes its own).
func (p *Pool) NewWorker() *Worker {
	p.defaults()
	return &Worker{p: p, models: map[int64]*ailab.Model{}}
}

// permanent marks a run no retry can help: its application, picture or
// model is gone, or the picture is not one.
type permanent struct{ err error }

func (e *permanent) Error() string { return e.err.Error() }
func (e *permanent) Unwrap() error { return e.err }

// RunOnce claims one due run and works it; false when none was due. A run
// that fails is recorded on it (retried, or failed for good), not
// returned: the error is the store's.
func (w *Worker) RunOnce(ctx context.Context) (bool, error) {
	p := w.p
	j, err := p.Store.ClaimDetection(ctx, p.Now(), p.Lease, p.Attempts)
	if err != nil || j == nil {
		return false, err
	}
	runErr := w.work(ctx, j)
	if runErr == nil {
		return true, nil
	}
	if ctx.Err() != nil {
		return true, nil // stopping: the lease runs out and the run is claimed again
	}
	var next time.Time
	var perm *permanent
	if j.Attempts < p.Attempts && !errors.As(runErr, &perm) {
		delay := p.Backoff << (j.Attempts - 1)
		delay += time.Duration(rand.Int64N(int64(delay)/5 + 1)) // jitter up to 20 %
		next = p.Now().Add(delay)
	}
	p.Log.Warn("detect: run failed", "job", j.ID, "app", j.AppID, "image", j.ImageID, "attempt", j.Attempts,
		"err", runErr, "retry", !next.IsZero())
	if err := p.Store.RetryDetection(ctx, j, runErr.Error(), next, p.Now()); err != nil && errs.KindOf(err) != errs.ENotFound {
		return true, err
	}
	return true, nil
}

// work runs the application's model on the picture, writes the reading,
// then the record with the run done.
func (w *Worker) work(ctx context.Context, j *ailab.Job) error {
	p := w.p
	work, err := p.Store.DetectionWork(ctx, j)
	if errs.KindOf(err) == errs.ENotFound {
		return &permanent{errors.New("the application, the picture or the device is gone")}
	}
	if err != nil {
		return err
	}
	model, err := w.model(ctx, work.App.OwnerID, work.App.ModelID)
	if err != nil {
		return err
	}
	res, err := model.RunPicture(work.Picture)
	if err != nil {
		if errs.KindOf(err) == errs.EInvalid {
			return &permanent{err}
		}
		return err
	}
	appID, imageID := work.App.ID, j.ImageID
	rec := &ailab.Record{OwnerID: work.App.OwnerID, AppID: &appID, AppName: work.App.Name, DeviceID: j.DeviceID,
		DeviceName: work.DeviceName, SN: work.SN, ImageID: &imageID, DetectedAt: work.PictureAt,
		Location: work.Location, Lat: work.Lat, Lng: work.Lng, Packages: ailab.Packages(res, work.App.Elements),
		Millis: res.Millis, CreatedAt: p.Now()}
	if err := w.reading(ctx, work, res.Kind, rec.Packages); err != nil {
		return err
	}
	if err := p.Store.FinishDetection(ctx, j, rec); err != nil && errs.KindOf(err) != errs.ENotFound {
		return err
	}
	return nil
}

// reading writes the run's total as the device's DetectParam reading, at
// the picture's time plus one millisecond: a device reports (DeviceID,
// Time) once, and its own report of the picture's minute must not read as
// a redelivery of this one, nor this as one of it. A retried run writes
// the same key again, which the writer takes as the redelivery it is.
func (w *Worker) reading(ctx context.Context, work *ailab.Work, kind string, ps []ailab.RecordPackage) error {
	total, ok := ailab.Total(kind, ps)
	t, known := devices.TypeByID(work.TypeID)
	if !ok || !known {
		return nil
	}
	param, has := t.Param(ailab.DetectParam)
	if !has {
		return nil
	}
	total = min(max(total, param.Min), param.Max)
	at := work.PictureAt.Add(time.Millisecond)
	r := &telemetry.Report{DeviceID: work.Job.DeviceID, Time: at,
		Points:    []telemetry.Point{{Param: ailab.DetectParam, Value: total}},
		OfflineAt: at.Add(devices.OfflineAfter(t.Interval))}
	if err := w.p.Writer.Write(ctx, r); err != nil {
		return fmt.Errorf("write reading: %w", err)
	}
	return nil
}

// model returns the loaded model, loading it (and forgetting the oldest
// past Models) when needed. A stored model cannot change: a new upload is
// a new id.
func (w *Worker) model(ctx context.Context, owner, id int64) (*ailab.Model, error) {
	if m, ok := w.models[id]; ok {
		return m, nil
	}
	sm, err := w.p.Store.Model(ctx, owner, id)
	if errs.KindOf(err) == errs.ENotFound {
		return nil, &permanent{errors.New("the model is gone")}
	}
	if err != nil {
		return nil, err
	}
	data, err := w.p.Store.ModelData(ctx, owner, id)
	if err != nil {
		return nil, err
	}
	pkg, err := ailab.ReadPackage(sm.FileName, data)
	if err != nil {
		return nil, &permanent{fmt.Errorf("the model does not load: %w", err)}
	}
	m, err := ailab.Load(pkg)
	if err != nil {
		return nil, &permanent{err}
	}
	if len(w.order) >= w.p.Models {
		delete(w.models, w.order[0])
		w.order = w.order[1:]
	}
	w.models[id] = m
	w.order = append(w.order, id)
	return m, nil
}
