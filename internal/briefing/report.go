package briefing

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

// Reader reads daily rollups in the site's days (*readings.Reader).
type Reader interface {
	Days(ctx context.Context, deviceID int64, params []string, nodes []int, begin, end time.Time) (readings.DayTable, error)
	Midnight(t time.Time) time.Time
}

// Settings reads a soil device's settings (soil.Store).
type Settings interface {
	SoilSettings(ctx context.Context, deviceID int64) (*soil.Settings, error)
}

// Forecaster gives the 7-day forecast at a place (*forecast.Client).
type Forecaster interface {
	Daily(ctx context.Context, lat, lng float64) (*forecast.Forecast, error)
}

// Thresholds of the data checks.
const (
	// MinCoverage is the share of the period's days a device must have
	// readings on to be averaged in.
	MinCoverage = 0.7
	// MaxTheta is the highest plausible volumetric moisture, vol %: above
	// it a probe reads water, not soil.
	MaxTheta = 65.0
)

// Issue codes of a device left out of a report.
const (
	IssueUnavailable     = "unavailable"     // no longer visible to the preset's owner, or not a soil device
	IssueNoData          = "noData"          // no reading in the period
	IssueIncomplete      = "incomplete"      // readings on too few days
	IssueOutOfRange      = "outOfRange"      // a daily mean at or below 0 or above MaxTheta
	IssueConstant        = "constant"        // a node read the very same value all period: a stuck sensor
	IssueNoFieldCapacity = "noFieldCapacity" // neither soil settings nor an override give field capacity
)

// Advice actions.
const (
	ActionIrrigate = "irrigate"
	ActionDrain    = "drain"
	ActionHold     = "hold"
	// ActionUnknown: the reference band has no data to advise from.
	ActionUnknown = "unknown"
)

// Band is one depth band's state in a region or device.
type Band struct {
	Band         int      `json:"band"` // 1–3
	From         int      `json:"from"` // cm
	To           int      `json:"to"`
	Devices      int      `json:"devices"`  // devices averaged in
	Theta        *float64 `json:"theta"`    // mean volumetric moisture, vol %
	Relative     *float64 `json:"relative"` // mean relative moisture, % of field capacity
	Index        *float64 `json:"index"`    // stage-adjusted index a × relative
	Grade        string   `json:"grade"`    // GB/T 32136-2015 grade of Index; "" without data
	Waterlogged  bool     `json:"waterlogged"`
	PrevRelative *float64 `json:"prevRelative"` // the previous period's relative moisture
	Change       *float64 `json:"change"`       // relative − prevRelative, percentage points
	// Daily is the relative moisture of each day of the period (nil: no data).
	Daily []*float64 `json:"daily"`
}

// Advice is what a region should do now.
type Advice struct {
	Action string `json:"action"` // irrigate, drain, hold, or unknown without data
	// DepthMM is the irrigation that brings the reference band back to
	// field capacity (irrigate).
	DepthMM *float64 `json:"depthMm,omitempty"`
	// By is the first day the balance reaches the refill point (irrigate);
	// nil when it is there already.
	By *time.Time `json:"by,omitempty"`
	// Projected is the reference band's relative moisture at the end of
	// the forecast week by the FAO-56 balance (nil without a forecast).
	Projected *float64 `json:"projected,omitempty"`
}

// RegionReport is one region's part of the report.
type RegionReport struct {
	Name        string   `json:"name"`
	Devices     int      `json:"devices"` // devices in the region
	Used        int      `json:"used"`    // of them averaged in
	Bands       [3]Band  `json:"bands"`
	Grade       string   `json:"grade"` // the reference band's
	Waterlogged bool     `json:"waterlogged"`
	Rain        *float64 `json:"rain"` // mm over the period, mean of the weather points
	Advice      Advice   `json:"advice"`
	Lat         *float64 `json:"lat"` // the mean position of its devices
	Lng         *float64 `json:"lng"`
}

