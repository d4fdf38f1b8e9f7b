package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/analysis"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/rain"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// analysisRoutes are the soil, mountain, rain-gauge and weather analyses
// (SPEC §7; docs/analyses.md). Calls without {id} in their path name the
// device with ?id=; the settings writes may name it in their body instead,
// so the analysis service checks their right itself.
func (s *Server) analysisRoutes() []route {
	return []route{
		{"GET", "/apis/poi/analysis/moisture", s.dev(devices.NeedRead, s.soilMoisture)},
		{"GET", "/apis/poi/analysis/et_root", s.dev(devices.NeedRead, s.etRoot)},
		{"GET", "/apis/poi/et0_kc", s.dev(devices.NeedRead, s.etAnalysis)},
		{"GET", "/apis/poi/data/sqy/query", s.dev(devices.NeedRead, s.moistureData)},
		{"GET", "/apis/poi/param/list", s.dev(devices.NeedRead, s.analysisParams)},
		{"GET", "/apis/poi/data/query", s.dev(devices.NeedRead, s.analysisData)},
		{"GET", "/apis/poi/week/weather", s.dev(devices.NeedRead, s.weekWeather)},
		{"GET", "/apis/poi/rainfall", s.dev(devices.NeedRead, s.weekRain)},
		{"GET", "/apis/poi/et0", s.dev(devices.NeedRead, s.weekET0)},
		{"PUT", "/apis/poi/crop/update", s.authed(s.updateCrop)},
		{"POST", "/apis/poi/crop/update", s.authed(s.updateCrop)},
		{"GET", "/apis/poi/tilt/yaw", s.dev(devices.NeedRead, s.tiltYaw)},
		{"GET", "/apis/poi/seven/mete", s.dev(devices.NeedRead, s.sevenMete)},

		{"GET", "/apis/poi/shang/status", s.dev(devices.NeedRead, s.soilStatus)},
		{"GET", "/apis/poi/shang/irriRecognition", s.dev(devices.NeedRead, s.irrigations)},
		{"GET", "/apis/poi/shang/infiltration", s.dev(devices.NeedRead, s.infiltration)},
		{"GET", "/apis/poi/shang/waterlogging", s.dev(devices.NeedRead, s.waterlogging)},
		{"GET", "/apis/poi/shang/freezeThaw", s.dev(devices.NeedRead, s.freezeThaw)},
		{"GET", "/apis/poi/shang/rootdepth", s.dev(devices.NeedRead, s.rootDepth)},
		{"GET", "/apis/poi/shang/detail", s.dev(devices.NeedRead, s.soilDetail)},
		{"GET", "/apis/poi/shang/nodes", s.dev(devices.NeedRead, s.soilNodes)},
		{"GET", "/apis/poi/shang/config", s.dev(devices.NeedRead, s.soilConfig)},
		{"PUT", "/apis/poi/shang/config", s.authed(s.putSoilConfig)},
		{"GET", "/apis/poi/shang/etc_et0_kc", s.dev(devices.NeedRead, s.etAnalysis)},
		{"GET", "/apis/poi/shan/trend", s.dev(devices.NeedRead, s.tiltTrend)},

		{"GET", "/apis/poi/{id}/pluviometer/early-warning", s.dev(devices.NeedRead, s.rainWarning)},
		{"GET", "/apis/poi/{id}/pluviometer/latest", s.dev(devices.NeedRead, s.rainLatest)},
		{"GET", "/apis/poi/{id}/pluviometer/i-d", s.dev(devices.NeedRead, s.rainID)},
		{"GET", "/apis/poi/{id}/pluviometer/i-d/range", s.dev(devices.NeedRead, s.rainIDRange)},
		{"GET", "/apis/poi/{id}/pluviometer/realtime", s.dev(devices.NeedRead, s.rainRealtime)},
		{"GET", "/apis/poi/{id}/pluviometer/stats", s.dev(devices.NeedRead, s.rainStats)},
		{"GET", "/apis/poi/{id}/pluviometer/stats_data", s.dev(devices.NeedRead, s.rainSeries)},
		{"GET", "/apis/poi/{id}/pluviometer/installing", s.dev(devices.NeedRead, s.rainInstallation)},

		{"GET", "/apis/qi/{id}/data/realtime", s.dev(devices.NeedRead, s.weatherNow)},
		{"GET", "/apis/qi/weather/alert", s.dev(devices.NeedRead, s.weatherAlerts)},
		{"GET", "/apis/qi/fwi/statistics", s.dev(devices.NeedRead, s.fwiStatistics)},
		{"GET", "/apis/qi/fwi/history", s.dev(devices.NeedRead, s.fwiHistory)},
		{"GET", "/apis/qi/data/history", s.dev(devices.NeedRead, s.weatherHistory)},
	}
}

