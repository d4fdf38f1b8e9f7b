package wechat_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/wechat"
	"github.com/fieldwatch/fieldwatch/internal/wechat/wechattest"
)

func TestClient_TokenAndSend(t *testing.T) {
	srv := wechattest.New(t)
	srv.ExpireOn(2)
	c := &wechat.Client{Base: srv.URL, AppID: wechattest.AppID, Secret: wechattest.Secret}
	ctx := context.Background()
	msg := func() *wechat.TemplateMessage {
		return &wechat.TemplateMessage{ToUser: "openid-1", TemplateID: "TPL1", Data: map[string]wechat.TemplateValue{"first": {Value: "霜冻"}}}
	}
	if err := c.SendTemplate(ctx, msg()); err != nil {
		t.Fatal(err)
	}
	// The token is reused; when the server says it expired, one new token.
	if err := c.SendTemplate(ctx, msg()); err != nil {
		t.Fatal(err)
	}
	sent := srv.Sent()
	if tokens, _ := srv.Counts(); tokens != 2 || len(sent) != 2 || sent[0].TemplateID != "TPL1" || sent[0].ToUser != "openid-1" || sent[1].Data["first"].Value != "霜冻" {
		t.Fatalf("tokens %d, sent %+v", tokens, sent)
	}
	srv.FailWith(43004) // the user does not follow the account: no retry can fix it
	err := c.SendTemplate(ctx, msg())
	if apiErr, ok := errors.AsType[*wechat.APIError](err); !ok || apiErr.Code != 43004 || !apiErr.Permanent() {
		t.Fatalf("43004: %v, want a permanent API error", err)
	}
	bad := &wechat.Client{Base: srv.URL, AppID: wechattest.AppID, Secret: "wrong"}
	if err := bad.SendTemplate(ctx, msg()); err == nil || !strings.Contains(err.Error(), "40013") {
		t.Fatalf("bad secret: %v", err)
	}
}

// The example of WeChat's JS-SDK documentation (appendix 1, signature
// algorithm) signs to 0f9de62fce790f9a083d5c99e95740ceb90c27ed.
func TestSign_DocumentationExample(t *testing.T) {
	const ticket = "sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg"
	const want = "0f9de62fce790f9a083d5c99e95740ceb90c27ed"
	if got := wechat.Sign(ticket, "Wm3WZYTPz0wzccnW", 1414587457, "http://mp.weixin.qq.com?params=value"); got != want {
		t.Errorf("Sign = %s, want %s", got, want)
	}
	// The fragment is not part of what is signed.
	if got := wechat.Sign(ticket, "Wm3WZYTPz0wzccnW", 1414587457, "http://mp.weixin.qq.com?params=value#/apps/mobile"); got != want {
		t.Errorf("Sign with a fragment = %s, want %s", got, want)
	}
}

func TestJSSDK_TicketCachedAndRefreshed(t *testing.T) {
	srv := wechattest.New(t)
	at := time.Unix(1_800_000_000, 0)
	c := &wechat.Client{Base: srv.URL, AppID: wechattest.AppID, Secret: wechattest.Secret,
		Now: func() time.Time { return at }, Nonce: func() string { return "Wm3WZYTPz0wzccnW" }}
	ctx := context.Background()
	page := "https://farm.example.com/apps/mobile/devices?tab=map"
	cfg, err := c.JSSDK(ctx, page+"#top")
	if err != nil {
		t.Fatal(err)
	}
	want := wechat.JSSDKConfig{AppID: wechattest.AppID, Timestamp: at.Unix(), NonceStr: "Wm3WZYTPz0wzccnW",
		Signature: wechat.Sign(wechattest.Ticket(1), "Wm3WZYTPz0wzccnW", at.Unix(), page)}
	if *cfg != want {
		t.Fatalf("config %+v, want %+v", *cfg, want)
	}
	// The ticket is kept: a second page signs without another call.
	if _, err := c.JSSDK(ctx, page); err != nil {
		t.Fatal(err)
	}
	if tokens, tickets := srv.Counts(); tokens != 1 || tickets != 1 {
		t.Fatalf("tokens %d, tickets %d, want 1 and 1", tokens, tickets)
	}
	// A token the ticket call refuses is fetched again once.
	fresh := &wechat.Client{Base: srv.URL, AppID: wechattest.AppID, Secret: wechattest.Secret}
	srv.RevokeToken()
	if _, err := fresh.JSSDK(ctx, page); err != nil {
		t.Fatalf("after a refused token: %v", err)
	}
	if tokens, tickets := srv.Counts(); tokens != 3 || tickets != 2 {
		t.Fatalf("tokens %d, tickets %d, want 3 and 2", tokens, tickets)
	}
	bad := &wechat.Client{Base: srv.URL, AppID: wechattest.AppID, Secret: "wrong"}
	if _, err := bad.JSSDK(ctx, page); err == nil || !strings.Contains(err.Error(), "40013") {
		t.Fatalf("bad secret: %v", err)
	}
}
