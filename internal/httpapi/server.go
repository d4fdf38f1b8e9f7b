// Package httpapi serves /apis/*, the metrics and health endpoints, and the
// embedded web app.
package httpapi

import (
	"context"
	"crypto/subtle"
	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/devicecert"
	"github.com/fieldwatch/fieldwatch/internal/feedback"
	"github.com/fieldwatch/fieldwatch/internal/portal"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/advice"
	"github.com/fieldwatch/fieldwatch/internal/briefing"
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
	// Briefings are the soil-moisture briefing presets and reports.
	Briefings *briefing.Service
	// Commands sends commands to devices and follows their states.
	Commands *commands.Service
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
	// WeChat signs pages inside WeChat for its JS-SDK; nil answers that
	// WeChat is not configured (--wechat-appid).
	WeChat JSSDKSigner
	// WeChatToken is the Official Account's server token (--wechat-token):
	// the callback URL checks pushed messages' signatures with it.
	WeChatToken string
	// QRImageOrigin is where WeChat QR code images load from (the origin
	// of --wechat-mp-url), allowed in the pages' img-src; empty for none.
	QRImageOrigin string
	// PublicURL is the console's address for links (share links); empty
	// uses the address a request came to.
	PublicURL string
	// MQTTPort is the embedded broker's port, shown with a device's
	// credentials; 0 when the server runs none.
	MQTTPort int
	// MapTiles is the tile source the web app's map loads.
	MapTiles maptiles.Source
	// Location is where days begin (daily history, file names).
	Location *time.Location
	// Ping checks the store for /healthz.
	Ping func(context.Context) error
	// Ready checks what serving needs for /readyz: each check's name and
	// its error (nil when it passes).
	Ready func(context.Context) map[string]error
	// App is the built web app (index.html at its root); nil serves a notice.
	App fs.FS
	Log *slog.Logger
	// Metrics is shared with the rest of the program; nil creates one.
	Metrics *metrics.Metrics
	// TrustProxy takes the client address from X-Forwarded-For, the scheme
	// from X-Forwarded-Proto and, for the cross-origin check, the host from
	// X-Forwarded-Host, of requests whose direct peer is one of
	// TrustedProxies (nil: DefaultTrustedProxies).
	TrustProxy     bool
	TrustedProxies []netip.Prefix
	// MetricsToken lets GET /metrics on this handler answer a caller sending
	// it as a bearer token; empty answers 404 there (MetricsHandler serves a
	// separate listener).
	MetricsToken string
	// BrokerAuthToken lets an external broker ask who may connect and what
	// they may do (/broker/v1/*, brokerauth.go), sending it as a bearer
	// token; empty answers 404 there. BrokerNodeUser and BrokerNodePassword
	// are the nodes' own broker login, allowed by it too.
	BrokerAuthToken                    string
	BrokerNodeUser, BrokerNodePassword string
	// ET0Areas keeps the areas of the ET0 raster data service.
	ET0Areas ET0AreaStore
	// Overview answers the overview page's questions.
	Overview OverviewStore
	// Advice is the farm advice (/apis/ai/*); nil answers 404 there.
	Advice *advice.Service
	// LLM answers farm questions with a chat-completions model; nil: the
	// embedded advisor answers.
	LLM *advice.LLM
	// Portal keeps the devices' unified portal links.
	Portal *portal.Service
	// Samples keeps the AI lab's samples; nil answers 404 on those routes.
	Samples SampleStore
	// Feedback keeps what users tell the operator; nil answers 404 on those
	// routes. FeedbackMail, when set, is the operator's address each new
	// feedback is queued to; FeedbackWake tells the mail worker.
	Feedback     FeedbackStore
	FeedbackMail string
	FeedbackWake func()
	// Detections keeps the AI lab's applications and detection records;
	// nil (or no Samples) answers 404 on those routes.
	Detections DetectionStore
	// DeviceCerts issues, lists and revokes device certificates; nil
	// answers 404 on those routes.
	DeviceCerts *devicecert.Service
	// BodyTimeout bounds the reading of a request body, UploadTimeout that of
	// an image a device uploads, WriteTimeout each write of a response (a
	// long download stays open while it makes progress). Zero takes the
	// defaults below.
	BodyTimeout, UploadTimeout, WriteTimeout time.Duration
}