// analysisQuery is what most analysis calls take: the device (?id=), an
// optional weather station (?stationId=) and range (?begin=&end=).
type analysisQuery struct {
	id, stationID int64
	r             readings.Range
}

func (s *Server) analysisQuery(c *call) (*analysisQuery, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	return s.analysisRange(c, id)
}

// analysisRange reads the query of a call whose device is id.
func (s *Server) analysisRange(c *call, id int64) (*analysisQuery, error) {
	q := c.r.URL.Query()
	a := &analysisQuery{id: id}
	if v := q.Get("stationId"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return nil, errs.Invalid("stationId", "analysis.station")
		}
		a.stationID = n
	}
	var err error
	if v := q.Get("begin"); v != "" {
		if a.r.Begin, err = s.parseTime(v, "begin"); err != nil {
			return nil, err
		}
	}
	if v := q.Get("end"); v != "" {
		if a.r.End, err = s.parseTime(v, "end"); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// pathAnalysisQuery is analysisQuery for calls with {id} in their path.
func (s *Server) pathAnalysisQuery(c *call) (*analysisQuery, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	return s.analysisRange(c, id)
}

// queryFloat reads an optional number in [lo, hi].
func queryFloat(c *call, name string, lo, hi float64) (*float64, error) {
	v := c.r.URL.Query().Get(name)
	if v == "" {
		return nil, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= lo && f <= hi) {
		return nil, errs.Invalid(name, "query.numberRange").With(map[string]any{"min": lo, "max": hi})
	}
	return &f, nil
}

// queryDaily reads ?dim= (raw or daily) with a default.
func queryDaily(c *call, def bool) (bool, error) {
	switch c.r.URL.Query().Get("dim") {
	case "":
		return def, nil
	case "raw":
		return false, nil
	case "daily":
		return true, nil
	}
	return false, errs.Invalid("dim", "query.unknownValue")
}

func (s *Server) soilMoisture(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().Moisture(c.r.Context(), c.account.ID, q.id, q.r, c.lang)
}

func (s *Server) etRoot(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().ETRoot(c.r.Context(), c.account.ID, q.id, q.stationID)
}

func (s *Server) etAnalysis(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().ET(c.r.Context(), c.account.ID, q.id, q.stationID, q.r, c.lang)
}

func (s *Server) moistureData(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	daily, err := queryDaily(c, true)
	if err != nil {
		return nil, err
	}
	return s.analyses().MoistureData(c.r.Context(), c.account.ID, q.id, q.r, daily)
}

func (s *Server) analysisParams(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().Params(c.r.Context(), c.account.ID, q.id, q.stationID, c.lang)
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
	return s.analyses().Data(c.r.Context(), c.account.ID, q.id, q.stationID, params, q.r, daily, c.lang)
}

func (s *Server) weekWeather(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().WeekWeather(c.r.Context(), c.account.ID, q.id, q.stationID)
}

func (s *Server) weekRain(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().WeekRain(c.r.Context(), c.account.ID, q.id, q.stationID)
}

func (s *Server) weekET0(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().WeekET0(c.r.Context(), c.account.ID, q.id, q.stationID)
}

func (s *Server) sevenMete(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().SevenMete(c.r.Context(), c.account.ID, q.id, q.stationID)
}

// bodyWithID reads a JSON body into v and the device id from ?id=, or
// else from the body's "id".
func bodyWithID(c *call, v any) (int64, error) {
	raw, err := io.ReadAll(io.LimitReader(c.r.Body, maxBody))
	if err != nil {
		return 0, errs.New(errs.EInvalid, "error.badJSON")
	}
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, v); err != nil {
			return 0, errs.New(errs.EInvalid, "error.badJSON")
		}
	}
	if c.r.URL.Query().Get("id") != "" {
		return queryID(c, "id")
	}
	var withID struct {
		ID json.Number `json:"id"`
	}
	_ = json.Unmarshal(raw, &withID)
	if withID.ID == "" {
		return 0, errs.Invalid("id", "error.required")
	}
	id, err := withID.ID.Int64()
	if err != nil || id <= 0 {
		return 0, errs.ErrNotFound
	}
	return id, nil
}

