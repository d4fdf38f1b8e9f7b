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
