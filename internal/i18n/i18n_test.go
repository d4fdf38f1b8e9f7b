package i18n

import (
	"slices"
	"strings"
	"testing"
)

func TestCatalogue_EveryKeyInEveryLanguage(t *testing.T) {
	base := Keys(Default)
	if len(base) == 0 {
		t.Fatal("empty catalogue")
	}
	for _, l := range Langs {
		if got := Keys(l); !slices.Equal(got, base) {
			for _, k := range base {
				if !slices.Contains(got, k) {
					t.Errorf("%s: missing key %q", l, k)
				}
			}
			for _, k := range got {
				if !slices.Contains(base, k) {
					t.Errorf("%s: extra key %q", l, k)
				}
			}
		}
		for _, k := range Keys(l) {
			if strings.TrimSpace(T(l, k, nil)) == "" {
				t.Errorf("%s: empty message for %q", l, k)
			}
		}
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Lang{
		"": ZhCN, "zh_CN": ZhCN, "zh-CN": ZhCN, "zh": ZhCN, "zh-Hans": ZhCN,
		"zh_TW": ZhTW, "zh-HK": ZhTW, "zh-Hant-TW": ZhTW,
		"en_US": EnUS, "en-GB": EnUS, "EN": EnUS, "en-US,en;q=0.9": EnUS,
		"fr_FR": ZhCN, "zh_TW.UTF-8": ZhTW, "en_US.utf8@euro": EnUS,
	} {
		if got := Parse(in); got != want {
			t.Errorf("Parse(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestT_FillsTranslatedField(t *testing.T) {
	params := map[string]any{"field": Field("newPassword")}
	cases := map[Lang]string{
		EnUS: "New password must be at least 6 characters",
		ZhCN: "新密码至少 6 位",
		ZhTW: "新密碼至少 6 位",
	}
	for l, want := range cases {
		if got := T(l, "account.password.tooShort", params); got != want {
			t.Errorf("%s: got %q, want %q", l, got, want)
		}
	}
	if got := T(EnUS, "no.such.key", nil); got != "no.such.key" {
		t.Errorf("unknown key: got %q", got)
	}
}

func TestMessage_FieldLabelUnlessGiven(t *testing.T) {
	if got := Message(EnUS, "error.required", "accountNumber", nil); got != "Account number is required" {
		t.Errorf("label: %q", got)
	}
	// A {field} the error already carries (a JSON path, say) is shown as it is.
	got := Message(EnUS, "ingest.notNumber", "values.airTemp", map[string]any{"field": "values.airTemp"})
	if got != "values.airTemp: not a number" {
		t.Errorf("given field: %q", got)
	}
}

// The refusal of a private push address names the flag that allows it, so
// an operator reading it knows where to look.
func TestPushPrivateNamesItsFlag(t *testing.T) {
	for _, l := range Langs {
		if got := T(l, "push.url.private", map[string]any{"host": "10.0.0.1"}); !strings.Contains(got, "--push-allow-private") {
			t.Errorf("%s: %q", l, got)
		}
	}
}

func TestMessage_FieldWithoutLabelShownAsItIs(t *testing.T) {
	if got := Message(EnUS, "error.wrongType", "nodes[0].depth", nil); got != "nodes[0].depth has the wrong type" {
		t.Errorf("path: %q", got)
	}
	if got := Message(EnUS, "query.unknownValue", "window", nil); got != "Time window has an invalid value" {
		t.Errorf("label: %q", got)
	}
}