func (s *Server) updateCrop(c *call) (any, error) {
	var in analysis.CropInput
	id, err := bodyWithID(c, &in)
	if err != nil {
		return nil, err
	}
	return s.analyses().UpdateCrop(c.r.Context(), c.account.ID, id, in, c.lang)
}

func (s *Server) soilStatus(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().Status(c.r.Context(), c.account.ID, q.id, q.stationID)
}

func (s *Server) irrigations(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	minAmount, err := queryFloat(c, "minAmount", 0.1, 500)
	if err != nil {
		return nil, err
	}
	var m float64
	if minAmount != nil {
		m = *minAmount
	}
	return s.analyses().Irrigations(c.r.Context(), c.account.ID, q.id, q.stationID, q.r, m)
}

func (s *Server) infiltration(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().Infiltration(c.r.Context(), c.account.ID, q.id, q.stationID, q.r)
}

func (s *Server) waterlogging(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	th, err := queryFloat(c, "threshold", 1, 100)
	if err != nil {
		return nil, err
	}
	hours, err := queryInt(c.r.URL.Query(), "minHours", 0, 1, 24*30)
	if err != nil {
		return nil, err
	}
	return s.analyses().Waterlogging(c.r.Context(), c.account.ID, q.id, q.r, th, time.Duration(hours)*time.Hour)
}

func (s *Server) freezeThaw(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().FreezeThaw(c.r.Context(), c.account.ID, q.id, q.r)
}

func (s *Server) rootDepth(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().RootDepth(c.r.Context(), c.account.ID, q.id, q.r)
}

func (s *Server) soilDetail(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().Detail(c.r.Context(), c.account.ID, id, c.lang)
}

func (s *Server) soilNodes(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().Nodes(c.r.Context(), c.account.ID, id, c.lang)
}

func (s *Server) soilConfig(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().Settings(c.r.Context(), c.account.ID, id, c.lang)
}

func (s *Server) putSoilConfig(c *call) (any, error) {
	var in analysis.SettingsInput
	id, err := bodyWithID(c, &in)
	if err != nil {
		return nil, err
	}
	return s.analyses().SaveSettings(c.r.Context(), c.account.ID, id, in, c.lang)
}

// idThreshold reads and checks ?alpha=&beta= (default Caine's 14.82, 0.39).
func idThreshold(c *call) (agro.IDThreshold, error) {
	var ab [2]*float64
	for i, name := range []string{"alpha", "beta"} {
		v := c.r.URL.Query().Get(name)
		if v == "" {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return agro.IDThreshold{}, errs.Invalid(name, "analysis.idThreshold")
		}
		ab[i] = &f
	}
	return rain.CheckThreshold(ab[0], ab[1])
}

func (s *Server) weatherNow(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().WeatherNow(c.r.Context(), c.account.ID, id, c.lang)
}

func (s *Server) weatherAlerts(c *call) (any, error) {
	id, err := deviceID(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().WeatherAlerts(c.r.Context(), c.account.ID, id)
}

func (s *Server) fwiStatistics(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().FWIStatistics(c.r.Context(), c.account.ID, q.id, q.r)
}

func (s *Server) fwiHistory(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().FWIHistory(c.r.Context(), c.account.ID, q.id, q.r)
}

func (s *Server) weatherHistory(c *call) (any, error) {
	q, err := s.analysisQuery(c)
	if err != nil {
		return nil, err
	}
	return s.analyses().WeatherHistory(c.r.Context(), c.account.ID, q.id, q.r)
}
