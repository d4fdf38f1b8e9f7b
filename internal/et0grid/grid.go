// Package et0grid turns point values of daily reference evapotranspiration
// (ET0, mm) into a grid over an area by inverse distance weighting, says how
// good the interpolation is by leave-one-out cross-validation, and writes the
// grid as GeoTIFF (EPSG:4326) and CSV.
package et0grid

import (
	"errors"
	"math"
	"time"
)

// Point is a value at a place: a weather station's ET0 of a day, or the
// forecast's at a place where stations are sparse.
type Point struct {
	Lat, Lng float64
	Value    float64
	Source   string // "station" or "forecast"
	ID       int64  // the station's device id; 0 for a forecast point
	Name     string
}

// Box is an area in degrees (WGS 84).
type Box struct {
	West, South, East, North float64
}

// Valid reports whether b is a real box on the globe.
func (b Box) Valid() bool {
	return b.West >= -180 && b.East <= 180 && b.South >= -90 && b.North <= 90 && b.East > b.West && b.North > b.South
}

// Grid is a raster of values, row 0 at the north edge, cells of Cell degrees.
type Grid struct {
	Box        Box
	Cell       float64 // degrees
	Cols, Rows int
	Values     []float64 // Rows × Cols, row-major from the north-west corner
}

// At is the value of the cell in row r, column c.
func (g *Grid) At(r, c int) float64 { return g.Values[r*g.Cols+c] }

// Center is the latitude and longitude of a cell's centre.
func (g *Grid) Center(r, c int) (lat, lng float64) {
	return g.Box.North - (float64(r)+0.5)*g.Cell, g.Box.West + (float64(c)+0.5)*g.Cell
}

// Power is the inverse-distance exponent: 2, the usual choice for smooth
// climate fields (Shepard, 1968).
const Power = 2

// MaxCells bounds a grid: 250 000 cells (500 × 500).
const MaxCells = 250_000

// ErrNoPoints is returned when there is nothing to interpolate.
var ErrNoPoints = errors.New("et0grid: no points")

// ErrTooLarge is returned when the box at the cell size has more than MaxCells cells.
var ErrTooLarge = errors.New("et0grid: too many cells")

// distanceKm is the great-circle distance between two places (haversine).
func distanceKm(lat1, lng1, lat2, lng2 float64) float64 {
	const r = 6371.0
	rad := math.Pi / 180
	dlat, dlng := (lat2-lat1)*rad, (lng2-lng1)*rad
	a := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dlng/2)*math.Sin(dlng/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(a)))
}

// IDW is the inverse-distance-weighted value at a place: Σ wᵢ vᵢ / Σ wᵢ
// with wᵢ = 1 / dᵢ^Power; at a point itself, that point's value exactly.
func IDW(points []Point, lat, lng float64) (float64, error) {
	if len(points) == 0 {
		return 0, ErrNoPoints
	}
	var num, den float64
	for _, p := range points {
		d := distanceKm(lat, lng, p.Lat, p.Lng)
		if d < 1e-6 {
			return p.Value, nil
		}
		w := 1 / math.Pow(d, Power)
		num += w * p.Value
		den += w
	}
	return num / den, nil
}

// Interpolate fills a grid over box at cell degrees from the points.
func Interpolate(points []Point, box Box, cell float64) (*Grid, error) {
	if len(points) == 0 {
		return nil, ErrNoPoints
	}
	// Whole cells cover the box; a hair of rounding (0.4 / 0.01 is not
	// exactly 40 in floating point) adds none.
	cols := int(math.Ceil((box.East-box.West)/cell - 1e-9))
	rows := int(math.Ceil((box.North-box.South)/cell - 1e-9))
	if cols < 1 || rows < 1 || cols*rows > MaxCells {
		return nil, ErrTooLarge
	}
	// The box grows to whole cells towards the east and the south.
	box.East, box.South = box.West+float64(cols)*cell, box.North-float64(rows)*cell
	g := &Grid{Box: box, Cell: cell, Cols: cols, Rows: rows, Values: make([]float64, cols*rows)}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			lat, lng := g.Center(r, c)
			g.Values[r*cols+c], _ = IDW(points, lat, lng)
		}
	}
	return g, nil
}

// CrossValidation is how well the interpolation predicts each point from
// the others (leave-one-out): the errors in mm, over N points.
type CrossValidation struct {
	N         int
	MAE, RMSE float64
	MaxAbs    float64
	Residuals []float64 // predicted − observed, in the order of the points
}

// LeaveOneOut predicts each point from all the others and reports the
// errors; N is 0 with fewer than two points (nothing to predict from).
func LeaveOneOut(points []Point) CrossValidation {
	cv := CrossValidation{Residuals: []float64{}}
	if len(points) < 2 {
		return cv
	}
	others := make([]Point, 0, len(points)-1)
	var sum, sq float64
	for i, p := range points {
		others = append(others[:0], points[:i]...)
		others = append(others, points[i+1:]...)
		pred, _ := IDW(others, p.Lat, p.Lng)
		e := pred - p.Value
		cv.Residuals = append(cv.Residuals, e)
		sum += math.Abs(e)
		sq += e * e
		cv.MaxAbs = math.Max(cv.MaxAbs, math.Abs(e))
	}
	cv.N = len(points)
	cv.MAE = sum / float64(cv.N)
	cv.RMSE = math.Sqrt(sq / float64(cv.N))
	return cv
}

// Area is a box an account keeps for the ET0 raster data service.
type Area struct {
	ID        int64
	AccountID int64
	Name      string
	Box       Box
	Cell      float64 // degrees
	CreatedAt time.Time
}
