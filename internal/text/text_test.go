package text

import (
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

func TestCheckName(t *testing.T) {
	for _, ok := range []string{"", "North field", "东区 3 号", "Café-Zürich", "田 ①", "🌧 gauge", "O'Brien (2)"} {
		if err := CheckName("name", ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for in, want := range map[string]string{
		"a\x00b":         "text.badChar",
		"a\rb":           "text.badChar",
		"a\nb":           "text.badChar",
		"a\tb":           "text.badChar",
		"a\u0085b":       "text.badChar", // NEL
		"a\u2028b":       "text.badChar", // line separator
		"a\u2029b":       "text.badChar", // paragraph separator
		"abc\u202Etxt":   "text.badChar", // right-to-left override
		"a\u2066b\u2069": "text.badChar", // isolate
		"a\u200Fb":       "text.badChar", // right-to-left mark
		"a\u200Bb":       "text.badChar", // zero-width space
		"a\u200Db":       "text.badChar", // zero-width joiner
		"a\u2060b":       "text.badChar", // word joiner
		"\uFEFFa":        "text.badChar", // byte-order mark
		"a\u00ADb":       "text.badChar", // soft hyphen
		"a\xffb":         "text.invalidUTF8",
		"a\xc3":          "text.invalidUTF8",
		"a\uFFFDb":       "text.invalidUTF8",
	} {
		e := errs.As(CheckName("tag", in))
		if e == nil || e.Code != want || e.Field != "tag" || e.Kind != errs.EInvalid {
			t.Errorf("%q: got %v, want %s on tag", in, e, want)
		}
	}
	if e := errs.As(CheckName("name", "x\u202Ey")); e.Params["char"] != "U+202E" {
		t.Errorf("char param: %v", e.Params)
	}
}
