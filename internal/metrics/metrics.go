// Package metrics exposes the process's Prometheus metrics.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds one registry per server, so tests can start many servers in one process.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec

	// Device link.
	Reports  *prometheus.CounterVec // accepted reports by transport (mqtt, http) and kind
	Points   prometheus.Counter     // readings stored
	Rejected *prometheus.CounterVec // refused messages by transport and reason (an i18n code)
	Denied   *prometheus.CounterVec // refused connections, publishes and subscriptions by reason
	Full     prometheus.Counter     // connections closed because the device stopped taking messages (queue full, write stalled)
	Batch    prometheus.Histogram   // readings per committed write
	Commit   prometheus.Histogram   // seconds per committed write
}

// New returns metrics with the Go runtime and process collectors registered.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "fieldwatch_http_requests_total",
			Help: "HTTP requests by route pattern, method and status code.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "fieldwatch_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
	}
	m.Reports = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fieldwatch_ingest_messages_total",
		Help: "Device messages accepted, by transport (mqtt, http) and kind (telemetry, status, image).",
	}, []string{"transport", "kind"})
	m.Points = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fieldwatch_ingest_points_total",
		Help: "Readings durably stored (redeliveries not counted).",
	})
	m.Rejected = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fieldwatch_ingest_rejected_total",
		Help: "Device messages refused as bad input, by transport and reason.",
	}, []string{"transport", "reason"})
	m.Denied = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fieldwatch_mqtt_denied_total",
		Help: "MQTT connections, publishes and subscriptions refused, by reason.",
	}, []string{"reason"})
	m.Full = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fieldwatch_mqtt_queue_full_total",
		Help: "MQTT connections closed because the device stopped taking messages: one found its send queue full (--mqtt-queue; reason Quota exceeded), or a write waited 30 s for it to read.",
	})
	m.Batch = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "fieldwatch_ingest_batch_points",
		Help:    "Readings per committed write transaction.",
		Buckets: prometheus.ExponentialBuckets(1, 4, 9),
	})
	m.Commit = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "fieldwatch_ingest_commit_seconds",
		Help:    "Duration of each telemetry write transaction.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
	})
	m.reg.MustRegister(m.Reports, m.Points, m.Rejected, m.Denied, m.Full, m.Batch, m.Commit)
	m.reg.MustRegister(m.requests, m.latency,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Observe records one finished request. route is the matched pattern.
func (m *Metrics) Observe(route, method string, status int, d time.Duration) {
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route).Observe(d.Seconds())
}
