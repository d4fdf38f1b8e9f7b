package weather

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
)

// fixedCrop has Kc 0.5 from its first day on.
type fixedCrop struct{ from time.Time }

func (c fixedCrop) On(day time.Time) CropDay {
	if day.Before(c.from) {
		return CropDay{Stage: "outside"}
	}
	kc := 0.5
	return CropDay{Kc: &kc, Stage: "initial"}
}

type source struct {
	f   *forecast.Forecast
	err error
}

func (s source) Enabled() bool { return true }

func (s source) Daily(context.Context, float64, float64) (*forecast.Forecast, error) {
	return s.f, s.err
}

func TestForecasts_At(t *testing.T) {
	day0 := time.Date(2026, 5, 30, 0, 0, 0, 0, time.UTC)
	v := func(x float64) *float64 { return &x }
	f := &forecast.Forecast{Provider: "p", Days: []forecast.Day{
		{Date: day0, Rain: v(12.6), ET0: v(4), WindMax: v(7.912)},
		{Date: day0.AddDate(0, 0, 1), Rain: v(0), ET0: v(6)},
		{Date: day0.AddDate(0, 0, 2)},
	}}
	lat, lng := 37.45, 116.3
	d := &devices.Device{ID: 1, Lat: &lat, Lng: &lng}

	got := Forecasts{Source: source{f: f}}.At(context.Background(), d, fixedCrop{from: day0.AddDate(0, 0, 1)})
	if got == nil || len(got.Days) != 3 || got.RainTotal != 12.6 || got.ET0Total != 10 {
		t.Fatalf("forecast %+v", got)
	}
	first, second := got.Days[0], got.Days[1]
	if first.Kc != nil || first.Stage != "outside" || first.ETc != nil || first.RainClass != "moderate" || *first.WindMax != 7.91 || *first.WindLevel != 4 {
		t.Errorf("first day %+v", first)
	}
	if *second.Kc != 0.5 || *second.ETc != 3 || got.ETcTotal == nil || *got.ETcTotal != 3 {
		t.Errorf("second day %+v, ETc total %v", second, got.ETcTotal)
	}
	if got := (Forecasts{Source: source{f: f}}).At(context.Background(), d, nil); got.ETcTotal != nil || got.Days[1].Kc != nil {
		t.Errorf("without a crop: %+v", got)
	}
	for name, fs := range map[string]Forecasts{"NoProvider": {}, "Failing": {Source: source{err: errors.New("down")}}} {
		if got := fs.At(context.Background(), d, nil); got != nil {
			t.Errorf("%s: %+v", name, got)
		}
	}
	if got := (Forecasts{Source: source{f: f}}).At(context.Background(), &devices.Device{ID: 2}, nil); got != nil {
		t.Errorf("no position: %+v", got)
	}
}
