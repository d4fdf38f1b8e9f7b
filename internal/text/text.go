// Package text checks the text people give as names (accounts, devices,
// tags, rules, push channels, open-API applications, crop varieties): one
// rule, so every name refuses the same characters with the same message.
package text

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// CheckName refuses a name that is not valid UTF-8 or that holds a
// character a name must not carry: control characters (NUL, tab, CR, LF …),
// line and paragraph separators, and format characters, which are the
// invisible ones (zero-width spaces and joiners, the byte-order mark, soft
// hyphens) and the bidirectional marks, embeddings, overrides and isolates
// that reorder how text around them is shown. U+FFFD, the replacement
// character a JSON decoder puts where invalid UTF-8 was, counts as invalid
// UTF-8. Returns EINVALID naming field: text.invalidUTF8, or text.badChar
// with {char} as U+XXXX.
func CheckName(field, s string) error {
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			return errs.Invalid(field, "text.invalidUTF8")
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp):
			return errs.Invalid(field, "text.badChar").With(map[string]any{"char": fmt.Sprintf("U+%04X", r)})
		}
	}
	return nil
}
