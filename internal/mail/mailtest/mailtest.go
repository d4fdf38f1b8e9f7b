// Package mailtest is a real SMTP server for tests and the browser tests'
// mail sink (tools/smtpsink): it accepts messages on a TCP address, can
// refuse some on demand, and hands each accepted one over whole. Parse
// reads a received message back into its subject, text and attachments.
package mailtest

import (
	"bytes"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"strings"
	"sync"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is one accepted message as it came over the wire.
type Message struct {
	From string
	To   []string
	Data []byte
}

// Options configure a Server.
type Options struct {
	// TLS enables STARTTLS, or with Implicit serves TLS from the first byte.
	TLS      *tls.Config
	Implicit bool
	// Users, when set, requires AUTH PLAIN with one of these user names and
	// passwords before MAIL FROM.
	Users map[string]string
}

// Server is a running SMTP server.
type Server struct {
	srv  *smtp.Server
	ln   net.Listener
	opts Options
	// C receives every accepted message.
	C chan *Message

	mu     sync.Mutex
	refuse int // refuse the next n messages; negative refuses all
	done   chan struct{}
}

// Listen starts a server on addr ("127.0.0.1:0" for any free port).
func Listen(addr string, o Options) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if o.TLS != nil && o.Implicit {
		ln = tls.NewListener(ln, o.TLS)
	}
	s := &Server{ln: ln, opts: o, C: make(chan *Message, 256), done: make(chan struct{})}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &session{s: s}, nil
	}))
	s.srv.Domain = "localhost"
	s.srv.MaxMessageBytes = 256 << 20
	s.srv.ErrorLog = discardLog{}
	if o.TLS != nil && !o.Implicit {
		s.srv.TLSConfig = o.TLS
	}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is the server as a --smtp-url value, without credentials.
func (s *Server) URL() string {
	switch {
	case s.opts.TLS != nil && s.opts.Implicit:
		return "smtps://" + s.Addr()
	case s.opts.TLS != nil:
		return "smtp://" + s.Addr() + "?starttls=require"
	}
	return "smtp://" + s.Addr()
}

// Refuse makes the server answer the next n messages with a temporary
// failure (451) after their data; a negative n refuses every message until
// Refuse(0).
func (s *Server) Refuse(n int) {
	s.mu.Lock()
	s.refuse = n
	s.mu.Unlock()
}

// Close stops the server and closes its connections.
func (s *Server) Close() error {
	err := s.srv.Close()
	<-s.done
	if errors.Is(err, smtp.ErrServerClosed) {
		return nil
	}
	return err
}

// errRefused is the temporary failure Refuse asks for.
var errRefused = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Refused for the test, try again later"}

type session struct {
	s      *Server
	authed bool
	from   string
	to     []string
}

func (ss *session) AuthMechanisms() []string {
	if ss.s.opts.Users == nil {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if want, ok := ss.s.opts.Users[user]; !ok || want != pass {
			return smtp.ErrAuthFailed
		}
		ss.authed = true
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.s.opts.Users != nil && !ss.authed {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.s.mu.Lock()
	refuse := ss.s.refuse != 0
	if ss.s.refuse > 0 {
		ss.s.refuse--
	}
	ss.s.mu.Unlock()
	if refuse {
		return errRefused
	}
	ss.s.C <- &Message{From: ss.from, To: ss.to, Data: b}
	return nil
}

func (ss *session) Reset() { ss.from, ss.to = "", nil }

func (ss *session) Logout() error { return nil }

type discardLog struct{}

func (discardLog) Printf(string, ...any) {}
func (discardLog) Println(...any)        {}

// Parsed is a message read back: its headers decoded, its text body and
// its attachments decoded from their transfer encoding.
type Parsed struct {
	From, To, Subject string
	Text              string
	Attachments       []Part
}

// Part is one attachment.
type Part struct {
	Name        string
	ContentType string
	Data        []byte
}

// Parse reads an RFC 5322 message with a MIME body.
func Parse(data []byte) (*Parsed, error) {
	m, err := netmail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	dec := new(mime.WordDecoder)
	p := &Parsed{}
	for dst, name := range map[*string]string{&p.From: "From", &p.To: "To", &p.Subject: "Subject"} {
		if *dst, err = dec.DecodeHeader(m.Header.Get(name)); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := p.walk(m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), "", m.Body); err != nil {
		return nil, err
	}
	return p, nil
}

// walk reads one MIME entity: multiparts recursively, text parts into
// Text, anything with a file name into Attachments.
func (p *Parsed) walk(contentType, encoding, disposition string, body io.Reader) error {
	if contentType == "" {
		contentType = "text/plain"
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return fmt.Errorf("content type %q: %w", contentType, err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			part, err := mr.NextRawPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := p.walk(part.Header.Get("Content-Type"), part.Header.Get("Content-Transfer-Encoding"),
				part.Header.Get("Content-Disposition"), part); err != nil {
				return err
			}
		}
	}
	data, err := decodeBody(encoding, body)
	if err != nil {
		return err
	}
	name := params["name"]
	if disposition != "" {
		if _, dp, err := mime.ParseMediaType(disposition); err == nil && dp["filename"] != "" {
			name = dp["filename"]
		}
	}
	if name != "" {
		p.Attachments = append(p.Attachments, Part{Name: name, ContentType: mt, Data: data})
		return nil
	}
	if mt == "text/plain" {
		p.Text += string(data)
	}
	return nil
}

func decodeBody(encoding string, r io.Reader) ([]byte, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "base64":
		return io.ReadAll(base64.NewDecoder(base64.StdEncoding, r)) // the decoder skips line breaks
	case "quoted-printable":
		return io.ReadAll(quotedprintable.NewReader(r))
	}
	return io.ReadAll(r)
}
