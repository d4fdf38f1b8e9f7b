package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/wechat"
	"github.com/fieldwatch/fieldwatch/internal/wechat/wechattest"
)

const callbackToken = "fieldwatchcb"

type qrDTO struct {
	Token     string `json:"token"`
	QRCodeURL string `json:"qrcodeUrl"`
	ExpiresIn int    `json:"expiresIn"`
}

type scanDTO struct {
	Status  string `json:"status"`
	Profile *struct {
		AccountNumber string   `json:"accountNumber"`
		WechatBound   bool     `json:"wechatBound"`
		LoginMethods  []string `json:"loginMethods"`
	} `json:"profile"`
}

// ticketOf is the showqrcode ticket of a QR image address.
func ticketOf(t *testing.T, image string) string {
	t.Helper()
	u, err := url.Parse(image)
	if err != nil || u.Path != "/cgi-bin/showqrcode" {
		t.Fatalf("image %q", image)
	}
	return u.Query().Get("ticket")
}

func TestWeChat_BindAndQRLogin(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		wx := wechattest.New(t)
		client := &wechat.Client{Base: wx.URL, MPBase: wx.URL, AppID: wechattest.AppID, Secret: wechattest.Secret}
		e := newEnv(t, db, opts{qr: client, token: callbackToken})
		callback := e.url + "/apis/wechat/callback"
		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)

		r := e.user("").do("GET", "/apis/account/options", nil)
		if !strings.Contains(string(r.Data), `"wechat":true`) {
			t.Fatalf("login methods %s", r.Data)
		}

		// The address check WeChat makes when the callback URL is saved.
		ts, nonce := "1409659813", "1372623149"
		resp, err := http.Get(callback + "?" + url.Values{"signature": {wechat.Signature(callbackToken, ts, nonce)},
			"timestamp": {ts}, "nonce": {nonce}, "echostr": {"5837397520574211012"}}.Encode())
		if err != nil {
			t.Fatal(err)
		}
		var echo [64]byte
		n, _ := resp.Body.Read(echo[:])
		resp.Body.Close()
		if resp.StatusCode != 200 || string(echo[:n]) != "5837397520574211012" {
			t.Fatalf("echostr: %d %q", resp.StatusCode, echo[:n])
		}

		r = u.do("POST", "/apis/account/wechat/bind/qrcode", nil)
		r.want(t, 200, 0)
		var qr qrDTO
		_ = json.Unmarshal(r.Data, &qr)
		if qr.Token == "" || qr.ExpiresIn != 300 {
			t.Fatalf("qr %+v", qr)
		}
		ticket := ticketOf(t, qr.QRCodeURL)
		var res scanDTO
		r = u.do("GET", "/apis/account/qrscan/result?token="+url.QueryEscape(qr.Token), nil)
		_ = json.Unmarshal(r.Data, &res)
		if res.Status != "pending" {
			t.Fatalf("before scan %+v", res)
		}

		// A forged event (wrong token) changes nothing.
		status, _, err := wx.Scan(callback, "not-the-token", ticket, "openid-farmer01", false)
		if err != nil || status != 403 {
			t.Fatalf("forged scan: %d %v", status, err)
		}
		status, body, err := wx.Scan(callback, callbackToken, ticket, "openid-farmer01", false)
		if err != nil || status != 200 || body != "success" {
			t.Fatalf("scan: %d %q %v", status, body, err)
		}

		// Another account cannot read this QR code's result.
		if _, err := e.svc.Create(t.Context(), "farmer02", "secret2", ""); err != nil {
			t.Fatal(err)
		}
		other := e.user("en_US")
		other.login("farmer02", "secret2").want(t, 200, 0)
		other.do("GET", "/apis/account/qrscan/result?token="+url.QueryEscape(qr.Token), nil).want(t, 404, 1404)

		r = u.do("GET", "/apis/account/qrscan/result?token="+url.QueryEscape(qr.Token), nil)
		res = scanDTO{}
		_ = json.Unmarshal(r.Data, &res)
		if res.Status != "bound" || res.Profile == nil || !res.Profile.WechatBound || len(res.Profile.LoginMethods) != 2 {
			t.Fatalf("after scan %s", r.Data)
		}

		// The same WeChat cannot link a second account.
		r = other.do("GET", "/apis/account/wechat/bind/qrcode", nil)
		_ = json.Unmarshal(r.Data, &qr)
		if _, _, err := wx.Scan(callback, callbackToken, ticketOf(t, qr.QRCodeURL), "openid-farmer01", true); err != nil {
			t.Fatal(err)
		}
		r = other.do("GET", "/apis/account/qrscan/result?token="+url.QueryEscape(qr.Token), nil)
		res = scanDTO{}
		_ = json.Unmarshal(r.Data, &res)
		if res.Status != "taken" {
			t.Fatalf("second account: %s", r.Data)
		}

		// QR login: a WeChat no account is linked to, then the linked one.
		anon := e.user("en_US")
		login := func(openid string) scanDTO {
			r := anon.do("GET", "/apis/account/authorize/ticket?src=wechat", nil)
			r.want(t, 200, 0)
			var qr qrDTO
			_ = json.Unmarshal(r.Data, &qr)
			if _, _, err := wx.Scan(callback, callbackToken, ticketOf(t, qr.QRCodeURL), openid, true); err != nil {
				t.Fatal(err)
			}
			r = anon.do("GET", "/apis/oauth/qrscan/result?token="+url.QueryEscape(qr.Token), nil)
			var res scanDTO
			_ = json.Unmarshal(r.Data, &res)
			if res.Status == "done" {
				again := anon.do("GET", "/apis/oauth/qrscan/result?token="+url.QueryEscape(qr.Token), nil)
				if strings.Contains(string(again.Data), "profile") {
					t.Fatalf("a login QR code opened a second session: %s", again.Data)
				}
			}
			return res
		}
		if res := login("openid-stranger"); res.Status != "unlinked" || res.Profile != nil {
			t.Fatalf("stranger: %+v", res)
		}
		anon.do("GET", "/apis/account/profile", nil).want(t, 401, 2)
		if res := login("openid-farmer01"); res.Status != "done" || res.Profile == nil || res.Profile.AccountNumber != "farmer01" {
			t.Fatalf("linked: %+v", res)
		}
		anon.do("GET", "/apis/account/profile", nil).want(t, 200, 0)

		// Unlinking needs the password (or a code).
		u.do("POST", "/apis/account/wechat/unbind", map[string]string{}).want(t, 400, 1400)
		u.do("POST", "/apis/account/wechat/unbind", map[string]string{"password": "wrong1"}).want(t, 400, 1400)
		r = u.do("POST", "/apis/account/wechat/unbind", map[string]string{"password": "secret1"})
		r.want(t, 200, 0)
		if !strings.Contains(string(r.Data), `"wechatBound":false`) {
			t.Fatalf("unbind: %s", r.Data)
		}
		if res := login("openid-farmer01"); res.Status != "unlinked" {
			t.Fatalf("after unbind: %+v", res)
		}
	})
}

func TestWeChat_NotConfigured(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	r := u.do("GET", "/apis/account/wechat/bind/qrcode", nil)
	if r.Code == 0 || r.Message != "WeChat is not configured on this server" {
		t.Fatalf("%d %q", r.Code, r.Message)
	}
	resp, err := http.Post(e.url+"/apis/wechat/callback", "text/xml", strings.NewReader("<xml/>"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Fatalf("callback without a token: %d", resp.StatusCode)
	}
}
