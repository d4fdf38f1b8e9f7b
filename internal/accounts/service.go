package accounts

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Options configure the account service. Zero values take the defaults
// serve uses.
type Options struct {
	Store      Store
	SessionTTL time.Duration // a session unused this long expires; use extends it (default DefaultSessionTTL)
	// A login is refused once an account number has AccountMaxFailures failed
	// attempts (default 5), or a client address AddressMaxFailures (default
	// 20), within FailureWindow (default 15 minutes). Five guesses per account
	// per quarter hour stops online guessing of one account; twenty per
	// address allows a shared farm-office NAT to mistype.
	AccountMaxFailures int
	AddressMaxFailures int
	FailureWindow      time.Duration
	Now                func() time.Time
}

// DefaultSessionTTL is how long an unused session lasts unless told otherwise.
const DefaultSessionTTL = 7 * 24 * time.Hour

// Service is the account business logic.
type Service struct {
	store     Store
	cfg       Options
	dummyHash string // verified against when the account does not exist, so timing does not tell
}

// New returns the account service with defaults filled in.
func New(o Options) *Service {
	o.SessionTTL = cmp.Or(o.SessionTTL, DefaultSessionTTL)
	o.AccountMaxFailures = cmp.Or(o.AccountMaxFailures, 5)
	o.AddressMaxFailures = cmp.Or(o.AddressMaxFailures, 20)
	o.FailureWindow = cmp.Or(o.FailureWindow, 15*time.Minute)
	if o.Now == nil {
		o.Now = time.Now
	}
	dummy, err := HashPassword("not-a-real-password")
	if err != nil {
		panic(err)
	}
	return &Service{store: o.Store, cfg: o, dummyHash: dummy}
}

// Client describes where a request comes from.
type Client struct {
	IP        string
	UserAgent string
}

// Create adds an account after checking every rule; an empty name is the
// account number. Returns EINVALID naming the field: error.required,
// account.number.tooShort, account.number.tooLong, account.number.charset
// or account.number.taken (accountNumber), account.password.required,
// account.password.tooShort or account.password.tooLong (password),
// account.name.tooLong (name).
func (s *Service) Create(ctx context.Context, accountNumber, password, name string) (*Account, error) {
	if err := ValidateAccountNumber(accountNumber); err != nil {
		return nil, err
	}
	if err := ValidatePassword("password", password); err != nil {
		return nil, err
	}
	if strings.TrimSpace(name) == "" {
		name = accountNumber
	}
	name, err := NormalizeName(name)
	if err != nil {
		return nil, err
	}
	hash, err := HashPassword(password)
	if err != nil {
		return nil, errs.Internal("hash password: %w", err)
	}
	a := &Account{AccountNumber: accountNumber, Name: name, PasswordHash: hash, CreatedAt: s.cfg.Now()}
	if err := s.store.CreateAccount(ctx, a); err != nil {
		return nil, err
	}
	return a, nil
}

// Login is a successful login: the session's secret token (for the cookie
// only; the store keeps its hash), the session and the account.
type Login struct {
	Token   string
	Session *Session
	Account *Account
}

// Login checks credentials and opens a session. Returns EINVALID for a
// missing field (accountNumber error.required, password
// account.password.required), ETOOMANY (account.login.throttled, with the
// minutes to wait) once the account number or the client address has too
// many recent failures, EUNAUTHORIZED (account.credentials.invalid) for an
// unknown account or a wrong password alike.
func (s *Service) Login(ctx context.Context, accountNumber, password string, c Client) (*Login, error) {
	if accountNumber == "" {
		return nil, errs.Invalid("accountNumber", "error.required")
	}
	if password == "" {
		return nil, errs.Invalid("password", "account.password.required")
	}
	now := s.cfg.Now()
	acctKey, addrKey := "account:"+strings.ToLower(accountNumber), "address:"+c.IP
	if err := s.checkThrottle(ctx, acctKey, s.cfg.AccountMaxFailures, now); err != nil {
		return nil, err
	}
	if err := s.checkThrottle(ctx, addrKey, s.cfg.AddressMaxFailures, now); err != nil {
		return nil, err
	}

	a, err := s.store.FindAccountByNumber(ctx, accountNumber)
	if err != nil && errs.KindOf(err) != errs.ENotFound {
		return nil, err
	}
	hash := s.dummyHash
	if a != nil {
		hash = a.PasswordHash
	}
	ok, err := VerifyPassword(hash, password)
	if err != nil {
		return nil, errs.Internal("verify password: %w", err)
	}
	if a == nil || !ok {
		for _, k := range []string{acctKey, addrKey} {
			if err := s.store.AddLoginFailure(ctx, k, now, now.Add(-s.cfg.FailureWindow)); err != nil {
				return nil, err
			}
		}
		return nil, errs.New(errs.EUnauthorized, "account.credentials.invalid")
	}
	if err := s.store.ClearLoginFailures(ctx, acctKey); err != nil {
		return nil, err
	}
	token, sess, err := s.openSession(ctx, a.ID, c, now)
	if err != nil {
		return nil, err
	}
	if err := s.store.SetLastLogin(ctx, a.ID, now); err != nil {
		return nil, err
	}
	a.LastLoginAt = &now
	return &Login{Token: token, Session: sess, Account: a}, nil
}

func (s *Service) checkThrottle(ctx context.Context, key string, limit int, now time.Time) error {
	n, oldest, err := s.store.LoginFailures(ctx, key, now.Add(-s.cfg.FailureWindow))
	if err != nil {
		return err
	}
	if n < limit {
		return nil
	}
	wait := oldest.Add(s.cfg.FailureWindow).Sub(now)
	minutes := int((wait + time.Minute - 1) / time.Minute)
	return errs.New(errs.ETooMany, "account.login.throttled").With(map[string]any{"minutes": max(1, minutes)})
}

