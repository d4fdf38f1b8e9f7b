package httpapi

import (
	"bytes"
	"context"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/et0grid"
	"github.com/fieldwatch/fieldwatch/internal/readings"
)

// ET0AreaStore keeps the areas of the ET0 raster data service.
type ET0AreaStore interface {
	AddET0Area(ctx context.Context, a *et0grid.Area) error
	ET0Areas(ctx context.Context, account int64) ([]et0grid.Area, error)
	ET0Area(ctx context.Context, account, id int64) (*et0grid.Area, error)
	DeleteET0Area(ctx context.Context, account, id int64) error
}

// Limits of the ET0 raster data service.
const (
	et0MaxName  = 32
	et0MaxSpan  = 5.0    // degrees, each way
	et0MaxCells = 40_000 // per grid: the cell grows with the area
	et0PastDays = 7      // observed days offered
	et0NextDays = 7      // forecast days offered, today included
	// et0Margin is how far around an area stations count, degrees (≈ 30 km).
	et0Margin = 0.3
)

// et0CellSizes are the cell sizes an area may get, degrees: the finest that
// keeps the grid within et0MaxCells.
var et0CellSizes = []float64{0.005, 0.01, 0.02, 0.05, 0.1}

type et0AreaDTO struct {
	ID        int64   `json:"id"`
	Name      string  `json:"name"`
	West      float64 `json:"west"`
	South     float64 `json:"south"`
	East      float64 `json:"east"`
	North     float64 `json:"north"`
	Cell      float64 `json:"cell"`
	CreatedAt int64   `json:"createdAt"`
}

func toET0Area(a *et0grid.Area) et0AreaDTO {
	return et0AreaDTO{ID: a.ID, Name: a.Name, West: a.Box.West, South: a.Box.South, East: a.Box.East, North: a.Box.North, Cell: a.Cell,
		CreatedAt: a.CreatedAt.UnixMilli()}
}

// et0Areas serves GET /apis/et0/areas: the caller's areas, newest first.
func (s *Server) et0Areas(c *call) (any, error) {
	list, err := s.ET0Areas.ET0Areas(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, err
	}
	out := make([]et0AreaDTO, 0, len(list))
	for i := range list {
		out = append(out, toET0Area(&list[i]))
	}
	return out, nil
}

type et0AreaBody struct {
	Name  string   `json:"name"`
	West  *float64 `json:"west"`
	South *float64 `json:"south"`
	East  *float64 `json:"east"`
	North *float64 `json:"north"`
}

func (b *et0AreaBody) validate() error {
	b.Name = strings.TrimSpace(b.Name)
	switch {
	case b.Name == "":
		return errs.Invalid("name", "error.required")
	case utf8.RuneCountInString(b.Name) > et0MaxName:
		return errs.Invalid("name", "et0.nameTooLong").With(map[string]any{"max": et0MaxName})
	case b.West == nil || b.South == nil || b.East == nil || b.North == nil:
		return errs.Invalid("region", "et0.areaRequired")
	}
	box := et0grid.Box{West: *b.West, South: *b.South, East: *b.East, North: *b.North}
	if !box.Valid() {
		return errs.Invalid("region", "et0.areaInvalid")
	}
	if box.East-box.West > et0MaxSpan || box.North-box.South > et0MaxSpan {
		return errs.Invalid("region", "et0.areaTooLarge").With(map[string]any{"max": et0MaxSpan})
	}
	return nil
}

// et0Cell is the finest cell size keeping the box within et0MaxCells.
func et0Cell(b et0grid.Box) float64 {
	for _, cell := range et0CellSizes {
		if math.Ceil((b.East-b.West)/cell)*math.Ceil((b.North-b.South)/cell) <= et0MaxCells {
			return cell
		}
	}
	return et0CellSizes[len(et0CellSizes)-1]
}

// et0AreaCreate serves POST /apis/et0/areas {name, west, south, east, north}.
func (s *Server) et0AreaCreate(c *call) (any, error) {
	var b et0AreaBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	box := et0grid.Box{West: *b.West, South: *b.South, East: *b.East, North: *b.North}
	a := &et0grid.Area{AccountID: c.account.ID, Name: b.Name, Box: box, Cell: et0Cell(box), CreatedAt: time.Now().Truncate(time.Millisecond)}
	if err := s.ET0Areas.AddET0Area(c.r.Context(), a); err != nil {
		return nil, err
	}
	return toET0Area(a), nil
}

// et0AreaGet serves GET /apis/et0/areas/{id}: the area and the days it
// offers (the last et0PastDays observed, then today and the forecast's).
func (s *Server) et0AreaGet(c *call) (any, error) {
	a, err := s.et0Area(c)
	if err != nil {
		return nil, err
	}
	loc := s.location()
	today := time.Now().In(loc)
	today = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, loc)
	type dayDTO struct {
		Day      string `json:"day"`
		Forecast bool   `json:"forecast"`
	}
	days := []dayDTO{}
	for i := -et0PastDays; i < et0NextDays; i++ {
		d := today.AddDate(0, 0, i)
		days = append(days, dayDTO{Day: d.Format(time.DateOnly), Forecast: i >= 0})
	}
	return struct {
		et0AreaDTO
		Days []dayDTO `json:"days"`
	}{toET0Area(a), days}, nil
}

// et0AreaDelete serves DELETE /apis/et0/areas/{id}.
func (s *Server) et0AreaDelete(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	return nil, s.ET0Areas.DeleteET0Area(c.r.Context(), c.account.ID, id)
}

func (s *Server) et0Area(c *call) (*et0grid.Area, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	return s.ET0Areas.ET0Area(c.r.Context(), c.account.ID, id)
}

