package app_test

// End-to-end tests of the device link with real clients: Debian's
// mosquitto_pub and mosquitto_sub against the embedded broker, plain HTTP
// against /ingest/v1, and a real Mosquitto for external-broker mode.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	pahomqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
	"github.com/fieldwatch/fieldwatch/internal/metrics"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// ingestConfig is serveConfig with a demo fleet that stays quiet: no
// history beyond the current slot and live reports a day apart, so only the
// test's own reports change what the devices show.
func ingestConfig(t *testing.T) config.Serve {
	cfg := serveConfig(t)
	cfg.DemoDays, cfg.DemoInterval = 0, 24*time.Hour
	return cfg
}

// needTool finds an external client. Outside CI a missing one skips the
// test; in CI (CI=true) it fails it, so the tests cannot silently go dark.
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not found (install the mosquitto-clients package): %v", name, err)
		}
		t.Skipf("%s not found (install the mosquitto-clients package)", name)
	}
	return p
}

// run runs a command and returns its combined output and exit code. The
// timeout only keeps a hung client from hanging the test.
func run(t *testing.T, name string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	default:
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		return "", -1
	}
}

// reportTS is a report time for a test report: the next second. The demo
// backfill has written its report at or before now on the 10-minute grid
// (see waitBackfill), so a test report at reportTS() or later never shares
// its time with it and is the device's latest.
func reportTS() int64 { return time.Now().Unix() + 1 }

// api is a logged-in web client.
type api struct {
	t    *testing.T
	base string
	c    *http.Client
}

type envelope struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	Error   *struct {
		Key   string `json:"key"`
		Field string `json:"field"`
	} `json:"error"`
}

func loginAPI(t *testing.T, base string) *api {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	a := &api{t: t, base: base, c: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	status, env := a.do("POST", "/apis/account/login", `{"accountNumber":"demo01","password":"demo123456"}`, nil)
	if status != 200 || env.Code != 0 {
		t.Fatalf("login: HTTP %d %+v", status, env)
	}
	return a
}

func (a *api) do(method, path, body string, header map[string]string) (int, envelope) {
	a.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, a.base+path, r)
	if err != nil {
		a.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := a.c.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	var env envelope
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &env); err != nil {
		a.t.Fatalf("%s %s: HTTP %d, not an envelope: %s", method, path, res.StatusCode, b)
	}
	return res.StatusCode, env
}

// get calls an authenticated GET and decodes its data into v.
func (a *api) get(path string, header map[string]string, v any) {
	a.t.Helper()
	status, env := a.do("GET", path, "", header)
	if status != 200 || env.Code != 0 {
		a.t.Fatalf("GET %s: HTTP %d %+v", path, status, env)
	}
	if err := json.Unmarshal(env.Data, v); err != nil {
		a.t.Fatalf("GET %s: %v: %s", path, err, env.Data)
	}
}

type listedDevice struct {
	ID int64  `json:"id"`
	SN string `json:"sn"`
}

// devicesOfType lists the demo account's devices of a type.
func (a *api) devicesOfType(typeID int) []listedDevice {
	a.t.Helper()
	var page struct {
		List []listedDevice `json:"list"`
	}
	a.get(fmt.Sprintf("/apis/devices?typeId=%d&sort=sn", typeID), nil, &page)
	return page.List
}

type credentials struct {
	SN       string `json:"sn"`
	Username string `json:"username"`
	Key      string `json:"key"`
	Topic    string `json:"topic"`
}

func (a *api) credentials(id int64) credentials {
	a.t.Helper()
	var c credentials
	a.get(fmt.Sprintf("/apis/poi/encryption?id=%d", id), nil, &c)
	if c.SN == "" || c.Key == "" || c.Username != c.SN || c.Topic != "devices/"+c.SN+"/telemetry" {
		a.t.Fatalf("encryption of %d: %+v", id, c)
	}
	return c
}

type latestValue struct {
	Param string  `json:"param"`
	Node  int     `json:"node"`
	Time  int64   `json:"time"`
	Value float64 `json:"value"`
}

// latest returns the latest reading of a surface parameter from /detect.
func (a *api) latest(id int64, param string) (latestValue, bool) {
	a.t.Helper()
	var d struct {
		List []latestValue `json:"list"`
	}
	a.get(fmt.Sprintf("/apis/poi/%d/detect", id), nil, &d)
	for _, l := range d.List {
		if l.Param == param && l.Node == 0 {
			return l, true
		}
	}
	return latestValue{}, false
}

