// Package mail sends the product's e-mail (data exports, notifications)
// through any SMTP server, configured by one URL.
package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// DefaultFrom is the sender when none is configured.
const DefaultFrom = "Fieldwatch <noreply@localhost>"

// STARTTLS policies of a smtp:// server.
const (
	StartTLSRequire       = "require"       // refuse to send unless the server upgrades to TLS
	StartTLSOpportunistic = "opportunistic" // upgrade when the server offers it
	StartTLSNone          = "none"          // never upgrade
)

// Server is a parsed SMTP URL.
type Server struct {
	Host     string
	Port     int
	Implicit bool   // smtps://: TLS from the first byte
	StartTLS string // smtp:// only: require, opportunistic or none
	Username string
	Password string
}

// ParseURL reads an SMTP URL:
//
//	smtp://[user:pass@]host[:port][?starttls=require|opportunistic|none]
//	smtps://[user:pass@]host[:port]
//
// smtp:// defaults to port 25 and opportunistic STARTTLS, smtps:// (TLS from
// the first byte) to port 465. Credentials are percent-encoded as in any URL.
func ParseURL(raw string) (*Server, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("not a URL: %v", redactErr(err, raw))
	}
	s := &Server{Host: u.Hostname()}
	switch u.Scheme {
	case "smtp":
		s.Port, s.StartTLS = 25, StartTLSOpportunistic
	case "smtps":
		s.Port, s.Implicit = 465, true
	default:
		return nil, fmt.Errorf("the scheme must be smtp:// or smtps://, not %q", u.Scheme)
	}
	if s.Host == "" {
		return nil, errors.New("no host")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("port %q is not a number from 1 to 65535", p)
		}
		s.Port = n
	}
	if u.Path != "" && u.Path != "/" {
		return nil, fmt.Errorf("unexpected path %q", u.Path)
	}
	if u.User != nil {
		s.Username = u.User.Username()
		s.Password, _ = u.User.Password()
		if s.Username == "" {
			return nil, errors.New("a password needs a user name")
		}
	}
	for k, v := range u.Query() {
		switch k {
		case "starttls":
			if s.Implicit {
				return nil, errors.New("starttls applies to smtp:// only; smtps:// is TLS from the start")
			}
			switch v[len(v)-1] {
			case StartTLSRequire, StartTLSOpportunistic, StartTLSNone:
				s.StartTLS = v[len(v)-1]
			default:
				return nil, fmt.Errorf("starttls=%q: must be require, opportunistic or none", v[len(v)-1])
			}
		default:
			return nil, fmt.Errorf("unknown parameter %q (only starttls is understood)", k)
		}
	}
	return s, nil
}

// redactErr hides the password of raw in a URL parse error.
func redactErr(err error, raw string) string {
	msg := err.Error()
	if i := strings.Index(raw, "@"); i >= 0 {
		if j := strings.Index(raw, "://"); j >= 0 && j < i {
			msg = strings.ReplaceAll(msg, raw[j+3:i], "…")
		}
	}
	return msg
}

// ParseFrom checks a sender address ("Name <addr@host>" or "addr@host").
func ParseFrom(from string) (*netmail.Address, error) {
	a, err := netmail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("%q is not an e-mail address: %v", from, err)
	}
	return a, nil
}

// Config configures a Sender.
type Config struct {
	URL  string // see ParseURL
	From string // sender; DefaultFrom when empty
	// TLS overrides the TLS settings (trusted roots, for a server with a
	// private certificate); the server name is set from the URL.
	TLS *tls.Config
	// Timeout bounds one whole SMTP session, attachment upload included
	// (default 5 minutes: tens of megabytes over a slow uplink).
	Timeout time.Duration
}

// Sender sends messages. It opens one SMTP connection per message, so it
// holds no connection between exports and is safe for concurrent use.
type Sender struct {
	server  *Server
	from    *netmail.Address
	tls     *tls.Config
	timeout time.Duration
}

// New checks c and returns a Sender; nothing is dialled until Send.
func New(c Config) (*Sender, error) {
	srv, err := ParseURL(c.URL)
	if err != nil {
		return nil, err
	}
	if c.From == "" {
		c.From = DefaultFrom
	}
	from, err := ParseFrom(c.From)
	if err != nil {
		return nil, err
	}
	s := &Sender{server: srv, from: from, timeout: c.Timeout}
	if s.timeout <= 0 {
		s.timeout = 5 * time.Minute
	}
	if c.TLS != nil {
		s.tls = c.TLS.Clone()
	} else {
		s.tls = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	s.tls.ServerName = srv.Host
	return s, nil
}

// Server returns the parsed server address (without secrets in its String form).
func (s *Sender) Server() string { return net.JoinHostPort(s.server.Host, strconv.Itoa(s.server.Port)) }

// Message is one e-mail with a plain-text body and attachments.
type Message struct {
	To          string
	Also        []string // further recipients
	Subject     string
	Text        string
	Attachments []Attachment
}

// Attachment is a file sent with a message. Content is read from its start
// at each send attempt.
type Attachment struct {
	Name        string
	ContentType string
	Content     io.ReadSeeker
}

// Send delivers m. Errors wrap the SMTP server's answer; the caller decides
// whether to try again.
func (s *Sender) Send(ctx context.Context, m *Message) error {
	msg := gomail.NewMsg()
	msg.FromMailAddress(s.from)
	if err := msg.To(append([]string{m.To}, m.Also...)...); err != nil {
		return fmt.Errorf("recipient %q: %w", m.To, err)
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageID()
	msg.SetUserAgent("Fieldwatch")
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	for _, a := range m.Attachments {
		if _, err := a.Content.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("attachment %s: %w", a.Name, err)
		}
		opts := []gomail.FileOption{}
		if a.ContentType != "" {
			opts = append(opts, gomail.WithFileContentType(gomail.ContentType(a.ContentType)))
		}
		msg.AttachReadSeeker(a.Name, a.Content, opts...)
	}
	c, err := s.client()
	if err != nil {
		return err
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp %s: %w", s.Server(), err)
	}
	return nil
}

func (s *Sender) client() (*gomail.Client, error) {
	opts := []gomail.Option{
		gomail.WithPort(s.server.Port),
		gomail.WithTimeout(s.timeout),
		gomail.WithTLSConfig(s.tls),
	}
	if s.server.Implicit {
		opts = append(opts, gomail.WithSSL())
	} else {
		policy := map[string]gomail.TLSPolicy{
			StartTLSRequire:       gomail.TLSMandatory,
			StartTLSOpportunistic: gomail.TLSOpportunistic,
			StartTLSNone:          gomail.NoTLS,
		}[s.server.StartTLS]
		opts = append(opts, gomail.WithTLSPolicy(policy))
	}
	if s.server.Username != "" {
		// Auto-discovery picks the strongest mechanism the server offers and
		// never sends a password in clear over an unencrypted connection.
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.server.Username), gomail.WithPassword(s.server.Password))
	}
	c, err := gomail.NewClient(s.server.Host, opts...)
	if err != nil {
		return nil, fmt.Errorf("smtp client: %w", err)
	}
	return c, nil
}