// DefaultTrustedProxies are the proxies trusted under TrustProxy when none
// are named: loopback only, a proxy on the same host. Private ranges are not
// trusted by default, since clients on the farm's own network have such
// addresses too and could otherwise forge theirs.
var DefaultTrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// Default timeouts, see Options and docs/configuration.md.
const (
	DefaultBodyTimeout   = time.Minute
	DefaultUploadTimeout = 5 * time.Minute
	DefaultWriteTimeout  = time.Minute
)

// ImageReader reads stored camera images.
type ImageReader interface {
	Images(ctx context.Context, deviceID int64, limit int) ([]telemetry.Image, error)
	ImageData(ctx context.Context, deviceID, id int64) (*telemetry.Image, []byte, error)
}

// FeedbackStore keeps feedback, each visible to its author only.
type FeedbackStore interface {
	CreateFeedback(ctx context.Context, f *feedback.Feedback, operatorMail string) error
	Feedbacks(ctx context.Context, accountID int64) ([]feedback.Feedback, error)
	FeedbackByID(ctx context.Context, accountID, id int64) (*feedback.Feedback, error)
	FeedbackScreenshot(ctx context.Context, accountID, feedbackID, shotID int64) (*feedback.Screenshot, error)
}

// SampleStore keeps the AI lab's samples, each visible to its owner only.
type SampleStore interface {
	SampleFromImage(ctx context.Context, ownerID, imageID int64, width, height int, now time.Time) (*ailab.Sample, error)
	CreateSample(ctx context.Context, s *ailab.Sample, data []byte) error
	Samples(ctx context.Context, ownerID int64, tag string) ([]ailab.Sample, error)
	Sample(ctx context.Context, ownerID, id int64) (*ailab.Sample, error)
	SampleData(ctx context.Context, ownerID, id int64) (string, []byte, error)
	UpdateSample(ctx context.Context, ownerID, id int64, tag, location string, labels []ailab.Label) error
	DeleteSample(ctx context.Context, ownerID, id int64) error
	CreateSet(ctx context.Context, s *ailab.Set) error
	UpdateSet(ctx context.Context, s *ailab.Set) (*ailab.Set, error)
	MarkSetUsed(ctx context.Context, ownerID, id int64) error
	DeleteSet(ctx context.Context, ownerID, id int64) error
	Sets(ctx context.Context, ownerID int64) ([]ailab.Set, error)
	Set(ctx context.Context, ownerID, id int64) (*ailab.Set, error)
	SetExport(ctx context.Context, ownerID, id int64) (*ailab.Set, []ailab.ExportItem, error)
	CreateElement(ctx context.Context, e *ailab.Element) error
	Elements(ctx context.Context, ownerID int64) ([]ailab.Element, error)
	DeleteElement(ctx context.Context, ownerID, id int64) error
	CreateModel(ctx context.Context, m *ailab.StoredModel, data []byte) error
	Models(ctx context.Context, ownerID int64) ([]ailab.StoredModel, error)
	Model(ctx context.Context, ownerID, id int64) (*ailab.StoredModel, error)
	ModelData(ctx context.Context, ownerID, id int64) ([]byte, error)
	DeleteModel(ctx context.Context, ownerID, id int64) error
}

