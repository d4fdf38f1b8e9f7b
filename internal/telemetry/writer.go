package telemetry

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrClosed is returned by Write after Close.
var ErrClosed = errors.New("telemetry writer closed")

// Writer batches reports from many concurrent callers into few transactions
// (group commit): while one batch commits, the next one gathers, so under
// load a commit carries thousands of readings and when idle a report is
// written at once, without waiting for a timer. Write returns only after
// its report is committed, so an acknowledgement sent after Write is durable.
type Writer struct {
	store     Store
	loc       *time.Location
	maxPoints int
	onCommit  func(reports []*Report, stored int, took time.Duration, err error)

	mu      sync.Mutex
	pending []*pending
	points  int
	wake    chan struct{}
	closed  bool
	done    chan struct{}
}

type pending struct {
	r   *Report
	err chan error
}

// WriterOptions configure a Writer.
type WriterOptions struct {
	Store Store
	// Location is where a day begins for daily rollups.
	Location *time.Location
	// MaxBatch bounds the readings of one transaction (default 20,000):
	// big enough to amortize a commit, small enough to keep one write short.
	MaxBatch int
	// OnCommit, if set, is told about each transaction (for metrics and for
	// the work that follows a committed report).
	OnCommit func(reports []*Report, stored int, took time.Duration, err error)
}

// NewWriter starts a writer over o.Store. Close stops it.
func NewWriter(o WriterOptions) *Writer {
	if o.Location == nil {
		o.Location = time.Local
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 20000
	}
	w := &Writer{store: o.Store, loc: o.Location, maxPoints: o.MaxBatch, onCommit: o.OnCommit,
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go w.loop()
	return w
}

// Write stores r and returns once it is committed (or refused). A report
// already stored (same device and time) is not an error.
func (w *Writer) Write(ctx context.Context, r *Report) error {
	done := w.Enqueue(r)
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		// The report may still be committed; the caller just stops waiting,
		// and a retry of it is harmless.
		return ctx.Err()
	}
}

// Enqueue queues r and returns at once; the channel receives the outcome
// of its commit (nil once it is durable). Reports are committed in the
// order they were queued, so a caller that queues several and waits for
// them in turn learns their outcomes in that order: a connection can keep
// many reports in flight and still acknowledge them in order.
func (w *Writer) Enqueue(r *Report) <-chan error {
	p := &pending{r: r, err: make(chan error, 1)}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		p.err <- ErrClosed
		return p.err
	}
	w.pending = append(w.pending, p)
	w.points += len(r.Points)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return p.err
}

// take removes up to maxPoints readings' worth of pending reports.
func (w *Writer) take() []*pending {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, points := 0, 0
	for n < len(w.pending) && (n == 0 || points+len(w.pending[n].r.Points) <= w.maxPoints) {
		points += len(w.pending[n].r.Points)
		n++
	}
	batch := w.pending[:n:n]
	w.pending = w.pending[n:]
	w.points -= points
	if len(w.pending) == 0 {
		w.pending = nil // let the backing array go
	}
	return batch
}

func (w *Writer) loop() {
	defer close(w.done)
	for {
		batch := w.take()
		if len(batch) == 0 {
			w.mu.Lock()
			closed := w.closed && len(w.pending) == 0
			w.mu.Unlock()
			if closed {
				return
			}
			<-w.wake
			continue
		}
		reports := make([]*Report, len(batch))
		for i, p := range batch {
			reports[i] = p.r
		}
		start := time.Now()
		// A commit in progress is finished even when the program is stopping:
		// callers are waiting on it.
		stored, err := w.store.WriteReports(context.Background(), reports, w.loc)
		if w.onCommit != nil {
			w.onCommit(reports, stored, time.Since(start), err)
		}
		for _, p := range batch {
			p.err <- err
		}
	}
}

// Close writes what is pending and stops the writer.
func (w *Writer) Close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		<-w.done
		return
	}
	w.closed = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	<-w.done
}

// Backlog returns the readings waiting to be written.
func (w *Writer) Backlog() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.points
}
