package accounts

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/mail"
)

// Channel is where a verification code goes.
type Channel string

// Channels of verification codes.
const (
	ChannelEmail  Channel = "email"
	ChannelMobile Channel = "mobile"
	// ChannelWeChat is not a channel codes go to; an AccountChange with it
	// removes the account's WeChat link.
	ChannelWeChat Channel = "wechat"
)

// ParseChannel reads a channel name; "phone" and "mail" are accepted too.
// Returns EINVALID (field, verify.channel.invalid).
func ParseChannel(field, s string) (Channel, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "email", "mail":
		return ChannelEmail, nil
	case "mobile", "phone", "sms":
		return ChannelMobile, nil
	case "":
		return "", errs.Invalid(field, "error.required")
	}
	return "", errs.Invalid(field, "verify.channel.invalid")
}

// Purpose is what a verification code proves.
type Purpose string

// Purposes of verification codes.
const (
	PurposeBind   Purpose = "bind"   // the account holds a new address
	PurposeUnbind Purpose = "unbind" // the account holds its bound address (to remove it)
	PurposeReset  Purpose = "reset"  // the holder of the bound address sets a new password
)

// Verification is one code sent to an address. The ticket the client holds
// hashes to ID; only a keyed hash of the code is stored.
type Verification struct {
	ID        string
	AccountID int64
	Purpose   Purpose
	Channel   Channel
	Address   string
	CodeHash  string
	Attempts  int
	ClientIP  string
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
}

// VerificationFilter selects the codes a send limit counts: those created
// at or after Since to Address on Channel, or of AccountID, or from
// ClientIP (the one field set).
type VerificationFilter struct {
	Channel   Channel
	Address   string
	AccountID int64
	ClientIP  string
	Since     time.Time
}

// AccountChange is what a used verification changes on its account, in the
// same transaction: an address bound or removed, or a new password (which
// ends every session of the account).
type AccountChange struct {
	AccountID    int64
	Channel      Channel // with Address: the address to set ("" removes it)
	Address      string
	PasswordHash string // when set: the new password
}

// VerificationStore is what codes need from persistence.
type VerificationStore interface {
	CreateVerification(ctx context.Context, v *Verification) error
	// FindVerification returns ENOTFOUND when absent.
	FindVerification(ctx context.Context, id string) (*Verification, error)
	// LatestVerification is the newest unused code of the account for
	// purpose to address on channel; ENOTFOUND when there is none.
	LatestVerification(ctx context.Context, accountID int64, purpose Purpose, channel Channel, address string) (*Verification, error)
	DeleteVerification(ctx context.Context, id string) error
	// CountVerifications counts the codes f selects and returns the newest's time.
	CountVerifications(ctx context.Context, f VerificationFilter) (int, time.Time, error)
	// UseVerificationAttempt counts one try of the code unless it is used
	// or already has most tries; it reports whether the try was counted.
	UseVerificationAttempt(ctx context.Context, id string, most int) (bool, error)
	// CompleteVerification marks the code used and applies change, in one
	// transaction; ECONFLICT verify.code.used when it was used already.
	CompleteVerification(ctx context.Context, id string, at time.Time, change AccountChange) error
	// DeleteVerifications drops codes created before before.
	DeleteVerifications(ctx context.Context, before time.Time) error
}

// CodeMailer sends e-mail (a *mail.Sender).
type CodeMailer interface {
	Send(ctx context.Context, m *mail.Message) error
}

// CodeTexter sends a verification code by SMS (an *sms.Client).
type CodeTexter interface {
	SendCode(ctx context.Context, phone, code string) error
}

// Code limits (docs/decisions.md, "Verification codes").
const (
	CodeDigits       = 6
	CodeTTL          = 10 * time.Minute
	CodeMaxAttempts  = 5
	CodeResendAfter  = 60 * time.Second
	CodeWindow       = 24 * time.Hour
	CodesPerAddress  = 10 // per CodeWindow
	CodesPerAccount  = 20 // per CodeWindow
	CodesPerClientIP = 30 // per CodeWindow
	MaxMobileLen     = 20
)

