package readings

import (
	"context"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

func at(id int64, typeID int, lat, lng float64) *devices.Device {
	return &devices.Device{ID: id, TypeID: typeID, Name: "d", Lat: &lat, Lng: &lng}
}

func TestStations_Pick(t *testing.T) {
	ctx := context.Background()
	probe := at(1, 2, 37.45, 116.3)       // soil: no airTemp
	far := at(2, 5, 37.45+0.3, 116.3)     // a station 33 km north
	near := at(3, 5, 37.45+0.1, 116.3)    // 11 km north
	twin := at(4, 5, 37.45-0.1, 116.3)    // 11 km south
	hidden := at(5, 5, 37.45+0.01, 116.3) // 1 km, not the caller's
	gauge := at(6, 9, 37.45+0.02, 116.3)  // rain only
	visible := []*devices.Device{probe, far, near, twin, gauge}
	opened := 0
	ss := Stations{
		Open: func(_ context.Context, id int64) (*devices.Device, error) {
			opened++
			for _, d := range visible {
				if d.ID == id {
					return d, nil
				}
			}
			return nil, errs.NotFound()
		},
		Visible: func(context.Context) ([]*devices.Device, error) { return visible, nil },
	}

	// A device that measures the weather is its own station, whatever the call names.
	named := ss
	named.ID = hidden.ID
	if st, err := named.Pick(ctx, near, "airTemp"); err != nil || st.Device != near || !st.Own || st.DistanceKm != 0 || opened != 0 {
		t.Fatalf("own station: %+v %v (opened %d)", st, err, opened)
	}
	// Else the nearest visible one within 30 km; of two as near, the lower id.
	if st, err := ss.Pick(ctx, probe, "airTemp"); err != nil || st.Device != near || st.Own || st.DistanceKm < 11 || st.DistanceKm > 11.2 {
		t.Fatalf("nearest: %+v %v", st, err)
	}
	// A named station must be visible and measure what is needed.
	for _, id := range []int64{hidden.ID, gauge.ID} {
		named.ID = id
		st, err := named.Pick(ctx, probe, "airTemp")
		if e := errs.As(err); e == nil || e.Field != "stationId" || e.Code != "analysis.station" || st != nil {
			t.Errorf("station %d: %+v %v", id, st, err)
		}
	}
	named.ID = far.ID
	if st, err := named.Pick(ctx, probe, "airTemp"); err != nil || st.Device != far || st.DistanceKm < 33 {
		t.Errorf("named far station: %+v %v", st, err)
	}
	// Nothing within 30 km, or no position: no station.
	alone := Stations{Visible: func(context.Context) ([]*devices.Device, error) { return []*devices.Device{probe, far}, nil }}
	if st, err := alone.Pick(ctx, probe, "airTemp"); st != nil || err != nil {
		t.Errorf("beyond 30 km: %+v %v", st, err)
	}
	if st, err := ss.Pick(ctx, &devices.Device{ID: 9, TypeID: 2}, "airTemp"); st != nil || err != nil {
		t.Errorf("no position: %+v %v", st, err)
	}
}