// Server is the HTTP side of the application.
type Server struct {
	Options
	log     *slog.Logger
	metrics *metrics.Metrics
	csp     string
	handler http.Handler
	// appFiles remembers, per file of the app, whether it exists and its
	// ETag (appFileInfo).
	appFiles sync.Map
	// untrustedForwarder is set once a request from a peer outside
	// TrustedProxies carried X-Forwarded-For, which is logged once.
	untrustedForwarder atomic.Bool
	// et0Days keeps each account's ET0 of yesterday for the overview.
	et0Days dayCache
}

// New builds the server and its route table.
func New(o Options) *Server {
	if o.Metrics == nil {
		o.Metrics = metrics.New()
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&o.BodyTimeout, DefaultBodyTimeout}, {&o.UploadTimeout, DefaultUploadTimeout}, {&o.WriteTimeout, DefaultWriteTimeout}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	s := &Server{Options: o, log: o.Log, metrics: o.Metrics, csp: contentSecurityPolicy(o.MapTiles, o.QRImageOrigin)}
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
		s.writeError(w, r, lang, errs.NotFound())
	})

	s.handler = s.middleware(mux)
	return s
}

// middleware wraps the route table in what every request goes through.
// compressAPI wraps the deadlineWriter directly, so a handler's Flush
// reaches the connection through the compressor.
func (s *Server) middleware(h http.Handler) http.Handler {
	return s.deadlines(compressAPI(s.observe(s.recoverPanics(s.securityHeaders(s.crossOrigin(h))))))
}

// MetricsHandler serves the Prometheus metrics, for a listener of their own.
func (s *Server) MetricsHandler() http.Handler { return s.metrics.Handler() }

