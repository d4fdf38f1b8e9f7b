package push

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"
)

const defaultTimeout = 10 * time.Second

// WorkerStore is what the delivery worker needs from the database.
type WorkerStore interface {
	// DueChannels returns the enabled channels with a delivery due at now.
	DueChannels(ctx context.Context, now time.Time) ([]int64, error)
	// ClaimDeliveries leases up to limit due deliveries of a channel, in
	// device and collect-time order, skipping a device whose earlier
	// delivery is still waiting (order per device is kept).
	ClaimDeliveries(ctx context.Context, channel int64, now time.Time, lease time.Duration, limit int) ([]*Delivery, error)
	// FinishDeliveries stores the outcome of attempts.
	FinishDeliveries(ctx context.Context, ds []*Delivery) error
	// ChannelTarget returns where a channel delivers and its sealed secret.
	ChannelTarget(ctx context.Context, channel int64) (url string, enabled bool, sealed string, err error)
}

// Opener opens sealed secrets (secret.Keeper).
type Opener interface {
	Open(sealed string) ([]byte, error)
}

// WorkerOptions configure the delivery worker.
type WorkerOptions struct {
	Store WorkerStore
	Keys  Opener
	Guard Guard
	Log   *slog.Logger
	// Backoff is the wait before each retry (default 1 s doubling to 5 min);
	// each wait is jittered by ±50 %. After the last, a delivery fails.
	Backoff []time.Duration
	// Timeout bounds one request (default 10 s).
	Timeout time.Duration
	// Lanes is how many requests one channel has in flight (default 16).
	Lanes int
	// Batch is how many deliveries one claim takes (default 1000).
	Batch int
	// OnDelivered, if set, is told of each finished attempt (metrics).
	OnDelivered func(d *Delivery)
	Now         func() time.Time
}

// Worker delivers pending reports. Each channel has its own goroutine, so a
// slow or dead target delays only itself; within a channel, devices are
// spread over lanes that send in parallel, each device's reports in order.
type Worker struct {
	WorkerOptions

	once    sync.Once
	client  *http.Client
	wake    chan struct{}
	mu      sync.Mutex
	running map[int64]bool
}

// NewWorker returns a worker; Run starts it.
func NewWorker(o WorkerOptions) *Worker { return &Worker{WorkerOptions: o} }

// DefaultBackoff: 8 attempts over about four minutes.
var DefaultBackoff = []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second,
	16 * time.Second, 32 * time.Second, 64 * time.Second, 128 * time.Second}

func (w *Worker) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

// init fills the defaults once: Wake may come (a commit before Run starts,
// such as a node catching up on its broker queue) while Run begins.
func (w *Worker) init() { w.once.Do(w.fill) }

func (w *Worker) fill() {
	if w.Backoff == nil {
		w.Backoff = DefaultBackoff
	}
	if w.Timeout <= 0 {
		w.Timeout = defaultTimeout
	}
	if w.Lanes <= 0 {
		w.Lanes = 16
	}
	if w.Batch <= 0 {
		w.Batch = 1000
	}
	if w.Log == nil {
		w.Log = slog.New(slog.DiscardHandler)
	}
	d := w.Guard.Dialer()
	d.Timeout = w.Timeout
	w.client = &http.Client{
		Timeout: w.Timeout,
		Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second,
			TLSHandshakeTimeout: w.Timeout, ResponseHeaderTimeout: w.Timeout, ForceAttemptHTTP2: true},
		// A redirect could lead inside; receivers answer where they are.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	w.wake = make(chan struct{}, 1)
	w.running = map[int64]bool{}
}

