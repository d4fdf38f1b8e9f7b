// Package httpapi serves /apis/*, the metrics and health endpoints, and the
// embedded web app.
package httpapi

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/exports"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/maptiles"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/openapi"
	"github.com/fieldwatch/fieldwatch/internal/push"
	"github.com/fieldwatch/fieldwatch/internal/rain"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/sharing"
	"github.com/fieldwatch/fieldwatch/internal/soil"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
	"github.com/fieldwatch/fieldwatch/internal/tilt"
	"github.com/fieldwatch/fieldwatch/internal/weather"
)

// Options configure a Server.
type Options struct {
	Accounts *accounts.Service
	Devices  *devices.Service
	History  *telemetry.History
	Images   ImageReader
	Ingest   *ingest.Pipeline
	// Exports sends data by e-mail; nil answers that mail is not set up.
	Exports *exports.Service
	// Rules are alert rules, their events and messages.
	Rules *rules.Service
	// Soil, Weather, Rain and Tilt compute the analyses of the detail pages.
	Soil    *soil.Service
	Weather *weather.Service
	Rain    *rain.Service
	Tilt    *tilt.Service
	// OpenAPI manages open-API applications and authenticates their calls.
	OpenAPI *openapi.Service
	// Push manages data-push channels and their log.
	Push *push.Service
	// Sharing creates and accepts share and transfer links and manages grants.
	Sharing *sharing.Service
	// PublicURL is the console's address for links (share links); empty
	// uses the address a request came to.
	PublicURL string
	// MapTiles is the tile source the web app's map loads.
	MapTiles maptiles.Source
	// Location is where days begin (daily history, file names).
	Location *time.Location
	// Ping checks the store for /healthz.
	Ping func(context.Context) error
	// App is the built web app (index.html at its root); nil serves a notice.
	App fs.FS
	Log *slog.Logger
	// Metrics is shared with the rest of the program; nil creates one.
	Metrics *metrics.Metrics
	// TrustProxy takes the client address from X-Forwarded-For and the scheme
	// from X-Forwarded-Proto of requests whose direct peer is one of
	// TrustedProxies (nil: DefaultTrustedProxies).
	TrustProxy     bool
	TrustedProxies []netip.Prefix
}

// DefaultTrustedProxies are the proxies trusted under TrustProxy when none
// are named: loopback only, a proxy on the same host. Private ranges are not
// trusted by default, since clients on the farm's own network have such
// addresses too and could otherwise forge theirs.
var DefaultTrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// ImageReader reads stored camera images.
type ImageReader interface {
	Images(ctx context.Context, deviceID int64, limit int) ([]telemetry.Image, error)
	ImageData(ctx context.Context, deviceID, id int64) (*telemetry.Image, []byte, error)
}

// Server is the HTTP side of the application.
type Server struct {
	Options
	log     *slog.Logger
	metrics *metrics.Metrics
	handler http.Handler
	// untrustedForwarder is set once a request from a peer outside
	// TrustedProxies carried X-Forwarded-For, which is logged once.
	untrustedForwarder atomic.Bool
}

// New builds the server and its route table.
func New(o Options) *Server {
	if o.Metrics == nil {
		o.Metrics = metrics.New()
	}
	s := &Server{Options: o, log: o.Log, metrics: o.Metrics}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	paths := http.NewServeMux() // the same paths without methods, to tell 405 from 404
	seen := map[string]bool{}
	for _, rt := range s.routes() {
		pattern := rt.method + " " + rt.path
		if rt.path == "/" {
			pattern = "/" // any method: the app handler answers 405 itself
		}
		mux.Handle(pattern, rt.handler)
		if strings.HasPrefix(rt.path, "/apis/") && !seen[rt.path] {
			seen[rt.path] = true
			paths.Handle(rt.path, http.NotFoundHandler())
		}
	}
	mux.HandleFunc("/apis/", func(w http.ResponseWriter, r *http.Request) {
		lang := i18n.Parse(r.Header.Get("lang"))
		if _, p := paths.Handler(r); p != "" {
			s.writeError(w, r, lang, errs.New(errs.EMethod, "error.methodNotAllowed"))
			return
		}
		s.writeError(w, r, lang, errs.ErrNotFound)
	})

	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, i18n.Parse(r.Header.Get("lang")), errs.New(errs.EForbidden, "error.crossOrigin"))
	}))
	s.handler = s.observe(s.recoverPanics(securityHeaders(cop.Handler(mux))))
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Routes lists the route table as "METHOD /path", sorted.
func (s *Server) Routes() []string {
	var out []string
	for _, rt := range s.routes() {
		out = append(out, rt.method+" "+rt.path)
	}
	sort.Strings(out)
	return out
}