// NormalizeEmail trims s and checks it is a plain address
// (verify.email.invalid). Returns EINVALID naming field.
func NormalizeEmail(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errs.Invalid(field, "verify.email.required")
	}
	if !ValidEmail(s) {
		return "", errs.Invalid(field, "verify.email.invalid")
	}
	return s, nil
}

// NormalizeMobile trims s and checks it is a mainland China mobile number,
// 11 digits from 13 to 19, optionally written with +86 or 86 and spaces or
// hyphens; it returns the 11 digits (verify.mobile.invalid).
func NormalizeMobile(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errs.Invalid(field, "verify.mobile.required")
	}
	if len(s) > MaxMobileLen {
		return "", errs.Invalid(field, "verify.mobile.invalid")
	}
	s = strings.NewReplacer(" ", "", "-", "").Replace(s)
	s = strings.TrimPrefix(s, "+86")
	if len(s) == 13 && strings.HasPrefix(s, "86") {
		s = s[2:]
	}
	if len(s) != 11 || s[0] != '1' || s[1] < '3' {
		return "", errs.Invalid(field, "verify.mobile.invalid")
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return "", errs.Invalid(field, "verify.mobile.invalid")
		}
	}
	return s, nil
}

// NormalizeAddress checks an address of channel (NormalizeEmail or NormalizeMobile).
func NormalizeAddress(field string, ch Channel, s string) (string, error) {
	if ch == ChannelMobile {
		return NormalizeMobile(field, s)
	}
	return NormalizeEmail(field, s)
}

// Mask hides most of an address for showing where a code went:
// f***@example.com, 138****5678.
func Mask(ch Channel, s string) string {
	if ch == ChannelMobile {
		if len(s) == 11 {
			return s[:3] + "****" + s[7:]
		}
		return s
	}
	at := strings.LastIndexByte(s, '@')
	if at < 1 {
		return s
	}
	return s[:1] + "***" + s[at:]
}

// addressOf returns the account's bound address on ch.
func addressOf(a *Account, ch Channel) string {
	if ch == ChannelMobile {
		return a.Phone
	}
	return a.Mail
}

// CodeRequest asks for a code.
type CodeRequest struct {
	AccountID int64 // the caller (bind, unbind)
	Username  string
	Purpose   Purpose
	Channel   Channel
	Address   string // bind: the new address; unbind and reset use the bound one
	Field     string // the request field naming Address ("address" or "phoneNumber")
	Lang      i18n.Lang
	ClientIP  string
}

// CodeSent tells the client where the code went and how to use it.
type CodeSent struct {
	Ticket    string `json:"ticket"`    // names the code in the call that uses it
	Address   string `json:"address"`   // masked
	ExpiresIn int    `json:"expiresIn"` // seconds
	ResendIn  int    `json:"resendIn"`  // seconds before another code may be asked for
}

