package readings

import (
	"context"
	"math"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// StationRadiusKm is how far a weather station may be from a device
// without one and still stand for its weather (ET0, rain).
const StationRadiusKm = 30

// Station is the device whose readings stand for a place's weather.
type Station struct {
	Device     *devices.Device
	Own        bool    // the device itself
	DistanceKm float64 // from the device, 0 for its own
}

// Stations is where a call may take another device's weather from: the
// station it names and the devices its caller can see. Both are looked up
// only when the device does not measure the weather itself; the HTTP layer
// fills them with the caller's permission check (devices.Service.Open).
type Stations struct {
	// ID is the station the call names (?stationId=), 0 for none.
	ID int64
	// Open returns a device the caller may read; ENOTFOUND for one they
	// cannot see, exactly as for one that does not exist.
	Open func(ctx context.Context, id int64) (*devices.Device, error)
	// Visible returns every device the caller can see.
	Visible func(ctx context.Context) ([]*devices.Device, error)
}

// Pick picks the device whose readings of every param in need stand for
// d's weather: d itself when it measures them, else the named station
// (which the caller must see and which must measure them), else the nearest
// visible device measuring them within 30 km. Returns nil when there is
// none; EINVALID (field stationId) for a named station that will not do.
func (ss Stations) Pick(ctx context.Context, d *devices.Device, need ...string) (*Station, error) {
	if t := d.Type(); t != nil && len(Missing(t, need...)) == 0 {
		return &Station{Device: d, Own: true}, nil
	}
	if ss.ID > 0 {
		st, err := ss.Open(ctx, ss.ID)
		if errs.KindOf(err) == errs.ENotFound {
			return nil, errs.Invalid("stationId", "analysis.station")
		}
		if err != nil {
			return nil, err
		}
		if t := st.Type(); t == nil || len(Missing(t, need...)) > 0 {
			return nil, errs.Invalid("stationId", "analysis.station")
		}
		return &Station{Device: st, DistanceKm: Round(DistanceKm(d, st), 2)}, nil
	}
	if d.Lat == nil || d.Lng == nil || ss.Visible == nil {
		return nil, nil
	}
	all, err := ss.Visible(ctx)
	if err != nil {
		return nil, err
	}
	var best *devices.Device
	bestKm := math.Inf(1)
	for _, c := range all {
		t := c.Type()
		if c.ID == d.ID || t == nil || c.Lat == nil || c.Lng == nil || len(Missing(t, need...)) > 0 {
			continue
		}
		if km := DistanceKm(d, c); km <= StationRadiusKm && (km < bestKm || km == bestKm && c.ID < best.ID) {
			best, bestKm = c, km
		}
	}
	if best == nil {
		return nil, nil
	}
	return &Station{Device: best, DistanceKm: Round(bestKm, 2)}, nil
}

// DistanceKm is the great-circle distance between two positioned devices.
func DistanceKm(a, b *devices.Device) float64 {
	const r = 6371.0
	rad := math.Pi / 180
	lat1, lat2 := *a.Lat*rad, *b.Lat*rad
	dlat, dlng := lat2-lat1, (*b.Lng-*a.Lng)*rad
	h := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1)*math.Cos(lat2)*math.Sin(dlng/2)*math.Sin(dlng/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(h)))
}
