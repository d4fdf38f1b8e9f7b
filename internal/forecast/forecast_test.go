package forecast_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/forecast"
)

// openMeteoAnswer is an answer in Open-Meteo's format for the query the
// client sends (daily variables, wind in m/s, Asia/Shanghai), with a null
// where the model has no value.
const openMeteoAnswer = `{"latitude":37.45,"longitude":116.3,"generationtime_ms":0.2,"utc_offset_seconds":28800,
"timezone":"Asia/Shanghai","timezone_abbreviation":"GMT+8","elevation":21.0,
"daily_units":{"time":"iso8601","temperature_2m_max":"°C","temperature_2m_min":"°C","precipitation_sum":"mm",
 "et0_fao_evapotranspiration":"mm","wind_speed_10m_max":"m/s"},
"daily":{"time":["2026-06-01","2026-06-02","2026-06-03","2026-06-04","2026-06-05","2026-06-06","2026-06-07"],
 "temperature_2m_max":[31.2,30.1,28.4,27.9,29.5,32.0,33.1],
 "temperature_2m_min":[19.0,18.2,17.5,16.9,18.8,20.1,21.0],
 "precipitation_sum":[0.0,2.4,12.6,0.0,0.0,null,0.3],
 "et0_fao_evapotranspiration":[5.61,4.92,3.1,5.2,5.74,6.02,6.3],
 "wind_speed_10m_max":[4.2,5.1,7.9,3.3,2.8,3.0,4.4]}}`

// provider is a local server speaking Open-Meteo's forecast API.
type provider struct {
	*httptest.Server
	calls atomic.Int32
	query atomic.Value // the last query string
}

