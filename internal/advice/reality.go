// Package advice is Fieldwatch's farm advice: the current state of a device
// or a field (Reality), built from the farm's own readings, forecast and
// alerts, each fact with the readings behind it; a deterministic advisor
// that turns it into a season plan (Strategy) and today's tasks with their
// arithmetic shown; the tasks' history and feedback; and answers to
// questions, from the advisor or from a chat-completions model given the
// same facts. The science is internal/agro; docs/advice.md describes the
// method and its choices.
package advice

import (
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/soil"
	"github.com/fieldwatch/fieldwatch/internal/weather"
)

// Thresholds of the advisor (docs/advice.md says where each comes from).
const (
	// FrostTemp: a forecast minimum at or below it is a frost.
	FrostTemp = 0.0
	// HeatTemp: a forecast maximum at or above it is a heat day (the CMA's
	// high-temperature threshold, 35 °C).
	HeatTemp = 35.0
	// WaterloggedRelative: root-zone moisture above it, % of field capacity,
	// is waterlogging (agro.Waterlogged).
	WaterloggedRelative = 90.0
	// ScoutMinCount: a trap's last 24 h must catch at least this many for a
	// doubling to count (from 2 to 4 insects is noise, not a flight).
	ScoutMinCount = 10.0
	// riskDays is how far ahead frost and heat become today's tasks.
	riskDays = 3
	// pastDays is the window of ET and rain.
	pastDays = 7
	// maxSeasonDays bounds the GDD sum.
	maxSeasonDays = 400
)

// Millis is a time that travels as milliseconds since the epoch, as every
// time of the API does.
type Millis time.Time

// MarshalJSON writes the milliseconds.
func (m Millis) MarshalJSON() ([]byte, error) { return json.Marshal(time.Time(m).UnixMilli()) }

// UnmarshalJSON reads milliseconds.
func (m *Millis) UnmarshalJSON(b []byte) error {
	var ms int64
	if err := json.Unmarshal(b, &ms); err != nil {
		return err
	}
	*m = Millis(time.UnixMilli(ms))
	return nil
}

// T is the time.
func (m Millis) T() time.Time { return time.Time(m) }

func ms(t time.Time) Millis { return Millis(t) }

// Point is one reading.
type Point struct {
	At    Millis  `json:"at"`
	Value float64 `json:"value"`
}

// Source is the readings a fact used: one parameter of one device over a
// time range, with its values or the aggregate taken of them.
type Source struct {
	DeviceID int64    `json:"deviceId"`
	Param    string   `json:"param"`
	Node     int      `json:"node,omitempty"`
	From     Millis   `json:"from"`
	To       Millis   `json:"to"`
	Agg      string   `json:"agg"` // values, last, sum, daily (min/max/mean per day), forecast
	Values   []Point  `json:"values,omitempty"`
	Value    *float64 `json:"value,omitempty"`
	Count    int      `json:"count"`
}

// DeviceRef names a device of the reality.
type DeviceRef struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	SN     string `json:"sn"`
	TypeID int    `json:"typeId"`
}

// Reality is the state of a device or a field now.
type Reality struct {
	At       Millis        `json:"at"`
	Day      string        `json:"day"`
	Devices  []DeviceRef   `json:"devices"`
	Water    []Water       `json:"water"`
	ET       *ETWeek       `json:"et"`
	Rain     *RainWeek     `json:"rain"`
	Crop     *CropState    `json:"crop"`
	Forecast *ForecastRisk `json:"forecast"`
	Insects  []InsectTrend `json:"insects"`
	Alerts   []Alert       `json:"alerts"`
	Gaps     []Gap         `json:"gaps"`
	// NoData lists the items nothing could be said about: water, et, rain,
	// crop, gdd, forecast, insects, alerts.
	NoData []string `json:"noData"`

	devs []*devices.Device
	now  time.Time
}

