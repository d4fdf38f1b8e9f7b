package readings

import (
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

func TestReader_Span(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	now := time.Date(2026, 5, 30, 14, 20, 0, 0, time.UTC)
	rd := New(telemetry.NewHistory(telemetry.HistoryOptions{Store: nil, Location: loc}), func() time.Time { return now })
	begin, end, err := rd.Span(Range{}, 7*Day, 30*Day)
	if err != nil || !end.Equal(now) || !begin.Equal(now.Add(-7*Day)) || end.Location() != loc {
		t.Fatalf("default: %s %s %v", begin, end, err)
	}
	for _, c := range []struct {
		r     Range
		field string
		code  string
	}{
		{Range{Begin: now, End: now}, "end", "query.endBeforeBegin"},
		{Range{Begin: now.Add(-31 * Day)}, "begin", "query.rangeTooLong"},
	} {
		if _, _, err := rd.Span(c.r, 7*Day, 30*Day); errs.As(err) == nil || errs.As(err).Field != c.field || errs.As(err).Code != c.code {
			t.Errorf("%+v: %v", c.r, err)
		}
	}
	if got := rd.Midnight(now); !got.Equal(time.Date(2026, 5, 30, 0, 0, 0, 0, loc)) {
		t.Errorf("midnight %s", got)
	}
}
