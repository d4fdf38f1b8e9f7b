package httpapi

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// deadlineServer serves h behind the deadlines middleware with short
// timeouts, and no server-wide ones, as app.Main does.
func deadlineServer(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := New(Options{BodyTimeout: 200 * time.Millisecond, UploadTimeout: 3 * time.Second, WriteTimeout: 200 * time.Millisecond})
	srv := httptest.NewUnstartedServer(s.deadlines(h))
	srv.Config.ReadHeaderTimeout = 10 * time.Second
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func dial(t *testing.T, srv *httptest.Server) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// A client that sends part of a body and stalls is cut off after
// BodyTimeout.
func TestDeadlines_StalledBody(t *testing.T) {
	got := make(chan error, 1)
	srv := deadlineServer(t, func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		got <- err
	})
	conn := dial(t, srv)
	fmt.Fprintf(conn, "POST /apis/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":")
	select {
	case err := <-got:
		if err == nil {
			t.Fatal("the stalled body read without error")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("a stalled body held the request open")
	}
}

// A device uploading an image slowly has UploadTimeout, not BodyTimeout;
// once the body is read, a handler may run past either deadline without its
// request being cancelled.
func TestDeadlines_SlowUploadAndLongHandler(t *testing.T) {
	type result struct {
		n       int
		err     error
		ctxErr  error
		elapsed time.Duration
	}
	got := make(chan result, 1)
	srv := deadlineServer(t, func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		b, err := io.ReadAll(r.Body)
		time.Sleep(400 * time.Millisecond)
		got <- result{len(b), err, r.Context().Err(), time.Since(start)}
		_, _ = w.Write([]byte("ok"))
	})
	conn := dial(t, srv)
	fmt.Fprintf(conn, "POST /ingest/v1/image HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: 8\r\n\r\n")
	for range 4 {
		time.Sleep(150 * time.Millisecond)
		_, _ = conn.Write([]byte("ab"))
	}
	r := <-got
	if r.err != nil || r.n != 8 || r.ctxErr != nil {
		t.Fatalf("slow upload: %d bytes, %v, context %v", r.n, r.err, r.ctxErr)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("answer: %v %v", res, err)
	}
}

// A long download stays open while the client reads it; a client that
// stops reading is cut off after WriteTimeout.
func TestDeadlines_Write(t *testing.T) {
	stalled := make(chan error, 1)
	srv := deadlineServer(t, func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat("x", 64<<10))
		if r.URL.Path == "/slow" {
			for range 8 {
				if _, err := w.Write(chunk); err != nil {
					t.Errorf("slow download cut: %v", err)
					return
				}
				http.NewResponseController(w).Flush()
				time.Sleep(100 * time.Millisecond)
			}
			return
		}
		for range 2048 { // 128 MiB: more than any socket buffer
			if _, err := w.Write(chunk); err != nil {
				stalled <- err
				return
			}
		}
		stalled <- nil
	})
	res, err := http.Get(srv.URL + "/slow")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || len(b) != 8*64<<10 {
		t.Fatalf("slow download: %d bytes, %v", len(b), err)
	}

	conn := dial(t, srv)
	fmt.Fprintf(conn, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
	select {
	case err := <-stalled:
		if err == nil {
			t.Fatal("the response was written to a client that reads nothing")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a client that reads nothing held the response open")
	}
}
