package httpapi_test

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/wechat"
	"github.com/fieldwatch/fieldwatch/internal/wechat/wechattest"
)

// GET /apis/wechat/jssdk signs a page for wx.config with the ticket of the
// configured Official Account; without a session, since the login page
// inside WeChat needs it too.
func TestWeChatJSSDK(t *testing.T) {
	wx := wechattest.New(t)
	client := &wechat.Client{Base: wx.URL, AppID: wechattest.AppID, Secret: wechattest.Secret}
	e := newEnv(t, storetest.OpenSQLite(t), opts{wechat: client})
	u := e.user("en_US")
	page := "https://farm.example.com/apps/mobile/devices?tab=map"
	r := u.do("GET", "/apis/wechat/jssdk?url="+url.QueryEscape(page+"#/top"), nil)
	r.want(t, 200, 0)
	var cfg wechat.JSSDKConfig
	if err := json.Unmarshal(r.Data, &cfg); err != nil {
		t.Fatal(err)
	}
	// WeChat checks the signature of the address without its fragment.
	if cfg.AppID != wechattest.AppID || len(cfg.NonceStr) != 16 || cfg.Timestamp == 0 ||
		cfg.Signature != wechat.Sign(wechattest.Ticket(1), cfg.NonceStr, cfg.Timestamp, page) {
		t.Fatalf("config %+v", cfg)
	}

	for _, c := range []struct{ query, lang, want string }{
		{"", "en_US", "The address of the page to sign is required"},
		{"?url=" + url.QueryEscape("javascript:alert(1)"), "en_US", "The address of the page to sign must be a full http or https address"},
		{"?url=" + url.QueryEscape("/apps/mobile"), "zh_CN", "需要签名的页面地址必须是完整的 http 或 https 地址"},
		{"?url=", "zh_TW", "請提供需要簽名的頁面位址"},
	} {
		r := e.user(c.lang).do("GET", "/apis/wechat/jssdk"+c.query, nil)
		if r.status != 400 || r.Message != c.want || r.Error == nil || r.Error.Field != "url" {
			t.Errorf("%q (%s): HTTP %d %q %+v, want 400 %q on url", c.query, c.lang, r.status, r.Message, r.Error, c.want)
		}
	}

	// A wrong secret: WeChat refuses the token; the page hears WeChat is unreachable.
	bad := newEnv(t, storetest.OpenSQLite(t), opts{wechat: &wechat.Client{Base: wx.URL, AppID: wechattest.AppID, Secret: "wrong"}})
	if r := bad.user("en_US").do("GET", "/apis/wechat/jssdk?url="+url.QueryEscape(page), nil); r.status != 503 ||
		r.Message != "WeChat could not be reached, please try again later" {
		t.Errorf("refused token: HTTP %d %q", r.status, r.Message)
	}
	// Without --wechat-appid.
	none := newEnv(t, storetest.OpenSQLite(t))
	for lang, want := range map[string]string{"en_US": "WeChat is not configured on this server", "zh_CN": "本服务器未配置微信", "zh_TW": "本伺服器未設定微信"} {
		if r := none.user(lang).do("GET", "/apis/wechat/jssdk?url="+url.QueryEscape(page), nil); r.status != 503 || r.Message != want {
			t.Errorf("not configured (%s): HTTP %d %q", lang, r.status, r.Message)
		}
	}
}
