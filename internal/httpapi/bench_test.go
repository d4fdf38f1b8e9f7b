package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/httpapi"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// BenchmarkProfile measures an authenticated call through the whole stack:
// middleware, session lookup in SQLite, account load, envelope.
func BenchmarkProfile(b *testing.B) {
	db := storetest.OpenSQLite(b)
	svc := accounts.New(accounts.Options{Store: db})
	if _, err := svc.Create(context.Background(), "farmer01", "secret1", ""); err != nil {
		b.Fatal(err)
	}
	l, err := svc.Login(context.Background(), "farmer01", "secret1", accounts.Client{IP: "127.0.0.1"})
	if err != nil {
		b.Fatal(err)
	}
	h := httpapi.New(httpapi.Options{Accounts: svc})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest("GET", "/apis/account/profile", nil)
			req.AddCookie(&http.Cookie{Name: "fw_session", Value: l.Token})
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 200 {
				b.Fatalf("HTTP %d", rec.Code)
			}
		}
	})
}

// BenchmarkLogin measures a successful login; argon2id dominates by design.
func BenchmarkLogin(b *testing.B) {
	db := storetest.OpenSQLite(b)
	svc := accounts.New(accounts.Options{Store: db})
	if _, err := svc.Create(context.Background(), "farmer01", "secret1", ""); err != nil {
		b.Fatal(err)
	}
	h := httpapi.New(httpapi.Options{Accounts: svc})
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", "/apis/account/login", strings.NewReader(`{"accountNumber":"farmer01","password":"secret1"}`))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("HTTP %d", rec.Code)
		}
	}
}