// Water is a soil device's root zone by the FAO-56 daily water balance
// (chapter 8, eq. 85), started from the probes' last reading: depletion
// Dr = Dr,probe − rain since + ETc since, Dr ≥ 0.
type Water struct {
	DeviceID       int64    `json:"deviceId"`
	RootDepthCM    float64  `json:"rootDepthCm"`
	RootDepthFound bool     `json:"rootDepthFound"` // false: the 0–40 cm fallback
	FieldCapacity  float64  `json:"fieldCapacity"`  // vol %
	Moisture       float64  `json:"moisture"`       // vol %, at the probes' last reading
	Relative       float64  `json:"relative"`       // % of field capacity
	Drought        string   `json:"drought"`
	ProbeAt        Millis   `json:"probeAt"`
	ProbeDepletion float64  `json:"probeDepletion"` // mm below field capacity at ProbeAt
	RainSince      float64  `json:"rainSince"`      // mm
	ETcRate        *float64 `json:"etcRate"`        // mm/day; nil: no ET known
	ETcSource      string   `json:"etcSource,omitempty"`
	HoursSince     float64  `json:"hoursSince"`
	ETcSince       float64  `json:"etcSince"`  // mm
	Depletion      float64  `json:"depletion"` // mm, now
	RAW            float64  `json:"raw"`       // readily available water, mm
	RefillRelative float64  `json:"refillRelative"`
	NeedsWater     bool     `json:"needsWater"` // Depletion ≥ RAW
	Waterlogged    bool     `json:"waterlogged"`
	AreaMu         *float64 `json:"areaMu,omitempty"`
	Sources        []Source `json:"sources"`
}

// ETWeek is the crop's water use over the last 7 complete days.
type ETWeek struct {
	StationID int64    `json:"stationId"`
	Days      []ETDay  `json:"days"`
	ET0Total  float64  `json:"et0Total"`
	ETcTotal  *float64 `json:"etcTotal"`
	Sources   []Source `json:"sources"`
}

// ETDay is one day's reference and crop ET, mm.
type ETDay struct {
	Day string   `json:"day"`
	ET0 float64  `json:"et0"`
	Kc  *float64 `json:"kc"`
	ETc *float64 `json:"etc"`
}

// RainWeek is the rain of the last 7 days and today so far.
type RainWeek struct {
	GaugeID int64     `json:"gaugeId"`
	Days    []RainDay `json:"days"`
	Total   float64   `json:"total"`
	Sources []Source  `json:"sources"`
}

// RainDay is one local day's rain, mm.
type RainDay struct {
	Day string  `json:"day"`
	MM  float64 `json:"mm"`
}

// CropState is the crop of the field and where it stands.
type CropState struct {
	DeviceID    int64    `json:"deviceId"` // whose settings name it
	Crop        string   `json:"crop"`
	CropName    string   `json:"cropName"`
	Variety     string   `json:"variety"`
	Sown        Millis   `json:"sown"`
	DayOfSeason int      `json:"dayOfSeason"`
	Stage       string   `json:"stage"` // FAO-56 stage by days since sowing
	Kc          *float64 `json:"kc"`
	StageEnds   string   `json:"stageEnds,omitempty"`
	GDD         *GDD     `json:"gdd"`
	Stages      []Stage  `json:"stages"`
	Irrigation  string   `json:"irrigationMethod"`
}

// GDD is the growing degree days since sowing: Σ max(0, (Tmax + Tmin)/2 −
// Tbase) over the complete days with readings (McMaster & Wilhelm 1997,
// method 1).
type GDD struct {
	Base      float64  `json:"base"`
	Total     float64  `json:"total"`
	Days      int      `json:"days"`      // days counted
	Missing   int      `json:"missing"`   // days since sowing without readings
	StationID int64    `json:"stationId"` // whose airTemp
	Sources   []Source `json:"sources"`
}

// Stage is one FAO-56 growth stage of the season.
type Stage struct {
	Stage  string  `json:"stage"`
	From   string  `json:"from"`
	To     string  `json:"to"`
	Days   int     `json:"days"`
	KcFrom float64 `json:"kcFrom"`
	KcTo   float64 `json:"kcTo"`
}

