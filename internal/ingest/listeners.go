package ingest

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// Listener ids: a client's cl.Net.Listener says which one it came in on.
const (
	ListenerTCP = "tcp" // plain MQTT
	ListenerTLS = "tls" // MQTT over TLS
	ListenerWS  = "ws"  // MQTT over WebSocket (over TLS when the broker has a TLS config)
)

// Listeners are the addresses the embedded broker serves devices on; an
// empty address serves nothing there.
type Listeners struct {
	MQTT  string      // plain TCP, e.g. :1883
	MQTTS string      // TLS, e.g. :8883; needs TLS
	WS    string      // WebSocket, e.g. :8083; TLS (wss) when TLS is set
	TLS   *tls.Config // server certificate and the check of device certificates

	// Per connection (docs/configuration.md, "Memory"): Queue is how many
	// messages to the device may wait to be written (commands: a device
	// receives few), Buffer the size of its read and of its write buffer in
	// bytes. Zero takes DefaultQueue and DefaultBuffer.
	Queue  int
	Buffer int
	// WriteTimeout is how long a write to a device may wait for the device
	// to read (zero: DefaultWriteTimeout). A device that stopped reading is
	// disconnected then, rather than holding its connection's writer (and
	// every publish to it) for as long as its keepalive allows.
	WriteTimeout time.Duration
}

// The per-connection defaults, sized for devices: a device receives a
// command now and then and sends a report of a few hundred bytes.
const (
	DefaultQueue        = 32
	DefaultBuffer       = 1024
	DefaultWriteTimeout = 30 * time.Second
)

// ListenError is a listener that could not bind, naming its flag's address.
type ListenError struct {
	Listener string // ListenerTCP, ListenerTLS or ListenerWS
	Addr     string
	Err      error
}

func (e *ListenError) Error() string { return fmt.Sprintf("%s %s: %v", e.Listener, e.Addr, e.Err) }
func (e *ListenError) Unwrap() error { return e.Err }

// bind opens the listeners of ls. On an error every one opened is closed.
func (ls Listeners) bind() (map[string]net.Listener, error) {
	out := map[string]net.Listener{}
	fail := func(id, addr string, err error) (map[string]net.Listener, error) {
		for _, ln := range out {
			ln.Close()
		}
		return nil, &ListenError{Listener: id, Addr: addr, Err: err}
	}
	for _, l := range []struct{ id, addr string }{{ListenerTCP, ls.MQTT}, {ListenerTLS, ls.MQTTS}, {ListenerWS, ls.WS}} {
		if l.addr == "" {
			continue
		}
		if l.id == ListenerTLS && ls.TLS == nil {
			return fail(l.id, l.addr, errors.New("MQTT over TLS needs a certificate"))
		}
		ln, err := net.Listen("tcp", l.addr)
		if err != nil {
			return fail(l.id, l.addr, err)
		}
		out[l.id] = ln
	}
	if len(out) == 0 {
		return nil, errors.New("no MQTT listener: give at least one address")
	}
	return out, nil
}

// addListeners adds the bound listeners to the broker.
func addListeners(s *mqtt.Server, lns map[string]net.Listener, cfg *tls.Config, timeout time.Duration, stalled func()) error {
	for id, ln := range lns {
		var l listeners.Listener
		switch id {
		case ListenerTCP:
			l = listeners.NewNet(id, stallListener{ln, timeout, stalled})
		case ListenerTLS:
			l = listeners.NewNet(id, tls.NewListener(stallListener{ln, timeout, stalled}, cfg))
		case ListenerWS:
			l = &wsListener{id: id, ln: ln, tls: cfg}
		}
		if err := s.AddListener(l); err != nil {
			return err
		}
	}
	return nil
}

// stallListener gives each connection a write timeout: a write the device
// does not read within it fails and closes the connection.
type stallListener struct {
	net.Listener
	timeout time.Duration
	stalled func()
}

func (l stallListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &stallConn{Conn: c, timeout: l.timeout, stalled: l.stalled}, nil
}

type stallConn struct {
	net.Conn
	timeout time.Duration
	stalled func()
}

func (c *stallConn) Write(p []byte) (int, error) {
	c.Conn.SetWriteDeadline(time.Now().Add(c.timeout))
	n, err := c.Conn.Write(p)
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) && c.stalled != nil {
			c.stalled()
		}
		c.Conn.Close()
	}
	return n, err
}

// wsListener serves MQTT over WebSocket (subprotocol "mqtt", binary
// frames) on a listener already bound, so tests can use port 0.
type wsListener struct {
	id  string
	ln  net.Listener
	tls *tls.Config

	srv  *http.Server
	log  *slog.Logger
	once sync.Once
}

func (l *wsListener) ID() string      { return l.id }
func (l *wsListener) Address() string { return l.ln.Addr().String() }
func (l *wsListener) Protocol() string {
	if l.tls != nil {
		return "wss"
	}
	return "ws"
}

func (l *wsListener) Init(log *slog.Logger) error {
	l.log = log
	return nil
}

func (l *wsListener) Serve(establish listeners.EstablishFn) {
	up := &websocket.Upgrader{
		Subprotocols: []string{"mqtt"},
		// Devices and gateway tools are not browsers with a session to
		// protect: the MQTT login is the credential, whatever the origin.
		CheckOrigin: func(*http.Request) bool { return true },
	}
	l.srv = &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(l.log.Handler(), slog.LevelDebug),
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c, err := up.Upgrade(w, r, nil)
			if err != nil {
				return // the upgrader answered already
			}
			defer c.Close()
			conn := &wsConn{Conn: c.UnderlyingConn(), ws: c}
			if r.TLS != nil {
				conn.state = *r.TLS
			}
			if err := establish(l.id, conn); err != nil {
				l.log.Debug("websocket client", "error", err)
			}
		}),
	}
	ln := l.ln
	if l.tls != nil {
		ln = tls.NewListener(ln, l.tls)
	}
	_ = l.srv.Serve(ln) // ends with Close
}

func (l *wsListener) Close(closeClients listeners.CloseFn) {
	l.once.Do(func() {
		if l.srv != nil {
			l.srv.Close()
		} else {
			l.ln.Close()
		}
	})
	closeClients(l.id)
}

// wsConn is a WebSocket connection as the broker's net.Conn: each Write is
// one binary message; Read reads across message boundaries. Over wss it
// reports the TLS state, so device certificates work there too.
type wsConn struct {
	net.Conn
	ws    *websocket.Conn
	r     io.Reader
	state tls.ConnectionState
}

func (c *wsConn) Read(p []byte) (int, error) {
	for {
		if c.r == nil {
			typ, r, err := c.ws.NextReader()
			if err != nil {
				return 0, err
			}
			if typ != websocket.BinaryMessage {
				return 0, errors.New("websocket: MQTT needs binary messages")
			}
			c.r = r
		}
		n, err := c.r.Read(p)
		if errors.Is(err, io.EOF) {
			c.r = nil // the message is done; MQTT packets may span messages
			if n == 0 {
				continue
			}
			return n, nil
		}
		if err != nil {
			c.r = nil
		}
		return n, err
	}
}

func (c *wsConn) Write(p []byte) (int, error) {
	if err := c.ws.WriteMessage(websocket.BinaryMessage, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// ConnectionState is the TLS state under wss (zero under ws).
func (c *wsConn) ConnectionState() tls.ConnectionState { return c.state }
