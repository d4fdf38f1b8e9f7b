// Package analysis computes, on read, what the soil, weather, rain-gauge and
// landslide screens show beyond raw readings: relative moisture and drought
// grades, irrigation recognition, waterlogging, freeze–thaw and root depth,
// ET0, Kc and ETc, rain classes and rainstorm warnings, intensity–duration
// thresholds, the Fire Weather Index, tilt trends, and the 7-day forecast.
// The science is internal/agro; this package picks each device's readings,
// checks who may see them, and holds the soil settings those analyses need.
package analysis

import (
	"cmp"
	"context"
	"log/slog"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// Devices is what the analyses need of the device service.
type Devices interface {
	// Get returns a device the viewer can see and their right on it;
	// ENOTFOUND for one they cannot see, exactly as for one that does not exist.
	Get(ctx context.Context, viewer, id int64) (*devices.Device, devices.Right, error)
	// All returns every device the viewer can see.
	All(ctx context.Context, viewer int64) ([]*devices.Device, error)
}

// Telemetry reads stored readings.
type Telemetry interface {
	Series(ctx context.Context, q telemetry.Query) ([]telemetry.Series, error)
	Days(ctx context.Context, q telemetry.Query) ([]telemetry.Day, error)
	Latest(ctx context.Context, deviceID int64) ([]telemetry.Reading, error)
}

// Store keeps the soil settings.
type Store interface {
	// SoilSettings returns a device's settings; ENOTFOUND when it has none.
	SoilSettings(ctx context.Context, deviceID int64) (*SoilSettings, error)
	// SaveSoilSettings creates or replaces a device's settings.
	SaveSoilSettings(ctx context.Context, s *SoilSettings) error
}

// Forecaster gives the 7-day forecast at a place (package forecast).
type Forecaster interface {
	Enabled() bool
	Daily(ctx context.Context, lat, lng float64) (*forecast.Forecast, error)
}

// Options configure a Service.
type Options struct {
	Devices   Devices
	Telemetry Telemetry
	Store     Store
	// Forecast gives forecasts; nil or one without a provider makes every
	// view say the forecast is unavailable.
	Forecast Forecaster
	// Location is where days begin (the --timezone of daily rollups).
	Location *time.Location
	Log      *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Service computes the analyses. Every method takes the caller (viewer) and
// a device id and answers ENOTFOUND when the caller cannot see the device,
// exactly as for a device that does not exist.
type Service struct {
	devices  Devices
	tel      Telemetry
	store    Store
	forecast Forecaster
	loc      *time.Location
	log      *slog.Logger
	now      func() time.Time
}

// New returns the analyses service.
func New(o Options) *Service {
	s := &Service{devices: o.Devices, tel: o.Telemetry, store: o.Store, forecast: o.Forecast, loc: o.Location, log: o.Log, now: time.Now}
	if s.loc == nil {
		s.loc = time.Local
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if o.Now != nil {
		s.now = o.Now
	}
	return s
}

// Range is the time range of a call.
type Range = readings.Range

// span resolves r: End defaults to now, Begin to End − def; the range may
// not be empty nor longer than max. Returns EINVALID naming begin or end.
func (s *Service) span(r Range, def, max time.Duration) (time.Time, time.Time, error) {
	end := r.End
	if end.IsZero() {
		end = s.now()
	}
	begin := r.Begin
	if begin.IsZero() {
		begin = end.Add(-def)
	}
	if !begin.Before(end) {
		return time.Time{}, time.Time{}, errs.Invalid("end", "query.endBeforeBegin")
	}
	if end.Sub(begin) > max+time.Minute { // a minute of slack for "now" moving between calls
		return time.Time{}, time.Time{}, errs.Invalid("begin", "query.rangeTooLong").With(map[string]any{"days": int(max.Hours() / 24)})
	}
	return begin.In(s.loc), end.In(s.loc), nil
}

const day = 24 * time.Hour

// device loads a device the viewer can see and checks its type measures
// every param in need. Returns ENOTFOUND, or EINVALID (analysis.unsupported)
// naming the id when the device cannot give this analysis.
func (s *Service) device(ctx context.Context, viewer, id int64, need ...string) (*devices.Device, *devices.Type, devices.Right, error) {
	d, r, err := s.devices.Get(ctx, viewer, id)
	if err != nil {
		return nil, nil, devices.Right{}, err
	}
	t := d.Type()
	if t == nil {
		return nil, nil, devices.Right{}, errs.ErrNotFound
	}
	if missing := missingParams(t, need...); len(missing) > 0 {
		return nil, nil, devices.Right{}, unsupported(missing)
	}
	return d, t, r, nil
}

func missingParams(t *devices.Type, need ...string) []string {
	var missing []string
	for _, p := range need {
		if _, ok := t.Param(p); !ok {
			missing = append(missing, p)
		}
	}
	return missing
}

func has(t *devices.Type, param string) bool {
	_, ok := t.Param(param)
	return ok
}

func unsupported(params []string) error {
	return errs.Invalid("id", "analysis.unsupported").With(map[string]any{"params": strings.Join(params, ", ")})
}

// soilDevice loads a device with soil-moisture nodes.
func (s *Service) soilDevice(ctx context.Context, viewer, id int64, need ...string) (*devices.Device, *devices.Type, devices.Right, error) {
	d, t, r, err := s.device(ctx, viewer, id, append([]string{"soilMoisture"}, need...)...)
	if err == nil && len(t.Nodes) == 0 {
		err = unsupported([]string{"soilMoisture"})
	}
	return d, t, r, err
}

// midnight is the local midnight beginning t's day.
func (s *Service) midnight(t time.Time) time.Time {
	y, m, d := t.In(s.loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, s.loc)
}

// dayKey identifies a local day by its midnight in unix ms.
func (s *Service) dayKey(t time.Time) int64 { return s.midnight(t).UnixMilli() }

// eachDay calls fn for every local midnight from begin's day up to end (exclusive).
func (s *Service) eachDay(begin, end time.Time, fn func(midnight time.Time)) {
	for d := s.midnight(begin); d.Before(end); d = time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, s.loc) {
		fn(d)
	}
}

// series reads raw readings of params (all nodes when nodes is nil) in [begin, end).
func (s *Service) series(ctx context.Context, deviceID int64, params []string, nodes []int, begin, end time.Time) ([]telemetry.Series, error) {
	q := telemetry.Query{DeviceID: deviceID, Params: params, Begin: begin, End: end}
	if len(nodes) > 0 {
		q.Nodes = nodes
	}
	return s.tel.Series(ctx, q)
}

// readings reads one surface parameter as agro readings in the site's zone.
func (s *Service) readings(ctx context.Context, deviceID int64, param string, begin, end time.Time) ([]agro.Reading, error) {
	ss, err := s.series(ctx, deviceID, []string{param}, []int{0}, begin, end)
	if err != nil {
		return nil, err
	}
	for _, sr := range ss {
		if sr.Param == param && sr.Node == 0 {
			return s.toReadings(sr), nil
		}
	}
	return []agro.Reading{}, nil
}

func (s *Service) toReadings(sr telemetry.Series) []agro.Reading {
	out := make([]agro.Reading, len(sr.TS))
	for i, ts := range sr.TS {
		out[i] = agro.Reading{Time: time.UnixMilli(ts).In(s.loc), Value: sr.V[i]}
	}
	return out
}

// profile reads a per-node parameter as a depth profile, one series per node
// of the type that has readings, shallowest first.
func (s *Service) profile(ctx context.Context, d *devices.Device, t *devices.Type, param string, begin, end time.Time) (agro.Profile, error) {
	ss, err := s.series(ctx, d.ID, []string{param}, t.Nodes, begin, end)
	if err != nil {
		return nil, err
	}
	byNode := map[int]telemetry.Series{}
	for _, sr := range ss {
		if sr.Param == param && sr.Node > 0 {
			byNode[sr.Node] = sr
		}
	}
	var p agro.Profile
	for _, n := range t.Nodes {
		if sr, ok := byNode[n]; ok && len(sr.TS) > 0 {
			p = append(p, agro.DepthSeries{Depth: float64(n), Readings: s.toReadings(sr)})
		}
	}
	return p, nil
}

// rainAmounts reads a device's rainfall readings.
func (s *Service) rainAmounts(ctx context.Context, deviceID int64, begin, end time.Time) ([]agro.RainAmount, error) {
	rs, err := s.readings(ctx, deviceID, "rainfall", begin, end)
	if err != nil {
		return nil, err
	}
	out := make([]agro.RainAmount, len(rs))
	for i, r := range rs {
		out[i] = agro.RainAmount{Time: r.Time, MM: r.Value}
	}
	return out, nil
}

// sumBetween is the rain of the amounts at times in (from, to].
func sumBetween(amounts []agro.RainAmount, from, to time.Time) float64 {
	var sum float64
	for _, a := range amounts {
		if a.Time.After(from) && !a.Time.After(to) {
			sum += a.MM
		}
	}
	return sum
}

// seriesKey names one parameter at one node.
type seriesKey struct {
	param string
	node  int
}

// dayTable is daily rollups by local day (its midnight, unix ms) and series.
type dayTable map[int64]map[seriesKey]telemetry.Day

func (dt dayTable) get(dayMs int64, param string, node int) (telemetry.Day, bool) {
	d, ok := dt[dayMs][seriesKey{param, node}]
	return d, ok && d.Count > 0
}

// days reads the daily rollups of params (nodes: nil for all) for the local
// days from begin's day up to end.
func (s *Service) days(ctx context.Context, deviceID int64, params []string, nodes []int, begin, end time.Time) (dayTable, error) {
	q := telemetry.Query{DeviceID: deviceID, Params: params, Nodes: nodes, Begin: s.midnight(begin), End: end}
	ds, err := s.tel.Days(ctx, q)
	if err != nil {
		return nil, err
	}
	out := dayTable{}
	for _, d := range ds {
		k := s.dayKey(d.Day)
		if out[k] == nil {
			out[k] = map[seriesKey]telemetry.Day{}
		}
		out[k][seriesKey{d.Param, d.Node}] = d
	}
	return out, nil
}

// latest returns the newest reading of each series of a device.
func (s *Service) latest(ctx context.Context, deviceID int64) (map[seriesKey]telemetry.Reading, error) {
	rs, err := s.tel.Latest(ctx, deviceID)
	if err != nil {
		return nil, err
	}
	out := make(map[seriesKey]telemetry.Reading, len(rs))
	for _, r := range rs {
		out[seriesKey{r.Param, r.Node}] = r
	}
	return out, nil
}

// complete reports whether a day's rollup of a parameter holds at least
// half the readings the device sends in a day: a day with a long outage
// would make daily extremes, sums and ET0 wrong.
func complete(d telemetry.Day, dev *devices.Device) bool {
	want := float64(day) / float64(dev.Interval())
	return float64(d.Count) >= want/2
}

// ms is a time as unix milliseconds, the API's time format.
func ms(t time.Time) int64 { return t.UnixMilli() }

// msPtr is ms of an optional time.
func msPtr(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	v := t.UnixMilli()
	return &v
}

// round keeps digits decimals: sums and means carry floating-point noise
// that would only lengthen the answers.
func round(v float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(v*p) / p
}

func ptr(v float64) *float64 { return &v }

func roundPtr(v *float64, digits int) *float64 {
	if v == nil {
		return nil
	}
	return ptr(round(*v, digits))
}

// stationRadius is how far a weather station may be from a device without
// one and still stand for its weather (ET0, rain).
const stationRadiusKm = 30

// Station is the device whose readings stand for a place's weather.
type Station struct {
	ID         int64   `json:"id"`
	Name       string  `json:"name"`
	SN         string  `json:"sn"`
	Own        bool    `json:"own"`        // the device itself
	DistanceKm float64 `json:"distanceKm"` // from the device, 0 for its own
}

// station picks the device whose readings of every param in need stand for
// d's weather: d itself when it measures them, else the station named by
// stationID (which must be visible and measure them), else the nearest
// visible device measuring them within 30 km. Returns nil when there is
// none; EINVALID (field stationId) for a named station that will not do.
func (s *Service) station(ctx context.Context, viewer int64, d *devices.Device, stationID int64, need ...string) (*devices.Device, *Station, error) {
	if t := d.Type(); t != nil && len(missingParams(t, need...)) == 0 {
		return d, &Station{ID: d.ID, Name: d.Name, SN: d.SN, Own: true}, nil
	}
	if stationID > 0 {
		st, _, err := s.devices.Get(ctx, viewer, stationID)
		if errs.KindOf(err) == errs.ENotFound {
			return nil, nil, errs.Invalid("stationId", "analysis.station")
		}
		if err != nil {
			return nil, nil, err
		}
		if t := st.Type(); t == nil || len(missingParams(t, need...)) > 0 {
			return nil, nil, errs.Invalid("stationId", "analysis.station")
		}
		return st, &Station{ID: st.ID, Name: st.Name, SN: st.SN, DistanceKm: round(distanceKm(d, st), 2)}, nil
	}
	if d.Lat == nil || d.Lng == nil {
		return nil, nil, nil
	}
	all, err := s.devices.All(ctx, viewer)
	if err != nil {
		return nil, nil, err
	}
	var best *devices.Device
	bestKm := math.Inf(1)
	for _, c := range all {
		t := c.Type()
		if c.ID == d.ID || t == nil || c.Lat == nil || c.Lng == nil || len(missingParams(t, need...)) > 0 {
			continue
		}
		if km := distanceKm(d, c); km <= stationRadiusKm && (km < bestKm || km == bestKm && c.ID < best.ID) {
			best, bestKm = c, km
		}
	}
	if best == nil {
		return nil, nil, nil
	}
	return best, &Station{ID: best.ID, Name: best.Name, SN: best.SN, DistanceKm: round(bestKm, 2)}, nil
}

// distanceKm is the great-circle distance between two positioned devices.
func distanceKm(a, b *devices.Device) float64 {
	const r = 6371.0
	rad := math.Pi / 180
	lat1, lat2 := *a.Lat*rad, *b.Lat*rad
	dlat, dlng := lat2-lat1, (*b.Lng-*a.Lng)*rad
	h := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1)*math.Cos(lat2)*math.Sin(dlng/2)*math.Sin(dlng/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(h)))
}

// sortedKeys returns a map's keys in order.
func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