// ForecastRisk is the forecast and the frost and heat in it.
type ForecastRisk struct {
	Provider string        `json:"provider"`
	Days     []ForecastDay `json:"days"`
	Frost    *Extreme      `json:"frost"` // the first frost of the next 3 days
	Heat     *Extreme      `json:"heat"`  // the first heat day of the next 3 days
	Sources  []Source      `json:"sources"`
}

// ForecastDay is one forecast day.
type ForecastDay struct {
	Day     string   `json:"day"`
	TempMin *float64 `json:"tempMin"`
	TempMax *float64 `json:"tempMax"`
	Rain    *float64 `json:"rain"`
	ET0     *float64 `json:"et0"`
}

// Extreme is a forecast frost or heat: the day, the temperature and, when
// the provider gave hours, the hour it is reached.
type Extreme struct {
	Day  string  `json:"day"`
	Temp float64 `json:"temp"`
	At   *Millis `json:"at"`
}

// InsectTrend is a trap's catch in the last four 24-hour windows.
type InsectTrend struct {
	DeviceID int64      `json:"deviceId"`
	Param    string     `json:"param"`
	Windows  [4]float64 `json:"windows"` // [0] the last 24 h, [3] 72–96 h ago
	Base     float64    `json:"base"`    // the lowest of windows 1–3
	Doubled  bool       `json:"doubled"`
	Sources  []Source   `json:"sources"`
}

// Alert is an unread alert event of the last 7 days.
type Alert struct {
	ID       int64  `json:"id"`
	DeviceID int64  `json:"deviceId"`
	Rule     string `json:"rule"`
	Level    string `json:"level"`
	At       Millis `json:"at"`
}

// Gap is a device's silence: the latest one it recovered from, or the one it
// is in now.
type Gap struct {
	DeviceID int64   `json:"deviceId"`
	From     Millis  `json:"from"`
	To       *Millis `json:"to"` // nil: still silent
}

// Events lists alert events (rules.Service.Events).
type Events interface {
	Events(ctx context.Context, owner int64, f rules.EventFilter) ([]*rules.Event, int, error)
}

// Options configure a Service.
type Options struct {
	Readings *readings.Reader
	Soil     *soil.Service
	Settings soil.Store
	Forecast weather.Forecaster // nil: no forecast
	Events   Events             // nil: alerts are not known
	Store    Store
	Log      *slog.Logger
}

// Service is the farm advice.
type Service struct {
	o Options
}

// New returns the service.
func New(o Options) *Service {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{o: o}
}

func (s *Service) now() time.Time { return s.o.Readings.Now() }

func (s *Service) day(t time.Time) string {
	return t.In(s.o.Readings.Location()).Format(time.DateOnly)
}

// Reality is the state of the field made of devs (the caller's, already
// checked), read for owner; stations find weather for devices that have
// none. The first device leads: the forecast is at its position.
func (s *Service) Reality(ctx context.Context, owner int64, devs []*devices.Device, stations readings.Stations, lang i18n.Lang) (*Reality, error) {
	now := s.now()
	r := &Reality{At: ms(now), Day: s.day(now), devs: devs, now: now,
		Devices: []DeviceRef{}, Water: []Water{}, Insects: []InsectTrend{}, Alerts: []Alert{}, Gaps: []Gap{}, NoData: []string{}}
	for _, d := range devs {
		r.Devices = append(r.Devices, DeviceRef{ID: d.ID, Name: d.Name, SN: d.SN, TypeID: d.TypeID})
	}
	lead := devs[0]
	if err := s.crop(ctx, r, stations, lang); err != nil {
		return nil, err
	}
	if err := s.etWeek(ctx, r, lead, stations); err != nil {
		return nil, err
	}
	if err := s.rainWeek(ctx, r, lead, stations); err != nil {
		return nil, err
	}
	s.forecast(ctx, r, lead)
	for _, d := range devs {
		if err := s.water(ctx, r, d, stations); err != nil {
			return nil, err
		}
		if err := s.insects(ctx, r, d); err != nil {
			return nil, err
		}
		r.Gaps = append(r.Gaps, gapsOf(d, now)...)
	}
	if err := s.alerts(ctx, r, owner); err != nil {
		return nil, err
	}
	for name, none := range map[string]bool{"water": len(r.Water) == 0, "et": r.ET == nil, "rain": r.Rain == nil,
		"crop": r.Crop == nil, "gdd": r.Crop == nil || r.Crop.GDD == nil, "forecast": r.Forecast == nil,
		"insects": len(r.Insects) == 0, "alerts": s.o.Events == nil} {
		if none {
			r.NoData = append(r.NoData, name)
		}
	}
	slices.Sort(r.NoData)
	return r, nil
}

