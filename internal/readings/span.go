package readings

import (
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Range is the time range of a call, [Begin, End). A zero Begin or End
// takes the call's default (documented per call in docs/analyses.md).
type Range struct {
	Begin, End time.Time
}

// LongestDaily is the longest range of daily values: SPEC §5 lets the ET
// analysis's export span 3 years.
const LongestDaily = 3*366*Day + Day

// Span resolves rg: End defaults to now, Begin to End − def; the range may
// not be empty nor longer than max. Returns EINVALID naming begin or end.
func (r *Reader) Span(rg Range, def, max time.Duration) (time.Time, time.Time, error) {
	end := rg.End
	if end.IsZero() {
		end = r.now()
	}
	begin := rg.Begin
	if begin.IsZero() {
		begin = end.Add(-def)
	}
	if !begin.Before(end) {
		return time.Time{}, time.Time{}, errs.Invalid("end", "query.endBeforeBegin")
	}
	if end.Sub(begin) > max+time.Minute { // a minute of slack for "now" moving between calls
		return time.Time{}, time.Time{}, errs.Invalid("begin", "query.rangeTooLong").With(map[string]any{"days": int(max.Hours() / 24)})
	}
	return begin.In(r.loc), end.In(r.loc), nil
}
