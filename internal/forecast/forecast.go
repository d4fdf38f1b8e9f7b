// Package forecast fetches 7-day daily weather forecasts (temperature,
// rain, FAO-56 reference evapotranspiration and wind) for a place from a
// provider speaking the Open-Meteo forecast API, and keeps each answer for
// a while. Without a provider URL it answers ErrUnavailable, and the
// analyses show observations only.
package forecast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Config configures the client.
type Config struct {
	// BaseURL is the provider's address, e.g. https://api.open-meteo.com;
	// the client calls {BaseURL}/v1/forecast. Empty: no forecasts.
	BaseURL string
	// TTL is how long an answer is reused for the same place (default 1 h).
	TTL time.Duration
	// Location is the zone the forecast days are in, the console's
	// --timezone (default Asia/Shanghai).
	Location *time.Location
	// HTTP is the client for the provider (default: 15 s timeout).
	HTTP *http.Client
}

// Days is how many days a forecast covers (SPEC §9: 7-day ET0 and rain).
const Days = 7

// failTTL is how long a failed fetch is remembered: a provider that is down
// costs one timeout a minute per place, not one per page view.
const failTTL = time.Minute

// ErrUnavailable is returned when no provider is configured.
var ErrUnavailable = errors.New("forecast: no provider configured")

// Day is one forecast day. A value the provider did not give is nil.
type Day struct {
	Date    time.Time // local midnight
	TempMax *float64  // °C at 2 m
	TempMin *float64  // °C at 2 m
	Rain    *float64  // precipitation sum, mm
	ET0     *float64  // FAO-56 Penman-Monteith reference ET, mm
	WindMax *float64  // maximum wind speed at 10 m, m/s
}

// Hour is one hour's forecast air temperature, °C at 2 m; nil when the
// provider gave none.
type Hour struct {
	Time time.Time
	Temp *float64
}

// Forecast is the provider's answer for one place.
type Forecast struct {
	Provider  string    // the provider's host
	Latitude  float64   // the grid point the provider answered for
	Longitude float64   //
	Elevation float64   // m, the provider's elevation of that point
	FetchedAt time.Time // when it was fetched (cached answers keep theirs)
	Days      []Day
	// Hours are the hourly temperatures over the same days (when the time of
	// a minimum matters: frost at 05:00); empty when the provider gave none.
	Hours []Hour
}

// Totals are the rain and ET0 summed over the days that have them, mm.
func (f *Forecast) Totals() (rain, et0 float64) {
	for _, d := range f.Days {
		if d.Rain != nil {
			rain += *d.Rain
		}
		if d.ET0 != nil {
			et0 += *d.ET0
		}
	}
	return rain, et0
}

// Client fetches and caches forecasts. Its methods are safe for concurrent use.
type Client struct {
	cfg  Config
	base string
	now  func() time.Time

	mu    sync.Mutex
	cache map[place]entry
}

type place struct{ lat, lng int64 } // hundredths of a degree

type entry struct {
	f       *Forecast
	err     error
	expires time.Time
}

// New returns a client for c.
func New(c Config) *Client {
	if c.TTL <= 0 {
		c.TTL = time.Hour
	}
	if c.Location == nil {
		if loc, err := time.LoadLocation("Asia/Shanghai"); err == nil {
			c.Location = loc
		} else {
			c.Location = time.FixedZone("CST", 8*3600)
		}
	}
	if c.HTTP == nil {
		c.HTTP = &http.Client{Timeout: 15 * time.Second}
	}
	return &Client{cfg: c, base: strings.TrimRight(strings.TrimSpace(c.BaseURL), "/"), now: time.Now, cache: map[place]entry{}}
}

// Enabled reports whether a provider is configured.
func (c *Client) Enabled() bool { return c != nil && c.base != "" }

// Daily returns the 7-day forecast at WGS84 lat, lng. Places within 0.01°
// (about a kilometre, finer than any provider's grid) share one cached
// answer. Returns ErrUnavailable without a provider, or the provider's
// failure (also remembered for a minute).
func (c *Client) Daily(ctx context.Context, lat, lng float64) (*Forecast, error) {
	if !c.Enabled() {
		return nil, ErrUnavailable
	}
	if !(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180) {
		return nil, fmt.Errorf("forecast: %g, %g is not a position", lat, lng)
	}
	key := place{int64(math.Round(lat * 100)), int64(math.Round(lng * 100))}
	now := c.now()
	c.mu.Lock()
	e, ok := c.cache[key]
	c.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.f, e.err
	}
	f, err := c.fetch(ctx, float64(key.lat)/100, float64(key.lng)/100)
	if ctx.Err() != nil {
		return nil, err // the caller gave up: nothing learnt about the provider
	}
	e = entry{f: f, err: err, expires: now.Add(c.cfg.TTL)}
	if err != nil {
		e.expires = now.Add(min(failTTL, c.cfg.TTL))
	}
	c.mu.Lock()
	for k, old := range c.cache { // drop what expired, so the map does not grow forever
		if !now.Before(old.expires) {
			delete(c.cache, k)
		}
	}
	c.cache[key] = e
	c.mu.Unlock()
	return f, err
}

