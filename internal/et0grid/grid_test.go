package et0grid

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Three stations around a county seat, one day's ET0.
var stations = []Point{
	{Lat: 36.60, Lng: 116.90, Value: 4.2, Source: "station", ID: 1},
	{Lat: 36.70, Lng: 117.10, Value: 5.0, Source: "station", ID: 2},
	{Lat: 36.50, Lng: 117.05, Value: 3.6, Source: "station", ID: 3},
}

func TestIDWAtStationsAndBetween(t *testing.T) {
	for _, p := range stations {
		if v, err := IDW(stations, p.Lat, p.Lng); err != nil || v != p.Value {
			t.Errorf("at station %d: %v %v, want %v", p.ID, v, err, p.Value)
		}
	}
	// Anywhere else: a weighted mean, so within the stations' range, and
	// nearer the nearer station.
	v, _ := IDW(stations, 36.61, 116.91)
	if !(v > 3.6 && v < 5.0) || math.Abs(v-4.2) > math.Abs(v-5.0) {
		t.Errorf("next to station 1: %v", v)
	}
	// By hand, halfway between two stations only: their mean.
	two := stations[:2]
	mid, _ := IDW(two, (two[0].Lat+two[1].Lat)/2, (two[0].Lng+two[1].Lng)/2)
	if math.Abs(mid-4.6) > 0.01 {
		t.Errorf("halfway: %v, want 4.6", mid)
	}
	if _, err := IDW(nil, 0, 0); err != ErrNoPoints {
		t.Errorf("no points: %v", err)
	}
}

