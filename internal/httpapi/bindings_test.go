package httpapi_test

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/mail"
	"github.com/fieldwatch/fieldwatch/internal/mail/mailtest"
	"github.com/fieldwatch/fieldwatch/internal/sms/smstest"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// smtpSink is a real SMTP server and a sender to it.
func smtpSink(t *testing.T) (*mailtest.Server, *mail.Sender) {
	t.Helper()
	srv, err := mailtest.Listen("127.0.0.1:0", mailtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	sender, err := mail.New(mail.Config{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	return srv, sender
}

var codeRE = regexp.MustCompile(`\b(\d{6})\b`)

// nextCode reads the next message: its recipient and its code.
func nextCode(t *testing.T, srv *mailtest.Server) (string, string) {
	t.Helper()
	m := <-srv.C
	p, err := mailtest.Parse(m.Data)
	if err != nil {
		t.Fatal(err)
	}
	c := codeRE.FindStringSubmatch(p.Text)
	if c == nil {
		t.Fatalf("no code in %q", p.Text)
	}
	return m.To[0], c[1]
}

type sentDTO struct {
	Ticket, Address     string
	ExpiresIn, ResendIn int
}

func TestBindings_EmailFlow(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		srv, sender := smtpSink(t)
		clk := newClock()
		e := newEnv(t, db, opts{mail: sender, now: clk.now})
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)

		r := u.do("GET", "/apis/account/bindings/validation?channel=email&address=farm%40example", nil)
		r.want(t, 400, 1400)
		if r.Message != "Please enter a valid email address" || r.Error.Field != "address" {
			t.Fatalf("validation: %q %+v", r.Message, r.Error)
		}
		u.do("GET", "/apis/account/bindings/validation?phoneNumber=138+0013+8000", nil).want(t, 200, 0)

		r = u.do("GET", "/apis/account/bindings/email/code?address=farm%40example.com", nil)
		r.want(t, 200, 0)
		var sent sentDTO
		_ = json.Unmarshal(r.Data, &sent)
		to, code := nextCode(t, srv)
		if to != "farm@example.com" || sent.Ticket == "" || sent.Address != "f***@example.com" {
			t.Fatalf("sent %+v to %s", sent, to)
		}
		r = u.do("GET", "/apis/account/bindings/email/code?address=farm%40example.com", nil)
		if r.status != 429 || r.header.Get("Retry-After") == "" ||
			!regexp.MustCompile(`^The verification code has been sent, please try again after \d+ seconds$`).MatchString(r.Message) {
			t.Fatalf("resend: HTTP %d %q retry %q", r.status, r.Message, r.header.Get("Retry-After"))
		}

		// Another account can neither use the ticket nor see the binding.
		if _, err := e.svc.Create(t.Context(), "farmer02", "secret2", ""); err != nil {
			t.Fatal(err)
		}
		other := e.user("en_US")
		other.login("farmer02", "secret2").want(t, 200, 0)
		other.do("POST", "/apis/account/bindings", map[string]string{"channel": "email", "code": code, "ticket": sent.Ticket}).want(t, 400, 1400)

		r = u.do("POST", "/apis/account/bindings", map[string]string{"channel": "email", "code": code, "ticket": sent.Ticket})
		r.want(t, 200, 0)
		var p struct{ Mail string }
		_ = json.Unmarshal(r.Data, &p)
		if p.Mail != "farm@example.com" {
			t.Fatalf("bound %+v", p)
		}
		r = other.do("GET", "/apis/account/profile", nil)
		_ = json.Unmarshal(r.Data, &p)
		if p.Mail != "" {
			t.Fatalf("other account sees %q", p.Mail)
		}

		// Unbinding needs a code sent to the bound address.
		u.do("DELETE", "/apis/account/bindings?channel=email", map[string]string{}).want(t, 400, 1400)
		clk.advance(time.Minute)
		r = u.do("GET", "/apis/account/authorize/ticket?src=email", nil)
		r.want(t, 200, 0)
		_ = json.Unmarshal(r.Data, &sent)
		to, code = nextCode(t, srv)
		if to != "farm@example.com" {
			t.Fatalf("unbind code to %s", to)
		}
		r = u.do("DELETE", "/apis/account/bindings?channel=email", map[string]string{"code": code, "ticket": sent.Ticket})
		r.want(t, 200, 0)
		_ = json.Unmarshal(r.Data, &p)
		if p.Mail != "" {
			t.Fatalf("still bound: %+v", p)
		}

		// Phone binding without an SMS service says so, in the caller's language.
		u.lang = "zh_CN"
		r = u.do("GET", "/apis/account/bindings/mobile/code?phoneNumber=13800138000", nil)
		if r.Code == 0 || r.Message != "本服务器未配置短信服务，暂不能验证手机号" {
			t.Fatalf("sms: %d %q", r.Code, r.Message)
		}
	})
}

func TestPassword_ResetByEmailCode(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		srv, sender := smtpSink(t)
		e := newEnv(t, db, opts{mail: sender})
		a, err := db.FindAccountByNumber(t.Context(), "farmer01")
		if err != nil {
			t.Fatal(err)
		}
		if err := db.UpdateAccountMail(t.Context(), a.ID, "farm@example.com"); err != nil {
			t.Fatal(err)
		}
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)

		anon := e.user("en_US")
		// The legacy change form still needs a session.
		anon.do("POST", "/apis/account/password", map[string]string{"old": "secret1", "new": "secret9"}).want(t, 401, 2)

		r := anon.do("GET", "/apis/account/authorize/ticket?src=email&username=farmer01", nil)
		r.want(t, 200, 0)
		var sent sentDTO
		_ = json.Unmarshal(r.Data, &sent)
		_, code := nextCode(t, srv)
		r = anon.do("POST", "/apis/account/password", map[string]string{"username": "farmer01", "password": "12", "channel": "email", "code": code, "ticket": sent.Ticket})
		if r.Code == 0 || r.Error.Field != "password" {
			t.Fatalf("short password: %q", r.Message)
		}
		anon.do("POST", "/apis/account/password", map[string]string{"username": "farmer01", "password": "newpass1", "channel": "email", "code": code, "ticket": sent.Ticket}).want(t, 200, 0)
		u.do("GET", "/apis/account/profile", nil).want(t, 401, 2)
		anon.login("farmer01", "newpass1").want(t, 200, 0)
	})
}

func TestBindings_MobileBySMS(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		sms := smstest.New(t)
		e := newEnv(t, db, opts{sms: sms.Client()})
		u := e.user("zh_TW")
		u.login("farmer01", "secret1").want(t, 200, 0)

		r := u.do("GET", "/apis/account/bindings/mobile/code?phoneNumber=12800138000", nil)
		if r.Code == 0 || r.Error.Field != "phoneNumber" || r.Message != "請輸入有效的 11 位手機號" {
			t.Fatalf("bad number: %d %q", r.Code, r.Message)
		}
		u.do("GET", "/apis/account/bindings/mobile/code?phoneNumber=%2B86+138-0013-8000", nil).want(t, 200, 0)
		sent := sms.Sent()
		if len(sent) != 1 || sent[0].Phone != "13800138000" {
			t.Fatalf("sent %+v", sent)
		}
		r = u.do("POST", "/apis/account/bindings/mobile", map[string]string{"phoneNumber": "13800138000", "code": sent[0].Param["code"]})
		r.want(t, 200, 0)
		var p struct{ Phone string }
		_ = json.Unmarshal(r.Data, &p)
		if p.Phone != "13800138000" {
			t.Fatalf("profile %+v", p)
		}
	})
}
