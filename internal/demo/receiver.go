package demo

import (
	"io"
	"net"
	"net/http"
	"net/netip"
	"time"
)

// maxPushBody bounds what the receiver reads of one delivery.
const maxPushBody = 1 << 20

// Receiver is the demo's data-push receiver: an HTTP endpoint on loopback,
// inside the process, that takes what the demo's push channel delivers, so
// the channel shows deliveries without any service outside. The push guard
// refuses loopback targets; the server allows this one address (Addr)
// explicitly, and nothing else.
type Receiver struct {
	ln  net.Listener
	srv *http.Server
}

// ListenReceiver starts the receiver on a free loopback port.
func ListenReceiver() (*Receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &Receiver{ln: ln}
	r.srv = &http.Server{Handler: http.HandlerFunc(r.serve), ReadHeaderTimeout: 10 * time.Second}
	go r.srv.Serve(ln)
	return r, nil
}

// Addr is the address the receiver listens on.
func (r *Receiver) Addr() netip.AddrPort { return r.ln.Addr().(*net.TCPAddr).AddrPort() }

// URL is the push address of the demo's channel.
func (r *Receiver) URL() string { return "http://" + r.ln.Addr().String() + "/push" }

// Close stops the receiver.
func (r *Receiver) Close() error { return r.srv.Close() }

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if _, err := io.Copy(io.Discard, io.LimitReader(req.Body, maxPushBody)); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
