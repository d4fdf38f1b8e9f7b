package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/httpapi"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

const brokerToken = "broker-token-0123456789"

// askBroker sends a broker's question as EMQX 5 does (a JSON body from its
// template, the token as a bearer token) and returns the status and the
// answer's result ("" when not 200).
func askBroker(t *testing.T, e *env, path, token string, body map[string]any) (int, string) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", e.url+path, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return brokerAnswer(t, req)
}

// askGoAuth sends a question as mosquitto-go-auth's HTTP backend does with
// form parameters; the answer is read in its JSON mode ("ok").
func askGoAuth(t *testing.T, e *env, path string, form url.Values) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", e.url+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+brokerToken)
	return brokerAnswer(t, req)
}

func brokerAnswer(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		return res.StatusCode, ""
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q: EMQX reads JSON answers only", ct)
	}
	var a struct {
		Result      string `json:"result"`
		IsSuperuser *bool  `json:"is_superuser"`
		OK          bool   `json:"ok"`
	}
	if err := json.NewDecoder(res.Body).Decode(&a); err != nil {
		t.Fatal(err)
	}
	if a.IsSuperuser == nil || *a.IsSuperuser || a.OK != (a.Result == "allow") {
		t.Fatalf("answer %+v: never a superuser, ok agreeing with result", a)
	}
	return 200, a.Result
}