func newProvider(t *testing.T, status int, body string) *provider {
	p := &provider{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.calls.Add(1)
		p.query.Store(r.URL.Query())
		if r.URL.Path != "/v1/forecast" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(p.Close)
	return p
}

func shanghai(t *testing.T) *time.Location {
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestClient_Daily(t *testing.T) {
	p := newProvider(t, 200, openMeteoAnswer)
	c := forecast.New(forecast.Config{BaseURL: p.URL + "/", Location: shanghai(t)})
	f, err := c.Daily(context.Background(), 37.4512, 116.2987)
	if err != nil {
		t.Fatal(err)
	}
	q := p.query.Load().(interface{ Get(string) string })
	for k, want := range map[string]string{
		"latitude": "37.45", "longitude": "116.3", "timezone": "Asia/Shanghai", "forecast_days": "7", "wind_speed_unit": "ms",
		"daily":  "temperature_2m_max,temperature_2m_min,precipitation_sum,et0_fao_evapotranspiration,wind_speed_10m_max",
		"hourly": "temperature_2m",
	} {
		if got := q.Get(k); got != want {
			t.Errorf("query %s = %q, want %q", k, got, want)
		}
	}
	if len(f.Days) != 7 || f.Elevation != 21 || !strings.HasPrefix(f.Provider, "127.0.0.1:") {
		t.Fatalf("forecast: %+v", f)
	}
	d := f.Days[2]
	if got := d.Date.Format(time.RFC3339); got != "2026-06-03T00:00:00+08:00" {
		t.Errorf("date %s", got)
	}
	if *d.TempMax != 28.4 || *d.TempMin != 17.5 || *d.Rain != 12.6 || *d.ET0 != 3.1 || *d.WindMax != 7.9 {
		t.Errorf("day 3: %v %v %v %v %v", *d.TempMax, *d.TempMin, *d.Rain, *d.ET0, *d.WindMax)
	}
	if f.Days[5].Rain != nil {
		t.Errorf("a null stays nil: %v", *f.Days[5].Rain)
	}
	rain, et0 := f.Totals()
	if diff(rain, 15.3) > 1e-9 || diff(et0, 36.89) > 1e-9 {
		t.Errorf("totals rain %v et0 %v", rain, et0)
	}
}

func diff(a, b float64) float64 {
	if a > b {
		return a - b
	}
	return b - a
}

func TestClient_Cache(t *testing.T) {
	p := newProvider(t, 200, openMeteoAnswer)
	c := forecast.New(forecast.Config{BaseURL: p.URL, TTL: time.Hour})
	ctx := context.Background()
	a, err := c.Daily(ctx, 37.451, 116.301)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Daily(ctx, 37.449, 116.299) // the same 0.01° cell
	if err != nil {
		t.Fatal(err)
	}
	if p.calls.Load() != 1 || a != b {
		t.Fatalf("a second ask of the same place fetched again: %d calls", p.calls.Load())
	}
	if _, err := c.Daily(ctx, 36.0, 116.3); err != nil || p.calls.Load() != 2 {
		t.Fatalf("another place: %v, %d calls", err, p.calls.Load())
	}
}

func TestClient_TTL(t *testing.T) {
	p := newProvider(t, 200, openMeteoAnswer)
	c := forecast.New(forecast.Config{BaseURL: p.URL, TTL: 20 * time.Millisecond})
	ctx := context.Background()
	if _, err := c.Daily(ctx, 37.45, 116.3); err != nil {
		t.Fatal(err)
	}
	time.Sleep(40 * time.Millisecond)
	if _, err := c.Daily(ctx, 37.45, 116.3); err != nil {
		t.Fatal(err)
	}
	if p.calls.Load() != 2 {
		t.Fatalf("an expired answer was reused: %d calls", p.calls.Load())
	}
}

func TestClient_Unavailable(t *testing.T) {
	ctx := context.Background()
	t.Run("NoProvider", func(t *testing.T) {
		c := forecast.New(forecast.Config{})
		if c.Enabled() {
			t.Fatal("enabled without a URL")
		}
		if _, err := c.Daily(ctx, 37, 116); !errors.Is(err, forecast.ErrUnavailable) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ProviderError", func(t *testing.T) {
		p := newProvider(t, 400, `{"error":true,"reason":"Latitude must be in range of -90 to 90°. Given: 137.0."}`)
		c := forecast.New(forecast.Config{BaseURL: p.URL})
		_, err := c.Daily(ctx, 37, 116)
		if err == nil || !strings.Contains(err.Error(), "Latitude must be in range") {
			t.Fatalf("err %v", err)
		}
		// The failure is remembered: the provider is not asked again at once.
		if _, err := c.Daily(ctx, 37, 116); err == nil || p.calls.Load() != 1 {
			t.Fatalf("retried at once: %v, %d calls", err, p.calls.Load())
		}
	})
	t.Run("ProviderDown", func(t *testing.T) {
		p := newProvider(t, 200, openMeteoAnswer)
		base := p.URL
		p.Close()
		c := forecast.New(forecast.Config{BaseURL: base})
		if _, err := c.Daily(ctx, 37, 116); err == nil {
			t.Fatal("no error from a closed server")
		}
	})
	t.Run("Malformed", func(t *testing.T) {
		for name, body := range map[string]string{
			"NotJSON":        `<html>`,
			"NoDays":         `{"daily":{}}`,
			"ShortColumn":    `{"daily":{"time":["2026-06-01","2026-06-02"],"precipitation_sum":[1]}}`,
			"BadDate":        `{"daily":{"time":["June 1"]}}`,
			"WrongValueType": `{"daily":{"time":["2026-06-01"],"precipitation_sum":["wet"]}}`,
		} {
			p := newProvider(t, 200, body)
			if _, err := forecast.New(forecast.Config{BaseURL: p.URL}).Daily(ctx, 37, 116); err == nil {
				t.Errorf("%s: no error", name)
			}
		}
	})
	t.Run("BadPosition", func(t *testing.T) {
		p := newProvider(t, 200, openMeteoAnswer)
		if _, err := forecast.New(forecast.Config{BaseURL: p.URL}).Daily(ctx, 95, 116); err == nil || p.calls.Load() != 0 {
			t.Fatalf("err %v, %d calls", err, p.calls.Load())
		}
	})
}

func TestClient_WindInKmH(t *testing.T) {
	body := strings.Replace(openMeteoAnswer, `"wind_speed_10m_max":"m/s"`, `"wind_speed_10m_max":"km/h"`, 1)
	p := newProvider(t, 200, body)
	f, err := forecast.New(forecast.Config{BaseURL: p.URL}).Daily(context.Background(), 37.45, 116.3)
	if err != nil {
		t.Fatal(err)
	}
	if got := *f.Days[0].WindMax; diff(got, 4.2/3.6) > 1e-9 {
		t.Fatalf("wind %v m/s", got)
	}
}

// Hourly temperatures, when the provider gives them, come with the days:
// the frost advice takes the time of the minimum from them.
func TestClient_Hourly(t *testing.T) {
	answer := `{"daily":{"time":["2026-06-01"],"temperature_2m_min":[-2]},
"hourly":{"time":["2026-06-01T04:00","2026-06-01T05:00","2026-06-01T06:00"],"temperature_2m":[-1.5,-2,null]}}`
	p := newProvider(t, 200, answer)
	c := forecast.New(forecast.Config{BaseURL: p.URL, Location: shanghai(t)})
	f, err := c.Daily(context.Background(), 37.45, 116.3)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Hours) != 3 || *f.Hours[1].Temp != -2 || f.Hours[2].Temp != nil ||
		f.Hours[1].Time.Format(time.RFC3339) != "2026-06-01T05:00:00+08:00" {
		t.Fatalf("hours %+v", f.Hours)
	}
	// A column that does not line up is dropped, the days kept.
	p2 := newProvider(t, 200, `{"daily":{"time":["2026-06-01"]},"hourly":{"time":["2026-06-01T04:00"],"temperature_2m":[]}}`)
	f, err = forecast.New(forecast.Config{BaseURL: p2.URL, Location: shanghai(t)}).Daily(context.Background(), 37.45, 116.3)
	if err != nil || len(f.Days) != 1 || len(f.Hours) != 0 {
		t.Fatalf("misaligned hours: %+v %v", f, err)
	}
}
