package advice

// Heat and waterlogging, by hand: a forecast maximum of 35 °C (the CMA's
// threshold) within the next three days is a heat task for that day, 34.9 °C
// is not, and a heat day four days out is not yet today's task; a root zone
// above 90 % of field capacity is a waterlogging task and not an irrigation
// one. The advisor's sentences for both, in the three languages.

import (
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

func day(t time.Time, n int, tmin, tmax float64) forecast.Day {
	return forecast.Day{Date: t.AddDate(0, 0, n), TempMin: &tmin, TempMax: &tmax}
}

func TestRiskOf_HeatWithinThreeDays(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	today := time.Date(2026, 7, 14, 0, 0, 0, 0, loc)
	now := today.Add(9 * time.Hour)
	cases := []struct {
		name string
		days []forecast.Day
		want *Extreme
	}{
		{"35.0 the day after tomorrow", []forecast.Day{day(today, 0, 22, 31), day(today, 1, 23, 34.9), day(today, 2, 25, 35.0), day(today, 3, 26, 38)},
			&Extreme{Day: "2026-07-16", Temp: 35}},
		{"34.9 at most", []forecast.Day{day(today, 0, 22, 31), day(today, 1, 23, 34.9), day(today, 2, 24, 33)}, nil},
		{"only four days out", []forecast.Day{day(today, 0, 22, 31), day(today, 1, 23, 33), day(today, 2, 24, 33), day(today, 3, 26, 38)}, nil},
		{"today, the first of two", []forecast.Day{day(today, 0, 22, 36.2), day(today, 1, 23, 37)}, &Extreme{Day: "2026-07-14", Temp: 36.2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fr := riskOf(&forecast.Forecast{Provider: "test", Days: c.days}, today, now, loc)
			if fr.Frost != nil {
				t.Errorf("frost in summer: %+v", fr.Frost)
			}
			switch {
			case c.want == nil && fr.Heat != nil:
				t.Errorf("heat: %+v, want none", fr.Heat)
			case c.want != nil && (fr.Heat == nil || fr.Heat.Day != c.want.Day || fr.Heat.Temp != c.want.Temp):
				t.Errorf("heat: %+v, want %+v", fr.Heat, c.want)
			}
			if len(fr.Days) != len(c.days) {
				t.Errorf("%d forecast days, want %d", len(fr.Days), len(c.days))
			}
		})
	}
}

func newDescriber(loc *time.Location) *Service {
	history := telemetry.NewHistory(telemetry.HistoryOptions{Location: loc})
	return New(Options{Readings: readings.New(history, nil)})
}

func TestPropose_HeatAndWaterlogging(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	now := time.Date(2026, 7, 14, 9, 0, 0, 0, loc)
	r := &Reality{
		// The field's first device is its weather station: forecast tasks go to it.
		Devices: []DeviceRef{{ID: 9, Name: "Station"}, {ID: 7, Name: "Field A probe"}},
		// Field capacity 30 vol %, 28.5 read: 95 % of it, 1.5 mm below in 10 cm.
		Water:    []Water{{DeviceID: 7, FieldCapacity: 30, Moisture: 28.5, Relative: 95, Depletion: 1.5, RAW: 30, NeedsWater: false, Waterlogged: true}},
		Forecast: &ForecastRisk{Heat: &Extreme{Day: "2026-07-16", Temp: 35}},
		now:      now,
	}
	tasks := propose(r)
	probe, heat := tasks[7], tasks[9]
	if len(tasks) != 2 {
		t.Fatalf("tasks by device: %+v", tasks)
	}
	if len(probe) != 1 || probe[0].Kind != KindWaterlogging || probe[0].Facts.Relative == nil || *probe[0].Facts.Relative != 95 {
		t.Fatalf("the probe's tasks: %+v", probe)
	}
	if len(heat) != 1 || heat[0].Kind != KindHeat || *heat[0].Facts.Temp != 35 || heat[0].Facts.Day != "2026-07-16" {
		t.Fatalf("heat: %+v", heat)
	}
	// The same field drier and cooler: nothing.
	r.Water[0].Waterlogged, r.Forecast.Heat = false, nil
	if tasks := propose(r); len(tasks) != 0 {
		t.Fatalf("tasks of a quiet field: %+v", tasks)
	}

	s := newDescriber(loc)
	want := map[i18n.Lang][2][]string{
		i18n.EnUS: {{"Field A probe", "95", "90"}, {"35", "2026-07-16"}},
		i18n.ZhCN: {{"Field A probe", "95", "90"}, {"35", "2026-07-16"}},
		i18n.ZhTW: {{"Field A probe", "95", "90"}, {"35", "2026-07-16"}},
	}
	seen := map[string]i18n.Lang{}
	for lang, parts := range want {
		wet := s.Describe(&probe[0], "Field A probe", lang)
		hot := s.Describe(&heat[0], "Station", lang)
		for i, text := range []Text{wet, hot} {
			all := text.Title + " " + strings.Join(text.Steps, " ")
			if strings.Contains(all, "advice.") || text.Title == "" || len(text.Steps) != 1 {
				t.Errorf("%s: untranslated or empty: %+v", lang, text)
			}
			for _, p := range parts[i] {
				if !strings.Contains(all, p) {
					t.Errorf("%s: %q lacks %q", lang, all, p)
				}
			}
			if other, ok := seen[text.Title]; ok {
				t.Errorf("%s and %s share the title %q", lang, other, text.Title)
			}
			seen[text.Title] = lang
		}
	}
}
