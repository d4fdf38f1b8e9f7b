package httpapi

import (
	"bufio"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// middlewareServer serves h behind the whole middleware chain of New.
func middlewareServer(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(New(Options{}).middleware(h))
	t.Cleanup(srv.Close)
	return srv
}

func getEncoded(t *testing.T, url, accept string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept-Encoding", accept)
	res, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// A stream of server-sent events is never compressed, and each flushed
// event reaches the client while the handler still runs: the handler waits
// for the client to have read the first before it writes the second.
func TestCompressAPI_EventStreamFlushes(t *testing.T) {
	read := make(chan struct{})
	srv := middlewareServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: "+strings.Repeat("x", 2000)+"\n\n")
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Errorf("flush: %v", err)
			return
		}
		select {
		case <-read:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, "data: second\n\n")
	})
	res := getEncoded(t, srv.URL+"/apis/events", "gzip")
	if res.Header.Get("Content-Encoding") != "" || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("headers %v", res.Header)
	}
	br := bufio.NewReader(res.Body)
	first, err := br.ReadString('\n')
	if err != nil || len(first) != len("data: \n")+2000 {
		t.Fatalf("first event: %d bytes, %v", len(first), err)
	}
	close(read)
	rest, _ := io.ReadAll(br)
	if string(rest) != "\ndata: second\n\n" {
		t.Fatalf("rest %q", rest)
	}
}

// A JSON answer the handler flushes part by part is compressed, and the part
// flushed decodes on the client before the handler goes on.
func TestCompressAPI_GzipFlushes(t *testing.T) {
	read := make(chan struct{})
	part := `{"code":0,"data":[` + strings.Repeat(`1.25,`, 400)
	srv := middlewareServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		io.WriteString(w, part)
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Errorf("flush: %v", err)
			return
		}
		select {
		case <-read:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, `0]}`)
	})
	for _, p := range []string{"/apis/poi/1/datapoints/v3", "/openapi/v1/devices/X/history"} {
		read = make(chan struct{})
		res := getEncoded(t, srv.URL+p, "gzip")
		if res.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: headers %v", p, res.Header)
		}
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(part))
		if _, err := io.ReadFull(zr, got); err != nil || string(got) != part {
			t.Fatalf("%s: flushed part %v %.40q", p, err, got)
		}
		close(read)
		rest, err := io.ReadAll(zr)
		if err != nil || string(rest) != "0]}" {
			t.Fatalf("%s: rest %q %v", p, rest, err)
		}
	}
}