// DeviceRow is one soil device in the report.
type DeviceRow struct {
	ID     int64    `json:"id"`
	SN     string   `json:"sn"`
	Name   string   `json:"name"`
	Region string   `json:"region"`
	Lat    *float64 `json:"lat"`
	Lng    *float64 `json:"lng"`
	// Issue is why the device was left out ("" when it is averaged in).
	Issue string `json:"issue"`
	// MissingBands are the bands it has no node for.
	MissingBands []int   `json:"missingBands"`
	Bands        [3]Band `json:"bands"`
	Grade        string  `json:"grade"` // the reference band's
	Coverage     float64 `json:"coverage"`
}

// WeatherRow is one weather point's rain.
type WeatherRow struct {
	ID    int64      `json:"id"`
	SN    string     `json:"sn"`
	Name  string     `json:"name"`
	Rain  *float64   `json:"rain"` // mm over the period; nil without readings or when unavailable
	Daily []*float64 `json:"daily"`
	Issue string     `json:"issue"`
}

// ForecastDay is one day of the 7-day forecast.
type ForecastDay struct {
	Date time.Time `json:"date"`
	Rain *float64  `json:"rain"`
	ET0  *float64  `json:"et0"`
}

// Forecast is the 7-day ET0 and rain forecast at the preset's centre.
type Forecast struct {
	Provider string        `json:"provider"`
	Days     []ForecastDay `json:"days"`
	Rain     float64       `json:"rain"` // totals, mm (SPEC §9)
	ET0      float64       `json:"et0"`
}

// Report is a briefing.
type Report struct {
	PresetID    int64             `json:"configId"`
	Name        string            `json:"name"`
	TemplateID  string            `json:"templateId"`
	UnitName    string            `json:"unitName"`
	Province    string            `json:"province"`
	City        string            `json:"city"`
	District    string            `json:"district"`
	Company     string            `json:"company"`
	Lang        i18n.Lang         `json:"lang"`
	Stage       agro.DroughtStage `json:"stage"`
	Coefficient float64           `json:"coefficient"`
	Reference   int               `json:"referenceNode"`
	Begin       time.Time         `json:"begin"` // the period [Begin, End)
	End         time.Time         `json:"end"`
	PrevBegin   time.Time         `json:"prevBegin"`
	Days        []time.Time       `json:"days"`
	GeneratedAt time.Time         `json:"generatedAt"`
	Regions     []RegionReport    `json:"regions"`
	Devices     []DeviceRow       `json:"devices"`
	Weather     []WeatherRow      `json:"weather"`
	Rain        *float64          `json:"rain"` // mean of the weather points, mm
	Forecast    *Forecast         `json:"forecast"`
	// ForecastIssue says why there is no forecast ("" when there is one).
	ForecastIssue string `json:"forecastIssue"`
}

// ReportOptions are what computing a report needs besides the service's
// store and devices.
type ReportOptions struct {
	Readings Reader
	Settings Settings
	Forecast Forecaster // nil: no forecast
}

// Report computes the report of one of owner's presets with the service's
// ReportOptions (see Compute). Returns ENOTFOUND.
func (s *Service) Report(ctx context.Context, owner, id int64, end time.Time, progress func(float64)) (*Report, error) {
	p, err := s.Store.Briefing(ctx, owner, id)
	if err != nil {
		return nil, err
	}
	return s.Compute(ctx, s.Reports, p, end, progress)
}