// dailyVars are the Open-Meteo daily variables asked for, in this order.
var dailyVars = []string{"temperature_2m_max", "temperature_2m_min", "precipitation_sum", "et0_fao_evapotranspiration", "wind_speed_10m_max"}

// response is the part of Open-Meteo's answer the client reads. Values the
// model lacks are null. An error answers HTTP 400 with {"error": true,
// "reason": "…"}.
type response struct {
	Latitude   float64                    `json:"latitude"`
	Longitude  float64                    `json:"longitude"`
	Elevation  float64                    `json:"elevation"`
	DailyUnits map[string]string          `json:"daily_units"`
	Daily      map[string]json.RawMessage `json:"daily"`
	Hourly     struct {
		Time []string   `json:"time"`
		Temp []*float64 `json:"temperature_2m"`
	} `json:"hourly"`
	Error  bool   `json:"error"`
	Reason string `json:"reason"`
}

func (c *Client) fetch(ctx context.Context, lat, lng float64) (*Forecast, error) {
	q := url.Values{}
	q.Set("latitude", strconv.FormatFloat(lat, 'f', -1, 64))
	q.Set("longitude", strconv.FormatFloat(lng, 'f', -1, 64))
	q.Set("daily", strings.Join(dailyVars, ","))
	q.Set("hourly", "temperature_2m")
	q.Set("wind_speed_unit", "ms")
	q.Set("timezone", c.cfg.Location.String())
	q.Set("forecast_days", strconv.Itoa(Days))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/forecast?"+q.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("forecast: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	res, err := c.cfg.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("forecast: %w", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("forecast: read answer: %w", err)
	}
	var r response
	jsonErr := json.Unmarshal(body, &r)
	if res.StatusCode != http.StatusOK || r.Error {
		if jsonErr == nil && r.Reason != "" {
			return nil, fmt.Errorf("forecast: provider answered %d: %s", res.StatusCode, r.Reason)
		}
		return nil, fmt.Errorf("forecast: provider answered %d", res.StatusCode)
	}
	if jsonErr != nil {
		return nil, fmt.Errorf("forecast: decode answer: %w", jsonErr)
	}
	f, err := c.parse(&r)
	if err != nil {
		return nil, err
	}
	f.Provider = req.URL.Host
	f.FetchedAt = c.now()
	return f, nil
}

func (c *Client) parse(r *response) (*Forecast, error) {
	var times []string
	if err := json.Unmarshal(r.Daily["time"], &times); err != nil || len(times) == 0 {
		return nil, errors.New("forecast: the answer has no daily times")
	}
	cols := make(map[string][]*float64, len(dailyVars))
	for _, v := range dailyVars {
		raw, ok := r.Daily[v]
		if !ok {
			continue // the provider lacks this variable: every day has nil
		}
		var col []*float64
		if err := json.Unmarshal(raw, &col); err != nil {
			return nil, fmt.Errorf("forecast: daily %s: %w", v, err)
		}
		if len(col) != len(times) {
			return nil, fmt.Errorf("forecast: daily %s has %d values for %d days", v, len(col), len(times))
		}
		cols[v] = col
	}
	// Wind comes in m/s as asked; a provider ignoring wind_speed_unit says
	// so in daily_units and is converted.
	windScale := 1.0
	switch r.DailyUnits["wind_speed_10m_max"] {
	case "km/h":
		windScale = 1 / 3.6
	case "kn":
		windScale = 1852.0 / 3600
	case "mp/h", "mph":
		windScale = 0.44704
	}
	f := &Forecast{Latitude: r.Latitude, Longitude: r.Longitude, Elevation: r.Elevation}
	for i, ts := range times {
		day, err := time.ParseInLocation(time.DateOnly, ts, c.cfg.Location)
		if err != nil {
			return nil, fmt.Errorf("forecast: daily time %q: %w", ts, err)
		}
		at := func(v string) *float64 {
			if col := cols[v]; col != nil && col[i] != nil && !math.IsNaN(*col[i]) {
				x := *col[i]
				return &x
			}
			return nil
		}
		d := Day{Date: day, TempMax: at("temperature_2m_max"), TempMin: at("temperature_2m_min"),
			Rain: at("precipitation_sum"), ET0: at("et0_fao_evapotranspiration"), WindMax: at("wind_speed_10m_max")}
		if d.WindMax != nil {
			*d.WindMax *= windScale
		}
		f.Days = append(f.Days, d)
	}
	// Hourly temperatures are a bonus: a provider without them, or with a
	// column that does not line up, leaves Hours empty.
	if h := r.Hourly; len(h.Time) > 0 && len(h.Temp) == len(h.Time) {
		for i, ts := range h.Time {
			at, err := time.ParseInLocation("2006-01-02T15:04", ts, c.cfg.Location)
			if err != nil {
				f.Hours = nil
				break
			}
			var v *float64
			if h.Temp[i] != nil && !math.IsNaN(*h.Temp[i]) {
				x := *h.Temp[i]
				v = &x
			}
			f.Hours = append(f.Hours, Hour{Time: at, Temp: v})
		}
	}
	return f, nil
}