// isSoil reports whether d has soil-moisture nodes.
func isSoil(d *devices.Device) bool {
	t := d.Type()
	if t == nil || len(t.Nodes) == 0 {
		return false
	}
	_, ok := t.Param("soilMoisture")
	return ok
}

// water adds d's root zone when d is a soil device with its soil set.
func (s *Service) water(ctx context.Context, r *Reality, d *devices.Device, stations readings.Stations) error {
	if !isSoil(d) || s.o.Soil == nil {
		return nil
	}
	et, err := s.o.Soil.ETRoot(ctx, d, stations)
	if err != nil {
		return err
	}
	if et.Zone == nil {
		return nil
	}
	z := et.Zone
	w := Water{DeviceID: d.ID, RootDepthFound: z.RootDepthFound, FieldCapacity: z.FieldCapacity, Moisture: z.Moisture,
		Relative: z.Relative, Drought: z.Drought, ProbeDepletion: z.DeficitMM, RAW: z.RAWMM, RefillRelative: z.RefillRelative,
		RootDepthCM: z.Depth, Sources: []Source{}}
	if et.RootDepth != nil && et.RootDepth.RootDepth > 0 {
		w.RootDepthCM = et.RootDepth.RootDepth
	}
	// The readings the zone was built from: the newest of each layer in it.
	latest, err := s.o.Readings.Latest(ctx, d.ID)
	if err != nil {
		return err
	}
	zoneDepth := 40.0
	if z.RootDepthFound && et.RootDepth != nil {
		zoneDepth = et.RootDepth.RootDepth
	}
	var probeAt time.Time
	for _, depth := range d.Type().Nodes {
		if float64(depth) > zoneDepth {
			break
		}
		rd, ok := latest[readings.Key{Param: "soilMoisture", Node: depth}]
		if !ok {
			continue
		}
		if probeAt.IsZero() || rd.Time.Before(probeAt) {
			probeAt = rd.Time
		}
		w.Sources = append(w.Sources, Source{DeviceID: d.ID, Param: "soilMoisture", Node: depth, From: ms(rd.Time), To: ms(rd.Time),
			Agg: "last", Value: readings.Ptr(rd.Value), Count: 1})
	}
	w.ProbeAt = ms(probeAt)
	// Rain since the probes read: the device's own gauge or the nearest.
	if g, err := stations.Pick(ctx, d, "rainfall"); err != nil {
		return err
	} else if g != nil && probeAt.Before(r.now) {
		rs, err := s.o.Readings.Readings(ctx, g.Device.ID, "rainfall", probeAt.Add(time.Millisecond), r.now.Add(time.Millisecond))
		if err != nil {
			return err
		}
		src := Source{DeviceID: g.Device.ID, Param: "rainfall", From: ms(probeAt), To: ms(r.now), Agg: "sum", Values: []Point{}}
		for _, x := range rs {
			w.RainSince += x.Value
			src.Values = append(src.Values, Point{At: ms(x.Time), Value: x.Value})
		}
		w.RainSince = readings.Round(w.RainSince, 1)
		src.Value, src.Count = readings.Ptr(w.RainSince), len(rs)
		w.Sources = append(w.Sources, src)
	}
	w.HoursSince = readings.Round(math.Max(0, r.now.Sub(probeAt).Hours()), 2)
	if et.ET != nil && et.ET.ETc != nil {
		w.ETcRate, w.ETcSource = et.ET.ETc, et.ET.Source
		w.ETcSince = readings.Round(*et.ET.ETc*w.HoursSince/24, 2)
	}
	w.Depletion = readings.Round(math.Max(0, w.ProbeDepletion-w.RainSince+w.ETcSince), 1)
	w.NeedsWater = w.Depletion >= w.RAW-1e-9
	w.Waterlogged = w.Relative > WaterloggedRelative && w.RainSince >= 0
	if st, _ := s.settings(ctx, d.ID); st != nil {
		w.AreaMu = st.AreaMu
	}
	r.Water = append(r.Water, w)
	return nil
}

