package httpapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// BenchmarkOverview measures the overview of a 10,000-device account
// (target p99 ≤ 50 ms), yesterday's ET0 already computed (as it is for
// every request but one in ten minutes); the first request's time is logged:
//
//	go test -tags no_ui -run '^$' -bench Overview -benchtime 100x ./internal/httpapi/
//
// The fleet of BenchmarkDeviceList, where every device online that measures
// air temperature also has yesterday's complete day of weather (the ET0 of
// each station), and every one that measures rain has today's rain.
func BenchmarkOverview(b *testing.B) {
	for _, be := range benchBackends {
		b.Run(be.name, func(b *testing.B) {
			f := loadFleet(b, be.open)
			stations, gauges := loadOverviewDays(b, f)
			// The first request also computes yesterday's ET0 of every
			// station, which later ones reuse (et0DayTTL): its time is logged.
			cold := time.Now()
			a := benchGetData[struct {
				Devices struct {
					Total  int            `json:"total"`
					Status map[string]int `json:"status"`
				} `json:"devices"`
				Attention struct {
					Counts  map[string]int `json:"counts"`
					Devices []struct {
						Reasons []string `json:"reasons"`
					} `json:"devices"`
				} `json:"attention"`
				Rain struct{ Devices int } `json:"rain"`
				ET0  struct {
					Devices int
					Mean    *float64
				} `json:"et0"`
			}](b, f.env, "/apis/overview")
			want := map[string]int{}
			for _, p := range f.plan {
				want[string(p.status())]++
			}
			if a.Devices.Total != fleetSize || len(a.Attention.Devices) != 20 {
				b.Fatalf("overview: %d devices, %d needing attention", a.Devices.Total, len(a.Attention.Devices))
			}
			for s, n := range want {
				if a.Devices.Status[s] != n {
					b.Fatalf("status %s: %d, want %d", s, a.Devices.Status[s], n)
				}
			}
			if a.Rain.Devices != gauges || a.ET0.Devices != stations || stations == 0 || a.ET0.Mean == nil {
				b.Fatalf("rain at %d gauges (want %d), ET0 of %d stations (want %d)", a.Rain.Devices, gauges, a.ET0.Devices, stations)
			}
			b.Logf("%d stations with yesterday's ET0, %d gauges with today's rain; the first request (ET0 computed) took %v",
				stations, gauges, time.Since(cold).Round(time.Millisecond))
			b.Run("overview", func(b *testing.B) { benchLatency(b, f.env, func() string { return "/apis/overview" }) })
		})
	}
}

// loadOverviewDays writes yesterday's weather (a reading every interval, a
// whole day) for the fleet's online stations and a reading of rain today
// for its online gauges; returns how many of each.
func loadOverviewDays(b *testing.B, f *fleetFixture) (stations, gauges int) {
	b.Helper()
	ctx := context.Background()
	loc := f.env.loc
	now := time.Now().In(loc)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	yesterday := today.AddDate(0, 0, -1)
	var reports []*telemetry.Report
	write := func() {
		if _, err := f.env.db.WriteReports(ctx, reports, loc); err != nil {
			b.Fatal(err)
		}
		reports = reports[:0]
	}
	for i, p := range f.plan {
		if !p.online || p.state != devices.StateUsed {
			continue
		}
		d, err := f.env.db.FindDeviceBySN(ctx, p.sn)
		if err != nil {
			b.Fatal(err)
		}
		t := d.Type()
		// Readings in the past only: no report may move the device's last one.
		if readings.Has(t, "airTemp") && readings.Has(t, "airHumidity") && d.Lat != nil {
			stations++
			step := d.Interval()
			for at := yesterday; at.Before(today); at = at.Add(step) {
				h := float64(at.Sub(yesterday)) / float64(time.Hour)
				reports = append(reports, &telemetry.Report{DeviceID: d.ID, Time: at, OfflineAt: at.Add(time.Hour), Points: []telemetry.Point{
					{Param: "airTemp", Value: 12 + 8*float64(min(h, 24-h))/12 + float64(i%7)/10},
					{Param: "airHumidity", Value: 80 - 30*float64(min(h, 24-h))/12},
				}})
				if len(reports) >= 1000 {
					write()
				}
			}
		}
		if readings.Has(t, "rainfall") {
			gauges++
			at := today.Add(min(time.Duration(i%60)*time.Second, now.Sub(today)/2))
			reports = append(reports, &telemetry.Report{DeviceID: d.ID, Time: at, OfflineAt: at.Add(time.Hour),
				Points: []telemetry.Point{{Param: "rainfall", Value: float64(i%5) / 2}}})
		}
	}
	write()
	return stations, gauges
}