// waitBackfill waits for the demo history of a device (with DemoDays 0, one
// report in the current 10-minute slot) and returns its airTemp.
func (a *api) waitBackfill(id int64) latestValue {
	a.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if l, ok := a.latest(id, "airTemp"); ok {
			return l
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("the demo history of device %d never arrived", id)
		}
	}
}

type lastError struct {
	Time    int64  `json:"time"`
	Code    string `json:"code"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (a *api) lastError(id int64, lang string) *lastError {
	a.t.Helper()
	var d struct {
		LastError *lastError `json:"lastError"`
	}
	a.get(fmt.Sprintf("/apis/poi/detail?id=%d", id), map[string]string{"lang": lang}, &d)
	return d.LastError
}

// metricsText scrapes a Prometheus text exposition.
func metricsText(t *testing.T, h http.Handler) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("metrics: HTTP %d", rec.Code)
	}
	return rec.Body.String()
}

// scrape reads the server's /metrics over HTTP.
func scrape(t *testing.T, base string) string {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("metrics: HTTP %d %v", res.StatusCode, err)
	}
	return string(b)
}

// metricValue finds the sample of name whose labels include want in a text
// exposition; 0 when absent (a counter not yet incremented).
func metricValue(t *testing.T, text, name string, want map[string]string) float64 {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, name) {
			continue
		}
		rest := line[len(name):]
		labels := map[string]string{}
		if strings.HasPrefix(rest, "{") {
			end := strings.Index(rest, "}")
			if end < 0 {
				continue
			}
			for kv := range strings.SplitSeq(rest[1:end], ",") {
				k, v, ok := strings.Cut(kv, "=")
				if ok {
					labels[k] = strings.Trim(v, `"`)
				}
			}
			rest = rest[end+1:]
		}
		if !strings.HasPrefix(rest, " ") {
			continue // another metric whose name starts with name
		}
		match := true
		for k, v := range want {
			if labels[k] != v {
				match = false
			}
		}
		if !match {
			continue
		}
		v, err := strconv.ParseFloat(strings.Fields(rest)[0], 64)
		if err != nil {
			t.Fatalf("metric line %q: %v", line, err)
		}
		return v
	}
	return 0
}

