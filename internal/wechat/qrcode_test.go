package wechat_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/wechat"
	"github.com/fieldwatch/fieldwatch/internal/wechat/wechattest"
)

// The worked example of WeChat's message encryption documentation: token
// QDG6eK, timestamp 1409659813, nonce 1372623149 and the Encrypt text sign
// to 477715d11cdb4164915debcba66cb864d751f3e6 (the same sorted-SHA-1
// algorithm as a plain callback's signature, over one more part).
func TestSignature_DocumentationExample(t *testing.T) {
	const encrypt = "RypEvHKD8QQKFhvQ6QleEB4J58tiPdvo+rtK1I9qca6aM/wvqnLSV5zEPeusUiX5L5X/0lWfrf0QADHHhGd3QczcdCUpj911L3vg3W/sYYvuJTs3TUUkSUXxaccAS0qhxchrRYt66wiSpGLYL42aM6A8dTT+6k4aSknmPj48kzJs8qLjvd4Xgpue06DOdnLxAUHzM6+kDZ+HMZfJYuR+LtwGc2hgf5gsijff0ekUNXZiqATP7PF5mZxZ3Izoun1s4zG4LUMnvw2r+KqCKIw+3IQH03v+BCA9nMELNqbSf6tiWSrXJB3LAVGUcallcrw8V2t9EL4EhzJWrQUax5wLVMNS0+rUPA3k22Ncx4XXZS9o0MBH27Bo6BpNelZpS+/uh9KsNlY6bHCmJU9p8g7m3fVKn28H3KDYA5Pl/T8Z1ptDAVe0lXdQ2YoyyH2uyPIGHBZZIs2pDBS8R07+qN+E7Q=="
	if got := wechat.Signature("QDG6eK", "1409659813", "1372623149", encrypt); got != "477715d11cdb4164915debcba66cb864d751f3e6" {
		t.Fatalf("signature %s", got)
	}
	// The URL-verification example: timestamp 1409659589, nonce 263014780, echostr.
	const echo = "P9nAzCzyDtyTWESHep1vC5X9xho/qYX3Zpb4yKa9SKld1DsH3Iyt3tP3zNdtp+4RPcs8TgAE7OaBO+FZXvnaqQ=="
	if got := wechat.Signature("QDG6eK", "1409659589", "263014780", echo); got != "5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3" {
		t.Fatalf("echostr signature %s", got)
	}
	sig := wechat.Signature("QDG6eK", "1409659813", "1372623149")
	if !wechat.CheckSignature("QDG6eK", sig, "1409659813", "1372623149") {
		t.Fatal("plain signature refused")
	}
	for _, bad := range [][4]string{
		{"QDG6eK", sig, "1409659814", "1372623149"},
		{"other", sig, "1409659813", "1372623149"},
		{"", wechat.Signature("", "1", "2"), "1", "2"},
		{"QDG6eK", "", "1409659813", "1372623149"},
	} {
		if wechat.CheckSignature(bad[0], bad[1], bad[2], bad[3]) {
			t.Errorf("accepted %v", bad)
		}
	}
}

func TestParseEvent_Scene(t *testing.T) {
	for _, tc := range []struct {
		body, scene string
		ok          bool
	}{
		{`<xml><ToUserName><![CDATA[toUser]]></ToUserName><FromUserName><![CDATA[FromUser]]></FromUserName><CreateTime>123456789</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[subscribe]]></Event><EventKey><![CDATA[qrscene_123123]]></EventKey><Ticket><![CDATA[TICKET]]></Ticket></xml>`, "123123", true},
		{`<xml><ToUserName><![CDATA[toUser]]></ToUserName><FromUserName><![CDATA[FromUser]]></FromUserName><CreateTime>123456789</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[SCAN]]></Event><EventKey><![CDATA[SCENE_VALUE]]></EventKey><Ticket><![CDATA[TICKET]]></Ticket></xml>`, "SCENE_VALUE", true},
		{`<xml><ToUserName><![CDATA[toUser]]></ToUserName><FromUserName><![CDATA[FromUser]]></FromUserName><CreateTime>123456789</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[subscribe]]></Event></xml>`, "", false},
		{`<xml><ToUserName><![CDATA[toUser]]></ToUserName><FromUserName><![CDATA[fromUser]]></FromUserName><CreateTime>1348831860</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[this is a test]]></Content><MsgId>1234567890123456</MsgId></xml>`, "", false},
	} {
		e, err := wechat.ParseEvent([]byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		scene, ok := e.Scene()
		if scene != tc.scene || ok != tc.ok {
			t.Errorf("%s: %q %v", tc.body, scene, ok)
		}
	}
	if _, err := wechat.ParseEvent([]byte("not xml")); err == nil {
		t.Error("no error for garbage")
	}
}

func TestClient_CreateQRCode(t *testing.T) {
	srv := wechattest.New(t)
	c := &wechat.Client{Base: srv.URL, MPBase: srv.URL, AppID: wechattest.AppID, Secret: wechattest.Secret}
	qr, err := c.CreateQRCode(context.Background(), "fw-bind-abc", 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if qr.Ticket == "" || qr.ExpireSeconds != 600 || qr.URL == "" || srv.Scene(qr.Ticket) != "fw-bind-abc" {
		t.Fatalf("qr %+v", qr)
	}
	resp, err := http.Get(c.QRCodeImage(qr.Ticket))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/jpeg" {
		t.Fatalf("image: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// A token the server stopped accepting is fetched again once.
	srv.RevokeToken()
	if _, err := c.CreateQRCode(context.Background(), "fw-bind-def", time.Minute); err != nil {
		t.Fatal(err)
	}
	if tokens, _ := srv.Counts(); tokens != 2 {
		t.Fatalf("%d tokens fetched, want 2", tokens)
	}
	if _, err := c.CreateQRCode(context.Background(), string(make([]byte, 65)), time.Minute); err == nil {
		t.Fatal("a 65-byte scene was sent")
	}
}