func (s *Service) settings(ctx context.Context, id int64) (*soil.Settings, error) {
	if s.o.Settings == nil {
		return nil, nil
	}
	st, err := s.o.Settings.SoilSettings(ctx, id)
	if errs.KindOf(err) == errs.ENotFound {
		return nil, nil
	}
	return st, err
}

// crop finds the first device of the field whose settings name a crop with
// a Kc curve and a sowing date.
func (s *Service) crop(ctx context.Context, r *Reality, stations readings.Stations, lang i18n.Lang) error {
	for _, d := range r.devs {
		if !isSoil(d) {
			continue
		}
		st, err := s.settings(ctx, d.ID)
		if err != nil {
			return err
		}
		if st == nil || st.PlantingTime == nil {
			continue
		}
		c, ok := soil.CropByID(st.CropType)
		if !ok || !c.HasCurve() {
			continue
		}
		loc := s.o.Readings.Location()
		sown := s.o.Readings.Midnight(*st.PlantingTime)
		today := s.o.Readings.Midnight(r.now)
		dos := int(math.Round(today.Sub(sown).Hours()/24)) + 1
		kc, stage := c.Curve.Kc(dos)
		cs := &CropState{DeviceID: d.ID, Crop: c.ID, CropName: c.Names.In(lang), Variety: st.CropVariety, Sown: ms(sown),
			DayOfSeason: dos, Stage: string(stage), Stages: stagesOf(c.Curve, sown, loc), Irrigation: st.IrrigationMethod}
		if stage != agro.StageOutside {
			cs.Kc = readings.Ptr(readings.Round(kc, 3))
			for _, sg := range cs.Stages {
				if sg.Stage == cs.Stage {
					cs.StageEnds = sg.To
				}
			}
		}
		if err := s.gdd(ctx, cs, d, sown, today, stations); err != nil {
			return err
		}
		r.Crop = cs
		return nil
	}
	return nil
}

// stagesOf lays the FAO-56 stages of curve from the sowing day.
func stagesOf(c agro.CropCurve, sown time.Time, loc *time.Location) []Stage {
	out := []Stage{}
	day := 1
	for _, sg := range []struct {
		name     agro.GrowthStage
		days     int
		from, to float64
	}{{agro.StageInitial, c.Initial, c.KcIni, c.KcIni}, {agro.StageDevelopment, c.Development, c.KcIni, c.KcMid},
		{agro.StageMid, c.Mid, c.KcMid, c.KcMid}, {agro.StageLate, c.Late, c.KcMid, c.KcEnd}} {
		if sg.days == 0 {
			continue
		}
		from := sown.AddDate(0, 0, day-1).In(loc)
		to := sown.AddDate(0, 0, day+sg.days-2).In(loc)
		out = append(out, Stage{Stage: string(sg.name), From: from.Format(time.DateOnly), To: to.Format(time.DateOnly), Days: sg.days,
			KcFrom: sg.from, KcTo: sg.to})
		day += sg.days
	}
	return out
}