func TestMosquittoPub(t *testing.T) {
	pub := needTool(t, "mosquitto_pub")
	sub := needTool(t, "mosquitto_sub")
	m := start(t, ingestConfig(t))
	a := loginAPI(t, m.URL())
	host, port, err := net.SplitHostPort(m.MQTTAddr())
	if err != nil {
		t.Fatal(err)
	}

	weather := a.devicesOfType(5)
	if len(weather) < 2 {
		t.Fatalf("want two demo weather stations, got %+v", weather)
	}
	devA, devB := weather[0], weather[1]
	credA, credB := a.credentials(devA.ID), a.credentials(devB.ID)

	// From here on B's latest reading stays put: the live demo reports are
	// a day apart.
	baseB := a.waitBackfill(devB.ID)

	mqttArgs := func(version string, c credentials, topic, payload string) []string {
		return []string{"-h", host, "-p", port, "-V", version, "-u", c.SN, "-P", c.Key,
			"-i", "fwtest-" + version, "-q", "1", "-t", topic, "-m", payload}
	}

	ts := reportTS()
	t.Run("publish", func(t *testing.T) {
		for i, version := range []string{"mqttv311", "5"} {
			at, value := ts+int64(i), 23.45
			payload := fmt.Sprintf(`{"ts": %d, "values": {"airTemp": %g}}`, at, value)
			out, code := run(t, pub, mqttArgs(version, credA, "devices/"+credA.SN+"/telemetry", payload)...)
			if code != 0 || strings.Contains(strings.ToLower(out), "fail") {
				t.Fatalf("-V %s: exit %d: %s", version, code, out)
			}
			// PUBACK means stored: no waiting.
			got, ok := a.latest(devA.ID, "airTemp")
			if !ok || got.Value != value || got.Time != at*1000 {
				t.Fatalf("-V %s: detect airTemp = %+v (found %v), want %g at %d", version, got, ok, value, at*1000)
			}
		}
	})

	t.Run("will on another device's topic", func(t *testing.T) {
		before := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_mqtt_denied_total", map[string]string{"reason": "will"})
		args := append(mqttArgs("5", credA, "devices/"+credA.SN+"/telemetry", fmt.Sprintf(`{"ts": %d, "values": {"airTemp": 1}}`, ts+10)),
			"--will-topic", "devices/"+credB.SN+"/telemetry", "--will-payload", `{"values": {"airTemp": 99}}`)
		if out, code := run(t, pub, args...); code == 0 {
			t.Errorf("a connection with a will on another device's topic was accepted: %s", out)
		}
		after := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_mqtt_denied_total", map[string]string{"reason": "will"})
		if after != before+1 {
			t.Errorf("denied{will}: %g → %g, want +1", before, after)
		}
	})

	t.Run("bad payload at QoS 2 under MQTT 5", func(t *testing.T) {
		args := mqttArgs("5", credA, "devices/"+credA.SN+"/telemetry", `{"values": {"airTemp": "hot"}}`)
		for i, a := range args {
			if a == "-q" {
				args[i+1] = "2"
			}
		}
		out, _ := run(t, pub, args...)
		if strings.Contains(strings.ToLower(out), "protocol error") {
			t.Errorf("QoS 2 refusal broke the protocol: %s", out)
		}
	})

	t.Run("wrong key", func(t *testing.T) {
		before := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_mqtt_denied_total", map[string]string{"reason": "credentials"})
		bad := credA
		bad.Key = strings.Repeat("0", len(credA.Key))
		for _, version := range []string{"mqttv311", "5"} {
			out, code := run(t, pub, mqttArgs(version, bad, "devices/"+credA.SN+"/telemetry", `{"values": {"airTemp": 1}}`)...)
			if code == 0 {
				t.Errorf("-V %s: a wrong key connected: %s", version, out)
			}
		}
		after := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_mqtt_denied_total", map[string]string{"reason": "credentials"})
		if after < before+2 {
			t.Errorf("denied{credentials}: %g → %g, want +2", before, after)
		}
	})

	t.Run("other device's topic", func(t *testing.T) {
		before := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_mqtt_denied_total", map[string]string{"reason": "publish"})
		payload := fmt.Sprintf(`{"ts": %d, "values": {"airTemp": -12.5}}`, ts)
		// MQTT 5: the PUBACK carries 0x87 not authorized.
		out, code := run(t, pub, mqttArgs("5", credA, "devices/"+credB.SN+"/telemetry", payload)...)
		if code == 0 && !strings.Contains(strings.ToLower(out), "not authorized") {
			t.Errorf("-V 5: publish on %s's topic accepted: exit %d: %s", credB.SN, code, out)
		}
		// MQTT 3.1.1 has no negative PUBACK: the broker drops the connection.
		out, code = run(t, pub, mqttArgs("mqttv311", credA, "devices/"+credB.SN+"/telemetry", payload)...)
		if code == 0 {
			t.Errorf("-V mqttv311: publish on %s's topic accepted: %s", credB.SN, out)
		}
		if got, _ := a.latest(devB.ID, "airTemp"); got != baseB {
			t.Errorf("%s's airTemp changed to %+v (was %+v)", credB.SN, got, baseB)
		}
		after := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_mqtt_denied_total", map[string]string{"reason": "publish"})
		if after < before+2 {
			t.Errorf("denied{publish}: %g → %g, want +2", before, after)
		}
	})

	t.Run("malformed payload", func(t *testing.T) {
		rejected := map[string]string{"transport": "mqtt", "reason": "ingest.notNumber"}
		before := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_ingest_rejected_total", rejected)
		prev, _ := a.latest(devA.ID, "airTemp")
		// The valid airHumidity must not be stored either: a report is
		// stored whole or not at all.
		payload := fmt.Sprintf(`{"ts": %d, "values": {"airHumidity": 55, "airTemp": "hot"}}`, ts+1)
		out, code := run(t, pub, mqttArgs("5", credA, "devices/"+credA.SN+"/telemetry", payload)...)
		// Acknowledged with 0x99 payload format invalid; mosquitto_pub reports it and exits 0.
		if code != 0 || !strings.Contains(strings.ToLower(out), "payload format invalid") {
			t.Errorf("-V 5: exit %d, want a PUBACK with payload format invalid: %s", code, out)
		}
		out, code = run(t, pub, mqttArgs("mqttv311", credA, "devices/"+credA.SN+"/telemetry", payload)...)
		if code != 0 {
			t.Errorf("-V mqttv311: exit %d, want the bad report acknowledged and dropped: %s", code, out)
		}
		if got, _ := a.latest(devA.ID, "airTemp"); got != prev {
			t.Errorf("airTemp changed to %+v (was %+v)", got, prev)
		}
		if got, ok := a.latest(devA.ID, "airHumidity"); ok && got.Time == (ts+1)*1000 {
			t.Errorf("part of a refused report was stored: %+v", got)
		}
		after := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_ingest_rejected_total", rejected)
		if after != before+2 {
			t.Errorf("rejected{mqtt,ingest.notNumber}: %g → %g, want +2", before, after)
		}
		en, zh := a.lastError(devA.ID, "en_US"), a.lastError(devA.ID, "zh_CN")
		if en == nil || zh == nil {
			t.Fatalf("detail shows no lastError: en %+v zh %+v", en, zh)
		}
		for _, e := range []*lastError{en, zh} {
			if e.Code != "ingest.notNumber" || e.Field != "values.airTemp" || !strings.Contains(e.Message, "values.airTemp") {
				t.Errorf("lastError = %+v", e)
			}
		}
		if !strings.Contains(en.Message, "number") || en.Message == zh.Message {
			t.Errorf("lastError not localized: en %q, zh %q", en.Message, zh.Message)
		}
		if since := time.Since(time.UnixMilli(en.Time)); since < 0 || since > time.Hour {
			t.Errorf("lastError time %d is not the time of receipt", en.Time)
		}
	})

	t.Run("subscribe", func(t *testing.T) {
		subArgs := func(version, filter string) []string {
			return []string{"-d", "-h", host, "-p", port, "-V", version, "-u", credA.SN, "-P", credA.Key,
				"-i", "fwtest-sub-" + version, "-q", "1", "-t", filter, "-W", "1", "-C", "1"}
		}
		before := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_mqtt_denied_total", map[string]string{"reason": "subscribe"})
		for _, version := range []string{"mqttv311", "5"} {
			for _, filter := range []string{"devices/" + credB.SN + "/telemetry", "devices/" + credB.SN + "/commands", "devices/#", "#",
				"devices/" + credA.SN + "/#", "devices/" + credA.SN + "/telemetry"} {
				out, _ := run(t, sub, subArgs(version, filter)...)
				if !strings.Contains(out, "subscription requests were denied") {
					t.Errorf("-V %s: subscribing to %s was not refused: %s", version, filter, out)
				}
				if strings.Contains(out, "airTemp") {
					t.Errorf("-V %s: %s delivered a report: %s", version, filter, out)
				}
			}
			// Its own command topic is allowed: granted QoS 1, then nothing
			// arrives (no command was sent) until -W ends it.
			out, _ := run(t, sub, subArgs(version, "devices/"+credA.SN+"/commands")...)
			if strings.Contains(out, "denied") || !strings.Contains(out, "Subscribed (mid: 1): 1") {
				t.Errorf("-V %s: subscribing to its own topics: %s", version, out)
			}
		}
		after := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_mqtt_denied_total", map[string]string{"reason": "subscribe"})
		if after < before+12 {
			t.Errorf("denied{subscribe}: %g → %g, want +12", before, after)
		}
	})
}

