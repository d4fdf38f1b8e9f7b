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
