package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/rain"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// analysisRoutes are the soil, mountain, rain-gauge and weather analyses
// (SPEC §7; docs/analyses.md). Calls without {id} in their path name the
// device with ?id=; the settings writes may name it in their body instead,
// so their handlers authorize it themselves (settingsDevice).
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

// analysisQuery is what most analysis calls take besides their device: an
// optional weather station (?stationId=) and range (?begin=&end=).
type analysisQuery struct {
	stationID int64
	r         readings.Range
}

func (s *Server) analysisQuery(c *call) (*analysisQuery, error) {
	q := c.r.URL.Query()
	a := &analysisQuery{}
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

// stations is where a call's analysis may take another device's weather
// from: the station ?stationId= names and the devices the caller can see,
// each through the caller's permission check.
func (s *Server) stations(c *call, stationID int64) readings.Stations {
	return readings.Stations{
		ID: stationID,
		Open: func(ctx context.Context, id int64) (*devices.Device, error) {
			d, _, err := s.Devices.Open(ctx, c.account.ID, id, devices.NeedRead)
			return d, err
		},
		Visible: func(ctx context.Context) ([]*devices.Device, error) { return s.Devices.All(ctx, c.account.ID) },
	}
}

// stationDTO is the device whose readings stand for a place's weather.
type stationDTO struct {
	ID         int64   `json:"id"`
	Name       string  `json:"name"`
	SN         string  `json:"sn"`
	Own        bool    `json:"own"`        // the device itself
	DistanceKm float64 `json:"distanceKm"` // from the device, 0 for its own
}

func toStation(st *readings.Station) *stationDTO {
	if st == nil {
		return nil
	}
	return &stationDTO{ID: st.Device.ID, Name: st.Device.Name, SN: st.Device.SN, Own: st.Own, DistanceKm: st.DistanceKm}
}
