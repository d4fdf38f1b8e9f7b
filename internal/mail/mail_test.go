package mail_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
)

func TestParseURL(t *testing.T) {
	for _, c := range []struct {
		in   string
		want mail.Server
	}{
		{"smtp://mail.example.com", mail.Server{Host: "mail.example.com", Port: 25, StartTLS: "opportunistic"}},
		{"smtp://u%40x:p%3Ass@10.0.0.5:587?starttls=require", mail.Server{Host: "10.0.0.5", Port: 587, StartTLS: "require", Username: "u@x", Password: "p:ss"}},
		{"smtp://127.0.0.1:2525/?starttls=none", mail.Server{Host: "127.0.0.1", Port: 2525, StartTLS: "none"}},
		{"smtps://user:pw@smtp.example.com", mail.Server{Host: "smtp.example.com", Port: 465, Implicit: true, Username: "user", Password: "pw"}},
		{"smtps://[::1]:1465", mail.Server{Host: "::1", Port: 1465, Implicit: true}},
	} {
		got, err := mail.ParseURL(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if *got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.in, *got, c.want)
		}
	}
	for in, why := range map[string]string{
		"http://mail.example.com":              "scheme",
		"mail.example.com:25":                  "scheme",
		"smtp://":                              "no host",
		"smtp://host:0":                        "port",
		"smtp://host:99999":                    "port",
		"smtp://host/relay":                    "path",
		"smtp://host?starttls=always":          "starttls",
		"smtps://host?starttls=require":        "smtp:// only",
		"smtp://host?tls=1":                    "unknown parameter",
		"smtp://:secret@host":                  "user name",
		"smtp://user:sec ret@host\x7f:25/%zz%": "URL",
	} {
		_, err := mail.ParseURL(in)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: got %v, want an error about %s", in, err, why)
		}
		if err != nil && strings.Contains(err.Error(), "sec ret") {
			t.Errorf("%q: the error shows the password: %v", in, err)
		}
	}
}

func TestNew_ErrFrom(t *testing.T) {
	if _, err := mail.New(mail.Config{URL: "smtp://127.0.0.1", From: "not an address"}); err == nil {
		t.Fatal("a bad sender was accepted")
	}
	if _, err := mail.New(mail.Config{URL: "smtp://127.0.0.1"}); err != nil {
		t.Fatalf("the default sender: %v", err)
	}
}

func listen(t *testing.T, o mailtest.Options) *mailtest.Server {
	t.Helper()
	s, err := mailtest.Listen("127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func message() *mail.Message {
	return &mail.Message{
		To:      "farmer@example.com",
		Subject: "数据导出：东坡 1 号站",
		Text:    "附件是您要的数据。\nThe data you asked for is attached.",
		Attachments: []mail.Attachment{{Name: "ZS0000012345.csv", ContentType: "text/csv",
			Content: bytes.NewReader([]byte("time,value\n2026-01-01 00:00:00,1.5\n"))}},
	}
}

func checkReceived(t *testing.T, s *mailtest.Server, from string) {
	t.Helper()
	got := <-s.C
	if got.From != from || len(got.To) != 1 || got.To[0] != "farmer@example.com" {
		t.Fatalf("envelope: %s → %v", got.From, got.To)
	}
	p, err := mailtest.Parse(got.Data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Subject != "数据导出：东坡 1 号站" || !strings.Contains(p.Text, "附件是您要的数据。") || !strings.Contains(p.To, "farmer@example.com") {
		t.Fatalf("message: %+v", p)
	}
	if len(p.Attachments) != 1 || p.Attachments[0].Name != "ZS0000012345.csv" || p.Attachments[0].ContentType != "text/csv" ||
		string(p.Attachments[0].Data) != "time,value\n2026-01-01 00:00:00,1.5\n" {
		t.Fatalf("attachments: %+v", p.Attachments)
	}
}

func TestSend_Plain(t *testing.T) {
	s := listen(t, mailtest.Options{})
	m, err := mail.New(mail.Config{URL: s.URL(), From: "Fieldwatch <exports@fieldwatch.test>"})
	if err != nil {
		t.Fatal(err)
	}
	msg := message()
	if err := m.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	checkReceived(t, s, "exports@fieldwatch.test")
	// The attachment is read from its start again on a second send.
	if err := m.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	checkReceived(t, s, "exports@fieldwatch.test")
}

func TestSend_TLSAndAuth(t *testing.T) {
	serverTLS, clientTLS := selfSigned(t)
	users := map[string]string{"exports": "pa:ss"}
	for _, implicit := range []bool{false, true} {
		name := map[bool]string{false: "STARTTLS", true: "Implicit"}[implicit]
		t.Run(name, func(t *testing.T) {
			s := listen(t, mailtest.Options{TLS: serverTLS, Implicit: implicit, Users: users})
			url := strings.Replace(s.URL(), "://", "://exports:pa%3Ass@", 1)
			m, err := mail.New(mail.Config{URL: url, TLS: clientTLS})
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Send(context.Background(), message()); err != nil {
				t.Fatal(err)
			}
			checkReceived(t, s, "noreply@localhost")

			bad, _ := mail.New(mail.Config{URL: strings.Replace(s.URL(), "://", "://exports:wrong@", 1), TLS: clientTLS})
			if err := bad.Send(context.Background(), message()); err == nil {
				t.Fatal("a wrong password was accepted")
			}
			untrusted, _ := mail.New(mail.Config{URL: url})
			if err := untrusted.Send(context.Background(), message()); err == nil {
				t.Fatal("an untrusted certificate was accepted")
			}
		})
	}
}

func TestSend_Errors(t *testing.T) {
	t.Run("StartTLSRequiredButNotOffered", func(t *testing.T) {
		s := listen(t, mailtest.Options{})
		m, _ := mail.New(mail.Config{URL: s.URL() + "?starttls=require"})
		if err := m.Send(context.Background(), message()); err == nil || !strings.Contains(err.Error(), "STARTTLS") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("Refused", func(t *testing.T) {
		s := listen(t, mailtest.Options{})
		s.Refuse(1)
		m, _ := mail.New(mail.Config{URL: s.URL()})
		if err := m.Send(context.Background(), message()); err == nil || !strings.Contains(err.Error(), "451") {
			t.Fatalf("got %v", err)
		}
		if err := m.Send(context.Background(), message()); err != nil {
			t.Fatalf("after one refusal: %v", err)
		}
		checkReceived(t, s, "noreply@localhost")
	})
	t.Run("NoServer", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		m, _ := mail.New(mail.Config{URL: "smtp://" + addr})
		if err := m.Send(context.Background(), message()); err == nil || !strings.Contains(err.Error(), addr) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("BadRecipient", func(t *testing.T) {
		m, _ := mail.New(mail.Config{URL: "smtp://127.0.0.1:1"})
		msg := message()
		msg.To = "not an address"
		if err := m.Send(context.Background(), msg); err == nil || !strings.Contains(err.Error(), "recipient") {
			t.Fatalf("got %v", err)
		}
	})
}

// selfSigned returns a server certificate for 127.0.0.1 and a client
// configuration that trusts it.
func selfSigned(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "fieldwatch test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}},
		&tls.Config{RootCAs: pool}
}
