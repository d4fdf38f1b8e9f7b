// Package accounts holds accounts, their passwords and their login sessions.
package accounts

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/text"
)

// Account is a person or organisation that logs in and owns devices.
type Account struct {
	ID            int64
	AccountNumber string // login identifier: letters and digits, immutable
	Name          string // display name, free text
	PasswordHash  string
	Phone         string
	Mail          string
	WechatOpenID  string
	CreatedAt     time.Time
	LastLoginAt   *time.Time
	DisabledAt    *time.Time // an operator disabled the account: it cannot log in
}

// LoginMethods lists the ways this account can log in.
func (a *Account) LoginMethods() []string {
	m := []string{"password"}
	if a.WechatOpenID != "" {
		m = append(m, "wechat")
	}
	return m
}

// Session is a login on one client. Only the SHA-256 of its token is stored.
type Session struct {
	ID        string // hex SHA-256 of the cookie token
	AccountID int64
	CreatedAt time.Time
	ExpiresAt time.Time
	UserAgent string
	ClientIP  string
}

// Limits of SPEC.md §5 and §9.
const (
	MinAccountNumberLen = 6
	MaxAccountNumberLen = 32
	MinPasswordLen      = 6
	MaxPasswordLen      = 128 // argon2 accepts more, but nobody types more; bounds the hashing work
	MaxNameLen          = 16
)

// ValidateAccountNumber applies the account-number rule: at least 6 ASCII letters or digits.
func ValidateAccountNumber(s string) error {
	const field = "accountNumber"
	switch n := len(s); {
	case n == 0:
		return errs.Invalid(field, "error.required")
	case n < MinAccountNumberLen:
		return errs.Invalid(field, "account.number.tooShort")
	case n > MaxAccountNumberLen:
		return errs.Invalid(field, "account.number.tooLong")
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return errs.Invalid(field, "account.number.charset")
		}
	}
	return nil
}

// ValidatePassword applies the password rule to the named field.
func ValidatePassword(field, s string) error {
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return errs.Invalid(field, "account.password.required")
	case n < MinPasswordLen:
		return errs.Invalid(field, "account.password.tooShort")
	case n > MaxPasswordLen:
		return errs.Invalid(field, "account.password.tooLong")
	}
	return nil
}

// NormalizeName trims a display name and checks it: not empty, at most 16 characters.
func NormalizeName(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return "", errs.Invalid("name", "account.name.empty")
	case n > MaxNameLen:
		return "", errs.Invalid("name", "account.name.tooLong")
	}
	return s, text.CheckName("name", s)
}

// Store is what the service needs from persistence.
type Store interface {
	VerificationStore
	WeChatStore
	// CreateAccount inserts a, setting its ID. Returns EINVALID
	// account.number.taken (accountNumber) if the account number is taken.
	CreateAccount(ctx context.Context, a *Account) error
	// FindAccountByNumber returns ENOTFOUND when absent.
	FindAccountByNumber(ctx context.Context, accountNumber string) (*Account, error)
	// FindAccountByID returns ENOTFOUND when absent.
	FindAccountByID(ctx context.Context, id int64) (*Account, error)
	UpdateAccountName(ctx context.Context, id int64, name string) error
	// ListAccounts returns every account by account number.
	ListAccounts(ctx context.Context) ([]*Account, error)
	// SetAccountDisabled sets (at nil clears) when the account was disabled;
	// disabling deletes its sessions in the same transaction. ENOTFOUND.
	SetAccountDisabled(ctx context.Context, id int64, at *time.Time) error
	// UpdatePassword stores a new hash and deletes the account's sessions except keepSessionID.
	UpdatePassword(ctx context.Context, id int64, hash, keepSessionID string) error
	// SetLastLogin records a successful login, and the client's language
	// unless lang is empty.
	SetLastLogin(ctx context.Context, id int64, at time.Time, lang string) error

	CreateSession(ctx context.Context, s *Session) error
	// FindSession returns ENOTFOUND when absent.
	FindSession(ctx context.Context, id string) (*Session, error)
	ExtendSession(ctx context.Context, id string, expiresAt time.Time) error
	DeleteSession(ctx context.Context, id string) error
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error)

	// AddLoginFailure records a failed login under key and drops records older than since.
	AddLoginFailure(ctx context.Context, key string, at, since time.Time) error
	// LoginFailures returns key's failures at or after since.
	LoginFailures(ctx context.Context, key string, since time.Time) (Failures, error)
	ClearLoginFailures(ctx context.Context, key string) error
	// DeleteLoginFailures drops every failure recorded before before.
	DeleteLoginFailures(ctx context.Context, before time.Time) error

	// AddKnownDevice records (or extends) that the client holding the device
	// token whose hash is id has logged in to the account.
	AddKnownDevice(ctx context.Context, id string, accountID int64, now, expiresAt time.Time) error
	// IsKnownDevice reports whether id is a known device of the account at now.
	IsKnownDevice(ctx context.Context, id string, accountID int64, now time.Time) (bool, error)
	// DeleteExpiredKnownDevices drops the records whose expiry is not after now.
	DeleteExpiredKnownDevices(ctx context.Context, now time.Time) error
}

// Failures summarizes the failed logins recorded under one key.
type Failures struct {
	Count          int
	Oldest, Latest time.Time // zero when Count is 0
}