// BaseTemp is a crop's base temperature for growing degree days, °C
// (docs/advice.md lists the sources).
var BaseTemp = map[string]float64{"wheat": 0, "maize": 10, "rice": 10, "cotton": 15.6, "soybean": 10, "potato": 7, "tomato": 10}

// DegreeDays is one day's growing degree days by McMaster & Wilhelm (1997)
// method 1: max(0, (Tmax + Tmin)/2 − Tbase).
func DegreeDays(tmax, tmin, base float64) float64 { return math.Max(0, (tmax+tmin)/2-base) }

func (s *Service) gdd(ctx context.Context, cs *CropState, d *devices.Device, sown, today time.Time, stations readings.Stations) error {
	base, ok := BaseTemp[cs.Crop]
	if !ok || !sown.Before(today) {
		return nil
	}
	st, err := stations.Pick(ctx, d, "airTemp")
	if err != nil || st == nil {
		return err
	}
	begin := sown
	if today.Sub(begin) > maxSeasonDays*readings.Day {
		begin = today.AddDate(0, 0, -maxSeasonDays)
	}
	dt, err := s.o.Readings.Days(ctx, st.Device.ID, []string{"airTemp"}, []int{0}, begin, today)
	if err != nil {
		return err
	}
	g := &GDD{Base: base, StationID: st.Device.ID}
	src := Source{DeviceID: st.Device.ID, Param: "airTemp", From: ms(begin), To: ms(today), Agg: "daily min/max", Values: []Point{}}
	s.o.Readings.EachDay(begin, today, func(mid time.Time) {
		day, ok := dt.Get(mid.UnixMilli(), "airTemp", 0)
		if !ok || day.Count == 0 {
			g.Missing++
			return
		}
		g.Days++
		g.Total += DegreeDays(day.Max, day.Min, base)
		src.Count += day.Count
		src.Values = append(src.Values, Point{At: ms(mid), Value: readings.Round(DegreeDays(day.Max, day.Min, base), 2)})
	})
	if g.Days == 0 {
		return nil
	}
	g.Total = readings.Round(g.Total, 1)
	src.Value = readings.Ptr(g.Total)
	g.Sources = []Source{src}
	cs.GDD = g
	return nil
}

// etWeek is the observed ET0 of the last 7 complete days at the lead's
// station, with the crop's Kc of each day.
func (s *Service) etWeek(ctx context.Context, r *Reality, lead *devices.Device, stations readings.Stations) error {
	st, err := stations.Pick(ctx, lead, weather.ET0Params...)
	if err != nil || st == nil {
		return err
	}
	today := s.o.Readings.Midnight(r.now)
	begin := today.AddDate(0, 0, -pastDays)
	days, err := weather.ObservedET0(ctx, s.o.Readings, st.Device, begin, today)
	if err != nil || len(days) == 0 {
		return err
	}
	var crop weather.Crop
	if r.Crop != nil && s.o.Soil != nil {
		for _, d := range r.devs {
			if d.ID == r.Crop.DeviceID {
				if crop, err = s.o.Soil.CropOf(ctx, d); err != nil {
					return err
				}
			}
		}
	}
	w := &ETWeek{StationID: st.Device.ID, Days: []ETDay{}}
	var etc float64
	withETc := false
	for _, e := range days {
		day := ETDay{Day: s.day(e.Day), ET0: readings.Round(e.ET0, 2)}
		w.ET0Total += e.ET0
		if crop != nil {
			if cd := crop.On(e.Day); cd.Kc != nil {
				day.Kc = cd.Kc
				day.ETc = readings.Ptr(readings.Round(*cd.Kc*e.ET0, 2))
				etc += *day.ETc
				withETc = true
			}
		}
		w.Days = append(w.Days, day)
	}
	w.ET0Total = readings.Round(w.ET0Total, 1)
	if withETc {
		w.ETcTotal = readings.Ptr(readings.Round(etc, 1))
	}
	for _, p := range weather.ET0Params {
		w.Sources = append(w.Sources, Source{DeviceID: st.Device.ID, Param: p, From: ms(begin), To: ms(today), Agg: "daily", Count: len(days)})
	}
	r.ET = w
	return nil
}

