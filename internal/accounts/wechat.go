package accounts

import (
	"context"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Purposes and states of WeChat QR scans.
const (
	ScanBind  = "bind"
	ScanLogin = "login"

	ScanPending  = "pending"  // shown, not scanned yet
	ScanBound    = "bound"    // bind: the scanner's WeChat is linked to the account
	ScanTaken    = "taken"    // bind: the scanner's WeChat is linked to another account
	ScanScanned  = "scanned"  // login: scanned by a linked WeChat, the session not yet opened
	ScanUnlinked = "unlinked" // login: scanned by a WeChat no account is linked to
	ScanDone     = "done"     // login: the session was opened
	ScanExpired  = "expired"  // shown, not scanned in time (never stored)
)

// ScanTTL is how long a WeChat QR code stays valid.
const ScanTTL = 5 * time.Minute

// WeChatScan is a QR code shown to link or log in with WeChat.
type WeChatScan struct {
	ID        string // SHA-256 of the token the page polls with
	Scene     string // what the scan event carries back
	Purpose   string
	AccountID int64 // bind: the account to link; 0 for login
	OpenID    string
	State     string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// WeChatStore is what WeChat linking needs from persistence.
type WeChatStore interface {
	CreateWeChatScan(ctx context.Context, s *WeChatScan) error
	// FindWeChatScan and FindWeChatScanByScene return ENOTFOUND when absent.
	FindWeChatScan(ctx context.Context, id string) (*WeChatScan, error)
	FindWeChatScanByScene(ctx context.Context, scene string) (*WeChatScan, error)
	// MoveWeChatScan sets the state (and openid) of a scan in state from;
	// it reports whether it did.
	MoveWeChatScan(ctx context.Context, id, from, to, openid string) (bool, error)
	// LinkWeChat sets (openid "" clears) the account's WeChat; ECONFLICT
	// wechat.bind.taken when another account has that openid.
	LinkWeChat(ctx context.Context, accountID int64, openid string) error
	// FindAccountByWeChat returns ENOTFOUND when no account has openid.
	FindAccountByWeChat(ctx context.Context, openid string) (*Account, error)
	DeleteWeChatScans(ctx context.Context, before time.Time) error
}

// QRCodes makes parametric QR codes (a *wechat.Client).
type QRCodes interface {
	// NewQRCode returns the address of the image of a QR code whose scan
	// carries scene, valid for ttl.
	NewQRCode(ctx context.Context, scene string, ttl time.Duration) (string, error)
}

// QRScan is a QR code to show and the token to poll its result with.
type QRScan struct {
	Token     string `json:"token"`
	Image     string `json:"qrcodeUrl"`
	ExpiresIn int    `json:"expiresIn"`
}

// WeChatEnabled reports whether WeChat QR codes can be made.
func (s *Service) WeChatEnabled() bool { return s.cfg.WeChat != nil }

// StartWeChatScan makes a QR code to link the account (purpose ScanBind)
// or to log in (ScanLogin, accountID 0). Returns EUNAVAILABLE
// wechat.notConfigured without WeChat, wechat.unavailable when WeChat
// refuses; EINVALID verify.bound.wechat when the account is linked already.
func (s *Service) StartWeChatScan(ctx context.Context, purpose string, accountID int64) (*QRScan, error) {
	if s.cfg.WeChat == nil {
		return nil, errs.New(errs.EUnavailable, "wechat.notConfigured")
	}
	if purpose == ScanBind {
		a, err := s.store.FindAccountByID(ctx, accountID)
		if err != nil {
			return nil, err
		}
		if a.WechatOpenID != "" {
			return nil, errs.New(errs.EConflict, "wechat.bind.already")
		}
	}
	token, err := newToken()
	if err != nil {
		return nil, err
	}
	sceneToken, err := newToken()
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	sc := &WeChatScan{ID: tokenHash(token), Scene: "fw" + purpose[:1] + sceneToken[:32], Purpose: purpose, AccountID: accountID,
		State: ScanPending, CreatedAt: now, ExpiresAt: now.Add(ScanTTL)}
	image, err := s.cfg.WeChat.NewQRCode(ctx, sc.Scene, ScanTTL)
	if err != nil {
		return nil, &errs.Error{Kind: errs.EUnavailable, Code: "wechat.unavailable", Err: err}
	}
	if err := s.store.CreateWeChatScan(ctx, sc); err != nil {
		return nil, err
	}
	return &QRScan{Token: token, Image: image, ExpiresIn: int(ScanTTL / time.Second)}, nil
}

// WeChatScanned handles a scan event: the WeChat user openid scanned the
// QR code of scene. A bind code links openid to its account (unless another
// account has it); a login code records who scanned. An unknown, expired or
// already scanned scene is ignored. It returns the resulting state ("" when
// ignored). Fails only with EINTERNAL.
func (s *Service) WeChatScanned(ctx context.Context, scene, openid string) (string, error) {
	if scene == "" || openid == "" {
		return "", nil
	}
	sc, err := s.store.FindWeChatScanByScene(ctx, scene)
	if errs.KindOf(err) == errs.ENotFound {
		return "", nil
	} else if err != nil {
		return "", err
	}
	if sc.State != ScanPending || !s.cfg.Now().Before(sc.ExpiresAt) {
		return "", nil
	}
	to := ScanScanned
	switch sc.Purpose {
	case ScanBind:
		to = ScanBound
		if err := s.store.LinkWeChat(ctx, sc.AccountID, openid); errs.KindOf(err) == errs.EConflict {
			to = ScanTaken
		} else if err != nil {
			return "", err
		}
	case ScanLogin:
		if a, err := s.store.FindAccountByWeChat(ctx, openid); errs.KindOf(err) == errs.ENotFound || err == nil && a.DisabledAt != nil {
			to = ScanUnlinked
		} else if err != nil {
			return "", err
		}
	}
	if _, err := s.store.MoveWeChatScan(ctx, sc.ID, ScanPending, to, openid); err != nil {
		return "", err
	}
	return to, nil
}

// scan finds the scan of a poll token, its state reading expired once
// past its time while still pending. ENOTFOUND for an unknown token.
func (s *Service) scan(ctx context.Context, token, purpose string) (*WeChatScan, error) {
	if strings.TrimSpace(token) == "" {
		return nil, errs.Invalid("token", "error.required")
	}
	sc, err := s.store.FindWeChatScan(ctx, tokenHash(token))
	if err != nil {
		return nil, err
	}
	if sc.Purpose != purpose {
		return nil, errs.NotFound()
	}
	if sc.State == ScanPending && !s.cfg.Now().Before(sc.ExpiresAt) {
		sc.State = ScanExpired
	}
	return sc, nil
}

// WeChatBindResult is the state of the caller's bind QR code, with the
// account once bound. ENOTFOUND for another account's token.
func (s *Service) WeChatBindResult(ctx context.Context, accountID int64, token string) (string, *Account, error) {
	sc, err := s.scan(ctx, token, ScanBind)
	if err != nil {
		return "", nil, err
	}
	if sc.AccountID != accountID {
		return "", nil, errs.NotFound()
	}
	a, err := s.store.FindAccountByID(ctx, accountID)
	return sc.State, a, err
}

// WeChatLogin opens a session for the account whose WeChat scanned the
// login QR code of token, once; before that it returns the state (pending,
// expired, unlinked) and no login. ENOTFOUND for an unknown token.
func (s *Service) WeChatLogin(ctx context.Context, token string, c Client) (string, *Login, error) {
	sc, err := s.scan(ctx, token, ScanLogin)
	if err != nil {
		return "", nil, err
	}
	if sc.State != ScanScanned {
		return sc.State, nil, nil
	}
	ok, err := s.store.MoveWeChatScan(ctx, sc.ID, ScanScanned, ScanDone, sc.OpenID)
	if err != nil {
		return "", nil, err
	}
	if !ok { // another poll opened the session
		return ScanDone, nil, nil
	}
	a, err := s.store.FindAccountByWeChat(ctx, sc.OpenID)
	if errs.KindOf(err) == errs.ENotFound {
		return ScanUnlinked, nil, nil
	} else if err != nil {
		return "", nil, err
	}
	if a.DisabledAt != nil {
		return ScanUnlinked, nil, nil
	}
	now := s.cfg.Now()
	l := &Login{Account: a}
	if l.Token, l.Session, err = s.openSession(ctx, a.ID, c, now); err != nil {
		return "", nil, err
	}
	if err := s.store.SetLastLogin(ctx, a.ID, now, c.Lang); err != nil {
		return "", nil, err
	}
	a.LastLoginAt = &now
	return ScanDone, l, nil
}

// UnbindWeChat removes the account's WeChat link after proof that the
// caller holds the account: its password, or an unbind code (p with ch)
// sent to its bound e-mail or phone. Returns EINVALID channel
// verify.notBound.wechat, password account.credentials.invalid, check's
// errors.
func (s *Service) UnbindWeChat(ctx context.Context, accountID int64, password string, ch Channel, p Proof) (*Account, error) {
	a, err := s.store.FindAccountByID(ctx, accountID)
	if err != nil {
		return nil, err
	}
	if a.WechatOpenID == "" {
		return nil, errs.Invalid("channel", "verify.notBound.wechat")
	}
	switch {
	case password != "":
		ok, err := VerifyPassword(a.PasswordHash, password)
		if err != nil {
			return nil, errs.Internal("verify password: %w", err)
		}
		if !ok {
			return nil, errs.Invalid("password", "account.password.wrong")
		}
	case p.Code != "" || p.Ticket != "":
		if p.Ticket == "" {
			p.Address = addressOf(a, ch)
		}
		v, err := s.check(ctx, accountID, PurposeUnbind, ch, p)
		if err != nil {
			return nil, err
		}
		if err := s.store.CompleteVerification(ctx, v.ID, s.cfg.Now(), AccountChange{AccountID: accountID, Channel: ChannelWeChat}); err != nil {
			return nil, err
		}
		return s.store.FindAccountByID(ctx, accountID)
	default:
		return nil, errs.Invalid("code", "verify.code.required")
	}
	if err := s.store.LinkWeChat(ctx, accountID, ""); err != nil {
		return nil, err
	}
	return s.store.FindAccountByID(ctx, accountID)
}

// MailEnabled reports whether e-mail codes can be sent.
func (s *Service) MailEnabled() bool { return s.cfg.Mail != nil }

// SMSEnabled reports whether SMS codes can be sent.
func (s *Service) SMSEnabled() bool { return s.cfg.SMS != nil }
