package httpapi

import (
	"context"
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
