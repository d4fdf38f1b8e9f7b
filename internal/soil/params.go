package soil

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/weather"
)

// derived is a parameter computed from readings rather than measured.
type derived struct {
	id        string
	names     devices.Names
	unit      string
	precision int
	perNode   bool
	dailyOnly bool
}

// derivedParams are the computed parameters of /apis/poi/param/list and
// /apis/poi/data/query.
var derivedParams = []derived{
	{"relativeMoisture", devices.Names{ZhCN: "土壤相对湿度", ZhTW: "土壤相對濕度", EnUS: "Relative soil moisture"}, "%", 1, true, false},
	{"waterStorage", devices.Names{ZhCN: "土壤储水量", ZhTW: "土壤儲水量", EnUS: "Soil water storage"}, "mm", 1, true, false},
	{"windLevel", devices.Names{ZhCN: "风力等级", ZhTW: "風力等級", EnUS: "Wind level"}, "", 0, false, false},
	{"et0", devices.Names{ZhCN: "参考作物蒸散量", ZhTW: "參考作物蒸散量", EnUS: "Reference evapotranspiration (ET0)"}, "mm", 2, false, true},
	{"etc", devices.Names{ZhCN: "作物蒸散量", ZhTW: "作物蒸散量", EnUS: "Crop evapotranspiration (ETc)"}, "mm", 2, false, true},
}

func derivedParam(id string) (derived, bool) {
	for _, d := range derivedParams {
		if d.id == id {
			return d, true
		}
	}
	return derived{}, false
}

// ParamInfo is one parameter an analysis chart can show.
type ParamInfo struct {
	ID        string
	Names     devices.Names
	Unit      string
	Precision int
	PerNode   bool
	Derived   bool // computed, not measured
	DailyOnly bool // only as daily values
	// Available is false for a derived parameter the device cannot give
	// yet: relative moisture without soil settings, ETc without a crop,
	// ET0 without weather readings here or within 30 km.
	Available bool
}

// ParamList is the parameters a device's charts can show.
type ParamList struct {
	Nodes  []int
	Params []ParamInfo
}

