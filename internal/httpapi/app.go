package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// notBuilt is served when the binary was built without the web app.
const notBuilt = `<!doctype html><meta charset="utf-8"><title>Fieldwatch</title>
<p>The web app is not part of this build. Build it with <code>make build</code> (or run <code>make run</code>).</p>`

// Cache-Control of the web app's files. Vite names every file it writes to
// assets/ after its content (name-[hash].ext), so those never change; every
// other file (index.html, which names the assets of the current build, and
// the files of web/public) is revalidated on each use by its ETag.
const (
	cacheImmutable  = "public, max-age=31536000, immutable"
	cacheRevalidate = "no-cache"
)

// app serves the web app: a file of the build when the path names one, else
// index.html, so the client-side router handles every other path.
func (s *Server) app(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	if s.App == nil {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(notBuilt))
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name != "" && name != "index.html" {
		if st, err := fs.Stat(s.App, name); err == nil && !st.IsDir() {
			cache := cacheRevalidate
			if strings.HasPrefix(name, "assets/") {
				cache = cacheImmutable
			}
			s.serveAppFile(w, r, name, cache)
			return
		}
	}
	if _, err := fs.Stat(s.App, "index.html"); err != nil {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(notBuilt))
		return
	}
	s.serveAppFile(w, r, "index.html", cacheRevalidate)
}

// contentCoding is one encoding the web build precompresses its files in
// (web/scripts/compress-dist.mjs): the file name plus suffix holds the file
// encoded.
type contentCoding struct{ token, suffix string }

// appCodings are the precompressed encodings in the server's order of
// preference: brotli is the smaller.
var appCodings = []contentCoding{{"br", ".br"}, {"gzip", ".gz"}}

// appTypes are the content types of the app's compressible files whose
// extension Go's own table may lack.
var appTypes = map[string]string{
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".html":        "text/html; charset=utf-8",
	".svg":         "image/svg+xml",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".txt":         "text/plain; charset=utf-8",
}

// appFile is what is remembered of one file of the app (or one of its
// precompressed copies): whether it exists and its entity tag.
type appFile struct {
	ok   bool
	etag string
}

// appFileInfo looks name up in the app once and remembers it: the app is
// embedded in the binary and does not change while it runs.
func (s *Server) appFileInfo(name string) appFile {
	if v, ok := s.appFiles.Load(name); ok {
		return v.(appFile)
	}
	var f appFile
	if data, err := fs.ReadFile(s.App, name); err == nil {
		sum := sha256.Sum256(data)
		f = appFile{ok: true, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
	}
	s.appFiles.Store(name, f)
	return f
}

// serveAppFile sends one file of the app, or its brotli or gzip copy when the
// build made one and the client accepts that encoding. Each copy has an ETag
// of its own (a hash of the bytes sent), so a cache never mixes them up, and
// http.ServeContent answers conditional, range and HEAD requests on the
// bytes sent. A client accepting no encoding the build made gets the file as
// it is.
func (s *Server) serveAppFile(w http.ResponseWriter, r *http.Request, name, cache string) {
	h := w.Header()
	var offered []contentCoding
	for _, c := range appCodings {
		if s.appFileInfo(name + c.suffix).ok {
			offered = append(offered, c)
		}
	}
	if len(offered) > 0 {
		h.Add("Vary", "Accept-Encoding")
	}
	chosen := negotiate(r.Header.Get("Accept-Encoding"), offered)
	file := name + chosen.suffix
	info := s.appFileInfo(file)
	if !info.ok {
		http.NotFound(w, r)
		return
	}
	content, err := openSeeker(s.App, file)
	if err != nil {
		http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
		return
	}
	defer content.Close()
	ext := path.Ext(name)
	ctype := appTypes[ext]
	if ctype == "" {
		ctype = mime.TypeByExtension(ext)
	}
	if ctype != "" {
		h.Set("Content-Type", ctype)
	} else if chosen.token != "" {
		// ServeContent would sniff the compressed bytes.
		h.Set("Content-Type", "application/octet-stream")
	}
	h.Set("Cache-Control", cache)
	h.Set("ETag", info.etag)
	if chosen.token != "" {
		// ServeContent leaves Content-Length out when Content-Encoding is
		// set (it expects a compressor after it): the header is added once
		// it has set the length of what it sends.
		w = &encodedWriter{ResponseWriter: w, coding: chosen.token}
	}
	http.ServeContent(w, r, name, time.Time{}, content)
}

// encodedWriter labels a 200 or 206 answer of precompressed bytes with their
// Content-Encoding as its header is written.
type encodedWriter struct {
	http.ResponseWriter
	coding  string
	written bool
}

func (w *encodedWriter) WriteHeader(code int) {
	if !w.written {
		w.written = true
		if code == http.StatusOK || code == http.StatusPartialContent {
			w.Header().Set("Content-Encoding", w.coding)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *encodedWriter) Write(b []byte) (int, error) {
	if !w.written {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (w *encodedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// seekCloser is an opened file ServeContent can seek in.
type seekCloser interface {
	io.ReadSeeker
	io.Closer
}

// openSeeker opens name for ServeContent: embedded files can seek; a file
// system whose files cannot is read whole.
func openSeeker(fsys fs.FS, name string) (seekCloser, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	if sc, ok := f.(seekCloser); ok {
		return sc, nil
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return nopCloser{bytes.NewReader(data)}, nil
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

// negotiate picks the encoding to send from those offered, by the client's
// Accept-Encoding (RFC 9110 §12.5.3): the one of highest quality, offered
// order breaking ties; "*" stands for every coding not named. The zero
// contentCoding (identity, the file as it is) when the client accepts none
// of them, or ranks identity above them.
func negotiate(accept string, offered []contentCoding) contentCoding {
	if accept == "" || len(offered) == 0 {
		return contentCoding{}
	}
	q := map[string]float64{}
	for part := range strings.SplitSeq(accept, ",") {
		token, params, _ := strings.Cut(part, ";")
		token = strings.ToLower(strings.TrimSpace(token))
		if token == "" {
			continue
		}
		if token == "x-gzip" {
			token = "gzip"
		}
		weight := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(p, "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
					weight = f
				} else {
					weight = 0
				}
			}
		}
		q[token] = weight
	}
	quality := func(token string) float64 {
		if v, ok := q[token]; ok {
			return v
		}
		if v, ok := q["*"]; ok {
			return v
		}
		if token == "identity" {
			return 1 // acceptable unless excluded
		}
		return 0
	}
	best, bestQ := contentCoding{}, 0.0
	for _, c := range offered {
		if v := quality(c.token); v > bestQ {
			best, bestQ = c, v
		}
	}
	if bestQ == 0 || quality("identity") > bestQ {
		return contentCoding{}
	}
	return best
}
