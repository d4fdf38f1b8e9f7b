package httpapi

import (
	"context"
	"net/url"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/wechat"
)

// JSSDKSigner signs a page address for wx.config (wechat.Client).
type JSSDKSigner interface {
	JSSDK(ctx context.Context, pageURL string) (*wechat.JSSDKConfig, error)
}

// wechatJSSDK serves GET /apis/wechat/jssdk?url=: the wx.config of a page
// inside WeChat, {appId, timestamp, nonceStr, signature}. It needs no
// session (the login page inside WeChat asks too); it only signs, with a
// ticket kept for its life, so asking often costs WeChat nothing.
func (s *Server) wechatJSSDK(c *call) (any, error) {
	raw := c.r.URL.Query().Get("url")
	if raw == "" {
		return nil, errs.Invalid("url", "wechat.url.required")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errs.Invalid("url", "wechat.url.invalid")
	}
	if s.WeChat == nil {
		return nil, errs.New(errs.EUnavailable, "wechat.notConfigured")
	}
	cfg, err := s.WeChat.JSSDK(c.r.Context(), raw)
	if err != nil {
		s.log.Warn("wechat: JS-SDK signature", "err", err)
		return nil, &errs.Error{Kind: errs.EUnavailable, Code: "wechat.unavailable", Err: err}
	}
	return cfg, nil
}
