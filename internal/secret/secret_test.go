package secret

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// zeroKeeper is the Keeper of an all-zero secret, serialKeeper that of
// bytes 0, 1, …, 31.
func zeroKeeper(t *testing.T) *Keeper {
	t.Helper()
	k, err := New(make([]byte, Size))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func serialKeeper(t *testing.T) *Keeper {
	t.Helper()
	b := make([]byte, Size)
	for i := range b {
		b[i] = byte(i)
	}
	k, err := New(b)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestNew_SecretSize(t *testing.T) {
	for _, n := range []int{0, 16, Size - 1, Size + 1, 64} {
		t.Run(fmt.Sprintf("%d bytes", n), func(t *testing.T) {
			if _, err := New(make([]byte, n)); err == nil {
				t.Fatalf("a secret of %d bytes was accepted", n)
			}
		})
	}
}

func TestKeeper_SealOpen(t *testing.T) {
	k := zeroKeeper(t)
	cases := []struct {
		name  string
		plain []byte
	}{
		{"empty", []byte{}},
		{"device key", []byte("3f9c1a7e5b2d4c6a8e0f1b3d5a7c9e1f")},
		{"binary", []byte{0, 1, 2, 0xff, 0xfe, '\n', 0}},
		{"long", bytes.Repeat([]byte("fieldwatch "), 1000)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := k.Seal(c.plain), k.Seal(c.plain)
			if a == b {
				t.Fatal("two seals of one value are equal: the nonce is not fresh")
			}
			if len(c.plain) > 0 && strings.Contains(a, string(c.plain)) {
				t.Fatal("the sealed value shows the plain text")
			}
			for _, s := range []string{a, b} {
				got, err := k.Open(s)
				if err != nil || !bytes.Equal(got, c.plain) {
					t.Fatalf("Open(Seal(%q)) = %q, %v", c.plain, got, err)
				}
			}
		})
	}
}

// A value sealed before must still open: device keys and application
// secrets in existing databases were sealed with this derivation (checked
// against an independent HKDF-SHA256 and AES-GCM).
func TestKeeper_OpenKnownValue(t *testing.T) {
	got, err := zeroKeeper(t).Open("cjeSaY50f3Jf7SbNbH3/yUxJVQSimbcAqQ+phQYU/6924EhzY9rUmrQUOA")
	if err != nil || string(got) != "device-key-0123" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestKeeper_OpenRefuses(t *testing.T) {
	k := zeroKeeper(t)
	sealed := k.Seal([]byte("device-key-0123"))
	raw, err := base64.RawStdEncoding.DecodeString(sealed)
	if err != nil {
		t.Fatal(err)
	}
	const nonce = 12 // AES-GCM's standard nonce
	flip := func(i int) string {
		b := bytes.Clone(raw)
		b[i] ^= 0x01
		return base64.RawStdEncoding.EncodeToString(b)
	}
	cut := func(n int) string { return base64.RawStdEncoding.EncodeToString(raw[:n]) }
	cases := []struct {
		name   string
		keeper *Keeper
		sealed string
	}{
		{"nonce tampered", k, flip(0)},
		{"ciphertext tampered", k, flip(nonce + 1)},
		{"tag tampered", k, flip(len(raw) - 1)},
		{"byte appended", k, base64.RawStdEncoding.EncodeToString(append(bytes.Clone(raw), 0))},
		{"wrong key", serialKeeper(t), sealed},
		{"tag cut", k, cut(len(raw) - 1)},
		{"nonce only", k, cut(nonce)},
		{"shorter than a nonce", k, cut(nonce - 1)},
		{"empty", k, ""},
		{"not base64", k, "not*base64!"},
		{"padded base64", k, base64.StdEncoding.EncodeToString(raw)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, err := c.keeper.Open(c.sealed); err == nil {
				t.Fatalf("opened to %q", got)
			}
		})
	}
}

var codePattern = regexp.MustCompile(`^[A-Z2-7]{8}$`)

func TestKeeper_Code(t *testing.T) {
	zero, serial := zeroKeeper(t), serialKeeper(t)
	// Printed labels carry these: the derivation must not change (checked
	// against an independent HKDF-SHA256 and HMAC-SHA256).
	golden := []struct {
		name   string
		keeper *Keeper
		sn     string
		code   string
	}{
		{"zero secret, soil station", zero, "ZS0000001", "7HLDEJXS"},
		{"zero secret, host", zero, "LQM0000001", "LNPE44HZ"},
		{"serial secret, soil station", serial, "ZS0000001", "YUG7KYJF"},
		{"serial secret, host", serial, "LQM0000001", "HY5M3CY6"},
	}
	for _, c := range golden {
		t.Run(c.name, func(t *testing.T) {
			got := c.keeper.Code(c.sn)
			if got != c.code || !codePattern.MatchString(got) {
				t.Fatalf("Code(%q) = %q, want %q", c.sn, got, c.code)
			}
			if c.keeper.Code(c.sn) != got {
				t.Fatal("not deterministic")
			}
		})
	}
}

func TestKeeper_CheckCode(t *testing.T) {
	zero, serial := zeroKeeper(t), serialKeeper(t)
	cases := []struct {
		name   string
		keeper *Keeper
		sn     string
		code   string
		want   bool
	}{
		{"its code", zero, "ZS0000001", "7HLDEJXS", true},
		{"typed in lower case", zero, "ZS0000001", "7hldejxs", true},
		{"another device's code", zero, "ZS0000002", "7HLDEJXS", false},
		{"another server's code", serial, "ZS0000001", "7HLDEJXS", false},
		{"one character off", zero, "ZS0000001", "7HLDEJXT", false},
		{"truncated", zero, "ZS0000001", "7HLDEJX", false},
		{"extended", zero, "ZS0000001", "7HLDEJXSA", false},
		{"empty", zero, "ZS0000001", "", false},
		{"with spaces", zero, "ZS0000001", " 7HLDEJXS", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.keeper.CheckCode(c.sn, c.code); got != c.want {
				t.Fatalf("CheckCode(%q, %q) = %v", c.sn, c.code, got)
			}
		})
	}
}

func TestLoad_CreatesOnceThenReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conf", "secret")
	first, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}
	dir, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if dir.Mode().Perm() != 0o700 {
		t.Fatalf("directory created %v, want 0700", dir.Mode().Perm())
	}
	again, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// Another server of the deployment opens what the first sealed.
	if got, err := again.Open(first.Seal([]byte("k"))); err != nil || string(got) != "k" {
		t.Fatalf("a reloaded keeper opens %q, %v", got, err)
	}
	if first.Code("ZS0000001") != again.Code("ZS0000001") {
		t.Fatal("a reloaded keeper makes other label codes")
	}
}

func TestLoad_Refuses(t *testing.T) {
	cases := []struct {
		name, content string
	}{
		{"not base64", "not base64!\n"},
		{"too short", base64.StdEncoding.EncodeToString(make([]byte, Size-1)) + "\n"},
		{"too long", base64.StdEncoding.EncodeToString(make([]byte, Size+1))},
		{"empty", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "secret")
			if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := Load(path); err == nil {
				t.Fatal("loaded")
			}
		})
	}
}