// Wake tells the worker that deliveries were committed.
func (w *Worker) Wake() {
	w.init()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run delivers until ctx ends; retries come due on a one-second tick.
func (w *Worker) Run(ctx context.Context) {
	w.init()
	var wg sync.WaitGroup
	defer wg.Wait()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		chans, err := w.Store.DueChannels(ctx, w.now())
		if err != nil && ctx.Err() == nil {
			w.Log.Error("push: due channels", "err", err)
		}
		for _, ch := range chans {
			w.mu.Lock()
			busy := w.running[ch]
			w.running[ch] = true
			w.mu.Unlock()
			if !busy {
				wg.Add(1)
				go func() {
					defer wg.Done()
					w.serve(ctx, ch)
				}()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		case <-tick.C:
		}
	}
}

// serve drains one channel's due deliveries, then returns.
func (w *Worker) serve(ctx context.Context, ch int64) {
	defer func() {
		w.mu.Lock()
		delete(w.running, ch)
		w.mu.Unlock()
	}()
	for ctx.Err() == nil {
		url, enabled, sealed, err := w.Store.ChannelTarget(ctx, ch)
		if err != nil || !enabled {
			return
		}
		secret, err := w.Keys.Open(sealed)
		if err != nil {
			w.Log.Error("push: channel secret", "channel", ch, "err", err)
			return
		}
		// The lease outlasts the slowest batch (every lane's requests timing
		// out one after another), so another node never takes a delivery
		// that is still on its way; after a crash they come due again then.
		lease := time.Duration((w.Batch+w.Lanes-1)/w.Lanes)*w.Timeout + 30*time.Second
		ds, err := w.Store.ClaimDeliveries(ctx, ch, w.now(), lease, w.Batch)
		if err != nil {
			if ctx.Err() == nil {
				w.Log.Error("push: claim", "channel", ch, "err", err)
			}
			return
		}
		if len(ds) == 0 {
			return
		}
		w.sendAll(ctx, ch, url, secret, ds)
		// The outcome is stored even when ctx ends mid-way: a delivery
		// that went out is not sent again because of a shutdown.
		if err := w.Store.FinishDeliveries(context.WithoutCancel(ctx), ds); err != nil {
			w.Log.Error("push: finish", "channel", ch, "err", err)
			return
		}
	}
}

// sendAll sends a claimed batch: each device's deliveries in order on one
// lane; after a failure the device's later deliveries wait for its retry.
func (w *Worker) sendAll(ctx context.Context, ch int64, url string, secret []byte, ds []*Delivery) {
	byDevice := map[int64][]*Delivery{}
	var order []int64
	for _, d := range ds {
		if _, ok := byDevice[d.DeviceID]; !ok {
			order = append(order, d.DeviceID)
		}
		byDevice[d.DeviceID] = append(byDevice[d.DeviceID], d)
	}
	lanes := make(chan []*Delivery)
	var wg sync.WaitGroup
	for range min(w.Lanes, len(order)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for run := range lanes {
				blocked := time.Time{}
				for _, d := range run {
					if !blocked.IsZero() {
						d.NextAt = blocked // waits behind the failed one, not an attempt
						continue
					}
					w.attempt(ctx, ch, url, secret, d)
					if d.Status == StatusPending {
						blocked = d.NextAt
					}
				}
			}
		}()
	}
	for _, dev := range order {
		lanes <- byDevice[dev]
	}
	close(lanes)
	wg.Wait()
}

// Body is what a delivery POSTs: the stored report with its delivery id.
func Body(d *Delivery) []byte {
	head := `{"deliveryId":` + strconv.FormatInt(d.ID, 10)
	if len(d.Payload) > 2 {
		return append([]byte(head+","), d.Payload[1:]...)
	}
	return []byte(head + "}")
}

func (w *Worker) attempt(ctx context.Context, ch int64, url string, secret []byte, d *Delivery) {
	body := Body(d)
	start := w.now()
	d.Attempts++
	d.PushedAt = &start
	status, err := w.post(ctx, ch, url, secret, d.ID, body, start)
	d.Duration = w.now().Sub(start)
	d.HTTPStatus = status
	if err == nil {
		d.Status, d.Error = StatusSuccess, ""
	} else {
		d.Error = err.Error()
		if len(d.Error) > 500 {
			d.Error = d.Error[:500]
		}
		if d.Attempts > len(w.Backoff) {
			d.Status = StatusFail
		} else {
			d.Status = StatusPending
			wait := w.Backoff[d.Attempts-1]
			d.NextAt = start.Add(wait/2 + time.Duration(rand.Int64N(int64(wait)+1)))
		}
	}
	if w.OnDelivered != nil {
		w.OnDelivered(d)
	}
}

func (w *Worker) post(ctx context.Context, ch int64, url string, secret []byte, id int64, body []byte, at time.Time) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Fieldwatch-Push/1")
	req.Header.Set(HeaderDelivery, strconv.FormatInt(id, 10))
	req.Header.Set(HeaderChannel, strconv.FormatInt(ch, 10))
	req.Header.Set(HeaderSignature, Sign(secret, at, body))
	res, err := w.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10)) // keeps the connection for the next one
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return res.StatusCode, fmt.Errorf("HTTP %d", res.StatusCode)
	}
	return res.StatusCode, nil
}
