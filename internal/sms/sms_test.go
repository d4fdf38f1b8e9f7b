package sms_test

import (
	"context"
	"errors"
	"net/url"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/sms"
	"github.com/fieldwatch/fieldwatch/internal/sms/smstest"
)

// The worked example of Aliyun's SMS signature documentation.
func TestSign_DocumentationExample(t *testing.T) {
	p := url.Values{
		"AccessKeyId": {"testId"}, "Action": {"SendSms"}, "Format": {"XML"}, "OutId": {"123"},
		"PhoneNumbers": {"15300000001"}, "RegionId": {"cn-hangzhou"}, "SignName": {"阿里云短信测试专用"},
		"SignatureMethod": {"HMAC-SHA1"}, "SignatureNonce": {"45e25e9b-0a6f-4070-8c85-2956eda1b466"},
		"SignatureVersion": {"1.0"}, "TemplateCode": {"SMS_71390007"}, "TemplateParam": {`{"customer":"test"}`},
		"Timestamp": {"2017-07-12T02:42:19Z"}, "Version": {"2017-05-25"},
	}
	if got := sms.Sign("GET", p, "testSecret"); got != "zJDF+Lrzhj/ThnlvIToysFRq6t4=" {
		t.Fatalf("signature %s", got)
	}
	// A Signature already present is not part of what is signed.
	p.Set("Signature", "x")
	if got := sms.Sign("GET", p, "testSecret"); got != "zJDF+Lrzhj/ThnlvIToysFRq6t4=" {
		t.Fatalf("signature with Signature present %s", got)
	}
}

func TestPercentEncode(t *testing.T) {
	for in, want := range map[string]string{"a b": "a%20b", "*": "%2A", "~-_.": "~-_.", "/=&+": "%2F%3D%26%2B", "派": "%E6%B4%BE"} {
		if got := sms.PercentEncode(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestClient_SendCode(t *testing.T) {
	srv := smstest.New(t)
	c := srv.Client()
	if err := c.SendCode(context.Background(), "13800138000", "042917"); err != nil {
		t.Fatal(err)
	}
	sent := srv.Sent()
	if len(sent) != 1 || sent[0].Phone != "13800138000" || sent[0].Param["code"] != "042917" {
		t.Fatalf("sent %+v", sent)
	}

	t.Run("ErrWrongSecret", func(t *testing.T) {
		bad := srv.Client()
		bad.AccessKeySecret = "other"
		err := bad.SendCode(context.Background(), "13800138000", "111111")
		if e, ok := errors.AsType[*sms.APIError](err); !ok || e.Code != "SignatureDoesNotMatch" || e.Status != 400 {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrProviderLimit", func(t *testing.T) {
		srv.Limit(true)
		defer srv.Limit(false)
		err := c.SendCode(context.Background(), "13800138000", "111111")
		if e, ok := errors.AsType[*sms.APIError](err); !ok || e.Code != "isv.BUSINESS_LIMIT_CONTROL" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrUnreachable", func(t *testing.T) {
		gone := srv.Client()
		gone.Base = "http://127.0.0.1:1"
		if err := gone.SendCode(context.Background(), "13800138000", "111111"); err == nil {
			t.Fatal("no error")
		}
	})
	if n := len(srv.Sent()); n != 1 {
		t.Fatalf("%d messages accepted", n)
	}
}
