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
	Mail       CodeMailer    // sends e-mail codes; nil: e-mail is not configured
	SMS        CodeTexter    // sends SMS codes; nil: SMS is not configured
	WeChat     QRCodes       // makes WeChat QR codes to link and log in; nil: not configured
	SessionTTL time.Duration // a session unused this long expires; use extends it (default DefaultSessionTTL)

	// Login throttling (docs/architecture.md, "Accounts and sessions"). A
	// failure counts for FailureWindow (default 15 minutes). Within it:
	//   - a client address with AddressMaxFailures failures (default 20, on
	//     any accounts) is refused until the oldest leaves the window;
	//   - one account from one address may fail FreeFailures times (default
	//     5); each further attempt waits BaseDelay (default 1 s) after the
	//     latest failure, doubled for each failure beyond, at most MaxDelay
	//     (default 5 minutes);
	//   - an account with AccountMaxFailures failures (default 10) from
	//     clients that are not its known devices refuses such clients until
	//     the oldest leaves the window. A known device, one that has logged
	//     in to the account within KnownDeviceTTL (default 90 days), still
	//     logs in: strangers' guesses cannot lock its owner out. A known
	//     device with DeviceMaxFailures failures of its own (default 5) is
	//     treated as unknown until they leave the window.
	FailureWindow      time.Duration
	AddressMaxFailures int
	AccountMaxFailures int
	DeviceMaxFailures  int
	FreeFailures       int
	BaseDelay          time.Duration
	MaxDelay           time.Duration
	KnownDeviceTTL     time.Duration
	Now                func() time.Time
}

// DefaultSessionTTL is how long an unused session lasts unless told otherwise.
const DefaultSessionTTL = 7 * 24 * time.Hour

// DefaultKnownDeviceTTL is how long a client stays a known device of an
// account after its latest login to it.
const DefaultKnownDeviceTTL = 90 * 24 * time.Hour

// Service is the account business logic.
type Service struct {
	store     Store
	cfg       Options
	dummyHash string // verified against when the account does not exist, so timing does not tell
}