// available reports which derived parameters a device can give.
func (s *Service) available(ctx context.Context, d *devices.Device, t *devices.Type, stations readings.Stations) (map[string]bool, *Settings, *devices.Device, error) {
	st, err := s.settings(ctx, d.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	src, err := stations.Pick(ctx, d, "airTemp")
	if err != nil {
		return nil, nil, nil, err
	}
	var station *devices.Device
	if src != nil {
		station = src.Device
	}
	_, _, hasCrop := st.crop()
	soil := readings.Has(t, "soilMoisture") && len(t.Nodes) > 0
	et0 := station != nil && station.Lat != nil
	return map[string]bool{
		"relativeMoisture": soil && st.configured(t.Nodes),
		"waterStorage":     soil,
		"windLevel":        readings.Has(t, "windSpeed"),
		"et0":              et0,
		"etc":              et0 && hasCrop,
	}, st, station, nil
}

// Params lists a device's measured parameters and the derived ones it can
// give; ET0 comes as for ET. Returns EINVALID.
func (s *Service) Params(ctx context.Context, d *devices.Device, stations readings.Stations) (*ParamList, error) {
	t, err := readings.Measures(d)
	if err != nil {
		return nil, err
	}
	avail, _, _, err := s.available(ctx, d, t, stations)
	if err != nil {
		return nil, err
	}
	out := &ParamList{Nodes: append([]int{}, t.Nodes...), Params: []ParamInfo{}}
	for _, p := range t.Params {
		out.Params = append(out.Params, ParamInfo{ID: p.ID, Names: p.Names, Unit: p.Unit, Precision: p.Precision, PerNode: p.PerNode, Available: true})
	}
	for _, dp := range derivedParams {
		if dp.id == "relativeMoisture" || dp.id == "waterStorage" {
			if !readings.Has(t, "soilMoisture") {
				continue
			}
		}
		if dp.id == "windLevel" && !readings.Has(t, "windSpeed") {
			continue
		}
		out.Params = append(out.Params, ParamInfo{ID: dp.id, Names: dp.names, Unit: dp.unit, Precision: dp.precision,
			PerNode: dp.perNode, Derived: true, DailyOnly: dp.dailyOnly, Available: avail[dp.id]})
	}
	return out, nil
}

// DataSeries is one parameter at one node (0 for the device as a whole).
type DataSeries struct {
	Param   string
	Node    int
	Names   devices.Names
	Unit    string
	Derived bool
	Agg     string       // daily: which statistic of the day
	Points  [][2]float64 // [time ms, value]
}

// DataQuery is the series of a device's parameters over a range.
type DataQuery struct {
	Begin, End time.Time
	Daily      bool // daily values, not readings
	Series     []DataSeries
}

// Data returns the series of params (default every measured one) of a
// device over r (default the last 7 days; at most 366 days raw, 3 years
// daily), measured and derived alike. Daily values are each parameter's
// first daily statistic (the mean, the sum for rainfall, …); derived soil
// values come from the daily mean moisture, the daily wind level from the
// day's highest wind; ET0 and ETc are daily whatever dim says.
// ET0 comes as for ET. Returns EINVALID.
func (s *Service) Data(ctx context.Context, d *devices.Device, stations readings.Stations, params []string, r readings.Range, daily bool) (*DataQuery, error) {
	t, err := readings.Measures(d)
	if err != nil {
		return nil, err
	}
	limit := 366 * readings.Day
	if daily {
		limit = readings.LongestDaily
	}
	begin, end, err := s.rd.Span(r, 7*readings.Day, limit)
	if err != nil {
		return nil, err
	}
	if len(params) == 0 {
		for _, p := range t.Params {
			params = append(params, p.ID)
		}
	}
	avail, st, src, err := s.available(ctx, d, t, stations)
	if err != nil {
		return nil, err
	}
	var measured []string
	for _, p := range params {
		if _, ok := t.Param(p); ok {
			measured = append(measured, p)
			continue
		}
		if _, ok := derivedParam(p); !ok {
			return nil, errs.Invalid("params", "query.unknownParam").With(map[string]any{"param": p})
		}
		if !avail[p] {
			return nil, errs.Invalid("params", "analysis.paramUnavailable").With(map[string]any{"param": p})
		}
	}
	out := &DataQuery{Begin: begin, End: end, Daily: daily, Series: []DataSeries{}}
	// What the derived parameters are computed from.
	need := append([]string{}, measured...)
	for _, p := range params {
		switch p {
		case "relativeMoisture", "waterStorage":
			need = append(need, "soilMoisture")
		case "windLevel":
			need = append(need, "windSpeed")
		}
	}
	values := map[readings.Key][][2]float64{}
	aggs := map[string]string{}
	if len(need) > 0 {
		if daily {
			dt, err := s.rd.Days(ctx, d.ID, need, nil, begin, end)
			if err != nil {
				return nil, err
			}
			for _, k := range readings.SortedKeys(dt) {
				for key, day := range dt[k] {
					if day.Count == 0 {
						continue
					}
					agg := devices.AggAvg
					if p, ok := t.Param(key.Param); ok && len(p.Daily) > 0 {
						agg = p.Daily[0]
					}
					aggs[key.Param] = string(agg)
					values[key] = append(values[key], [2]float64{float64(k), readings.Round(day.Stat(string(agg)), 4)})
					if key.Param == "windSpeed" { // a day's wind level is its highest wind's
						values[windMax] = append(values[windMax], [2]float64{float64(k), day.Max})
					}
				}
			}
		} else {
			ss, err := s.rd.Series(ctx, d.ID, need, nil, begin, end)
			if err != nil {
				return nil, err
			}
			for _, sr := range ss {
				pts := make([][2]float64, len(sr.TS))
				for i := range sr.TS {
					pts[i] = [2]float64{float64(sr.TS[i]), sr.V[i]}
				}
				values[readings.Key{Param: sr.Param, Node: sr.Node}] = pts
			}
		}
	}
	thick := agro.LayerThickness(floats(t.Nodes))
	for _, p := range params {
		if mp, ok := t.Param(p); ok {
			for _, n := range nodesOf(mp, t) {
				if pts, ok := values[readings.Key{Param: p, Node: n}]; ok {
					out.Series = append(out.Series, DataSeries{Param: p, Node: n, Names: mp.Names, Unit: mp.Unit, Agg: aggOf(daily, aggs, p), Points: pts})
				}
			}
			continue
		}
		dp, _ := derivedParam(p)
		head := DataSeries{Param: p, Names: dp.names, Unit: dp.unit, Derived: true}
		switch p {
		case "relativeMoisture", "waterStorage":
			for i, n := range t.Nodes {
				pts, ok := values[readings.Key{Param: "soilMoisture", Node: n}]
				if !ok {
					continue
				}
				sr := head
				sr.Node, sr.Points = n, make([][2]float64, len(pts))
				cfg, _ := st.node(n)
				for j, pt := range pts {
					v := agro.WaterDepth(pt[1], thick[i])
					if p == "relativeMoisture" {
						v = agro.RelativeMoisture(pt[1], cfg.FieldCapacity)
					}
					sr.Points[j] = [2]float64{pt[0], readings.Round(v, 2)}
				}
				out.Series = append(out.Series, sr)
			}
		case "windLevel":
			src := readings.Key{Param: "windSpeed"}
			if daily {
				src = windMax
			}
			if pts, ok := values[src]; ok {
				sr := head
				sr.Points = make([][2]float64, len(pts))
				for j, pt := range pts {
					sr.Points[j] = [2]float64{pt[0], float64(agro.WindLevel(pt[1]))}
				}
				out.Series = append(out.Series, sr)
			}
		case "et0", "etc":
			days, err := weather.ObservedET0(ctx, s.rd, src, begin, end)
			if err != nil {
				return nil, err
			}
			sr := head
			sr.Points = [][2]float64{}
			cal := s.calendar(st)
			for _, e := range days {
				v := e.ET0
				if p == "etc" {
					cd := cal.On(e.Day)
					if cd.Kc == nil {
						continue
					}
					v = readings.Round(agro.ETc(*cd.Kc, e.ET0), 3)
				}
				sr.Points = append(sr.Points, [2]float64{float64(e.Day.UnixMilli()), v})
			}
			out.Series = append(out.Series, sr)
		}
	}
	return out, nil
}

// windMax keys the daily maximum wind among the values of Data.
var windMax = readings.Key{Param: "windSpeed", Node: -1}

func aggOf(daily bool, aggs map[string]string, p string) string {
	if !daily {
		return ""
	}
	return aggs[p]
}

// nodesOf lists the nodes a parameter is read at.
func nodesOf(p *devices.Param, t *devices.Type) []int {
	if p.PerNode {
		return t.Nodes
	}
	return []int{0}
}
