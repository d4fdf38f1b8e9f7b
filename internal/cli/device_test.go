package cli

import (
	"regexp"
	"strings"
	"testing"
)

func TestDeviceAddAndState(t *testing.T) {
	data := t.TempDir()
	if code, _, errOut := runCmd(t, "", "user", "add", "--data", data, "--account", "farm0001", "--password", "secret1"); code != 0 {
		t.Fatalf("user add: %s", errOut)
	}
	code, out, errOut := runCmd(t, "", "device", "add", "--data", data, "--sn", "TQ2026000001", "--type", "5", "--owner", "farm0001", "--lat", "37.4", "--lng", "116.3")
	if code != 0 {
		t.Fatalf("device add: %d %s", code, errOut)
	}
	if !regexp.MustCompile(`(?m)^key:\s+[0-9a-f]{32}$`).MatchString(out) || !regexp.MustCompile(`(?m)^label: fw:TQ2026000001:[A-Z2-7]{8}$`).MatchString(out) {
		t.Fatalf("device add printed:\n%s", out)
	}
	code, _, errOut = runCmd(t, "", "device", "add", "--data", data, "--sn", "TQ2026000001", "--type", "5")
	if code != 1 || !strings.Contains(errOut, "already registered") {
		t.Fatalf("duplicate SN: %d %s", code, errOut)
	}
	code, _, errOut = runCmd(t, "", "device", "add", "--data", data, "--sn", "bad/sn", "--type", "5")
	if code != 1 || !strings.Contains(errOut, "SN must be") {
		t.Fatalf("bad SN: %d %s", code, errOut)
	}
	code, _, errOut = runCmd(t, "", "device", "add", "--data", data, "--sn", "XX2026000001", "--type", "99")
	if code != 1 || !strings.Contains(errOut, "Unknown device type") {
		t.Fatalf("bad type: %d %s", code, errOut)
	}
	if code, out, errOut := runCmd(t, "", "device", "state", "--data", data, "--sn", "TQ2026000001", "--state", "repair"); code != 0 || !strings.Contains(out, "repair") {
		t.Fatalf("device state: %d %s %s", code, out, errOut)
	}
	code, _, errOut = runCmd(t, "", "device", "state", "--data", data, "--sn", "TQ2026000001", "--state", "melted")
	if code != 1 || !strings.Contains(errOut, "Unknown device state") {
		t.Fatalf("bad state: %d %s", code, errOut)
	}
}

// A device added without an owner is free, and its label can be printed
// again, with the address its QR code holds.
func TestDeviceAddUnownedAndLabel(t *testing.T) {
	data := t.TempDir()
	code, out, errOut := runCmd(t, "", "device", "add", "--data", data, "--sn", "ZS2026000009", "--type", "2", "--public-url", "https://farm.example.com/")
	if code != 0 {
		t.Fatalf("device add: %d %s", code, errOut)
	}
	label := regexp.MustCompile(`(?m)^label: (fw:ZS2026000009:([A-Z2-7]{8}))$`).FindStringSubmatch(out)
	if label == nil || !strings.Contains(out, "check: "+label[2]+"\n") ||
		!strings.Contains(out, "url:   https://farm.example.com/apps/info?code=fw%3AZS2026000009%3A"+label[2]+"\n") {
		t.Fatalf("device add printed:\n%s", out)
	}
	code, again, errOut := runCmd(t, "", "device", "label", "--data", data, "--sn", "ZS2026000009")
	if code != 0 || !strings.Contains(again, "label: "+label[1]+"\n") || strings.Contains(again, "url:") {
		t.Fatalf("device label: %d %s %s", code, again, errOut)
	}
	if code, _, errOut := runCmd(t, "", "device", "label", "--data", data, "--sn", "ZS2026000010"); code != 1 || !strings.Contains(errOut, "no such device") {
		t.Fatalf("label of an unknown device: %d %s", code, errOut)
	}
}
