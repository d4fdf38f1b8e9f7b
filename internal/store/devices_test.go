package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

func TestStore_Devices(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		me := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		now := time.Now()

		soil := newDevice(t, db, "ZS2026000123", 2, me.ID)
		rain := newDevice(t, db, "RG2026000456", 6, me.ID)
		theirs := newDevice(t, db, "RG2026000789", 6, other.ID)
		// soil reported recently: online; rain never: offline.
		if _, err := db.WriteReports(ctx, []*telemetry.Report{{DeviceID: soil.ID, Time: now, OfflineAt: now.Add(time.Hour),
			Points: []telemetry.Point{{Param: "battery", Value: 3.9}}}}, shanghai); err != nil {
			t.Fatal(err)
		}

		t.Run("DuplicateSN", func(t *testing.T) {
			d := &devices.Device{HashID: "x", SN: soil.SN, TypeID: 2, Name: "x", State: devices.StateProduce, CreatedAt: now}
			if err := db.CreateDevice(ctx, d, "k"); errs.KindOf(err) != errs.EConflict {
				t.Fatalf("duplicate SN: %v", err)
			}
		})
		t.Run("OthersDeviceIsNotFound", func(t *testing.T) {
			_, _, err := db.DeviceRight(ctx, me.ID, theirs.ID)
			_, _, errMissing := db.DeviceRight(ctx, me.ID, 987654)
			if errs.KindOf(err) != errs.ENotFound || errs.KindOf(errMissing) != errs.ENotFound {
				t.Fatalf("another's device: %v; a missing one: %v", err, errMissing)
			}
			d, r, err := db.DeviceRight(ctx, me.ID, soil.ID)
			if err != nil || d.SN != soil.SN || !r.Owner {
				t.Fatalf("own device: %+v %+v %v", d, r, err)
			}
		})
		t.Run("Filters", func(t *testing.T) {
			cases := []struct {
				name string
				f    devices.Filter
				want []string
			}{
				{"all mine", devices.Filter{Limit: 10}, []string{soil.SN, rain.SN}},
				{"last five digits", devices.Filter{NameOrSN: "00456", Limit: 10}, []string{rain.SN}},
				{"four digits do not search the SN", devices.Filter{NameOrSN: "0456", Limit: 10}, nil},
				{"digits elsewhere in the SN do not match", devices.Filter{NameOrSN: "20260", Limit: 10}, nil},
				{"name substring, any case", devices.Filter{NameOrSN: "plot z", Limit: 10}, []string{soil.SN}},
				{"type", devices.Filter{TypeID: ptr(6), Limit: 10}, []string{rain.SN}},
				{"category", devices.Filter{Category: ptr(devices.CategorySoil), Limit: 10}, []string{soil.SN}},
				{"online", devices.Filter{Status: ptr(devices.StatusOnline), Limit: 10}, []string{soil.SN}},
				{"offline", devices.Filter{Status: ptr(devices.StatusOffline), Limit: 10}, []string{rain.SN}},
				{"shared with me: none yet", devices.Filter{Belong: devices.BelongShared, Limit: 10}, nil},
				{"sorted by name descending", devices.Filter{Sort: "name", Desc: true, Limit: 10}, []string{soil.SN, rain.SN}},
				{"second page", devices.Filter{Limit: 1, Offset: 1}, []string{rain.SN}},
				// Never-reported devices sort last in either direction.
				{"by last report", devices.Filter{Sort: "lastReport", Limit: 10}, []string{soil.SN, rain.SN}},
				{"by last report descending", devices.Filter{Sort: "lastReport", Desc: true, Limit: 10}, []string{soil.SN, rain.SN}},
				{"by status (offline before online)", devices.Filter{Sort: "status", Desc: true, Limit: 10}, []string{soil.SN, rain.SN}},
				{"by status ascending", devices.Filter{Sort: "status", Limit: 10}, []string{rain.SN, soil.SN}},
				{"searched and sorted", devices.Filter{NameOrSN: "plot", Sort: "status", Limit: 10}, []string{rain.SN, soil.SN}},
				{"like wildcards are literal", devices.Filter{NameOrSN: "%", Limit: 10}, nil},
			}
			for _, c := range cases {
				list, total, err := db.FindDevices(ctx, me.ID, c.f, now)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				var got []string
				for _, d := range list {
					got = append(got, d.SN)
				}
				if fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Errorf("%s: got %v, want %v", c.name, got, c.want)
				}
				if c.f.Offset == 0 && total != len(c.want) {
					t.Errorf("%s: total %d, want %d", c.name, total, len(c.want))
				}
			}
		})
		t.Run("TagsAtMostThreeEvenConcurrently", func(t *testing.T) {
			var tags []*devices.Tag
			for i := range 5 {
				tg, err := db.CreateTag(ctx, me.ID, fmt.Sprintf("tag%d", i))
				if err != nil {
					t.Fatal(err)
				}
				tags = append(tags, tg)
			}
			if _, err := db.CreateTag(ctx, me.ID, "tag0"); errs.KindOf(err) != errs.EInvalid {
				t.Fatalf("duplicate tag name: %v", err)
			}
			var wg sync.WaitGroup
			errsOut := make([]error, len(tags))
			for i, tg := range tags {
				wg.Add(1)
				go func() { defer wg.Done(); errsOut[i] = db.AddDeviceTag(ctx, me.ID, soil.ID, tg.ID) }()
			}
			wg.Wait()
			ok, limited := 0, 0
			for _, err := range errsOut {
				switch {
				case err == nil:
					ok++
				case errs.As(err) != nil && errs.As(err).Code == "device.tag.limit":
					limited++
				default:
					t.Fatalf("tagging: %v", err)
				}
			}
			if ok != 3 || limited != 2 {
				t.Fatalf("%d tagged, %d refused; want 3 and 2", ok, limited)
			}
			got, err := db.DeviceTags(ctx, me.ID, []int64{soil.ID, rain.ID})
			if err != nil || len(got[soil.ID]) != 3 || len(got[rain.ID]) != 0 {
				t.Fatalf("device tags: %+v %v", got, err)
			}
			// Another account's tag cannot be put on a device.
			theirTag, _ := db.CreateTag(ctx, other.ID, "x")
			if err := db.AddDeviceTag(ctx, me.ID, rain.ID, theirTag.ID); errs.KindOf(err) != errs.EInvalid {
				t.Fatalf("someone else's tag: %v", err)
			}
			tagged := got[soil.ID][0].ID
			list, _, _ := db.FindDevices(ctx, me.ID, devices.Filter{TagID: &tagged, Limit: 10}, now)
			if len(list) != 1 || list[0].ID != soil.ID {
				t.Fatalf("filter by tag: %+v", list)
			}
			if err := db.DeleteTag(ctx, other.ID, tagged); errs.KindOf(err) != errs.ENotFound {
				t.Fatalf("deleting another's tag: %v", err)
			}
			if err := db.DeleteTag(ctx, me.ID, tagged); err != nil {
				t.Fatal(err)
			}
			got, _ = db.DeviceTags(ctx, me.ID, []int64{soil.ID})
			if len(got[soil.ID]) != 2 {
				t.Fatalf("after deleting a tag: %+v", got)
			}
		})
		t.Run("BindOnlyUnbound", func(t *testing.T) {
			free := newDevice(t, db, "SJ2026000001", 8, 0)
			if err := db.BindDevice(ctx, free.ID, me.ID, "Slope 1", now); err != nil {
				t.Fatal(err)
			}
			if err := db.BindDevice(ctx, free.ID, other.ID, "Mine now", now); errs.KindOf(err) != errs.EConflict {
				t.Fatalf("second bind: %v", err)
			}
			d, _ := db.FindDeviceByID(ctx, free.ID)
			if d.OwnerID != me.ID || d.Name != "Slope 1" || d.State != devices.StateUsed {
				t.Fatalf("bound device: %+v", d)
			}
		})
		t.Run("HealthAndLastError", func(t *testing.T) {
			low := 3.1
			if err := db.SetHealth(ctx, rain.ID, devices.Health{At: now, Battery: &low, Faults: []int{3, 7}}); err != nil {
				t.Fatal(err)
			}
			stale := 4.0
			if err := db.SetHealth(ctx, rain.ID, devices.Health{At: now.Add(-time.Hour), Battery: &stale}); err != nil {
				t.Fatal(err)
			}
			if err := db.SetLastError(ctx, rain.ID, &devices.IngestError{At: now, Code: "ingest.notNumber", Field: "values.rainfall"}); err != nil {
				t.Fatal(err)
			}
			d, _ := db.FindDeviceByID(ctx, rain.ID)
			if *d.Battery != 3.1 || fmt.Sprint(d.Faults) != "[3 7]" || d.StatusAt(now) != devices.StatusFault ||
				d.LastError == nil || d.LastError.Field != "values.rainfall" {
				t.Fatalf("health: %+v %+v", d, d.LastError)
			}
			list, _, _ := db.FindDevices(ctx, me.ID, devices.Filter{Status: ptr(devices.StatusFault), Limit: 10}, now)
			if len(list) != 1 || list[0].ID != rain.ID {
				t.Fatalf("fault filter: %+v", list)
			}
		})
	})
}