// SendCode makes a code, stores its hash and sends it. Returns EINVALID
// (the address field: verify.email.*, verify.mobile.*, verify.address.same;
// channel: verify.notBound; username: account.reset.noAddress), EUNAVAILABLE
// when the channel has no sender (verify.mail.notConfigured,
// verify.sms.notConfigured) or sending failed (verify.send.failed),
// ETOOMANY verify.code.throttled ({time} seconds) within CodeResendAfter of
// the last code to the address, verify.code.dailyLimit past a daily limit.
func (s *Service) SendCode(ctx context.Context, r CodeRequest) (*CodeSent, error) {
	field := r.Field
	if field == "" {
		field = "address"
	}
	var a *Account
	var err error
	if r.Purpose == PurposeReset {
		if strings.TrimSpace(r.Username) == "" {
			return nil, errs.Invalid("username", "error.required")
		}
		a, err = s.store.FindAccountByNumber(ctx, strings.TrimSpace(r.Username))
		if errs.KindOf(err) == errs.ENotFound {
			return nil, errs.Invalid("username", "account.reset.noAddress."+string(r.Channel))
		}
	} else {
		a, err = s.store.FindAccountByID(ctx, r.AccountID)
	}
	if err != nil {
		return nil, err
	}
	address := addressOf(a, r.Channel)
	switch r.Purpose {
	case PurposeBind:
		if address, err = NormalizeAddress(field, r.Channel, r.Address); err != nil {
			return nil, err
		}
		if address == addressOf(a, r.Channel) {
			return nil, errs.Invalid(field, "verify.address.same")
		}
	case PurposeUnbind:
		if address == "" {
			return nil, errs.Invalid("channel", "verify.notBound."+string(r.Channel))
		}
	case PurposeReset:
		if address == "" || a.DisabledAt != nil {
			return nil, errs.Invalid("username", "account.reset.noAddress."+string(r.Channel))
		}
	default:
		return nil, errs.Invalid("purpose", "verify.purpose.invalid")
	}
	if r.Channel == ChannelMobile && s.cfg.SMS == nil {
		return nil, errs.New(errs.EUnavailable, "verify.sms.notConfigured")
	}
	if r.Channel == ChannelEmail && s.cfg.Mail == nil {
		return nil, errs.New(errs.EUnavailable, "verify.mail.notConfigured")
	}
	now := s.cfg.Now()
	if err := s.codeLimits(ctx, a.ID, r.Channel, address, r.ClientIP, now); err != nil {
		return nil, err
	}
	ticket, err := newToken()
	if err != nil {
		return nil, err
	}
	code, err := newCode()
	if err != nil {
		return nil, err
	}
	v := &Verification{ID: tokenHash(ticket), AccountID: a.ID, Purpose: r.Purpose, Channel: r.Channel, Address: address,
		ClientIP: r.ClientIP, CreatedAt: now, ExpiresAt: now.Add(CodeTTL)}
	v.CodeHash = codeHash(v.ID, code)
	if err := s.store.CreateVerification(ctx, v); err != nil {
		return nil, err
	}
	if err := s.deliver(ctx, v, code, a, r.Lang); err != nil {
		// A code that never left does not count against the limits.
		if derr := s.store.DeleteVerification(ctx, v.ID); derr != nil {
			return nil, derr
		}
		return nil, &errs.Error{Kind: errs.EUnavailable, Code: "verify.send.failed", Err: err}
	}
	return &CodeSent{Ticket: ticket, Address: Mask(r.Channel, address),
		ExpiresIn: int(CodeTTL / time.Second), ResendIn: int(CodeResendAfter / time.Second)}, nil
}

func (s *Service) deliver(ctx context.Context, v *Verification, code string, a *Account, lang i18n.Lang) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if v.Channel == ChannelMobile {
		return s.cfg.SMS.SendCode(ctx, v.Address, code)
	}
	p := map[string]any{"code": code, "minutes": int(CodeTTL / time.Minute), "account": a.AccountNumber,
		"purpose": i18n.T(lang, "verify.purpose."+string(v.Purpose), nil)}
	return s.cfg.Mail.Send(ctx, &mail.Message{To: v.Address,
		Subject: i18n.T(lang, "verify.mail.subject", p), Text: i18n.T(lang, "verify.mail.body", p)})
}

