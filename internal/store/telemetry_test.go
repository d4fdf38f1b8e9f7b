package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

var shanghai = func() *time.Location {
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		panic(err)
	}
	return loc
}()

func newDevice(t testing.TB, db *store.DB, sn string, typeID int, owner int64) *devices.Device {
	t.Helper()
	d := &devices.Device{HashID: "h" + sn, SN: sn, TypeID: typeID, OwnerID: owner, Name: "Plot " + sn[:2], State: devices.StateUsed,
		CreatedAt: time.UnixMilli(1_700_000_000_000)}
	if err := db.CreateDevice(context.Background(), d, "sealed"); err != nil {
		t.Fatal(err)
	}
	return d
}

func report(dev int64, at time.Time, pts ...telemetry.Point) *telemetry.Report {
	return &telemetry.Report{DeviceID: dev, Time: at, Points: pts, OfflineAt: at.Add(time.Hour)}
}

func TestStore_Telemetry(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		soil := newDevice(t, db, "ZS0000001", 2, owner.ID)
		rain := newDevice(t, db, "RG0000001", 6, owner.ID)
		// 23:50 and 00:10 Shanghai time fall on two local days.
		day1 := time.Date(2026, 11, 1, 23, 50, 0, 0, shanghai)
		day2 := day1.Add(20 * time.Minute)

		first := []*telemetry.Report{
			report(soil.ID, day1, telemetry.Point{Param: "soilMoisture", Node: 10, Value: 20}, telemetry.Point{Param: "soilMoisture", Node: 20, Value: 30}, telemetry.Point{Param: "battery", Value: 12.1}),
			report(soil.ID, day2, telemetry.Point{Param: "soilMoisture", Node: 10, Value: 24}, telemetry.Point{Param: "soilMoisture", Node: 20, Value: 31}, telemetry.Point{Param: "battery", Value: 12.3}),
			report(rain.ID, day1, telemetry.Point{Param: "rainfall", Value: 1.5}),
			report(rain.ID, day1.Add(5*time.Minute), telemetry.Point{Param: "rainfall", Value: 2.5}),
		}
		n, err := db.WriteReports(ctx, first, shanghai)
		if err != nil {
			t.Fatal(err)
		}
		if n != 8 {
			t.Fatalf("stored %d readings, want 8", n)
		}

		t.Run("RedeliveryStoresOnce", func(t *testing.T) {
			again := report(soil.ID, day1, telemetry.Point{Param: "soilMoisture", Node: 10, Value: 99})
			n, err := db.WriteReports(ctx, []*telemetry.Report{again, again}, shanghai)
			if err != nil || n != 0 {
				t.Fatalf("redelivery stored %d readings (err %v), want 0", n, err)
			}
			rs, err := db.Readings(ctx, telemetry.Query{DeviceID: soil.ID, Params: []string{"soilMoisture"}, Nodes: []int{10}, Begin: day1, End: day2.Add(time.Second)})
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != 2 || rs[0].Value != 20 || rs[1].Value != 24 {
				t.Fatalf("readings after redelivery: %+v", rs)
			}
		})
		t.Run("ReadingsOrderedAndFiltered", func(t *testing.T) {
			rs, err := db.Readings(ctx, telemetry.Query{DeviceID: soil.ID, Begin: day1, End: day2.Add(time.Second)})
			if err != nil {
				t.Fatal(err)
			}
			want := []struct {
				p string
				n int
				v float64
			}{{"battery", 0, 12.1}, {"battery", 0, 12.3}, {"soilMoisture", 10, 20}, {"soilMoisture", 10, 24}, {"soilMoisture", 20, 30}, {"soilMoisture", 20, 31}}
			if len(rs) != len(want) {
				t.Fatalf("got %d readings: %+v", len(rs), rs)
			}
			for i, w := range want {
				if rs[i].Param != w.p || rs[i].Node != w.n || rs[i].Value != w.v {
					t.Fatalf("reading %d = %+v, want %+v", i, rs[i], w)
				}
			}
			rs, err = db.Readings(ctx, telemetry.Query{DeviceID: soil.ID, Begin: day2, End: day2.Add(time.Second), Params: []string{"soilMoisture"}, Nodes: []int{20}})
			if err != nil || len(rs) != 1 || rs[0].Value != 31 || !rs[0].Time.Equal(day2) {
				t.Fatalf("filtered: %+v %v", rs, err)
			}
		})
		t.Run("DailyRollupsByLocalDay", func(t *testing.T) {
			more := []*telemetry.Report{report(rain.ID, day2, telemetry.Point{Param: "rainfall", Value: 4})}
			if _, err := db.WriteReports(ctx, more, shanghai); err != nil {
				t.Fatal(err)
			}
			ds, err := db.Days(ctx, telemetry.Query{DeviceID: rain.ID, Begin: day1.Add(-24 * time.Hour), End: day2.Add(24 * time.Hour)})
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) != 2 {
				t.Fatalf("days: %+v", ds)
			}
			if ds[0].Sum != 4 || ds[0].Count != 2 || ds[0].Min != 1.5 || ds[0].Max != 2.5 || ds[0].Last != 2.5 {
				t.Fatalf("day 1: %+v", ds[0])
			}
			if !ds[0].Day.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, shanghai)) || ds[1].Sum != 4 || ds[1].Count != 1 {
				t.Fatalf("days: %+v", ds)
			}
			// A late report for an earlier time updates the rollup but not "last".
			late := []*telemetry.Report{report(rain.ID, day1.Add(-time.Hour), telemetry.Point{Param: "rainfall", Value: 10})}
			if _, err := db.WriteReports(ctx, late, shanghai); err != nil {
				t.Fatal(err)
			}
			ds, _ = db.Days(ctx, telemetry.Query{DeviceID: rain.ID, Begin: day1.Add(-24 * time.Hour), End: day1})
			if len(ds) != 1 || ds[0].Sum != 14 || ds[0].Max != 10 || ds[0].Last != 2.5 || ds[0].Count != 3 {
				t.Fatalf("after a late report: %+v", ds)
			}
		})
		t.Run("LatestAndLastReport", func(t *testing.T) {
			late := []*telemetry.Report{report(soil.ID, day1.Add(-time.Hour), telemetry.Point{Param: "battery", Value: 3})}
			if _, err := db.WriteReports(ctx, late, shanghai); err != nil {
				t.Fatal(err)
			}
			ls, err := db.Latest(ctx, soil.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(ls) != 3 || ls[0].Param != "battery" || ls[0].Value != 12.3 || ls[1].Value != 24 || ls[2].Value != 31 {
				t.Fatalf("latest: %+v", ls)
			}
			d, err := db.FindDeviceByID(ctx, soil.ID)
			if err != nil {
				t.Fatal(err)
			}
			if d.LastReportAt == nil || !d.LastReportAt.Equal(day2) || d.OfflineAt == nil || !d.OfflineAt.Equal(day2.Add(time.Hour)) {
				t.Fatalf("last report %v offline at %v", d.LastReportAt, d.OfflineAt)
			}
		})
		t.Run("ConcurrentWritersOfOneReport", func(t *testing.T) {
			at := day2.Add(time.Hour)
			var wg sync.WaitGroup
			total := make([]int, 4)
			for i := range total {
				wg.Add(1)
				go func() {
					defer wg.Done()
					n, err := db.WriteReports(ctx, []*telemetry.Report{report(rain.ID, at, telemetry.Point{Param: "rainfall", Value: 1})}, shanghai)
					if err != nil {
						t.Error(err)
					}
					total[i] = n
				}()
			}
			wg.Wait()
			if sum := total[0] + total[1] + total[2] + total[3]; sum != 1 {
				t.Fatalf("four concurrent copies stored %d readings, want 1", sum)
			}
		})
		t.Run("PurgeKeepsRollups", func(t *testing.T) {
			n, err := db.PurgeReadings(ctx, day2)
			if err != nil || n == 0 {
				t.Fatalf("purged %d (%v)", n, err)
			}
			rs, _ := db.Readings(ctx, telemetry.Query{DeviceID: rain.ID, Begin: day1.Add(-2 * time.Hour), End: day2})
			if len(rs) != 0 {
				t.Fatalf("raw readings left: %+v", rs)
			}
			ds, _ := db.Days(ctx, telemetry.Query{DeviceID: rain.ID, Begin: day1.Add(-24 * time.Hour), End: day1})
			if len(ds) != 1 || ds[0].Sum != 14 {
				t.Fatalf("rollups after purge: %+v", ds)
			}
		})
		t.Run("UnbindErasesHistory", func(t *testing.T) {
			if err := db.UnbindDevice(ctx, rain.ID); err != nil {
				t.Fatal(err)
			}
			ds, _ := db.Days(ctx, telemetry.Query{DeviceID: rain.ID, Begin: day1.Add(-48 * time.Hour), End: day2.Add(48 * time.Hour)})
			ls, _ := db.Latest(ctx, rain.ID)
			d, _ := db.FindDeviceByID(ctx, rain.ID)
			if len(ds) != 0 || len(ls) != 0 || d.OwnerID != 0 || d.State != devices.StateIdle || d.LastReportAt != nil {
				t.Fatalf("after unbind: days %v latest %v device %+v", ds, ls, d)
			}
			if err := db.UnbindDevice(ctx, 999999); errs.KindOf(err) != errs.ENotFound {
				t.Fatalf("unbind of a missing device: %v", err)
			}
		})
	})
}