// rainWeek sums the lead's gauge (or the nearest) per local day over the
// last 7 days and today so far.
func (s *Service) rainWeek(ctx context.Context, r *Reality, lead *devices.Device, stations readings.Stations) error {
	g, err := stations.Pick(ctx, lead, "rainfall")
	if err != nil || g == nil {
		return err
	}
	today := s.o.Readings.Midnight(r.now)
	begin := today.AddDate(0, 0, -pastDays)
	rs, err := s.o.Readings.Readings(ctx, g.Device.ID, "rainfall", begin, r.now.Add(time.Millisecond))
	if err != nil {
		return err
	}
	w := &RainWeek{GaugeID: g.Device.ID, Days: []RainDay{}}
	byDay := map[string]float64{}
	for _, x := range rs {
		byDay[s.day(x.Time)] += x.Value
		w.Total += x.Value
	}
	s.o.Readings.EachDay(begin, today.AddDate(0, 0, 1), func(mid time.Time) {
		day := s.day(mid)
		w.Days = append(w.Days, RainDay{Day: day, MM: readings.Round(byDay[day], 1)})
	})
	w.Total = readings.Round(w.Total, 1)
	w.Sources = []Source{{DeviceID: g.Device.ID, Param: "rainfall", From: ms(begin), To: ms(r.now), Agg: "sum", Value: readings.Ptr(w.Total), Count: len(rs)}}
	r.Rain = w
	return nil
}

// forecast reads the forecast at the lead's position (or the first device
// with one) and finds frost and heat in its next days.
func (s *Service) forecast(ctx context.Context, r *Reality, lead *devices.Device) {
	if s.o.Forecast == nil || !s.o.Forecast.Enabled() {
		return
	}
	at := lead
	for _, d := range r.devs {
		if at.Lat != nil && at.Lng != nil {
			break
		}
		at = d
	}
	if at.Lat == nil || at.Lng == nil {
		return
	}
	f, err := s.o.Forecast.Daily(ctx, *at.Lat, *at.Lng)
	if err != nil {
		s.o.Log.WarnContext(ctx, "forecast unavailable", "device", at.ID, "err", err)
		return
	}
	r.Forecast = riskOf(f, s.o.Readings.Midnight(r.now), r.now, s.o.Readings.Location())
}

func riskOf(f *forecast.Forecast, today, now time.Time, loc *time.Location) *ForecastRisk {
	fr := &ForecastRisk{Provider: f.Provider, Days: []ForecastDay{}}
	horizon := today.AddDate(0, 0, riskDays)
	var first, last time.Time
	for _, d := range f.Days {
		day := d.Date.In(loc).Format(time.DateOnly)
		fr.Days = append(fr.Days, ForecastDay{Day: day, TempMin: d.TempMin, TempMax: d.TempMax, Rain: d.Rain, ET0: d.ET0})
		if first.IsZero() {
			first = d.Date
		}
		last = d.Date.AddDate(0, 0, 1)
		if d.Date.Before(today) || !d.Date.Before(horizon) {
			continue
		}
		if d.TempMin != nil && *d.TempMin <= FrostTemp && fr.Frost == nil {
			fr.Frost = &Extreme{Day: day, Temp: *d.TempMin, At: coldestHour(f.Hours, d.Date, now)}
		}
		if d.TempMax != nil && *d.TempMax >= HeatTemp && fr.Heat == nil {
			fr.Heat = &Extreme{Day: day, Temp: *d.TempMax}
		}
	}
	fr.Sources = []Source{{Param: "forecast:temperature_2m_min,temperature_2m_max,precipitation_sum,et0_fao_evapotranspiration",
		From: ms(first), To: ms(last), Agg: "forecast", Count: len(f.Days)}}
	return fr
}

