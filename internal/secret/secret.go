// Package secret holds the server's own secret and what is derived from it:
// sealing values the server must be able to read back (device keys, whose
// owner may look them up) and short codes that prove possession of a device
// label.
package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Size is the length of the server secret in bytes.
const Size = 32

// Keeper seals and opens values with keys derived from one secret.
type Keeper struct {
	aead cipher.AEAD
	mac  []byte
}

// New derives a Keeper's keys from secret (Size bytes).
func New(secret []byte) (*Keeper, error) {
	if len(secret) != Size {
		return nil, fmt.Errorf("secret: want %d bytes, have %d", Size, len(secret))
	}
	sealKey, err := hkdf.Key(sha256.New, secret, nil, "fieldwatch seal v1", 32)
	if err != nil {
		return nil, err
	}
	macKey, err := hkdf.Key(sha256.New, secret, nil, "fieldwatch bind code v1", 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(sealKey)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Keeper{aead: aead, mac: macKey}, nil
}

// Load reads the secret from path, creating it (mode 0600) with fresh
// random bytes when absent. Every server of one deployment must share it:
// a device key sealed by one is opened by another.
func Load(path string) (*Keeper, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		b = make([]byte, Size)
		rand.Read(b)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("secret: %w", err)
		}
		enc := base64.StdEncoding.EncodeToString(b) + "\n"
		// O_EXCL: two processes starting at once must not each write their own.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			return Load(path)
		}
		if err != nil {
			return nil, fmt.Errorf("secret: %w", err)
		}
		if _, err := f.WriteString(enc); err != nil {
			f.Close()
			return nil, fmt.Errorf("secret: %w", err)
		}
		if err := f.Close(); err != nil {
			return nil, fmt.Errorf("secret: %w", err)
		}
		return New(b)
	}
	if err != nil {
		return nil, fmt.Errorf("secret: %w", err)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
	if err != nil {
		return nil, fmt.Errorf("secret %s: not base64: %w", path, err)
	}
	return New(raw)
}

// Seal encrypts plain; Open reverses it.
func (k *Keeper) Seal(plain []byte) string {
	nonce := make([]byte, k.aead.NonceSize())
	rand.Read(nonce)
	return base64.RawStdEncoding.EncodeToString(k.aead.Seal(nonce, nonce, plain, nil))
}

// Open decrypts what Seal returned.
func (k *Keeper) Open(sealed string) ([]byte, error) {
	b, err := base64.RawStdEncoding.DecodeString(sealed)
	if err != nil || len(b) < k.aead.NonceSize() {
		return nil, errors.New("secret: malformed sealed value")
	}
	n := k.aead.NonceSize()
	plain, err := k.aead.Open(nil, b[:n], b[n:], nil)
	if err != nil {
		return nil, errors.New("secret: sealed value does not open with this server's secret")
	}
	return plain, nil
}

var code32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// Code returns a short code (8 characters of A-Z2-7) bound to s: printed on a
// device label beside its SN, it proves whoever binds the device holds it.
func (k *Keeper) Code(s string) string {
	m := hmac.New(sha256.New, k.mac)
	m.Write([]byte(s))
	return code32.EncodeToString(m.Sum(nil))[:8]
}

// CheckCode reports whether code is Code(s), in constant time.
func (k *Keeper) CheckCode(s, code string) bool {
	return hmac.Equal([]byte(k.Code(s)), []byte(strings.ToUpper(code)))
}