func TestHTTPIngest(t *testing.T) {
	m := start(t, ingestConfig(t))
	a := loginAPI(t, m.URL())
	weather := a.devicesOfType(5)
	if len(weather) == 0 {
		t.Fatal("no demo weather station")
	}
	dev := weather[0]
	cred := a.credentials(dev.ID)
	a.waitBackfill(dev.ID)

	post := func(kind, user, key, body string) (int, envelope) {
		t.Helper()
		req, err := http.NewRequest("POST", m.URL()+"/ingest/v1/"+kind, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.SetBasicAuth(user, key)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var env envelope
		if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
			t.Fatalf("POST /ingest/v1/%s: HTTP %d: %v", kind, res.StatusCode, err)
		}
		return res.StatusCode, env
	}
	wantError := func(t *testing.T, status int, env envelope, wantStatus int, key string) {
		t.Helper()
		if status != wantStatus || env.Error == nil || env.Error.Key != key || env.Code != 1000+wantStatus {
			t.Errorf("HTTP %d %+v (error %+v), want %d %s", status, env, env.Error, wantStatus, key)
		}
	}

	ts := reportTS()
	body := fmt.Sprintf(`{"ts": %d, "values": {"airTemp": 18.75, "airHumidity": 64}}`, ts)
	t.Run("stored", func(t *testing.T) {
		for i := range 2 { // the second time is a redelivery
			status, env := post("telemetry", cred.SN, cred.Key, body)
			if status != 200 || env.Code != 0 {
				t.Fatalf("POST #%d: HTTP %d %+v", i+1, status, env)
			}
		}
		got, ok := a.latest(dev.ID, "airTemp")
		if !ok || got.Value != 18.75 || got.Time != ts*1000 {
			t.Fatalf("detect airTemp = %+v (found %v), want 18.75 at %d", got, ok, ts*1000)
		}
		var hist struct {
			Series []struct {
				Param  string       `json:"param"`
				Points [][2]float64 `json:"points"`
			} `json:"series"`
		}
		a.get(fmt.Sprintf("/apis/poi/%d/datapoints/v2?dim=raw&params=airTemp&begin=%d&end=%d",
			dev.ID, ts*1000, (ts+1)*1000), nil, &hist)
		if len(hist.Series) != 1 || len(hist.Series[0].Points) != 1 || hist.Series[0].Points[0] != [2]float64{float64(ts * 1000), 18.75} {
			t.Fatalf("raw history around the report: %+v, want one point", hist.Series)
		}
	})

	t.Run("wrong key", func(t *testing.T) {
		status, env := post("telemetry", cred.SN, strings.Repeat("0", len(cred.Key)), body)
		wantError(t, status, env, 401, "ingest.badCredentials")
	})

	t.Run("too large", func(t *testing.T) {
		big := `{"values": {"airTemp": 1}, "pad": "` + strings.Repeat("x", ingest.MaxPayload) + `"}`
		status, env := post("telemetry", cred.SN, cred.Key, big)
		wantError(t, status, env, 400, "ingest.tooLarge")
		n := metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_ingest_rejected_total",
			map[string]string{"transport": "http", "reason": "ingest.tooLarge"})
		if n != 1 {
			t.Errorf("rejected{http,ingest.tooLarge} = %g, want 1", n)
		}
	})

	t.Run("future", func(t *testing.T) {
		status, env := post("telemetry", cred.SN, cred.Key,
			fmt.Sprintf(`{"ts": %d, "values": {"airTemp": 20}}`, time.Now().Add(48*time.Hour).Unix()))
		wantError(t, status, env, 400, "ingest.future")
	})

	t.Run("not finite", func(t *testing.T) {
		status, env := post("telemetry", cred.SN, cred.Key, `{"values": {"airTemp": 1e999}}`)
		wantError(t, status, env, 400, "ingest.notFinite")
		if env.Error != nil && env.Error.Field != "values.airTemp" {
			t.Errorf("field = %q, want values.airTemp", env.Error.Field)
		}
	})

	if got, _ := a.latest(dev.ID, "airTemp"); got.Value != 18.75 || got.Time != ts*1000 {
		t.Errorf("a refused report changed the latest airTemp: %+v", got)
	}
}

