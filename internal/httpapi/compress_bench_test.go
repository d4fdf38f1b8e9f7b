//go:build unix

package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/httpapi"
)

// BenchmarkHistoryCompression measures what gzipping the API's answers
// costs, on history answers of the year-long ZS006 (SQLite):
//
//	go test -tags no_ui -run '^$' -bench HistoryCompression -benchtime 30x ./internal/httpapi/
//
// For each answer, "request" sub-benchmarks time the whole request over
// loopback (store, JSON, compression, the client reading it) without and
// with Accept-Encoding: gzip, reporting wire-B/op, the bytes of the body as
// sent; "middleware" ones serve the same answer, already encoded, through
// the handler chain into a recorder, so their difference is the CPU the
// compression itself takes (reported as its ns/op and MB/s of JSON).
// cpu-ns/op is the CPU time the process used per request (user and
// system, every goroutine, the garbage collector's included): on a shared
// machine it varies less than the time on the clock.
func BenchmarkHistoryCompression(b *testing.B) {
	f := loadHistory(b, benchBackends[0].open)
	for _, c := range []struct{ name, query string }{
		{"chart", "params=soilMoisture&nodes=10&points=1000"},
		{"daily", "dim=daily"},
		{"allParams", "points=1000"},
	} {
		path := historyPath(f, c.query)()
		plain := append([]byte(nil), f.env.get(b, path)...)
		b.Logf("%s: %d bytes of JSON", c.name, len(plain))
		for _, enc := range []string{"identity", "gzip"} {
			b.Run(c.name+"/request/"+enc, func(b *testing.B) {
				client := &http.Client{Jar: f.env.client.Jar, Transport: &http.Transport{DisableCompression: true}}
				var wire int
				b.ReportAllocs()
				cpu := processCPU()
				for b.Loop() {
					req, _ := http.NewRequest("GET", f.env.url+path, nil)
					req.Header.Set("Accept-Encoding", enc)
					res, err := client.Do(req)
					if err != nil {
						b.Fatal(err)
					}
					n, _ := io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != 200 || (res.Header.Get("Content-Encoding") == "gzip") != (enc == "gzip") {
						b.Fatalf("HTTP %d %v", res.StatusCode, res.Header)
					}
					wire = int(n)
				}
				b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(wire), "wire-B/op")
			})
		}
		// The answer as a handler writes it, through the server's middleware.
		for _, enc := range []string{"identity", "gzip"} {
			b.Run(c.name+"/middleware/"+enc, func(b *testing.B) {
				srv := httpapi.MiddlewareServing(plain)
				b.SetBytes(int64(len(plain)))
				b.ReportAllocs()
				var wire int
				cpu := processCPU()
				for b.Loop() {
					req := httptest.NewRequest("GET", "/apis/bench", nil)
					req.Header.Set("Accept-Encoding", enc)
					rec := httptest.NewRecorder()
					srv.ServeHTTP(rec, req)
					wire = rec.Body.Len()
				}
				b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(wire), "wire-B/op")
				if enc == "gzip" {
					r, err := gzip.NewReader(bytes.NewReader(recBody(srv, enc)))
					if err != nil {
						b.Fatal(err)
					}
					got, _ := io.ReadAll(r)
					if !bytes.Equal(got, plain) {
						b.Fatal("the gzipped answer does not decode to the answer")
					}
				}
			})
		}
	}
}

// processCPU is the CPU time the process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func recBody(h http.Handler, enc string) []byte {
	req := httptest.NewRequest("GET", "/apis/bench", nil)
	req.Header.Set("Accept-Encoding", enc)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Body.Bytes()
}