func TestInterpolateGridAgreesWithStations(t *testing.T) {
	box := Box{West: 116.8, South: 36.4, East: 117.2, North: 36.8}
	g, err := Interpolate(stations, box, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if g.Cols != 40 || g.Rows != 40 {
		t.Fatalf("grid %d × %d", g.Cols, g.Rows)
	}
	// The cell holding each station has about its value (the cell centre is
	// up to 0.7 km away).
	for _, p := range stations {
		r, c := int((box.North-p.Lat)/g.Cell), int((p.Lng-box.West)/g.Cell)
		if got := g.At(r, c); math.Abs(got-p.Value) > 0.25 {
			t.Errorf("station %d's cell: %.3f, station %.3f", p.ID, got, p.Value)
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range g.Values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo < 3.6 || hi > 5.0 {
		t.Errorf("grid range %v–%v outside the stations' 3.6–5.0", lo, hi)
	}
	if _, err := Interpolate(stations, Box{West: 100, South: 20, East: 130, North: 50}, 0.01); err != ErrTooLarge {
		t.Errorf("a 3000 × 3000 grid: %v", err)
	}
}

func TestLeaveOneOut(t *testing.T) {
	cv := LeaveOneOut(stations)
	if cv.N != 3 || len(cv.Residuals) != 3 {
		t.Fatalf("%+v", cv)
	}
	// Station 1 predicted from 2 and 3 only: recompute by hand.
	d2 := distanceKm(36.60, 116.90, 36.70, 117.10)
	d3 := distanceKm(36.60, 116.90, 36.50, 117.05)
	want := (5.0/(d2*d2) + 3.6/(d3*d3)) / (1/(d2*d2) + 1/(d3*d3))
	if math.Abs(cv.Residuals[0]-(want-4.2)) > 1e-9 {
		t.Errorf("station 1 residual %v, want %v", cv.Residuals[0], want-4.2)
	}
	var sq float64
	for _, e := range cv.Residuals {
		sq += e * e
	}
	if math.Abs(cv.RMSE-math.Sqrt(sq/3)) > 1e-12 || cv.MAE > cv.RMSE || cv.MaxAbs < cv.MAE {
		t.Errorf("%+v", cv)
	}
	if one := LeaveOneOut(stations[:1]); one.N != 0 {
		t.Errorf("one point: %+v", one)
	}
}

func TestCSV(t *testing.T) {
	g, _ := Interpolate(stations, Box{West: 116.9, South: 36.6, East: 116.92, North: 36.62}, 0.01)
	var buf bytes.Buffer
	if err := WriteCSV(&buf, g); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if lines[0] != "lat,lng,et0_mm" || len(lines) != 1+g.Cols*g.Rows || !strings.HasPrefix(lines[1], "36.61500,116.90500,") {
		t.Errorf("%q", lines)
	}
}

// The GeoTIFF as GDAL reads it: size, georeference, datum, type, no-data,
// and the value at a station's place.
func TestGeoTIFFReadByGDAL(t *testing.T) {
	gdalinfo, err := exec.LookPath("gdalinfo")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("gdalinfo is needed (Debian's gdal-bin; make test-go installs it)")
		}
		t.Skip("gdalinfo not installed (Debian's gdal-bin)")
	}
	box := Box{West: 116.8, South: 36.4, East: 117.2, North: 36.8}
	g, err := Interpolate(stations, box, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "et0.tif")
	var buf bytes.Buffer
	if err := WriteGeoTIFF(&buf, g); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gdalinfo, "-json", "-stats", file).Output()
	if err != nil {
		t.Fatalf("gdalinfo: %v", err)
	}
	var info struct {
		Driver           string    `json:"driverShortName"`
		Size             []int     `json:"size"`
		GeoTransform     []float64 `json:"geoTransform"`
		CoordinateSystem struct {
			WKT string `json:"wkt"`
		} `json:"coordinateSystem"`
		Bands []struct {
			Type        string   `json:"type"`
			NoDataValue *float64 `json:"noDataValue"`
			Minimum     float64  `json:"minimum"`
			Maximum     float64  `json:"maximum"`
		} `json:"bands"`
	}
	if err := json.Unmarshal(out, &info); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if info.Driver != "GTiff" || len(info.Size) != 2 || info.Size[0] != g.Cols || info.Size[1] != g.Rows {
		t.Errorf("driver %q size %v, want GTiff %d × %d", info.Driver, info.Size, g.Cols, g.Rows)
	}
	want := []float64{116.8, 0.02, 0, 36.8, 0, -0.02}
	for i := range want {
		if len(info.GeoTransform) != 6 || math.Abs(info.GeoTransform[i]-want[i]) > 1e-9 {
			t.Fatalf("geotransform %v, want %v", info.GeoTransform, want)
		}
	}
	if !strings.Contains(info.CoordinateSystem.WKT, "WGS 84") || !strings.Contains(info.CoordinateSystem.WKT, `ID["EPSG",4326]`) {
		t.Errorf("coordinate system %s", info.CoordinateSystem.WKT)
	}
	if len(info.Bands) != 1 || info.Bands[0].Type != "Float32" || info.Bands[0].NoDataValue == nil || *info.Bands[0].NoDataValue != NoData {
		t.Fatalf("bands %+v", info.Bands)
	}
	if b := info.Bands[0]; b.Minimum < 3.59 || b.Maximum > 5.01 {
		t.Errorf("band range %v–%v", b.Minimum, b.Maximum)
	}
	// GDAL's value at the centre of a cell is the grid's value of that cell,
	// for cells at the corners and in the middle: rows run north to south.
	for _, rc := range [][2]int{{0, 0}, {0, g.Cols - 1}, {g.Rows - 1, 0}, {g.Rows / 2, g.Cols / 3}} {
		lat, lng := g.Center(rc[0], rc[1])
		loc, err := exec.Command("gdallocationinfo", "-valonly", "-wgs84", file, strconv.FormatFloat(lng, 'f', 6, 64), strconv.FormatFloat(lat, 'f', 6, 64)).Output()
		if err != nil {
			t.Fatalf("gdallocationinfo: %v", err)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(string(loc)), 64)
		if want := float64(float32(g.At(rc[0], rc[1]))); err != nil || math.Abs(v-want) > 1e-6 {
			t.Errorf("GDAL reads %q at %.4f, %.4f; the grid holds %v", loc, lat, lng, want)
		}
	}
}
