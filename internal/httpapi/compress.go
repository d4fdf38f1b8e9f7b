package httpapi

import (
	"net/http"
	"strings"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
)

// apiCompressMin is the smallest answer compressed: below about a kilobyte
// the answer fits one packet either way, and gzip's header and the CPU are
// spent for nothing.
const apiCompressMin = 1024

// compressAPI gzips the JSON answers of the console API (/apis/) and the open
// API (/openapi/) for clients that accept gzip, when they are at least
// apiCompressMin bytes, at gzip's fastest level: history answers are tens to
// hundreds of kilobytes of JSON that shrink several times over. Only JSON is
// compressed: downloads (XLSX, which is a zip, and CSV files sent as
// attachments), camera images and anything streamed pass untouched, and
// every answer of these paths carries Vary: Accept-Encoding. The web app
// serves its own files, precompressed at build time (app.go).
func compressAPI(next http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(
		gzhttp.MinSize(apiCompressMin),
		gzhttp.CompressionLevel(gzip.BestSpeed),
		gzhttp.EnableZstd(false),
		gzhttp.ContentTypes([]string{"application/json"}),
		gzhttp.SuffixETag("-gzip"),
	)
	if err != nil {
		panic(err) // the options above are constant
	}
	gz := wrap(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/apis/") || strings.HasPrefix(r.URL.Path, "/openapi/") {
			gz.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