// Compute makes the report of preset p for the period ending at end (local
// midnight; zero: today's midnight), reading as p's owner. progress, when
// not nil, is told the share done (0–1) as devices are read.
func (s *Service) Compute(ctx context.Context, o ReportOptions, p *Preset, end time.Time, progress func(float64)) (*Report, error) {
	if end.IsZero() {
		end = o.Readings.Midnight(s.now())
	} else {
		end = o.Readings.Midnight(end)
	}
	n := p.Period.Days()
	begin := end.AddDate(0, 0, -n)
	prev := begin.AddDate(0, 0, -n)
	stage := p.Stage
	if stage == "" {
		stage = agro.DroughtOtherStage
	}
	r := &Report{PresetID: p.ID, Name: p.Name, TemplateID: p.TemplateID, UnitName: p.UnitName, Province: p.Province,
		City: p.City, District: p.District, Company: p.Company, Lang: p.Lang, Stage: stage, Coefficient: stage.Coefficient(),
		Reference: p.ReferenceNode, Begin: begin, End: end, PrevBegin: prev, GeneratedAt: s.now(),
		Regions: []RegionReport{}, Devices: []DeviceRow{}, Weather: []WeatherRow{}}
	for d := begin; d.Before(end); d = d.AddDate(0, 0, 1) {
		r.Days = append(r.Days, d)
	}
	total := float64(len(p.SoilDevices) + len(p.WeatherIDs) + 1)
	done := 0.0
	step := func() {
		done++
		if progress != nil {
			progress(done / total)
		}
	}

	// Every soil device, once, with the region it is in.
	regionOf := map[int64]string{}
	for _, rg := range p.Regions {
		for _, id := range rg.DeviceIDs {
			if _, ok := regionOf[id]; !ok {
				regionOf[id] = rg.Name
			}
		}
	}
	rows := map[int64]*deviceData{}
	for _, sd := range p.SoilDevices {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		dd, err := s.readDevice(ctx, o, p, sd, r.Days, prev, begin, end)
		if err != nil {
			return nil, err
		}
		dd.row.Region = regionOf[sd.DeviceID]
		rows[sd.DeviceID] = dd
		r.Devices = append(r.Devices, dd.row)
		step()
	}

	// Rain of the weather points.
	var rains []float64
	for _, id := range p.WeatherIDs {
		w, err := s.readWeather(ctx, o, p.OwnerID, id, r.Days, begin, end)
		if err != nil {
			return nil, err
		}
		if w.Rain != nil {
			rains = append(rains, *w.Rain)
		}
		r.Weather = append(r.Weather, w)
		step()
	}
	r.Rain = meanPtr(rains)

	// The forecast at the centre of the devices.
	lat, lng := centre(r.Devices)
	switch {
	case o.Forecast == nil:
		r.ForecastIssue = "unavailable"
	case lat == nil:
		r.ForecastIssue = "noLocation"
	default:
		fc, err := o.Forecast.Daily(ctx, *lat, *lng)
		if err != nil {
			if errors.Is(err, forecast.ErrUnavailable) {
				r.ForecastIssue = "unavailable"
			} else if ctx.Err() != nil {
				return nil, ctx.Err()
			} else {
				r.ForecastIssue = "failed"
			}
		} else {
			f := &Forecast{Provider: fc.Provider, Days: []ForecastDay{}}
			for _, d := range fc.Days {
				f.Days = append(f.Days, ForecastDay{Date: d.Date, Rain: d.Rain, ET0: d.ET0})
			}
			f.Rain, f.ET0 = fc.Totals()
			f.Rain, f.ET0 = readings.Round(f.Rain, 1), readings.Round(f.ET0, 1)
			r.Forecast = f
		}
	}

	for _, rg := range p.Regions {
		r.Regions = append(r.Regions, s.region(p, r, rg, rows))
	}
	step()
	return r, nil
}

// deviceData is what was read of one soil device.
type deviceData struct {
	row DeviceRow
	// per band: the relative moisture of the period and the previous one,
	// θ and field capacity of the period, the daily relative values, and
	// the last day's θ.
	rel, prevRel, theta, fc [3]*float64
	daily                   [3][]*float64
	lastTheta               [3]*float64
}