// codeLimits refuses a code within CodeResendAfter of the previous one to
// the address, and past the daily limits of the address, the account and
// the client address.
func (s *Service) codeLimits(ctx context.Context, accountID int64, ch Channel, address, ip string, now time.Time) error {
	since := now.Add(-CodeWindow)
	n, latest, err := s.store.CountVerifications(ctx, VerificationFilter{Channel: ch, Address: address, Since: since})
	if err != nil {
		return err
	}
	if n > 0 {
		if wait := latest.Add(CodeResendAfter).Sub(now); wait > 0 {
			sec := int((wait + time.Second - 1) / time.Second)
			return errs.New(errs.ETooMany, "verify.code.throttled").With(map[string]any{"time": sec, "seconds": sec})
		}
	}
	if n >= CodesPerAddress {
		return errs.New(errs.ETooMany, "verify.code.dailyLimit")
	}
	if n, _, err = s.store.CountVerifications(ctx, VerificationFilter{AccountID: accountID, Since: since}); err != nil {
		return err
	} else if n >= CodesPerAccount {
		return errs.New(errs.ETooMany, "verify.code.dailyLimit")
	}
	if ip != "" {
		if n, _, err = s.store.CountVerifications(ctx, VerificationFilter{ClientIP: ip, Since: since}); err != nil {
			return err
		} else if n >= CodesPerClientIP {
			return errs.New(errs.ETooMany, "verify.code.dailyLimit")
		}
	}
	return nil
}

// newCode is CodeDigits uniformly random decimal digits.
func newCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", errs.Internal("code: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// codeHash is what the store keeps of a code: HMAC-SHA256 keyed by the
// verification's id, so equal codes of different tickets differ at rest.
func codeHash(id, code string) string {
	m := hmac.New(sha256.New, []byte(id))
	m.Write([]byte(code))
	return hex.EncodeToString(m.Sum(nil))
}

// Proof names a code sent earlier: by its ticket, or (without one) the
// newest code of the account for the purpose to Address.
type Proof struct {
	Ticket  string
	Code    string
	Address string
}

// check verifies a code and returns its verification, not yet used.
// Returns EINVALID on field "code": verify.code.required,
// verify.code.invalid (no such code, another account's, another purpose or
// channel, or used), verify.code.expired, verify.code.locked (CodeMaxAttempts
// wrong tries), verify.code.wrong (with the tries left).
func (s *Service) check(ctx context.Context, accountID int64, purpose Purpose, ch Channel, p Proof) (*Verification, error) {
	code := strings.TrimSpace(p.Code)
	if code == "" {
		return nil, errs.Invalid("code", "verify.code.required")
	}
	var v *Verification
	var err error
	if p.Ticket != "" {
		v, err = s.store.FindVerification(ctx, tokenHash(p.Ticket))
	} else if p.Address != "" {
		v, err = s.store.LatestVerification(ctx, accountID, purpose, ch, p.Address)
	} else {
		return nil, errs.Invalid("code", "verify.code.invalid")
	}
	if errs.KindOf(err) == errs.ENotFound {
		return nil, errs.Invalid("code", "verify.code.invalid")
	} else if err != nil {
		return nil, err
	}
	if v.AccountID != accountID || v.Purpose != purpose || v.Channel != ch || v.UsedAt != nil ||
		(p.Address != "" && p.Address != v.Address) {
		return nil, errs.Invalid("code", "verify.code.invalid")
	}
	if !s.cfg.Now().Before(v.ExpiresAt) {
		return nil, errs.Invalid("code", "verify.code.expired")
	}
	counted, err := s.store.UseVerificationAttempt(ctx, v.ID, CodeMaxAttempts)
	if err != nil {
		return nil, err
	}
	if !counted {
		return nil, errs.Invalid("code", "verify.code.locked")
	}
	if !hmac.Equal([]byte(codeHash(v.ID, code)), []byte(v.CodeHash)) {
		left := CodeMaxAttempts - v.Attempts - 1
		if left <= 0 {
			return nil, errs.Invalid("code", "verify.code.locked")
		}
		return nil, errs.Invalid("code", "verify.code.wrong").With(map[string]any{"left": left})
	}
	return v, nil
}

