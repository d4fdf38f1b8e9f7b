package accounts

import (
	"strings"
	"testing"
)

func TestPassword_HashAndVerify(t *testing.T) {
	h, err := HashPassword("secret1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("unexpected format %q", h)
	}
	h2, _ := HashPassword("secret1")
	if h == h2 {
		t.Error("two hashes of one password must differ (salt)")
	}
	for pw, want := range map[string]bool{"secret1": true, "secret2": false, "": false, "Secret1": false} {
		ok, err := VerifyPassword(h, pw)
		if err != nil || ok != want {
			t.Errorf("verify %q = %v, %v; want %v", pw, ok, err, want)
		}
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=1,t=1,p=1$aa$bb", "$argon2id$v=19$m=x$aa$bb"} {
		if _, err := VerifyPassword(bad, "secret1"); err == nil {
			t.Errorf("malformed hash %q accepted", bad)
		}
	}
}