// New returns the account service with defaults filled in.
func New(o Options) *Service {
	o.SessionTTL = cmp.Or(o.SessionTTL, DefaultSessionTTL)
	o.FailureWindow = cmp.Or(o.FailureWindow, 15*time.Minute)
	o.AddressMaxFailures = cmp.Or(o.AddressMaxFailures, 20)
	o.AccountMaxFailures = cmp.Or(o.AccountMaxFailures, 10)
	o.DeviceMaxFailures = cmp.Or(o.DeviceMaxFailures, 5)
	o.FreeFailures = cmp.Or(o.FreeFailures, 5)
	o.BaseDelay = cmp.Or(o.BaseDelay, time.Second)
	o.MaxDelay = cmp.Or(o.MaxDelay, 5*time.Minute)
	o.KnownDeviceTTL = cmp.Or(o.KnownDeviceTTL, DefaultKnownDeviceTTL)
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
	// Device is the known-device token the client presents (a cookie set at
	// an earlier successful login); empty when it has none.
	Device string
	// Lang is the language the client uses ("" unknown): alerts the account
	// receives as a grantee are written in the latest one.
	Lang string
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
// only; the store keeps its hash), the session, the account, and the
// client's known-device token (for a long-lived cookie: the one it
// presented, or a new one) with its expiry.
type Login struct {
	Token         string
	Session       *Session
	Account       *Account
	Device        string
	DeviceExpires time.Time
}

// Login checks credentials and opens a session. Returns EINVALID for a
// missing field (accountNumber error.required, password
// account.password.required), ETOOMANY (account.login.wait with the seconds
// to wait, or account.login.throttled with the minutes; both carry
// "seconds") while the throttle refuses the client, EUNAUTHORIZED
// (account.credentials.invalid) for an unknown account or a wrong password
// alike.
func (s *Service) Login(ctx context.Context, accountNumber, password string, c Client) (*Login, error) {
	if accountNumber == "" {
		return nil, errs.Invalid("accountNumber", "error.required")
	}
	if password == "" {
		return nil, errs.Invalid("password", "account.password.required")
	}
	now := s.cfg.Now()
	number := strings.ToLower(accountNumber)
	addrKey, pairKey, acctKey := "address:"+c.IP, "client:"+number+"@"+c.IP, "account:"+number

	a, err := s.store.FindAccountByNumber(ctx, accountNumber)
	if err != nil && errs.KindOf(err) != errs.ENotFound {
		return nil, err
	}
	var accountID int64 // 0, which no account has, for an unknown account: the same queries run
	if a != nil {
		accountID = a.ID
	}
	known, devKey, err := s.knownDevice(ctx, c.Device, accountID, number, now)
	if err != nil {
		return nil, err
	}
	if err := s.limit(ctx, addrKey, s.cfg.AddressMaxFailures, now); err != nil {
		return nil, err
	}
	if !known {
		if err := s.limit(ctx, acctKey, s.cfg.AccountMaxFailures, now); err != nil {
			return nil, err
		}
		if err := s.delay(ctx, pairKey, now); err != nil {
			return nil, err
		}
	}

	hash := s.dummyHash
	if a != nil {
		hash = a.PasswordHash
	}
	ok, err := VerifyPassword(hash, password)
	if err != nil {
		return nil, errs.Internal("verify password: %w", err)
	}
	if a != nil && ok && a.DisabledAt != nil {
		return nil, errs.New(errs.EForbidden, "account.disabled")
	}
	if a == nil || !ok {
		keys := []string{addrKey, acctKey, pairKey}
		if known {
			keys = []string{addrKey, devKey}
		}
		for _, k := range keys {
			if err := s.store.AddLoginFailure(ctx, k, now, now.Add(-s.cfg.FailureWindow)); err != nil {
				return nil, err
			}
		}
		return nil, errs.New(errs.EUnauthorized, "account.credentials.invalid")
	}
	// The client proved itself; the account's count of strangers' failures
	// stays, or a login of the owner would reset an attacker's budget.
	clear := pairKey
	if known {
		clear = devKey
	}
	if err := s.store.ClearLoginFailures(ctx, clear); err != nil {
		return nil, err
	}
	device := c.Device
	if !known {
		if device, err = newToken(); err != nil {
			return nil, err
		}
	}
	l := &Login{Account: a, Device: device, DeviceExpires: now.Add(s.cfg.KnownDeviceTTL)}
	if err := s.store.AddKnownDevice(ctx, tokenHash(device), a.ID, now, l.DeviceExpires); err != nil {
		return nil, err
	}
	if l.Token, l.Session, err = s.openSession(ctx, a.ID, c, now); err != nil {
		return nil, err
	}
	if err := s.store.SetLastLogin(ctx, a.ID, now, c.Lang); err != nil {
		return nil, err
	}
	a.LastLoginAt = &now
	return l, nil
}

// knownDevice reports whether token is a known device of the account that
// has not used up its own failures, and the key its failures count under.
func (s *Service) knownDevice(ctx context.Context, token string, accountID int64, number string, now time.Time) (bool, string, error) {
	if token == "" {
		return false, "", nil
	}
	id := tokenHash(token)
	known, err := s.store.IsKnownDevice(ctx, id, accountID, now)
	if err != nil || !known {
		return false, "", err
	}
	key := "device:" + id + ":" + number
	f, err := s.store.LoginFailures(ctx, key, now.Add(-s.cfg.FailureWindow))
	if err != nil {
		return false, "", err
	}
	return f.Count < s.cfg.DeviceMaxFailures, key, nil
}

// limit refuses once key has most failures in the window, until the oldest
// of them leaves it.
func (s *Service) limit(ctx context.Context, key string, most int, now time.Time) error {
	f, err := s.store.LoginFailures(ctx, key, now.Add(-s.cfg.FailureWindow))
	if err != nil {
		return err
	}
	if f.Count < most {
		return nil
	}
	return throttled(f.Oldest.Add(s.cfg.FailureWindow).Sub(now))
}

// delay refuses an attempt that comes too soon after key's latest failure:
// free for the first FreeFailures, then BaseDelay doubled for each failure
// beyond, at most MaxDelay.
func (s *Service) delay(ctx context.Context, key string, now time.Time) error {
	f, err := s.store.LoginFailures(ctx, key, now.Add(-s.cfg.FailureWindow))
	if err != nil {
		return err
	}
	if f.Count < s.cfg.FreeFailures {
		return nil
	}
	wait := s.cfg.MaxDelay
	if n := f.Count - s.cfg.FreeFailures; n < 30 {
		wait = min(s.cfg.BaseDelay<<n, s.cfg.MaxDelay)
	}
	if left := f.Latest.Add(wait).Sub(now); left > 0 {
		return throttled(left)
	}
	return nil
}

// throttled is the refusal of an attempt that may be made again after
// wait: in seconds under a minute, else in minutes, both rounded up.
func throttled(wait time.Duration) error {
	seconds := max(1, int((wait+time.Second-1)/time.Second))
	if seconds < 60 {
		return errs.New(errs.ETooMany, "account.login.wait").With(map[string]any{"seconds": seconds})
	}
	return errs.New(errs.ETooMany, "account.login.throttled").With(map[string]any{"seconds": seconds, "minutes": (seconds + 59) / 60})
}

// newToken is a random 256-bit secret, URL-safe.
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", errs.Internal("token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func (s *Service) openSession(ctx context.Context, accountID int64, c Client, now time.Time) (string, *Session, error) {
	token, err := newToken()
	if err != nil {
		return "", nil, err
	}
	sess := &Session{
		ID:        tokenHash(token),
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

// tokenHash is what the store keeps of a secret token: its hex SHA-256.
func tokenHash(token string) string {
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
		return nil, nil, errs.SessionExpired()
	}
	sess, err := s.store.FindSession(ctx, tokenHash(token))
	if errs.KindOf(err) == errs.ENotFound {
		return nil, nil, errs.SessionExpired()
	} else if err != nil {
		return nil, nil, err
	}
	now := s.cfg.Now()
	if !now.Before(sess.ExpiresAt) {
		if err := s.store.DeleteSession(ctx, sess.ID); err != nil {
			return nil, nil, err
		}
		return nil, nil, errs.SessionExpired()
	}
	if sess.ExpiresAt.Sub(now) < s.cfg.SessionTTL/2 {
		sess.ExpiresAt = now.Add(s.cfg.SessionTTL)
		if err := s.store.ExtendSession(ctx, sess.ID, sess.ExpiresAt); err != nil {
			return nil, nil, err
		}
	}
	a, err := s.store.FindAccountByID(ctx, sess.AccountID)
	if errs.KindOf(err) == errs.ENotFound || err == nil && a.DisabledAt != nil {
		return nil, nil, errs.SessionExpired()
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
	return s.store.DeleteSession(ctx, tokenHash(token))
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
// out every other session of the account. Wrong old passwords count against
// the session, which is refused after as many as a known device may make
// (DeviceMaxFailures a window), so a taken-over session cannot guess around
// the login throttle.
// Returns EINVALID naming the field: account.password.required or
// account.password.oldWrong (oldPassword), account.password.required,
// account.password.tooShort, account.password.tooLong or
// account.password.sameAsOld (newPassword); ETOOMANY as Login's; ENOTFOUND
// when the account is gone.
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
	key := "session:" + currentSessionID
	if err := s.limit(ctx, key, s.cfg.DeviceMaxFailures, now); err != nil {
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
// many; known devices past theirs and failures past the window go too.
// Fails only with EINTERNAL.
func (s *Service) PurgeExpiredSessions(ctx context.Context) (int64, error) {
	now := s.cfg.Now()
	if err := s.store.DeleteExpiredKnownDevices(ctx, now); err != nil {
		return 0, err
	}
	if err := s.store.DeleteLoginFailures(ctx, now.Add(-s.cfg.FailureWindow)); err != nil {
		return 0, err
	}
	if err := s.store.DeleteVerifications(ctx, now.Add(-CodeWindow)); err != nil {
		return 0, err
	}
	if err := s.store.DeleteWeChatScans(ctx, now.Add(-CodeWindow)); err != nil {
		return 0, err
	}
	return s.store.DeleteExpiredSessions(ctx, now)
}

// NewAccount is an account an operator creates, with the addresses alerts
// go to (vouched for by the operator: no code is sent).
type NewAccount struct {
	Number, Password, Name string
	Mail, Phone            string
}

// CreateWith is Create with the e-mail address and phone number set.
// Returns Create's errors and EINVALID mail verify.email.invalid, phone
// verify.mobile.invalid.
func (s *Service) CreateWith(ctx context.Context, n NewAccount) (*Account, error) {
	var err error
	if n.Mail != "" {
		if n.Mail, err = NormalizeEmail("mail", n.Mail); err != nil {
			return nil, err
		}
	}
	if n.Phone != "" {
		if n.Phone, err = NormalizeMobile("phone", n.Phone); err != nil {
			return nil, err
		}
	}
	if err := ValidateAccountNumber(n.Number); err != nil {
		return nil, err
	}
	if err := ValidatePassword("password", n.Password); err != nil {
		return nil, err
	}
	if strings.TrimSpace(n.Name) == "" {
		n.Name = n.Number
	}
	name, err := NormalizeName(n.Name)
	if err != nil {
		return nil, err
	}
	hash, err := HashPassword(n.Password)
	if err != nil {
		return nil, errs.Internal("hash password: %w", err)
	}
	a := &Account{AccountNumber: n.Number, Name: name, PasswordHash: hash, Mail: n.Mail, Phone: n.Phone, CreatedAt: s.cfg.Now()}
	if err := s.store.CreateAccount(ctx, a); err != nil {
		return nil, err
	}
	return a, nil
}

// List returns every account, in account-number order.
func (s *Service) List(ctx context.Context) ([]*Account, error) { return s.store.ListAccounts(ctx) }

// SetDisabled disables (ending its sessions) or enables the account
// numbered number. A disabled account cannot log in, by password or
// WeChat, nor reset its password. Returns ENOTFOUND.
func (s *Service) SetDisabled(ctx context.Context, number string, disabled bool) (*Account, error) {
	a, err := s.store.FindAccountByNumber(ctx, number)
	if err != nil {
		return nil, err
	}
	var at *time.Time
	if disabled {
		now := s.cfg.Now()
		at = &now
	}
	if err := s.store.SetAccountDisabled(ctx, a.ID, at); err != nil {
		return nil, err
	}
	a.DisabledAt = at
	return a, nil
}