// mosquittoAddr is the Mosquitto the external-broker test uses.
const mosquittoAddr = "127.0.0.1:1883"

func needMosquitto(t *testing.T) {
	t.Helper()
	c, err := net.DialTimeout("tcp", mosquittoAddr, 2*time.Second)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no MQTT broker at %s: %v", mosquittoAddr, err)
		}
		t.Skipf("no MQTT broker at %s: %v", mosquittoAddr, err)
	}
	c.Close()
}

// mosquittoClient is a plain MQTT 3.1.1 client of the external broker: a
// device, as far as fieldwatch can tell.
func mosquittoClient(t *testing.T, clientID string) pahomqtt.Client {
	t.Helper()
	opts := pahomqtt.NewClientOptions().AddBroker("tcp://" + mosquittoAddr).SetClientID(clientID).
		SetCleanSession(true).SetAutoReconnect(false).SetConnectTimeout(10 * time.Second)
	c := pahomqtt.NewClient(opts)
	if tok := c.Connect(); !tok.WaitTimeout(15*time.Second) || tok.Error() != nil {
		t.Fatalf("connect to %s as %s: %v", mosquittoAddr, clientID, tok.Error())
	}
	return c
}

// dropSession removes a client's persistent session from the broker by
// connecting with a clean session under its id. A consumer's session
// outlives it by an hour, and Mosquitto deals shared-subscription messages
// to offline members too: left behind, it would swallow part of every later
// run's messages.
func dropSession(t *testing.T, clientID string) {
	c := mosquittoClient(t, clientID)
	c.Disconnect(100)
}

