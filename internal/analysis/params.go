package analysis

import (
	"context"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
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
	ID        string `json:"id"`
	Name      string `json:"name"`
	Unit      string `json:"unit"`
	Precision int    `json:"precision"`
	PerNode   bool   `json:"perNode"`
	Derived   bool   `json:"derived"`   // computed, not measured
	DailyOnly bool   `json:"dailyOnly"` // only as daily values
	// Available is false for a derived parameter the device cannot give
	// yet: relative moisture without soil settings, ETc without a crop,
	// ET0 without weather readings here or within 30 km.
	Available bool `json:"available"`
}

// ParamList is GET /apis/poi/param/list.
type ParamList struct {
	Nodes  []int       `json:"nodes"`
	Params []ParamInfo `json:"params"`
}

// available reports which derived parameters a device can give.
func (s *Service) available(ctx context.Context, viewer int64, d *devices.Device, t *devices.Type, stationID int64) (map[string]bool, *SoilSettings, *devices.Device, error) {
	st, err := s.settings(ctx, d.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	src, _, err := s.station(ctx, viewer, d, stationID, "airTemp")
	if err != nil {
		return nil, nil, nil, err
	}
	_, _, hasCrop := st.crop()
	soil := has(t, "soilMoisture") && len(t.Nodes) > 0
	et0 := src != nil && src.Lat != nil
	return map[string]bool{
		"relativeMoisture": soil && st.configured(t.Nodes),
		"waterStorage":     soil,
		"windLevel":        has(t, "windSpeed"),
		"et0":              et0,
		"etc":              et0 && hasCrop,
	}, st, src, nil
}

// Params lists a device's measured parameters and the derived ones it can
// give. Returns ENOTFOUND, EINVALID.
func (s *Service) Params(ctx context.Context, viewer, id, stationID int64, lang i18n.Lang) (*ParamList, error) {
	d, t, _, err := s.device(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	avail, _, _, err := s.available(ctx, viewer, d, t, stationID)
	if err != nil {
		return nil, err
	}
	out := &ParamList{Nodes: append([]int{}, t.Nodes...), Params: []ParamInfo{}}
	for _, p := range t.Params {
		out.Params = append(out.Params, ParamInfo{ID: p.ID, Name: p.Name(lang), Unit: p.Unit, Precision: p.Precision, PerNode: p.PerNode, Available: true})
	}
	for _, dp := range derivedParams {
		if dp.id == "relativeMoisture" || dp.id == "waterStorage" {
			if !has(t, "soilMoisture") {
				continue
			}
		}
		if dp.id == "windLevel" && !has(t, "windSpeed") {
			continue
		}
		out.Params = append(out.Params, ParamInfo{ID: dp.id, Name: dp.names.In(lang), Unit: dp.unit, Precision: dp.precision,
			PerNode: dp.perNode, Derived: true, DailyOnly: dp.dailyOnly, Available: avail[dp.id]})
	}
	return out, nil
}

// DataSeries is one parameter at one node (0 for the device as a whole).
type DataSeries struct {
	Param   string       `json:"param"`
	Node    int          `json:"node"`
	Name    string       `json:"name"`
	Unit    string       `json:"unit"`
	Derived bool         `json:"derived"`
	Agg     string       `json:"agg,omitempty"` // daily: which statistic of the day
	Points  [][2]float64 `json:"points"`        // [time ms, value]
}

// DataQuery is GET /apis/poi/data/query.
type DataQuery struct {
	Begin  int64        `json:"begin"`
	End    int64        `json:"end"`
	Dim    string       `json:"dim"`
	Series []DataSeries `json:"series"`
}

// Data returns the series of params (default every measured one) of a
// device over r (default the last 7 days; at most 366 days raw, 3 years
// daily), measured and derived alike. Daily values are each parameter's
// first daily statistic (the mean, the sum for rainfall, …); derived soil
// values come from the daily mean moisture, the daily wind level from the
// day's highest wind; ET0 and ETc are daily whatever dim says.
// Returns ENOTFOUND, EINVALID.
func (s *Service) Data(ctx context.Context, viewer, id, stationID int64, params []string, r Range, daily bool, lang i18n.Lang) (*DataQuery, error) {
	d, t, _, err := s.device(ctx, viewer, id)
	if err != nil {
		return nil, err
	}
	limit := 366 * day
	if daily {
		limit = maxETRange
	}
	begin, end, err := s.span(r, 7*day, limit)
	if err != nil {
		return nil, err
	}
	if len(params) == 0 {
		for _, p := range t.Params {
			params = append(params, p.ID)
		}
	}
	avail, st, src, err := s.available(ctx, viewer, d, t, stationID)
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
	out := &DataQuery{Begin: ms(begin), End: ms(end), Dim: "raw", Series: []DataSeries{}}
	if daily {
		out.Dim = "daily"
	}
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
	values := map[seriesKey][][2]float64{}
	aggs := map[string]string{}
	if len(need) > 0 {
		if daily {
			dt, err := s.days(ctx, d.ID, need, nil, begin, end)
			if err != nil {
				return nil, err
			}
			for _, k := range sortedKeys(dt) {
				for key, day := range dt[k] {
					if day.Count == 0 {
						continue
					}
					agg := devices.AggAvg
					if p, ok := t.Param(key.param); ok && len(p.Daily) > 0 {
						agg = p.Daily[0]
					}
					aggs[key.param] = string(agg)
					values[key] = append(values[key], [2]float64{float64(k), round(day.Stat(string(agg)), 4)})
					if key.param == "windSpeed" { // a day's wind level is its highest wind's
						values[windMax] = append(values[windMax], [2]float64{float64(k), day.Max})
					}
				}
			}
		} else {
			ss, err := s.series(ctx, d.ID, need, nil, begin, end)
			if err != nil {
				return nil, err
			}
			for _, sr := range ss {
				pts := make([][2]float64, len(sr.TS))
				for i := range sr.TS {
					pts[i] = [2]float64{float64(sr.TS[i]), sr.V[i]}
				}
				values[seriesKey{sr.Param, sr.Node}] = pts
			}
		}
	}
	thick := agro.LayerThickness(floats(t.Nodes))
	for _, p := range params {
		if mp, ok := t.Param(p); ok {
			for _, n := range nodesOf(mp, t) {
				if pts, ok := values[seriesKey{p, n}]; ok {
					out.Series = append(out.Series, DataSeries{Param: p, Node: n, Name: mp.Name(lang), Unit: mp.Unit, Agg: aggOf(daily, aggs, p), Points: pts})
				}
			}
			continue
		}
		dp, _ := derivedParam(p)
		head := DataSeries{Param: p, Name: dp.names.In(lang), Unit: dp.unit, Derived: true}
		switch p {
		case "relativeMoisture", "waterStorage":
			for i, n := range t.Nodes {
				pts, ok := values[seriesKey{"soilMoisture", n}]
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
					sr.Points[j] = [2]float64{pt[0], round(v, 2)}
				}
				out.Series = append(out.Series, sr)
			}
		case "windLevel":
			src := seriesKey{"windSpeed", 0}
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
			days, err := s.observedET0(ctx, src, begin, end)
			if err != nil {
				return nil, err
			}
			sr := head
			sr.Points = [][2]float64{}
			for _, e := range days {
				v := e.ET0
				if p == "etc" {
					cd := s.kcOn(st, time.UnixMilli(e.Time))
					if cd.Kc == nil {
						continue
					}
					v = round(agro.ETc(*cd.Kc, e.ET0), 3)
				}
				sr.Points = append(sr.Points, [2]float64{float64(e.Time), v})
			}
			out.Series = append(out.Series, sr)
		}
	}
	return out, nil
}

// windMax keys the daily maximum wind among the values of Data.
var windMax = seriesKey{"windSpeed", -1}

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