func (s *Service) openSession(ctx context.Context, accountID int64, c Client, now time.Time) (string, *Session, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", nil, errs.Internal("session token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	sess := &Session{
		ID:        sessionID(token),
		AccountID: accountID,
		CreatedAt: now,
		ExpiresAt: now.Add(s.cfg.SessionTTL),
		UserAgent: clip(c.UserAgent, 255),
		ClientIP:  c.IP,
	}
	if err := s.store.CreateSession(ctx, sess); err != nil {
		return "", nil, err
	}
	return token, sess, nil
}

func sessionID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// clip makes header text storable: valid UTF-8 (PostgreSQL refuses anything
// else) and at most n bytes, cut at a character boundary.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Authenticate resolves a session token. A session used in the second half of
// its life is extended, so active users stay logged in. Returns ESESSION
// (error.session) for a missing, unknown or expired token, or one whose
// account is gone.
func (s *Service) Authenticate(ctx context.Context, token string) (*Account, *Session, error) {
	if token == "" {
		return nil, nil, errs.ErrSession
	}
	sess, err := s.store.FindSession(ctx, sessionID(token))
	if errs.KindOf(err) == errs.ENotFound {
		return nil, nil, errs.ErrSession
	} else if err != nil {
		return nil, nil, err
	}
	now := s.cfg.Now()
	if !now.Before(sess.ExpiresAt) {
		if err := s.store.DeleteSession(ctx, sess.ID); err != nil {
			return nil, nil, err
		}
		return nil, nil, errs.ErrSession
	}
	if sess.ExpiresAt.Sub(now) < s.cfg.SessionTTL/2 {
		sess.ExpiresAt = now.Add(s.cfg.SessionTTL)
		if err := s.store.ExtendSession(ctx, sess.ID, sess.ExpiresAt); err != nil {
			return nil, nil, err
		}
	}
	a, err := s.store.FindAccountByID(ctx, sess.AccountID)
	if errs.KindOf(err) == errs.ENotFound {
		return nil, nil, errs.ErrSession
	} else if err != nil {
		return nil, nil, err
	}
	return a, sess, nil
}

// Logout revokes the session behind token. Logging out twice is not an
// error. Fails only with EINTERNAL.
func (s *Service) Logout(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	return s.store.DeleteSession(ctx, sessionID(token))
}

// Rename sets the display name. Returns EINVALID (name: account.name.empty,
// account.name.tooLong), ENOTFOUND when the account is gone.
func (s *Service) Rename(ctx context.Context, accountID int64, name string) (*Account, error) {
	name, err := NormalizeName(name)
	if err != nil {
		return nil, err
	}
	if err := s.store.UpdateAccountName(ctx, accountID, name); err != nil {
		return nil, err
	}
	return s.store.FindAccountByID(ctx, accountID)
}

// ChangePassword replaces the password after checking the old one, and logs
// out every other session of the account. Wrong old passwords count as failed
// logins, so this cannot be used to guess around the login throttle.
// Returns EINVALID naming the field: account.password.required or
// account.password.oldWrong (oldPassword), account.password.required,
// account.password.tooShort, account.password.tooLong or
// account.password.sameAsOld (newPassword); ETOOMANY
// (account.login.throttled); ENOTFOUND when the account is gone.
func (s *Service) ChangePassword(ctx context.Context, accountID int64, currentSessionID, oldPw, newPw string) error {
	if oldPw == "" {
		return errs.Invalid("oldPassword", "account.password.required")
	}
	if err := ValidatePassword("newPassword", newPw); err != nil {
		return err
	}
	if oldPw == newPw {
		return errs.Invalid("newPassword", "account.password.sameAsOld")
	}
	a, err := s.store.FindAccountByID(ctx, accountID)
	if err != nil {
		return err
	}
	now := s.cfg.Now()
	key := "account:" + strings.ToLower(a.AccountNumber)
	if err := s.checkThrottle(ctx, key, s.cfg.AccountMaxFailures, now); err != nil {
		return err
	}
	ok, err := VerifyPassword(a.PasswordHash, oldPw)
	if err != nil {
		return errs.Internal("verify password: %w", err)
	}
	if !ok {
		if err := s.store.AddLoginFailure(ctx, key, now, now.Add(-s.cfg.FailureWindow)); err != nil {
			return err
		}
		return errs.Invalid("oldPassword", "account.password.oldWrong")
	}
	hash, err := HashPassword(newPw)
	if err != nil {
		return errs.Internal("hash password: %w", err)
	}
	return s.store.UpdatePassword(ctx, accountID, hash, currentSessionID)
}

// EnsureAccount creates the account unless one with that number exists.
// It reports whether it created one. Returns EINVALID as Create.
func (s *Service) EnsureAccount(ctx context.Context, accountNumber, password, name string) (bool, error) {
	_, err := s.store.FindAccountByNumber(ctx, accountNumber)
	if err == nil {
		return false, nil
	}
	if errs.KindOf(err) != errs.ENotFound {
		return false, err
	}
	if _, err := s.Create(ctx, accountNumber, password, name); err != nil {
		return false, err
	}
	return true, nil
}

// PurgeExpiredSessions deletes sessions past their expiry and returns how
// many. Fails only with EINTERNAL.
func (s *Service) PurgeExpiredSessions(ctx context.Context) (int64, error) {
	return s.store.DeleteExpiredSessions(ctx, s.cfg.Now())
}
