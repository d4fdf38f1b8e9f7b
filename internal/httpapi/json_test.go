package httpapi

import (
	"encoding/json"
	"testing"
)

// appendJSONString writes what encoding/json writes, copying plain text
// and handing anything needing an escape to encoding/json.
func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "Plot 7", "ZS0000001", "东区 3 号地块", "東區", "a\"b", `back\slash`, "tab\there",
		"<b>&", "line\u2028sep", "bad \xff utf8", "half \xe4\xb8", "emoji 🌱 ok", "\x00"} {
		want, _ := json.Marshal(s)
		if got := appendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("%q: %s, want %s", s, got[1:], want)
		}
	}
}
