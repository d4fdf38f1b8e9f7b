package sheet

import (
	"bytes"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// One row per element of each record, in the reader's language, times in
// the farm's zone, values as numbers.
func TestDetectionRecords(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	lat, lng := 34.5, 113.25
	list := []ailab.Record{
		{DeviceName: "Trap 1", SN: "IB01", AppName: "Moths", DetectedAt: time.Date(2026, 3, 1, 4, 0, 0, 0, time.UTC),
			Location: "North", Lat: &lat, Lng: &lng, Packages: []ailab.RecordPackage{
				{Identifier: "moth", Name: "Moth", Unit: "head", Average: 12.4, Valid: 12},
				{Identifier: "beetle", Name: "Beetle", Unit: "head", Average: 0.2, Valid: 0}}},
		{DeviceName: "Trap 2", SN: "IB02", AppName: "Moths", DetectedAt: time.Date(2026, 3, 2, 4, 0, 0, 0, time.UTC)},
	}
	for _, lang := range i18n.Langs {
		var b bytes.Buffer
		if err := DetectionRecords(&b, lang, list, loc); err != nil {
			t.Fatal(err)
		}
		f, err := excelize.OpenReader(&b)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := f.GetRows(detectionSheetNames.In(lang))
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 4 {
			t.Fatalf("%s: %d rows, want a header and 3", lang, len(rows))
		}
		if rows[0][3] != detectionColumns[3].names.In(lang) || rows[0][3] == "" {
			t.Errorf("%s: header %q", lang, rows[0])
		}
		if got := rows[1]; got[0] != "Trap 1" || got[3] != "2026-03-01 12:00:00" || got[5] != "113.25" || got[7] != "Moth" || got[10] != "12.4" || got[11] != "12" {
			t.Errorf("%s: first row %q", lang, got)
		}
		if got := rows[2]; got[8] != "beetle" || got[11] != "0" {
			t.Errorf("%s: second element %q", lang, got)
		}
		if got := rows[3]; got[1] != "IB02" || len(got) > 7 {
			t.Errorf("%s: a record without packages %q", lang, got)
		}
		_ = f.Close()
	}
}