func (s *Service) readDevice(ctx context.Context, o ReportOptions, p *Preset, sd SoilDevice, days []time.Time, prev, begin, end time.Time) (*deviceData, error) {
	dd := &deviceData{row: DeviceRow{ID: sd.DeviceID, MissingBands: []int{}}}
	for i := range dd.row.Bands {
		dd.row.Bands[i] = Band{Band: i + 1, From: Bands[i][0], To: Bands[i][1]}
	}
	d, _, err := s.Devices.Get(ctx, p.OwnerID, sd.DeviceID)
	if errs.KindOf(err) == errs.ENotFound {
		dd.row.Issue = IssueUnavailable
		return dd, nil
	} else if err != nil {
		return nil, err
	}
	dd.row.SN, dd.row.Name, dd.row.Lat, dd.row.Lng = d.SN, d.Name, d.Lat, d.Lng
	t, _ := devices.TypeByID(d.TypeID)
	if !IsSoil(t) {
		dd.row.Issue = IssueUnavailable
		return dd, nil
	}
	var bands [3][]int
	var nodes []int
	for i := range bands {
		for _, n := range p.BandNodes(i) {
			if slices.Contains(t.Nodes, n) {
				bands[i] = append(bands[i], n)
			}
		}
		if len(bands[i]) == 0 {
			dd.row.MissingBands = append(dd.row.MissingBands, i+1)
		}
		nodes = append(nodes, bands[i]...)
	}
	// Field capacity per node: the override, else the settings.
	fcOf := map[int]float64{}
	if v := sd.FieldCapacity; v != nil {
		for _, n := range nodes {
			fcOf[n] = *v
		}
	} else {
		st, err := o.Settings.SoilSettings(ctx, d.ID)
		if err != nil && errs.KindOf(err) != errs.ENotFound {
			return nil, err
		}
		if st != nil {
			for _, nc := range st.Nodes {
				if nc.FieldCapacity > 0 {
					fcOf[nc.Depth] = nc.FieldCapacity
				}
			}
		}
	}
	if len(nodes) == 0 {
		dd.row.Issue = IssueNoData
		return dd, nil
	}
	dt, err := o.Readings.Days(ctx, d.ID, []string{"soilMoisture"}, nodes, prev, end)
	if err != nil {
		return nil, err
	}

	// The checks, over the period.
	covered, constant := 0, map[int]bool{}
	first := map[int]float64{}
	for _, n := range nodes {
		constant[n] = true
	}
	anyData := false
	for _, day := range days {
		has := false
		for _, n := range nodes {
			v, ok := dt.Get(day.UnixMilli(), "soilMoisture", n)
			if !ok {
				continue
			}
			has, anyData = true, true
			if avg := v.Avg(); avg <= 0 || avg > MaxTheta {
				dd.row.Issue = IssueOutOfRange
			}
			if f, seen := first[n]; !seen {
				first[n] = v.Min
			} else if v.Min != f {
				constant[n] = false
			}
			if v.Max != v.Min {
				constant[n] = false
			}
		}
		if has {
			covered++
		}
	}
	dd.row.Coverage = readings.Round(float64(covered)/float64(len(days)), 2)
	switch {
	case !anyData:
		dd.row.Issue = IssueNoData
	case dd.row.Issue != "":
	case float64(covered) < MinCoverage*float64(len(days)):
		dd.row.Issue = IssueIncomplete
	case covered > 1 && slices.ContainsFunc(nodes, func(n int) bool { _, seen := first[n]; return seen && constant[n] }):
		dd.row.Issue = IssueConstant
	}
	for _, n := range nodes {
		if _, ok := fcOf[n]; !ok && dd.row.Issue == "" {
			dd.row.Issue = IssueNoFieldCapacity
		}
	}

	// Per band: θ and relative moisture over a span of days.
	span := func(band []int, from, to time.Time) (theta, rel, fc *float64, daily []*float64, last *float64) {
		var ths, rels, fcs []float64
		for day := from; day.Before(to); day = day.AddDate(0, 0, 1) {
			var dth, drel []float64
			for _, n := range band {
				v, ok := dt.Get(day.UnixMilli(), "soilMoisture", n)
				if !ok {
					continue
				}
				dth = append(dth, v.Avg())
				if f, ok := fcOf[n]; ok {
					drel = append(drel, agro.RelativeMoisture(v.Avg(), f))
				}
			}
			if len(dth) > 0 {
				ths = append(ths, mean(dth))
				last = readings.Ptr(mean(dth))
			}
			if len(drel) > 0 {
				rels = append(rels, mean(drel))
				daily = append(daily, readings.Ptr(readings.Round(mean(drel), 1)))
			} else {
				daily = append(daily, nil)
			}
		}
		for _, n := range band {
			if f, ok := fcOf[n]; ok {
				fcs = append(fcs, f)
			}
		}
		return meanPtr(ths), meanPtr(rels), meanPtr(fcs), daily, last
	}
	for i, band := range bands {
		b := &dd.row.Bands[i]
		b.Daily = make([]*float64, len(days))
		if len(band) == 0 {
			continue
		}
		theta, rel, fc, daily, last := span(band, begin, end)
		_, prevRel, _, _, _ := span(band, prev, begin)
		dd.theta[i], dd.rel[i], dd.fc[i], dd.prevRel[i], dd.lastTheta[i] = theta, rel, fc, prevRel, last
		dd.daily[i] = daily
		fill(b, theta, rel, prevRel, p.Stage, 1)
		b.Daily = daily
	}
	dd.row.Grade = dd.row.Bands[p.ReferenceNode-1].Grade
	return dd, nil
}

