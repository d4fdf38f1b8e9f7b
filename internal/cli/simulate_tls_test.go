package cli

import (
	"context"
	"regexp"
	"strconv"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/app"
	"github.com/fieldwatch/fieldwatch/internal/config"
	"github.com/fieldwatch/fieldwatch/internal/devicecert"
	"github.com/fieldwatch/fieldwatch/internal/ingest"
)

// simulate over TLS with device certificates: the fleet is registered,
// each device gets a certificate from the CA under --data, and its reports
// are acknowledged by a server that serves MQTT over TLS alone.
func TestSimulateTLSDeviceCerts(t *testing.T) {
	data := t.TempDir()
	if code, _, errOut := runCmd(t, "", "user", "add", "--data", data, "--account", "farm0001", "--password", "secret1"); code != 0 {
		t.Fatalf("user add: %s", errOut)
	}
	cert, key, err := devicecert.SelfSigned(t.TempDir(), "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.DefaultServe()
	cfg.Data, cfg.Addr, cfg.MQTT, cfg.MQTTS = data, "127.0.0.1:0", "off", "127.0.0.1:0"
	cfg.MQTTTLSCert, cfg.MQTTTLSKey = cert, key
	cfg.Log = config.Log{Format: "text", Level: "error"}
	m := &app.Main{Config: cfg}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	broker := "ssl://" + m.Broker.ListenerAddr(ingest.ListenerTLS).String()

	code, out, errOut := runCmd(t, "", "simulate", "--data", data, "--register", "--owner", "farm0001", "--device-certs",
		"--broker", broker, "--ca", cert, "--devices", "2", "--types", "5", "--interval", "100ms", "--duration", "2s")
	if code != 0 {
		t.Fatalf("simulate: exit %d\n%s\n%s", code, out, errOut)
	}
	match := regexp.MustCompile(`(\d+) reports \((\d+) readings\) acknowledged`).FindStringSubmatch(out)
	if match == nil {
		t.Fatalf("simulate printed:\n%s", out)
	}
	if n, _ := strconv.Atoi(match[1]); n < 2 {
		t.Errorf("%s reports acknowledged, want some of each device", match[1])
	}
	d, err := m.DB.FindDeviceBySN(context.Background(), "SIM05000001")
	if err != nil {
		t.Fatal(err)
	}
	if certs, err := m.DB.DeviceCertificates(context.Background(), d.ID); err != nil || len(certs) != 1 {
		t.Errorf("certificates of SIM05000001: %v %v", certs, err)
	}

	// Without --register a device certificate cannot be issued.
	if code, _, errOut := runCmd(t, "", "simulate", "--device-certs", "--tls", "--duration", "1s"); code == 0 {
		t.Errorf("--device-certs without --register ran: %s", errOut)
	}
}