// statusWriter remembers the status code for logs and metrics.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe records metrics by matched route pattern and logs API calls.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		d := time.Since(start)
		route := r.Pattern // set by ServeMux on this same request
		if route == "" {
			route = "unmatched"
		}
		s.metrics.Observe(route, r.Method, sw.status, d)
		if strings.HasPrefix(r.URL.Path, "/apis/") || sw.status >= 500 {
			s.log.Log(r.Context(), logLevel(sw.status), "http",
				"method", r.Method, "path", r.URL.Path, "status", sw.status, "ms", float64(d.Microseconds())/1000)
		}
	})
}

func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.writeError(w, r, i18n.Parse(r.Header.Get("lang")), errs.Internal("panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "SAMEORIGIN")
		next.ServeHTTP(w, r)
	})
}

// clientIP is the caller's address. Without TrustProxy, or when the
// connection's peer is not a trusted proxy, it is the peer. Otherwise
// X-Forwarded-For is read from the right (the entry the nearest proxy
// appended) and each trusted proxy is passed over: the first address that
// is not a trusted proxy is the client, since every entry left of it may
// have been written by the client itself. An entry that is not an address
// stops the walk at the hop to its right; a chain of trusted proxies only
// gives its leftmost address.
func (s *Server) clientIP(r *http.Request) string {
	peer, ok := peerAddr(r)
	if !ok {
		return r.RemoteAddr
	}
	if !s.fromTrustedProxy(peer) {
		if s.TrustProxy && r.Header.Get("X-Forwarded-For") != "" && !s.untrustedForwarder.Swap(true) {
			s.log.Warn("X-Forwarded-For ignored: the peer is not in --trusted-proxies", "peer", peer.String())
		}
		return peer.String()
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHop(hops[i])
		if !ok {
			break
		}
		client = a
		if !s.trusted(a) {
			break
		}
	}
	return client.String()
}

// secure reports whether the client reached us over HTTPS: directly, or
// through a trusted proxy that says so in X-Forwarded-Proto.
func (s *Server) secure(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	peer, ok := peerAddr(r)
	return ok && s.fromTrustedProxy(peer) && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// fromTrustedProxy reports whether a request from peer may speak for its
// client through X-Forwarded-* headers.
func (s *Server) fromTrustedProxy(peer netip.Addr) bool {
	return s.TrustProxy && s.trusted(peer)
}

func (s *Server) trusted(a netip.Addr) bool {
	proxies := s.TrustedProxies
	if proxies == nil {
		proxies = DefaultTrustedProxies
	}
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peerAddr is the address of the connection's other end.
func peerAddr(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		a, err := netip.ParseAddr(r.RemoteAddr)
		return a.Unmap().WithZone(""), err == nil
	}
	return ap.Addr().Unmap().WithZone(""), true
}

// parseHop reads one X-Forwarded-For entry: an address, with or without a
// port (IPv6 with a port in brackets).
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	return a.Unmap().WithZone(""), err == nil
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if s.Ping != nil {
		if err := s.Ping(ctx); err != nil {
			s.log.Warn("health check failed", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "store": "unreachable"})
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