// fill sets a band's values, rounded, from its means.
func fill(b *Band, theta, rel, prevRel *float64, stage agro.DroughtStage, devices int) {
	if theta == nil {
		return
	}
	b.Devices = devices
	b.Theta = readings.Ptr(readings.Round(*theta, 1))
	if rel == nil {
		return
	}
	a := agro.AssessRelative(*rel, stage)
	b.Relative = readings.Ptr(readings.Round(a.Relative, 1))
	b.Index = readings.Ptr(readings.Round(a.Index, 1))
	b.Grade, b.Waterlogged = a.Grade.String(), a.Waterlogged
	if prevRel != nil {
		b.PrevRelative = readings.Ptr(readings.Round(*prevRel, 1))
		b.Change = readings.Ptr(readings.Round(*rel-*prevRel, 1))
	}
}

func (s *Service) readWeather(ctx context.Context, o ReportOptions, owner, id int64, days []time.Time, begin, end time.Time) (WeatherRow, error) {
	w := WeatherRow{ID: id, Daily: make([]*float64, len(days))}
	d, _, err := s.Devices.Get(ctx, owner, id)
	if errs.KindOf(err) == errs.ENotFound {
		w.Issue = IssueUnavailable
		return w, nil
	} else if err != nil {
		return w, err
	}
	w.SN, w.Name = d.SN, d.Name
	dt, err := o.Readings.Days(ctx, id, []string{"rainfall"}, nil, begin, end)
	if err != nil {
		return w, err
	}
	var sum float64
	covered := 0
	for i, day := range days {
		for k, v := range dt[day.UnixMilli()] {
			if k.Param == "rainfall" && v.Count > 0 {
				w.Daily[i] = readings.Ptr(readings.Round(v.Sum, 1))
				sum += v.Sum
				covered++
			}
		}
	}
	switch {
	case covered == 0:
		w.Issue = IssueNoData
	case float64(covered) < MinCoverage*float64(len(days)):
		w.Issue = IssueIncomplete
	default:
		w.Rain = readings.Ptr(readings.Round(sum, 1))
	}
	return w, nil
}

// region computes one region from its devices' data.
func (s *Service) region(p *Preset, r *Report, rg Region, rows map[int64]*deviceData) RegionReport {
	out := RegionReport{Name: rg.Name, Devices: len(rg.DeviceIDs), Rain: r.Rain}
	var used []DeviceRow
	for i := range out.Bands {
		out.Bands[i] = Band{Band: i + 1, From: Bands[i][0], To: Bands[i][1], Daily: make([]*float64, len(r.Days))}
	}
	var lastTheta [3][]float64
	var fcs [3][]float64
	for i := range 3 {
		var ths, rels, prevs []float64
		var daily [][]float64 = make([][]float64, len(r.Days))
		n := 0
		for _, id := range rg.DeviceIDs {
			dd := rows[id]
			if dd == nil || dd.row.Issue != "" || dd.theta[i] == nil || dd.rel[i] == nil {
				continue
			}
			n++
			ths, rels = append(ths, *dd.theta[i]), append(rels, *dd.rel[i])
			if dd.prevRel[i] != nil {
				prevs = append(prevs, *dd.prevRel[i])
			}
			for j, v := range dd.daily[i] {
				if v != nil {
					daily[j] = append(daily[j], *v)
				}
			}
			if dd.lastTheta[i] != nil {
				lastTheta[i] = append(lastTheta[i], *dd.lastTheta[i])
			}
			fcs[i] = append(fcs[i], *dd.fc[i])
		}
		var prev *float64
		// The change compares like with like: only when every device
		// averaged in now had data then.
		if len(prevs) == n {
			prev = meanPtr(prevs)
		}
		fill(&out.Bands[i], meanPtr(ths), meanPtr(rels), prev, p.Stage, n)
		for j, vs := range daily {
			if v := meanPtr(vs); v != nil {
				out.Bands[i].Daily[j] = readings.Ptr(readings.Round(*v, 1))
			}
		}
	}
	for _, id := range rg.DeviceIDs {
		if dd := rows[id]; dd != nil && dd.row.Issue == "" {
			used = append(used, dd.row)
		}
	}
	out.Used = len(used)
	out.Lat, out.Lng = centre(used)
	ref := p.ReferenceNode - 1
	out.Grade = out.Bands[ref].Grade
	for _, b := range out.Bands {
		out.Waterlogged = out.Waterlogged || b.Waterlogged
	}
	out.Advice = advise(p.Stage, out.Bands[ref], out.Waterlogged, ref, meanPtr(lastTheta[ref]), meanPtr(fcs[ref]), r.Forecast)
	return out
}

