package briefing_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/briefing"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// benchCounty stores a county: 200 six-node soil stations in 10 regions
// and 5 rain gauges, each with 14 days (the week and the week before) of
// readings every 10 minutes, and returns the preset.
func benchCounty(b *testing.B, db *store.DB, end time.Time) *briefing.Preset {
	f := newFarm(b, db)
	std := []int{10, 20, 30, 40, 50, 60}
	begin := end.AddDate(0, 0, -14)
	p := &briefing.Preset{OwnerID: f.owner, Name: "county", UnitName: "county"}
	for r := range 10 {
		p.Regions = append(p.Regions, briefing.Region{Name: fmt.Sprintf("R%02d", r)})
	}
	for i := range 200 {
		d := f.device(2, f.owner, 34+float64(i)/1000, 114+float64(i)/1000)
		f.settings(d.ID, 30, std...)
		base := 12 + float64(i%15)
		f.moisture(d.ID, begin, end, 10*time.Minute, func(n int) float64 { return base + float64(n)/10 }, std...)
		p.SoilDevices = append(p.SoilDevices, briefing.SoilDevice{DeviceID: d.ID})
		p.Regions[i%10].DeviceIDs = append(p.Regions[i%10].DeviceIDs, d.ID)
	}
	for range 5 {
		g := f.device(6, f.owner, 34.1, 114.1)
		var reps []*telemetry.Report
		for at := begin; at.Before(end); at = at.Add(10 * time.Minute) {
			reps = append(reps, &telemetry.Report{DeviceID: g.ID, Time: at, OfflineAt: at.Add(time.Hour),
				Points: []telemetry.Point{{Param: "rainfall", Value: 0.1}}})
		}
		f.write(reps)
		p.WeatherIDs = append(p.WeatherIDs, g.ID)
	}
	p.Normalize()
	return p
}

func benchReport(b *testing.B, db *store.DB) {
	end := time.Date(2026, 11, 23, 0, 0, 0, 0, cst)
	p := benchCounty(b, db, end)
	svc := briefing.New(briefing.Options{Store: db, Devices: devices.New(devices.Options{Store: db})})
	o := briefing.ReportOptions{Readings: readings.New(telemetry.NewHistory(telemetry.HistoryOptions{Store: db, Location: cst}), nil), Settings: db}
	b.ResetTimer()
	for b.Loop() {
		r, err := svc.Compute(context.Background(), o, p, end, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Regions) != 10 || r.Regions[0].Used != 20 || r.Regions[0].Bands[2].Relative == nil {
			b.Fatalf("report: %+v", r.Regions[0])
		}
	}
}

// BenchmarkCountyReport: a county report over 200 soil devices and 7 days
// of 10-minute data (docs/performance.md).
func BenchmarkCountyReport(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchReport(b, storetest.OpenSQLite(b)) })
	b.Run("postgres", func(b *testing.B) { benchReport(b, storetest.OpenPostgres(b)) })
}
