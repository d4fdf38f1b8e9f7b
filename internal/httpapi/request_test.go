package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// A call that needs a body refuses an empty one in every language, naming
// no field, before anything is read or written.
func TestRequest_EmptyBody(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	want := map[string]string{"zh_CN": "请求内容不能为空", "zh_TW": "請求內容不能為空", "en_US": "The request body is empty"}
	for lang, msg := range want {
		u := e.user(lang)
		u.login("farmer01", "secret1").want(t, 200, 0)
		for _, call := range [][2]string{{"PUT", "/apis/account/name"}, {"POST", "/apis/tag"}, {"POST", "/apis/rule"}} {
			r := u.do(call[0], call[1], nil)
			r.want(t, 400, 1400)
			if r.Message != msg || r.Error == nil || r.Error.Key != "error.bodyRequired" {
				t.Errorf("%s %s %s: %q %+v, want %q", lang, call[0], call[1], r.Message, r.Error, msg)
			}
		}
		if r := u.do("GET", "/apis/tags", nil); !strings.Contains(string(r.Data), "[]") {
			t.Errorf("%s: a refused tag was stored: %s", lang, r.Data)
		}
	}
	// The login form's own checks still name their fields when the body is there.
	r := e.user("en_US").do("POST", "/apis/account/login", map[string]string{"password": "secret1"})
	if r.Error == nil || r.Error.Field != "accountNumber" {
		t.Errorf("login without an account number: %+v", r.Error)
	}
}

// Every list takes the same ?page= and ?size= with the same limits and the
// same message naming the parameter.
func TestRequest_PageParams(t *testing.T) {
	e := newEnv(t, storetest.OpenSQLite(t))
	u := e.user("en_US")
	u.login("farmer01", "secret1").want(t, 200, 0)
	lists := []string{"/apis/devices", "/apis/rules", "/apis/event/messages", "/apis/event/events",
		"/apis/integration/channel/pushLogList", "/apis/openapi/applications"}
	for _, path := range lists {
		for _, tc := range []struct{ query, field, msg string }{
			{"page=0", "page", "Page must be a whole number from 1 to 1048576"},
			{"size=101", "size", "Page size must be a whole number from 1 to 100"},
			{"size=x", "size", "Page size must be a whole number from 1 to 100"},
		} {
			r := u.do("GET", path+"?"+tc.query, nil)
			if r.status != http.StatusBadRequest || r.Error == nil || r.Error.Field != tc.field || r.Message != tc.msg {
				t.Errorf("%s?%s: HTTP %d %q %+v, want 400 %q naming %s", path, tc.query, r.status, r.Message, r.Error, tc.msg, tc.field)
			}
		}
		if r := u.do("GET", path+"?page=2&size=100", nil); r.status != http.StatusOK {
			t.Errorf("%s?page=2&size=100: HTTP %d %q", path, r.status, r.Message)
		}
	}
}