// TestBrokerAuth: an external broker asking in EMQX's HTTP format (and
// mosquitto-go-auth's) is told that a device logs in with its SN and key
// only, publishes on its own topics (a host also on its slave's) and
// subscribes to its own command topic only; that the nodes' --mqtt-broker
// user logs in and may read every device's messages and send commands; and
// that a retired device and a replaced key are refused at the next question.
// Without the token the broker is refused, and without --mqtt-auth-token
// there is nothing to ask.
func TestBrokerAuth(t *testing.T) {
	rec := httptest.NewRecorder()
	httpapi.New(httpapi.Options{}).ServeHTTP(rec, httptest.NewRequest("POST", "/broker/v1/authenticate", strings.NewReader(`{"username":"x"}`)))
	if rec.Code != 404 {
		t.Fatalf("without --mqtt-auth-token: %d, want 404", rec.Code)
	}
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, opts{brokerToken: brokerToken, nodeUser: "fieldwatch", nodePassword: "node-pass"})
		owner, err := e.db.FindAccountByNumber(ctx, "farmer01")
		if err != nil {
			t.Fatal(err)
		}
		gauge, key, err := e.devices.Register(ctx, devices.Registration{SN: "RG0000000101", TypeID: 6})
		if err != nil {
			t.Fatal(err)
		}
		other, otherKey, err := e.devices.Register(ctx, devices.Registration{SN: "RG0000000102", TypeID: 6, Owner: owner.ID})
		if err != nil {
			t.Fatal(err)
		}
		host, hostKey, err := e.devices.Register(ctx, devices.Registration{SN: "LQH0000000101", TypeID: 19})
		if err != nil {
			t.Fatal(err)
		}
		slave, _, err := e.devices.Register(ctx, devices.Registration{SN: "LQS0000000101", TypeID: 19, Slave: true, HostSN: host.SN})
		if err != nil {
			t.Fatal(err)
		}

		authn := func(user, pass string) string {
			t.Helper()
			code, result := askBroker(t, e, "/broker/v1/authenticate", brokerToken,
				map[string]any{"username": user, "password": pass, "clientid": user + "-c1", "peerhost": "203.0.113.7"})
			if code != 200 {
				t.Fatalf("authenticate %s: %d", user, code)
			}
			return result
		}
		authz := func(user, topic, action string) string {
			t.Helper()
			code, result := askBroker(t, e, "/broker/v1/authorize", brokerToken,
				map[string]any{"username": user, "clientid": user + "-c1", "topic": topic, "action": action})
			if code != 200 {
				t.Fatalf("authorize %s %s %s: %d", user, action, topic, code)
			}
			return result
		}

		for _, c := range []struct{ user, pass, want string }{
			{gauge.SN, key, "allow"},
			{gauge.SN, otherKey, "deny"},
			{gauge.SN, "", "deny"},
			{"RG0000000999", key, "deny"},
			{"not an sn", key, "deny"},
			{host.SN, hostKey, "allow"},
			{"fieldwatch", "node-pass", "allow"},
			{"fieldwatch", "node-pas", "deny"},
			{other.SN, otherKey, "allow"},
		} {
			if got := authn(c.user, c.pass); got != c.want {
				t.Errorf("authenticate %s/%q: %s, want %s", c.user, c.pass, got, c.want)
			}
		}

		for _, c := range []struct{ user, topic, action, want string }{
			{gauge.SN, "devices/" + gauge.SN + "/telemetry", "publish", "allow"},
			{gauge.SN, "devices/" + gauge.SN + "/status", "publish", "allow"},
			{gauge.SN, "devices/" + gauge.SN + "/commands/ack", "publish", "allow"},
			{gauge.SN, "devices/" + gauge.SN + "/commands", "subscribe", "allow"},
			{gauge.SN, "devices/" + other.SN + "/telemetry", "publish", "deny"},
			{gauge.SN, "devices/" + gauge.SN + "/commands", "publish", "deny"},
			{gauge.SN, "devices/" + gauge.SN + "/other", "publish", "deny"},
			{gauge.SN, "devices/" + other.SN + "/commands", "subscribe", "deny"},
			{gauge.SN, "devices/+/commands", "subscribe", "deny"},
			{gauge.SN, "devices/#", "subscribe", "deny"},
			{gauge.SN, "$share/fieldwatch/devices/+/telemetry", "subscribe", "deny"},
			{gauge.SN, "devices/" + gauge.SN + "/telemetry", "", "deny"},
			{host.SN, "devices/" + slave.SN + "/telemetry", "publish", "allow"},
			{gauge.SN, "devices/" + slave.SN + "/telemetry", "publish", "deny"},
			{"RG0000000999", "devices/RG0000000999/telemetry", "publish", "deny"},
			{"fieldwatch", "$share/fieldwatch/devices/+/telemetry", "subscribe", "allow"},
			{"fieldwatch", "devices/+/commands/ack", "subscribe", "allow"},
			{"fieldwatch", "devices/" + gauge.SN + "/commands", "publish", "allow"},
			{"fieldwatch", "devices/" + gauge.SN + "/telemetry", "publish", "deny"},
			{"fieldwatch", "$SYS/#", "subscribe", "deny"},
		} {
			if got := authz(c.user, c.topic, c.action); got != c.want {
				t.Errorf("authorize %s %s %s: %s, want %s", c.user, c.action, c.topic, got, c.want)
			}
		}

		// mosquitto-go-auth: form parameters, acc 1 read, 2 write, 4 subscribe.
		for _, c := range []struct {
			form url.Values
			path string
			want string
		}{
			{url.Values{"username": {gauge.SN}, "password": {key}, "clientid": {"c"}}, "/broker/v1/authenticate", "allow"},
			{url.Values{"username": {gauge.SN}, "password": {"nope"}, "clientid": {"c"}}, "/broker/v1/authenticate", "deny"},
			{url.Values{"username": {gauge.SN}, "topic": {"devices/" + gauge.SN + "/telemetry"}, "acc": {"2"}}, "/broker/v1/authorize", "allow"},
			{url.Values{"username": {gauge.SN}, "topic": {"devices/" + gauge.SN + "/commands"}, "acc": {"4"}}, "/broker/v1/authorize", "allow"},
			{url.Values{"username": {gauge.SN}, "topic": {"devices/" + gauge.SN + "/commands"}, "acc": {"1"}}, "/broker/v1/authorize", "allow"},
			{url.Values{"username": {gauge.SN}, "topic": {"devices/" + other.SN + "/commands"}, "acc": {"1"}}, "/broker/v1/authorize", "deny"},
			{url.Values{"username": {gauge.SN}, "topic": {"devices/" + gauge.SN + "/commands"}, "acc": {"3"}}, "/broker/v1/authorize", "deny"},
		} {
			if code, got := askGoAuth(t, e, c.path, c.form); code != 200 || got != c.want {
				t.Errorf("go-auth %s %v: %d %s, want %s", c.path, c.form, code, got, c.want)
			}
		}

		// Only the broker may ask.
		for _, token := range []string{"", "wrong-token-0123456789", brokerToken + "x"} {
			if code, _ := askBroker(t, e, "/broker/v1/authenticate", token, map[string]any{"username": gauge.SN, "password": key}); code != 401 {
				t.Errorf("token %q: %d, want 401", token, code)
			}
		}

		// A replaced key is refused at the next login, the new one taken.
		_, newKey, err := e.devices.RotateKey(ctx, owner.ID, other.ID)
		if err != nil {
			t.Fatal(err)
		}
		if authn(other.SN, otherKey) != "deny" || authn(other.SN, newKey) != "allow" {
			t.Error("after the key was rotated: the old key must be refused, the new one taken")
		}

		// A retired device is refused at once: its login and every topic.
		if err := e.devices.SetState(ctx, gauge.SN, devices.StateScrap); err != nil {
			t.Fatal(err)
		}
		if got := authn(gauge.SN, key); got != "deny" {
			t.Errorf("retired device's login: %s", got)
		}
		for _, c := range [][2]string{{"devices/" + gauge.SN + "/telemetry", "publish"}, {"devices/" + gauge.SN + "/commands", "subscribe"}} {
			if got := authz(gauge.SN, c[0], c[1]); got != "deny" {
				t.Errorf("retired device %s %s: %s", c[1], c[0], got)
			}
		}
	})
}