// appPortMetrics serves GET /metrics on the application's port: only to a
// caller presenting MetricsToken as a bearer token.
func (s *Server) appPortMetrics(w http.ResponseWriter, r *http.Request) {
	if s.MetricsToken == "" {
		http.NotFound(w, r)
		return
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(token), []byte(s.MetricsToken)) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="fieldwatch metrics"`)
		http.Error(w, http.StatusText(http.StatusUnauthorized), http.StatusUnauthorized)
		return
	}
	s.metrics.Handler().ServeHTTP(w, r)
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

// securityHeaders sets the Content-Security-Policy and its companions on
// every response, and HSTS on those that reached the client over HTTPS.
// Scripts and style sheets of the web app get nosniff only: the policy, the
// frame and referrer rules apply to documents, and a page loads dozens of
// these files (about 330 bytes of headers saved on each, on a phone network).
func (s *Server) securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		if !scriptOrStyle(r.URL.Path) {
			h.Set("Content-Security-Policy", s.csp)
			h.Set("Referrer-Policy", "same-origin")
			h.Set("X-Frame-Options", "DENY")
		}
		if s.secure(r) {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

// scriptOrStyle tells the web app's built scripts and style sheets, which no
// browser renders as a document (an SVG or HTML file under /assets would be).
func scriptOrStyle(path string) bool {
	return strings.HasPrefix(path, "/assets/") && (strings.HasSuffix(path, ".js") || strings.HasSuffix(path, ".css"))
}

// contentSecurityPolicy allows the web app's own scripts, styles, fonts and
// calls, and images from itself, data: URLs (Leaflet's CSS) and the map
// tile source (and WeChat's QR code images when configured). Styles allow 'unsafe-inline': antd injects its CSS-in-JS as
// <style> elements at run time. Scripts have no such exception: the built
// index.html loads them all from /assets.
func contentSecurityPolicy(tiles maptiles.Source, more ...string) string {
	img := []string{"'self'", "data:"}
	img = append(img, tileOrigins(tiles)...)
	for _, o := range more {
		if o != "" && !slices.Contains(img, o) {
			img = append(img, o)
		}
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'",
		"style-src 'self' 'unsafe-inline'",
		"img-src " + strings.Join(img, " "),
		"connect-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// tileOrigins are the scheme://host of every URL the tile template expands
// to, one per subdomain {s} stands for.
func tileOrigins(tiles maptiles.Source) []string {
	subs := strings.Split(tiles.Subdomains, "")
	if len(subs) == 0 {
		subs = []string{""}
	}
	var out []string
	for _, sub := range subs {
		u, err := url.Parse(strings.NewReplacer("{s}", sub, "{z}", "0", "{x}", "0", "{y}", "0", "{r}", "").Replace(tiles.URL))
		if err != nil || u.Host == "" {
			continue
		}
		if o := u.Scheme + "://" + u.Host; !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// crossOrigin refuses cross-origin browser requests that change state (Go's
// CrossOriginProtection). Behind a trusted proxy the host the browser
// addressed is X-Forwarded-Host, when the proxy sends it: browsers without
// Sec-Fetch-Site are checked by their Origin against it.
func (s *Server) crossOrigin(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		checked := r
		if fh := r.Header.Get("X-Forwarded-Host"); fh != "" && s.trustedPeer(r) {
			checked = r.WithContext(r.Context())
			checked.Host, _, _ = strings.Cut(fh, ",")
			checked.Host = strings.TrimSpace(checked.Host)
		}
		if err := cop.Check(checked); err != nil {
			s.writeError(w, r, i18n.Parse(r.Header.Get("lang")), errs.New(errs.EForbidden, "error.crossOrigin"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// deadlines bound how long a client may take to send a request body and to
// take each part of the response, in place of the server-wide ReadTimeout
// and WriteTimeout: those would also cut a long download, and an expired
// read deadline cancels the request's context while its handler runs.
func (s *Server) deadlines(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if r.Body != nil && r.Body != http.NoBody {
			d := s.BodyTimeout
			if r.URL.Path == "/ingest/v1/"+ingest.KindImage || r.URL.Path == "/apis/feedback" && r.Method == http.MethodPost {
				d = s.UploadTimeout
			}
			_ = rc.SetReadDeadline(time.Now().Add(d))
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
		}
		dw := &deadlineWriter{ResponseWriter: w, rc: rc, d: s.WriteTimeout}
		next.ServeHTTP(dw, r)
		dw.extend() // for the server's final flush
	})
}

// deadlineBody lifts the read deadline once the body is read: the server
// then watches the connection for the client going away, and a deadline
// passing would cancel the request.
type deadlineBody struct {
	io.ReadCloser
	rc *http.ResponseController
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// deadlineWriter gives each write its own deadline, so a response may take
// as long as it needs while the client keeps reading it.
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) extend() { _ = w.rc.SetWriteDeadline(time.Now().Add(w.d)) }

func (w *deadlineWriter) Write(b []byte) (int, error) {
	w.extend()
	return w.ResponseWriter.Write(b)
}

func (w *deadlineWriter) Flush() {
	w.extend()
	_ = w.rc.Flush()
}

func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

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
	return s.trustedPeer(r) && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// fromTrustedProxy reports whether a request from peer may speak for its
// client through X-Forwarded-* headers.
func (s *Server) fromTrustedProxy(peer netip.Addr) bool {
	return s.TrustProxy && s.trusted(peer)
}

// trustedPeer reports whether r's direct peer is a trusted proxy.
func (s *Server) trustedPeer(r *http.Request) bool {
	peer, ok := peerAddr(r)
	return ok && s.fromTrustedProxy(peer)
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

// readyz answers 200 when the node can serve (store reachable, migrations
// applied, device broker up), else 503 naming what is not: a load balancer
// sends it no traffic meanwhile. /healthz only says the process answers.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	status, checks := "ok", map[string]string{}
	if s.Ready != nil {
		for name, err := range s.Ready(ctx) {
			checks[name] = "ok"
			if err != nil {
				status, checks[name] = "unavailable", err.Error()
			}
		}
	}
	code := http.StatusOK
	if status != "ok" {
		code = http.StatusServiceUnavailable
		s.log.Warn("not ready", "checks", checks)
	}
	writeJSON(w, code, map[string]any{"status": status, "checks": checks})
}
