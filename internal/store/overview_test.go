package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

func TestStore_Overview(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		me := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		now := time.Now().Truncate(time.Millisecond)
		hour := func(h float64) time.Time { return now.Add(time.Duration(h * float64(time.Hour))) }
		at := func(r *telemetry.Report, off time.Time) *telemetry.Report { r.OfflineAt = off; return r }
		write := func(rs ...*telemetry.Report) {
			t.Helper()
			if _, err := db.WriteReports(ctx, rs, shanghai); err != nil {
				t.Fatal(err)
			}
		}
		bat := func(v float64) telemetry.Point { return telemetry.Point{Param: "battery", Value: v} }
		rainfall := func(v float64) telemetry.Point { return telemetry.Point{Param: "rainfall", Value: v} }

		healthy := newDevice(t, db, "ZS0000001", 2, me.ID)
		silent := newDevice(t, db, "RG0000001", 6, me.ID) // never reported: offline
		weak := newDevice(t, db, "ZS0000002", 2, me.ID)
		gappy := newDevice(t, db, "RG0000002", 6, me.ID)
		buffered := newDevice(t, db, "RG0000003", 6, me.ID)
		broken := newDevice(t, db, "ZS0000003", 2, me.ID)
		shelf := newDevice(t, db, "ZS0000004", 2, me.ID)
		if err := db.SetState(ctx, shelf.ID, devices.StateIdle); err != nil {
			t.Fatal(err)
		}
		theirs := newDevice(t, db, "RG0000009", 6, other.ID)

		write(at(report(healthy.ID, hour(-0.1), bat(3.9)), hour(1)))
		write(at(report(weak.ID, hour(-0.1), bat(3.0)), hour(1)))
		write(at(report(broken.ID, hour(-0.1), bat(3.9)), hour(1)))
		if err := db.SetHealth(ctx, broken.ID, devices.Health{At: hour(-0.1), Faults: []int{3}}); err != nil {
			t.Fatal(err)
		}
		// gappy went silent for five hours: offline after one, back since.
		write(at(report(gappy.ID, hour(-6), rainfall(1)), hour(-5)))
		write(at(report(gappy.ID, hour(-1), rainfall(2)), hour(1)))
		// buffered was offline too, but its batch brings what it kept while
		// unheard: no gap in its data.
		write(at(report(buffered.ID, hour(-6), rainfall(0)), hour(-5)))
		write(at(report(buffered.ID, hour(-5.5), rainfall(0.5)), hour(1)), at(report(buffered.ID, hour(-1), rainfall(0.5)), hour(1)))
		write(at(report(theirs.ID, hour(-0.1), rainfall(9)), hour(1)))

		t.Run("Gaps", func(t *testing.T) {
			d, err := db.FindDeviceByID(ctx, gappy.ID)
			if err != nil || d.GapFrom == nil || d.GapTo == nil || !d.GapFrom.Equal(hour(-6)) || !d.GapTo.Equal(hour(-1)) {
				t.Fatalf("gap of a device silent for five hours: %+v %v", d, err)
			}
			if d, _ := db.FindDeviceByID(ctx, buffered.ID); d.GapTo != nil {
				t.Fatalf("a device that sent what it kept has a gap %v–%v", d.GapFrom, d.GapTo)
			}
			if d, _ := db.FindDeviceByID(ctx, healthy.ID); d.GapTo != nil {
				t.Fatal("a first report is a gap")
			}
		})

		t.Run("Counts", func(t *testing.T) {
			cs, err := db.FleetCounts(ctx, me.ID, now, hour(-24))
			if err != nil {
				t.Fatal(err)
			}
			got := map[[2]any]int{}
			reasons := map[string]int{}
			for _, c := range cs {
				got[[2]any{c.TypeID, c.Status}] += c.N
				for _, r := range c.Reasons {
					reasons[r] += c.N
				}
			}
			want := map[string]int{store.ReasonFault: 1, store.ReasonOffline: 1, store.ReasonLowBattery: 1, store.ReasonGap: 1}
			for r, n := range want {
				if reasons[r] != n {
					t.Errorf("%s: %d, want %d", r, reasons[r], n)
				}
			}
			// A gap older than the window no longer counts.
			cs, _ = db.FleetCounts(ctx, me.ID, now, hour(-0.5))
			for _, c := range cs {
				if slices.Contains(c.Reasons, store.ReasonGap) {
					t.Fatalf("a gap that ended before the window: %+v", c)
				}
			}
			wantStatus := map[[2]any]int{
				{2, devices.StatusOnline}: 1, {2, devices.StatusLowpower}: 1, {2, devices.StatusFault}: 1, {2, devices.Status(devices.StateIdle)}: 1,
				{6, devices.StatusOffline}: 1, {6, devices.StatusOnline}: 2,
			}
			if len(got) != len(wantStatus) {
				t.Fatalf("counts %v, want %v", got, wantStatus)
			}
			for k, n := range wantStatus {
				if got[k] != n {
					t.Errorf("%v: %d, want %d (all: %v)", k, got[k], n, got)
				}
			}
		})

		t.Run("Attention", func(t *testing.T) {
			list, err := db.Attention(ctx, me.ID, now, hour(-24), 10)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, a := range list {
				ids = append(ids, a.ID)
			}
			// Most pressing first: the fault, the silent one, the weak battery, the gap.
			if !slices.Equal(ids, []int64{broken.ID, silent.ID, weak.ID, gappy.ID}) || !slices.Equal(list[0].Reasons, []string{store.ReasonFault}) ||
				!slices.Equal(list[3].Reasons, []string{store.ReasonGap}) {
				t.Fatalf("attention %v %+v", ids, list)
			}
			if list, _ := db.Attention(ctx, me.ID, now, hour(-24), 2); len(list) != 2 {
				t.Fatalf("limit 2: %d", len(list))
			}
			if list, _ := db.Attention(ctx, me.ID, now, hour(-0.5), 10); len(list) != 3 {
				t.Fatalf("a gap that ended before the window: %d listed", len(list))
			}
			if list, _ := db.Attention(ctx, other.ID, now, hour(-24), 10); len(list) != 0 {
				t.Fatalf("another account sees %+v", list)
			}
		})

		t.Run("Days", func(t *testing.T) {
			day := time.UnixMilli(0)
			{
				y, m, d := hour(-1).In(shanghai).Date()
				day = time.Date(y, m, d, 0, 0, 0, 0, shanghai)
			}
			list, days, err := db.FleetDays(ctx, me.ID, []int{6}, []time.Time{day}, []string{"rainfall"})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range list {
				if d.ID == theirs.ID || d.HashID == "" || d.Name == "" {
					t.Fatalf("device %+v", d)
				}
			}
			if _, ok := days[store.DeviceDay{Device: theirs.ID, Day: day.UnixMilli()}]; ok || len(list) != 2 {
				t.Fatalf("%d devices, another's among them: %v", len(list), ok)
			}
			// The readings of an hour ago are on today's rollup; six hours ago
			// may be yesterday in Shanghai.
			if r, ok := days[store.DeviceDay{Device: gappy.ID, Day: day.UnixMilli()}]["rainfall"]; !ok || r.Sum < 2 || r.Sum > 3 {
				t.Fatalf("gappy's rain %+v %v", r, ok)
			}
			if _, ok := days[store.DeviceDay{Device: silent.ID, Day: day.UnixMilli()}]; ok {
				t.Fatal("a device without readings has a day")
			}
			if _, _, err := db.FleetDays(ctx, me.ID, nil, []time.Time{day}, []string{"rainfall"}); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("Push", func(t *testing.T) {
			hs, err := db.PushHealth(ctx, me.ID, now, hour(-24))
			if err != nil || len(hs) != 0 {
				t.Fatalf("no channels: %+v %v", hs, err)
			}
		})
	})
}
