package bench

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/push"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// PushOptions configure the data-push benchmark.
type PushOptions struct {
	DB         string        // PostgreSQL URL, or "" for SQLite in a temporary directory
	Backlog    int           // deliveries queued before the worker starts (throughput)
	Load       int           // readings per second during the latency phase
	Duration   time.Duration // of the latency phase
	Devices    int           // soil stations reporting (20 readings a report)
	ReceiverMS int           // the receiver's own work per request, ms
}

// PushResult holds what was measured.
type PushResult struct {
	Dialect    string
	Backlog    int
	Drain      time.Duration   // to deliver the backlog
	Load       float64         // readings/s stored during the latency phase
	ToDelivery []time.Duration // report committed → received, sorted
}

// Push measures data-push delivery through the server's worker, store and
// HTTP client to a receiver on loopback with keep-alive: how fast a backlog
// drains, and the delay from a report's commit to its arrival while
// telemetry is written at Load readings/s through the batched writer.
func Push(ctx context.Context, o PushOptions) (*PushResult, error) {
	if o.Devices <= 0 {
		o.Devices = 100
	}
	// The receiver: counts and notes when each delivery arrived.
	var (
		mu       sync.Mutex
		arrived  = map[int64]time.Time{}
		received atomic.Int64
	)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		at := time.Now()
		if o.ReceiverMS > 0 {
			time.Sleep(time.Duration(o.ReceiverMS) * time.Millisecond)
		}
		id, _ := strconv.ParseInt(r.Header.Get(push.HeaderDelivery), 10, 64)
		mu.Lock()
		arrived[id] = at
		mu.Unlock()
		received.Add(1)
		w.WriteHeader(http.StatusNoContent)
	})}
	go srv.Serve(ln)
	defer srv.Close()

	g, clean, err := graph(ctx, o.DB, app.Options{}, func(c *config.Serve) { c.PushAllowPrivate = true })
	if err != nil {
		return nil, err
	}
	defer clean()
	owner, err := createAccount(ctx, g.DB)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for i := range o.Devices {
		d, _, err := g.Devices.Register(ctx, devices.Registration{SN: fmt.Sprintf("BENCHZS%07d", i), TypeID: 21, Owner: owner})
		if err != nil {
			return nil, err
		}
		ids = append(ids, d.ID)
	}

	ch := &push.Channel{OwnerID: owner, Name: "bench", URL: "http://" + ln.Addr().String() + "/in", DeviceIDs: ids}
	if _, err := g.Push.Create(ctx, ch); err != nil {
		return nil, err
	}
	res := &PushResult{Dialect: string(g.DB.Dialect()), Backlog: o.Backlog}
	soil := func(dev int64, at time.Time) *telemetry.Report {
		r := &telemetry.Report{DeviceID: dev, Time: at, OfflineAt: at.Add(time.Hour)}
		for depth := 10; depth <= 100; depth += 10 {
			r.Points = append(r.Points, telemetry.Point{Param: "soilMoisture", Node: depth, Value: 20 + float64(depth)/10},
				telemetry.Point{Param: "soilTemp", Node: depth, Value: 12})
		}
		return r
	}

	// Throughput: a queued backlog, drained once the workers start.
	base := time.Now().Add(-48 * time.Hour).Truncate(time.Minute)
	for i := 0; i < o.Backlog; i += 500 {
		var batch []*telemetry.Report
		for j := i; j < min(i+500, o.Backlog); j++ {
			batch = append(batch, soil(ids[j%len(ids)], base.Add(time.Duration(j/len(ids))*time.Minute)))
		}
		if _, err := g.DB.WriteReports(ctx, batch, time.Local); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	g.Start()
	for received.Load() < int64(o.Backlog) {
		if time.Since(start) > 10*time.Minute {
			return nil, fmt.Errorf("backlog: %d of %d delivered in 10 minutes", received.Load(), o.Backlog)
		}
		time.Sleep(2 * time.Millisecond)
	}
	res.Drain = time.Since(start)

	// Latency: reports written through the server's batched writer at Load
	// readings/s, whose commits wake the worker.
	mu.Lock()
	clear(arrived)
	mu.Unlock()
	received.Store(0)
	perReport := 20
	rate := float64(o.Load) / float64(perReport) // reports per second
	var sent atomic.Int64
	t0 := time.Now()
	next := t0
	var wg sync.WaitGroup
	for i := 0; time.Since(t0) < o.Duration; i++ {
		next = next.Add(time.Duration(float64(time.Second) / rate))
		if d := time.Until(next); d > 0 {
			time.Sleep(d)
		}
		r := soil(ids[i%len(ids)], t0.Add(time.Duration(i)*time.Millisecond))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := g.Writer.Write(ctx, r); err == nil {
				sent.Add(1)
			}
		}()
	}
	wg.Wait()
	res.Load = float64(sent.Load()*int64(perReport)) / time.Since(t0).Seconds()
	for received.Load() < sent.Load() {
		if time.Since(t0) > o.Duration+2*time.Minute {
			return nil, fmt.Errorf("latency phase: %d of %d delivered", received.Load(), sent.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The log has when each delivery was queued, in the report's commit.
	ds, _, err := g.DB.Deliveries(ctx, push.LogFilter{OwnerID: owner, ChannelID: ch.ID, Since: t0.Add(-time.Second), Limit: int(sent.Load()) + 10})
	if err != nil {
		return nil, err
	}
	mu.Lock()
	for _, d := range ds {
		if at, ok := arrived[d.ID]; ok {
			res.ToDelivery = append(res.ToDelivery, at.Sub(d.CreatedAt))
		}
	}
	mu.Unlock()
	slices.Sort(res.ToDelivery)
	return res, nil
}
