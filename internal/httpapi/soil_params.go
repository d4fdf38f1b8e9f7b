package httpapi

import (
	"strings"

	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

// paramListDTO is GET /apis/poi/param/list.
type paramListDTO struct {
	Nodes  []int          `json:"nodes"`
	Params []paramInfoDTO `json:"params"`
}

// paramInfoDTO is one parameter an analysis chart can show.
type paramInfoDTO struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Unit      string `json:"unit"`
	Precision int    `json:"precision"`
	PerNode   bool   `json:"perNode"`
	Derived   bool   `json:"derived"`
	DailyOnly bool   `json:"dailyOnly"`
	Available bool   `json:"available"`
}

func toParamList(pl *soil.ParamList, lang i18n.Lang) paramListDTO {
	out := paramListDTO{Nodes: pl.Nodes, Params: make([]paramInfoDTO, len(pl.Params))}
	for i, p := range pl.Params {
		out.Params[i] = paramInfoDTO{ID: p.ID, Name: p.Names.In(lang), Unit: p.Unit, Precision: p.Precision, PerNode: p.PerNode,
			Derived: p.Derived, DailyOnly: p.DailyOnly, Available: p.Available}
	}
	return out
}

// dataQueryDTO is GET /apis/poi/data/query.
type dataQueryDTO struct {
	Begin  int64           `json:"begin"`
	End    int64           `json:"end"`
	Dim    string          `json:"dim"`
	Series []dataSeriesDTO `json:"series"`
}

// dataSeriesDTO is one parameter at one node (0 for the device as a whole).
type dataSeriesDTO struct {
	Param   string       `json:"param"`
	Node    int          `json:"node"`
	Name    string       `json:"name"`
	Unit    string       `json:"unit"`
	Derived bool         `json:"derived"`
	Agg     string       `json:"agg,omitempty"`
	Points  [][2]float64 `json:"points"`
}

func toDataQuery(q *soil.DataQuery, lang i18n.Lang) dataQueryDTO {
	out := dataQueryDTO{Begin: q.Begin.UnixMilli(), End: q.End.UnixMilli(), Dim: dim(q.Daily), Series: make([]dataSeriesDTO, len(q.Series))}
	for i, s := range q.Series {
		out.Series[i] = dataSeriesDTO{Param: s.Param, Node: s.Node, Name: s.Names.In(lang), Unit: s.Unit, Derived: s.Derived, Agg: s.Agg, Points: s.Points}
	}
	return out
}

func (s *Server) analysisParams(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	pl, err := s.Soil.Params(c.r.Context(), c.device, s.stations(c, q.stationID))
	if err != nil {
		return nil, err
	}
	return toParamList(pl, c.lang), nil
}

func (s *Server) analysisData(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	daily, err := queryDaily(c, true)
	if err != nil {
		return nil, err
	}
	var params []string
	if v := c.r.URL.Query().Get("params"); v != "" {
		params = strings.Split(v, ",")
	}
	dq, err := s.Soil.Data(c.r.Context(), c.device, s.stations(c, q.stationID), params, q.r, daily)
	if err != nil {
		return nil, err
	}
	return toDataQuery(dq, c.lang), nil
}