// Bind sets the account's address on ch to the one the code was sent to.
// The code is named by p.Ticket, or by p.Address (the newest code sent
// there). Returns check's errors, ECONFLICT verify.code.used for a code used
// meanwhile, ENOTFOUND when the account is gone.
func (s *Service) Bind(ctx context.Context, accountID int64, ch Channel, p Proof) (*Account, error) {
	if p.Address != "" {
		field := "address"
		if ch == ChannelMobile {
			field = "phoneNumber"
		}
		var err error
		if p.Address, err = NormalizeAddress(field, ch, p.Address); err != nil {
			return nil, err
		}
	}
	v, err := s.check(ctx, accountID, PurposeBind, ch, p)
	if err != nil {
		return nil, err
	}
	if err := s.store.CompleteVerification(ctx, v.ID, s.cfg.Now(), AccountChange{AccountID: accountID, Channel: ch, Address: v.Address}); err != nil {
		return nil, err
	}
	return s.store.FindAccountByID(ctx, accountID)
}

// Unbind removes the account's address on ch after a code sent to it.
// Returns EINVALID channel verify.notBound.* when nothing is bound, check's
// errors, ECONFLICT verify.code.used.
func (s *Service) Unbind(ctx context.Context, accountID int64, ch Channel, p Proof) (*Account, error) {
	a, err := s.store.FindAccountByID(ctx, accountID)
	if err != nil {
		return nil, err
	}
	bound := addressOf(a, ch)
	if bound == "" {
		return nil, errs.Invalid("channel", "verify.notBound."+string(ch))
	}
	if p.Ticket == "" {
		p.Address = bound
	}
	v, err := s.check(ctx, accountID, PurposeUnbind, ch, p)
	if err != nil {
		return nil, err
	}
	if v.Address != bound { // the binding changed since the code was sent
		return nil, errs.Invalid("code", "verify.code.invalid")
	}
	if err := s.store.CompleteVerification(ctx, v.ID, s.cfg.Now(), AccountChange{AccountID: accountID, Channel: ch}); err != nil {
		return nil, err
	}
	return s.store.FindAccountByID(ctx, accountID)
}

// ResetPassword sets a new password on the account numbered username after
// a reset code sent to its bound address on ch, and ends every session of
// the account. Returns EINVALID username error.required or
// account.reset.invalid (no such account), password account.password.*,
// check's errors.
func (s *Service) ResetPassword(ctx context.Context, username string, ch Channel, p Proof, password string) error {
	username = strings.TrimSpace(username)
	if username == "" {
		return errs.Invalid("username", "error.required")
	}
	if err := ValidatePassword("password", password); err != nil {
		return err
	}
	a, err := s.store.FindAccountByNumber(ctx, username)
	if errs.KindOf(err) == errs.ENotFound {
		return errs.Invalid("code", "verify.code.invalid")
	} else if err != nil {
		return err
	}
	if a.DisabledAt != nil {
		return errs.Invalid("code", "verify.code.invalid")
	}
	if p.Ticket == "" {
		p.Address = addressOf(a, ch)
	}
	v, err := s.check(ctx, a.ID, PurposeReset, ch, p)
	if err != nil {
		return err
	}
	if v.Address != addressOf(a, ch) {
		return errs.Invalid("code", "verify.code.invalid")
	}
	hash, err := HashPassword(password)
	if err != nil {
		return errs.Internal("hash password: %w", err)
	}
	if err := s.store.CompleteVerification(ctx, v.ID, s.cfg.Now(), AccountChange{AccountID: a.ID, PasswordHash: hash}); err != nil {
		return err
	}
	// A reset proves the address, not a client: the throttle's count of
	// this account's failures stays.
	return nil
}

// ValidEmail reports whether s is a plain address: local@domain with a
// dotted domain, no display name, no spaces, at most 254 bytes.
func ValidEmail(s string) bool {
	if len(s) > 254 || strings.ContainsAny(s, " \t\r\n<>\"") {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at < 1 || at == len(s)-1 {
		return false
	}
	if _, err := mail.ParseFrom(s); err != nil {
		return false
	}
	domain := s[at+1:]
	if !strings.Contains(domain, ".") {
		return false
	}
	for label := range strings.SplitSeq(domain, ".") {
		if label == "" {
			return false
		}
	}
	return true
}
