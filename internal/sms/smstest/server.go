// Package smstest is a local server speaking Aliyun dysmsapi's SendSms wire
// format, for tests: it checks every parameter and the HMAC-SHA1 signature
// the way the service does, and keeps the messages it accepted.
package smstest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/sms"
)

// The credentials, signature name and template the server knows.
const (
	AccessKeyID     = "LTAI5tTestKeyId"
	AccessKeySecret = "testSecret"
	SignName        = "田间守望"
	TemplateCode    = "SMS_71390007"
)

// Message is one accepted SendSms request.
type Message struct {
	Phone string
	Param map[string]string
	Form  url.Values
}

// Server answers like dysmsapi.aliyuncs.com.
type Server struct {
	*httptest.Server

	mu     sync.Mutex
	sent   []Message
	nonces map[string]bool
	limit  bool // answer isv.BUSINESS_LIMIT_CONTROL
}

// New starts a server; it is closed when the test ends.
func New(t interface{ Cleanup(func()) }) *Server {
	s := &Server{nonces: map[string]bool{}}
	s.Server = httptest.NewServer(s)
	t.Cleanup(s.Close)
	return s
}

// Client returns a client with the server's credentials.
func (s *Server) Client() *sms.Client {
	return &sms.Client{Base: s.URL, AccessKeyID: AccessKeyID, AccessKeySecret: AccessKeySecret, SignName: SignName, TemplateCode: TemplateCode}
}

// Limit makes every send answer the provider's rate-limit error.
func (s *Server) Limit(on bool) { s.mu.Lock(); s.limit = on; s.mu.Unlock() }

// Sent returns the accepted messages.
func (s *Server) Sent() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.sent...)
}

func answer(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"Code": code, "Message": msg, "RequestId": "F655A8D5-B967-440B-8683-DAD6FF8DE990"})
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := r.ParseForm(); err != nil {
		answer(w, 400, "InvalidParameter", "malformed form")
		return
	}
	p := r.Form
	for k, v := range map[string]string{"Action": "SendSms", "Version": "2017-05-25", "SignatureMethod": "HMAC-SHA1",
		"SignatureVersion": "1.0", "Format": "JSON", "RegionId": "cn-hangzhou"} {
		if p.Get(k) != v {
			answer(w, 400, "MissingParameter", k+" must be "+v)
			return
		}
	}
	if p.Get("AccessKeyId") != AccessKeyID {
		answer(w, 404, "InvalidAccessKeyId.NotFound", "Specified access key is not found.")
		return
	}
	if sms.Sign(r.Method, p, AccessKeySecret) != p.Get("Signature") {
		answer(w, 400, "SignatureDoesNotMatch", "Specified signature is not matched with our calculation.")
		return
	}
	ts, err := time.Parse("2006-01-02T15:04:05Z", p.Get("Timestamp"))
	if err != nil || time.Since(ts).Abs() > 15*time.Minute {
		answer(w, 400, "InvalidTimeStamp.Expired", "Specified time stamp or date value is expired.")
		return
	}
	nonce := p.Get("SignatureNonce")
	if nonce == "" || s.nonces[nonce] {
		answer(w, 400, "SignatureNonceUsed", "Specified signature nonce was used already.")
		return
	}
	s.nonces[nonce] = true
	if p.Get("SignName") != SignName {
		answer(w, 200, "isv.SMS_SIGNATURE_ILLEGAL", "The signature is not approved.")
		return
	}
	if p.Get("TemplateCode") != TemplateCode {
		answer(w, 200, "isv.SMS_TEMPLATE_ILLEGAL", "The template is not approved.")
		return
	}
	var param map[string]string
	if err := json.Unmarshal([]byte(p.Get("TemplateParam")), &param); err != nil || param["code"] == "" {
		answer(w, 200, "isv.INVALID_JSON_PARAM", "TemplateParam is not valid JSON with code.")
		return
	}
	phone := p.Get("PhoneNumbers")
	if len(phone) != 11 || phone[0] != '1' {
		answer(w, 200, "isv.MOBILE_NUMBER_ILLEGAL", "The phone number is not valid.")
		return
	}
	if s.limit {
		answer(w, 200, "isv.BUSINESS_LIMIT_CONTROL", "Too many messages to this number.")
		return
	}
	s.sent = append(s.sent, Message{Phone: phone, Param: param, Form: p})
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	_ = json.NewEncoder(w).Encode(map[string]string{"Code": "OK", "Message": "OK", "BizId": "900619746936498440^0", "RequestId": "F655A8D5-B967-440B-8683-DAD6FF8DE990"})
}
