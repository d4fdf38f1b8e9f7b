package changelog

import (
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// Every version has a date, notes in all three languages with as many
// notes in each, and the list runs newest first.
func TestChangelog(t *testing.T) {
	all, err := Entries()
	if err != nil || len(all) == 0 {
		t.Fatalf("%v %v", all, err)
	}
	var last time.Time
	for i, e := range all {
		d, err := time.Parse(time.DateOnly, e.Date)
		if err != nil || e.Version == "" {
			t.Errorf("%d: version %q date %q", i, e.Version, e.Date)
		}
		if i > 0 && !d.Before(last) {
			t.Errorf("%s is not older than the one before", e.Version)
		}
		last = d
		n := len(e.Notes["zh_CN"])
		for _, lang := range []string{"zh_CN", "zh_TW", "en_US"} {
			if len(e.Notes[lang]) == 0 || len(e.Notes[lang]) != n {
				t.Errorf("%s: %d notes in %s, %d in zh_CN", e.Version, len(e.Notes[lang]), lang, n)
			}
			for _, note := range e.Notes[lang] {
				if note == "" {
					t.Errorf("%s: an empty note in %s", e.Version, lang)
				}
			}
		}
	}
	en, _ := In(i18n.EnUS)
	if en[0].Notes[0] != all[0].Notes["en_US"][0] {
		t.Errorf("In: %+v", en[0])
	}
}
