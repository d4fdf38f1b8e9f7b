package httpapi

import (
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

func TestParseURN(t *testing.T) {
	for in, want := range map[string]string{
		"urn:fieldwatch:device:ZS0000000001": "ZS0000000001",
		"URN:FieldWatch:DEVICE:zs-000001":    "zs-000001",
	} {
		if got, err := parseURN(in); err != nil || got != want {
			t.Errorf("parseURN(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ZS0000000001", "urn:fieldwatch:device:", "urn:fieldwatch:device:ab",
		"urn:fieldwatch:sensor:ZS0000000001", "urn:fieldwatch:device:ZS/0000001", "urn:fieldwatch:device:ZS0000000001:x",
		"urn:fieldwatch:device:" + string(make([]byte, 33))} {
		_, err := parseURN(in)
		if e := errs.As(err); e == nil || e.Kind != errs.EInvalid || e.Field != "urn" || e.Code != "thingverse.urn" {
			t.Errorf("parseURN(%q): %v, want EINVALID urn", in, err)
		}
	}
	if DeviceURN("ZS0000000001") != "urn:fieldwatch:device:ZS0000000001" {
		t.Error("DeviceURN")
	}
}