// advise is a region's action from its reference band: drain when any
// band is waterlogged; irrigate when in drought now or when the FAO-56 daily
// balance of the band, run over the forecast week from the last day's
// moisture with ETc = ET0 and the forecast rain, reaches the refill point
// (the stage's drought threshold, 60 / a % of field capacity); else hold.
func advise(stage agro.DroughtStage, b Band, waterlogged bool, ref int, lastTheta, fc *float64, f *Forecast) Advice {
	if waterlogged {
		return Advice{Action: ActionDrain}
	}
	if b.Grade == "" || lastTheta == nil || fc == nil {
		return Advice{Action: ActionUnknown}
	}
	refill := 60 / stage.Coefficient()
	z := agro.RootZone{DepthCM: float64(Bands[ref][1] - Bands[ref][0]), FieldCapacity: *fc, RefillRelative: refill}
	theta := math.Min(*lastTheta, *fc)
	toFC := readings.Round(agro.WaterDepth(*fc-theta, z.DepthCM), 1)
	if b.Grade != agro.DroughtNone.String() || agro.RelativeMoisture(theta, *fc) <= refill {
		return Advice{Action: ActionIrrigate, DepthMM: &toFC}
	}
	if f == nil || len(f.Days) == 0 || z.Validate() != nil {
		return Advice{Action: ActionHold}
	}
	days := make([]agro.WaterDay, 0, len(f.Days))
	for _, d := range f.Days {
		wd := agro.WaterDay{Date: d.Date}
		if d.Rain != nil {
			wd.Rain = *d.Rain
		}
		if d.ET0 != nil {
			wd.ETc = *d.ET0
		}
		days = append(days, wd)
	}
	wb, err := z.Balance(theta, days)
	if err != nil || len(wb.Days) == 0 {
		return Advice{Action: ActionHold}
	}
	projected := readings.Ptr(readings.Round(wb.Days[len(wb.Days)-1].Relative, 1))
	if !wb.RefillDate.IsZero() {
		by := wb.RefillDate
		depth := readings.Round(wb.IrrigationDepth, 1)
		return Advice{Action: ActionIrrigate, DepthMM: &depth, By: &by, Projected: projected}
	}
	return Advice{Action: ActionHold, Projected: projected}
}

func mean(vs []float64) float64 {
	var s float64
	for _, v := range vs {
		s += v
	}
	return s / float64(len(vs))
}

func meanPtr(vs []float64) *float64 {
	if len(vs) == 0 {
		return nil
	}
	m := mean(vs)
	return &m
}

// centre is the mean position of the rows that have one.
func centre(rows []DeviceRow) (lat, lng *float64) {
	var las, lns []float64
	for _, r := range rows {
		if r.Lat != nil && r.Lng != nil {
			las, lns = append(las, *r.Lat), append(lns, *r.Lng)
		}
	}
	return meanPtr(las), meanPtr(lns)
}