// et0Day reads ?day=YYYY-MM-DD, one of the days the area offers.
func (s *Server) et0Day(c *call) (time.Time, error) {
	loc := s.location()
	raw := c.r.URL.Query().Get("day")
	now := time.Now().In(loc)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	if raw == "" {
		return today.AddDate(0, 0, -1), nil
	}
	d, err := time.ParseInLocation(time.DateOnly, raw, loc)
	if err != nil || d.Before(today.AddDate(0, 0, -et0PastDays)) || !d.Before(today.AddDate(0, 0, et0NextDays)) {
		return time.Time{}, errs.Invalid("day", "et0.day").With(map[string]any{"past": et0PastDays, "next": et0NextDays})
	}
	return d, nil
}

// et0Grid computes the area's grid of day from the stations the caller can
// see in or near it, and the forecast where they are sparse.
func (s *Server) et0Grid(c *call) (*et0grid.Area, time.Time, []et0grid.Point, *et0grid.Grid, error) {
	a, err := s.et0Area(c)
	if err != nil {
		return nil, time.Time{}, nil, nil, err
	}
	day, err := s.et0Day(c)
	if err != nil {
		return nil, time.Time{}, nil, nil, err
	}
	all, err := s.Devices.All(c.r.Context(), c.account.ID)
	if err != nil {
		return nil, time.Time{}, nil, nil, err
	}
	var stations []*devices.Device
	for _, d := range all {
		if d.Lat == nil || d.Lng == nil || !readings.Has(d.Type(), "airTemp") || !readings.Has(d.Type(), "airHumidity") {
			continue
		}
		if *d.Lng >= a.Box.West-et0Margin && *d.Lng <= a.Box.East+et0Margin && *d.Lat >= a.Box.South-et0Margin && *d.Lat <= a.Box.North+et0Margin {
			stations = append(stations, d)
		}
	}
	points, err := s.Weather.ET0Points(c.r.Context(), stations, a.Box, day)
	if err != nil {
		return nil, time.Time{}, nil, nil, err
	}
	if len(points) == 0 {
		return nil, time.Time{}, nil, nil, errs.New(errs.EConflict, "et0.noPoints")
	}
	g, err := et0grid.Interpolate(points, a.Box, a.Cell)
	if err != nil {
		return nil, time.Time{}, nil, nil, errs.Internal("ET0 grid: %w", err)
	}
	return a, day, points, g, nil
}

type et0PointDTO struct {
	ID     int64   `json:"id,omitempty"`
	Name   string  `json:"name"`
	Lat    float64 `json:"lat"`
	Lng    float64 `json:"lng"`
	Value  float64 `json:"value"`
	Source string  `json:"source"`
	// Predicted is the point's value as the others predict it (leave-one-out).
	Predicted *float64 `json:"predicted"`
}

// et0GridGet serves GET /apis/et0/areas/{id}/grid?day=: the points, the
// grid (row 0 at the north edge), its range and the cross-validation.
func (s *Server) et0GridGet(c *call) (any, error) {
	a, day, points, g, err := s.et0Grid(c)
	if err != nil {
		return nil, err
	}
	cv := et0grid.LeaveOneOut(points)
	ps := make([]et0PointDTO, len(points))
	for i, p := range points {
		ps[i] = et0PointDTO{ID: p.ID, Name: p.Name, Lat: p.Lat, Lng: p.Lng, Value: p.Value, Source: p.Source}
		if cv.N > 0 {
			ps[i].Predicted = readings.Ptr(readings.Round(p.Value+cv.Residuals[i], 2))
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	values := make([]float64, len(g.Values))
	for i, v := range g.Values {
		values[i] = readings.Round(v, 2)
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	type cvDTO struct {
		N    int     `json:"n"`
		MAE  float64 `json:"mae"`
		RMSE float64 `json:"rmse"`
		Max  float64 `json:"max"`
	}
	return struct {
		Area   et0AreaDTO    `json:"area"`
		Day    string        `json:"day"`
		Method string        `json:"method"`
		Power  int           `json:"power"`
		Points []et0PointDTO `json:"points"`
		CV     cvDTO         `json:"crossValidation"`
		West   float64       `json:"west"`
		North  float64       `json:"north"`
		Cell   float64       `json:"cell"`
		Cols   int           `json:"cols"`
		Rows   int           `json:"rows"`
		Min    float64       `json:"min"`
		Max    float64       `json:"max"`
		Values []float64     `json:"values"`
	}{toET0Area(a), day.Format(time.DateOnly), "idw", et0grid.Power, ps,
		cvDTO{cv.N, readings.Round(cv.MAE, 3), readings.Round(cv.RMSE, 3), readings.Round(cv.MaxAbs, 3)},
		g.Box.West, g.Box.North, g.Cell, g.Cols, g.Rows, readings.Round(lo, 2), readings.Round(hi, 2), values}, nil
}

// et0GridFile serves GET /apis/et0/areas/{id}/grid.tif and grid.csv?day=.
func (s *Server) et0GridFile(format string) apiFunc {
	return func(c *call) (any, error) {
		a, day, _, g, err := s.et0Grid(c)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		contentType := "text/csv"
		if format == "tif" {
			contentType = "image/tiff"
			err = et0grid.WriteGeoTIFF(&buf, g)
		} else {
			err = et0grid.WriteCSV(&buf, g)
		}
		if err != nil {
			return nil, errs.Internal("ET0 grid file: %w", err)
		}
		name := "et0-" + a.Name + "-" + day.Format("20060102") + "." + format
		return &download{contentType: contentType, filename: name, body: buf.Bytes(), cache: "no-store"}, nil
	}
}