func publish(t *testing.T, c pahomqtt.Client, topic, payload string) {
	t.Helper()
	if tok := c.Publish(topic, 1, false, payload); !tok.WaitTimeout(15*time.Second) || tok.Error() != nil {
		t.Fatalf("publish on %s: %v", topic, tok.Error())
	}
}

func TestExternalBroker(t *testing.T) {
	needMosquitto(t)
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()

	cfg := serveConfig(t)
	cfg.Demo = false
	cfg.MQTTBroker = "tcp://" + mosquittoAddr
	// The server always uses the client id fieldwatch-{hostname}: a second
	// app.Main in this process would take over its session, so the share
	// group is shown with one Main and a second consumer below.
	hostname, _ := os.Hostname()
	t.Cleanup(func() { dropSession(t, "fieldwatch-"+hostname) }) // after m.Close
	m := start(t, cfg)
	if m.Consumer == nil || m.Broker != nil || m.MQTTAddr() != "" {
		t.Fatalf("--mqtt-broker: consumer %v, embedded broker %v", m.Consumer != nil, m.Broker != nil)
	}

	owner, err := m.Accounts.Create(ctx, "extuser01", "secret12", "Ext")
	if err != nil {
		t.Fatal(err)
	}
	sn := fmt.Sprintf("EXT%09d", rand.IntN(1e9))
	dev, _, err := m.Devices.Register(ctx, devices.Registration{SN: sn, TypeID: 6, Owner: owner.ID})
	if err != nil {
		t.Fatal(err)
	}
	topic := "devices/" + sn + "/telemetry"
	device := mosquittoClient(t, fmt.Sprintf("fwtest-dev-%d", rand.Int64()))
	defer device.Disconnect(100)
	sent := 0 // telemetry messages published, each to be accepted once
	send := func(payload string) {
		t.Helper()
		publish(t, device, topic, payload)
		sent++
	}

	rainfall := func(from, to time.Time) []telemetry.Reading {
		t.Helper()
		rs, err := m.DB.Readings(ctx, telemetry.Query{DeviceID: dev.ID, Params: []string{"rainfall"}, Begin: from, End: to})
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}

	t.Run("one server", func(t *testing.T) {
		ts := reportTS()
		payload := fmt.Sprintf(`{"ts": %d, "values": {"rainfall": 1.7, "battery": 12.4}}`, ts)
		// The consumer subscribes just after connecting; until then the
		// broker has no one to give the message to. Resending is safe: a
		// report with the same ts is stored once.
		for {
			send(payload)
			wait := time.Now().Add(500 * time.Millisecond)
			for time.Now().Before(wait) {
				rs, err := m.DB.Latest(ctx, dev.ID)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range rs {
					if r.Param == "rainfall" && r.Value == 1.7 && r.Time.Equal(time.Unix(ts, 0)) {
						if n := len(rainfall(time.Unix(ts, 0), time.Unix(ts+1, 0))); n != 1 {
							t.Fatalf("%d readings at %d, want 1", n, ts)
						}
						return
					}
				}
				time.Sleep(20 * time.Millisecond)
			}
			if ctx.Err() != nil {
				t.Fatalf("the report on %s never reached the store", topic)
			}
		}
	})

	t.Run("share group", func(t *testing.T) {
		// A second node: its own pipeline (and metrics) over the same store.
		p2 := ingest.New(ingest.Options{Devices: m.Devices, Writer: m.Writer, Images: m.DB,
			Metrics: metrics.New(), Log: slog.New(slog.DiscardHandler)})
		id2 := fmt.Sprintf("fwtest-node2-%d", rand.Int64())
		t.Cleanup(func() { dropSession(t, id2) })
		c2, err := ingest.StartConsumer(ctx, ingest.ConsumerOptions{Broker: cfg.MQTTBroker, ClientID: id2}, p2)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := c2.Close(context.Background()); err != nil {
				t.Errorf("close second consumer: %v", err)
			}
		})

		accepted := func() (float64, float64) {
			lbl := map[string]string{"transport": "mqtt", "kind": "telemetry"}
			return metricValue(t, scrape(t, m.MetricsURL()), "fieldwatch_ingest_messages_total", lbl),
				metricValue(t, metricsText(t, p2.Metrics.Handler()), "fieldwatch_ingest_messages_total", lbl)
		}
		// waitAccepted waits until the two nodes have together accepted
		// every message sent (resends of the first report included) and
		// returns their counts.
		waitAccepted := func() (float64, float64) {
			for {
				one, two := accepted()
				if one+two >= float64(sent) {
					return one, two
				}
				if ctx.Err() != nil {
					t.Fatalf("the nodes accepted %g + %g of %d messages", one, two, sent)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}

		// Probe (older reports, one at a time) until the second node has
		// subscribed and gets its share.
		base := time.Now().Add(-time.Hour).Truncate(time.Minute)
		one, two := waitAccepted()
		for i := 0; two == 0; i++ {
			send(fmt.Sprintf(`{"ts": %d, "values": {"rainfall": 0.1}}`, base.Unix()-int64(i)-1))
			one, two = waitAccepted()
		}

		// 20 reports with distinct times: each is stored exactly once, and
		// the two nodes share them.
		for i := range 20 {
			send(fmt.Sprintf(`{"ts": %d, "values": {"rainfall": %d}}`, base.Unix()+int64(i), i))
		}
		one2, two2 := waitAccepted()
		if got := (one2 - one) + (two2 - two); got != 20 {
			t.Errorf("the nodes accepted %g messages, want 20", got)
		}
		t.Logf("of 20 reports, node 1 stored %g and node 2 %g", one2-one, two2-two)
		if one2 == one || two2 == two {
			t.Errorf("the share group did not split the messages: %g and %g", one2-one, two2-two)
		}
		rs := rainfall(base, base.Add(20*time.Second))
		if len(rs) != 20 {
			t.Fatalf("%d readings stored, want 20: %+v", len(rs), rs)
		}
		for i, r := range rs {
			if !r.Time.Equal(base.Add(time.Duration(i)*time.Second)) || r.Value != float64(i) {
				t.Errorf("reading %d = %+v", i, r)
			}
		}
	})
}