// coldestHour is the hour of the day starting at mid with the lowest
// forecast temperature, not before now; nil without hours.
func coldestHour(hours []forecast.Hour, mid, now time.Time) *Millis {
	var best *forecast.Hour
	end := mid.AddDate(0, 0, 1)
	for i := range hours {
		h := &hours[i]
		if h.Temp == nil || h.Time.Before(mid) || !h.Time.Before(end) || h.Time.Before(now.Truncate(time.Hour)) {
			continue
		}
		if best == nil || *h.Temp < *best.Temp {
			best = h
		}
	}
	if best == nil {
		return nil
	}
	m := ms(best.Time)
	return &m
}

// countParams are the parameters of d's type that count insects: found in
// the type catalogue at run time, so a trap type added later counts too.
func countParams(d *devices.Device) []string {
	t := d.Type()
	if t == nil {
		return nil
	}
	var out []string
	for _, p := range t.Params {
		id := strings.ToLower(p.ID)
		if p.Unit == "" && (strings.Contains(id, "insect") || strings.Contains(id, "pest")) && strings.HasSuffix(id, "count") {
			out = append(out, p.ID)
		}
	}
	return out
}

// insects adds the trend of each of d's insect counts: the catch in the
// last four 24-hour windows; doubled when the last is at least twice the
// lowest of the three before and at least ScoutMinCount.
func (s *Service) insects(ctx context.Context, r *Reality, d *devices.Device) error {
	for _, p := range countParams(d) {
		begin := r.now.Add(-96 * time.Hour)
		rs, err := s.o.Readings.Readings(ctx, d.ID, p, begin, r.now.Add(time.Millisecond))
		if err != nil {
			return err
		}
		if len(rs) == 0 {
			continue
		}
		tr := InsectTrend{DeviceID: d.ID, Param: p}
		src := Source{DeviceID: d.ID, Param: p, From: ms(begin), To: ms(r.now), Agg: "sum per 24 h", Values: []Point{}, Count: len(rs)}
		for _, x := range rs {
			w := int(r.now.Sub(x.Time) / (24 * time.Hour))
			if r.now.Sub(x.Time)%(24*time.Hour) == 0 && w > 0 {
				w-- // (now − 24 h, now] holds its end
			}
			if w >= 0 && w < 4 {
				tr.Windows[w] += x.Value
			}
			src.Values = append(src.Values, Point{At: ms(x.Time), Value: x.Value})
		}
		tr.Base = min(tr.Windows[1], tr.Windows[2], tr.Windows[3])
		tr.Doubled = tr.Windows[0] >= ScoutMinCount && tr.Windows[0] >= 2*tr.Base
		tr.Sources = []Source{src}
		r.Insects = append(r.Insects, tr)
	}
	return nil
}

func (s *Service) alerts(ctx context.Context, r *Reality, owner int64) error {
	if s.o.Events == nil {
		return nil
	}
	for _, d := range r.devs {
		list, _, err := s.o.Events.Events(ctx, owner, rules.EventFilter{DeviceID: d.ID, UnreadOnly: true,
			Begin: r.now.AddDate(0, 0, -pastDays), End: r.now.Add(time.Minute), Page: 1, Size: 20})
		if err != nil {
			return err
		}
		for _, e := range list {
			r.Alerts = append(r.Alerts, Alert{ID: e.ID, DeviceID: e.DeviceID, Rule: e.RuleName, Level: string(e.Level), At: ms(e.At)})
		}
	}
	return nil
}

// gapsOf is d's latest recovered silence and the one it is in now.
func gapsOf(d *devices.Device, now time.Time) []Gap {
	var out []Gap
	if d.GapFrom != nil && d.GapTo != nil {
		to := ms(*d.GapTo)
		out = append(out, Gap{DeviceID: d.ID, From: ms(*d.GapFrom), To: &to})
	}
	if d.State == devices.StateUsed && d.LastReportAt != nil && now.Sub(*d.LastReportAt) > devices.OfflineAfter(d.Interval()) {
		out = append(out, Gap{DeviceID: d.ID, From: ms(*d.LastReportAt)})
	}
	return out
}