func ptr[T any](v T) *T { return &v }

// A tag named on a device is created with the tagging or not at all, and
// concurrent taggings by one new name make one tag.
func TestStore_AddDeviceTagNamed(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		me := newAccount(t, db, "farmer01")
		full := newDevice(t, db, "ZS2026000301", 2, me.ID)
		for _, name := range []string{"a", "b", "c"} {
			if _, err := db.AddDeviceTagNamed(ctx, me.ID, full.ID, name); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.AddDeviceTagNamed(ctx, me.ID, full.ID, "d"); errs.As(err) == nil || errs.As(err).Code != "device.tag.limit" {
			t.Fatalf("fourth: %v", err)
		}
		if tags, _ := db.Tags(ctx, me.ID); len(tags) != 3 {
			t.Fatalf("tags after the refusal: %+v", tags)
		}
		var ds []*devices.Device
		for i := range 6 {
			ds = append(ds, newDevice(t, db, fmt.Sprintf("ZS20260004%02d", i), 2, me.ID))
		}
		var wg sync.WaitGroup
		ids := make([]int64, len(ds))
		failed := make([]error, len(ds))
		for i, d := range ds {
			wg.Go(func() {
				tg, err := db.AddDeviceTagNamed(ctx, me.ID, d.ID, "orchard")
				if failed[i] = err; err == nil {
					ids[i] = tg.ID
				}
			})
		}
		wg.Wait()
		for i := range ds {
			if failed[i] != nil || ids[i] != ids[0] {
				t.Fatalf("tagging %d: id %d, want %d: %v", i, ids[i], ids[0], failed[i])
			}
		}
		if tags, _ := db.Tags(ctx, me.ID); len(tags) != 4 {
			t.Fatalf("tags: %+v", tags)
		}
	})
}