// A rotated key stops working at once on the embedded broker: the
// connection made with the old key is closed, the old key no longer
// connects, and the new one does.
func TestRotateKey_EmbeddedBroker(t *testing.T) {
	m := start(t, ingestConfig(t))
	a := loginAPI(t, m.URL())
	dev := a.devicesOfType(2)[0]
	old := a.credentials(dev.ID)
	connect := func(c credentials, lost chan<- error) (pahomqtt.Client, error) {
		opts := pahomqtt.NewClientOptions().AddBroker("tcp://" + m.MQTTAddr()).SetClientID("rotate-" + c.Key[:6]).
			SetUsername(c.SN).SetPassword(c.Key).SetCleanSession(true).SetAutoReconnect(false).
			SetConnectRetry(false)
		if lost != nil {
			opts.SetConnectionLostHandler(func(_ pahomqtt.Client, err error) { lost <- err })
		}
		cl := pahomqtt.NewClient(opts)
		tok := cl.Connect()
		tok.Wait()
		return cl, tok.Error()
	}
	lost := make(chan error, 1)
	cl, err := connect(old, lost)
	if err != nil {
		t.Fatalf("connect with the key: %v", err)
	}
	defer cl.Disconnect(0)

	status, env := a.do("POST", fmt.Sprintf("/apis/poi/encryption/rotate?id=%d", dev.ID), "", nil)
	var fresh credentials
	if status != 200 || env.Code != 0 || json.Unmarshal(env.Data, &fresh) != nil || fresh.Key == "" || fresh.Key == old.Key {
		t.Fatalf("rotate: HTTP %d %+v", status, env)
	}
	<-lost // the old key's connection is closed
	if cl, err := connect(old, nil); err == nil {
		cl.Disconnect(0)
		t.Fatal("the old key still connects")
	}
	cl2, err := connect(fresh, nil)
	if err != nil {
		t.Fatalf("connect with the new key: %v", err)
	}
	cl2.Disconnect(0)
}
