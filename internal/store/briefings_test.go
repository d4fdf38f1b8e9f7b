package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/briefing"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

func TestStore_Briefings(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		other := newAccount(t, db, "farmer02")
		fc := 31.5
		at := time.UnixMilli(1_772_400_000_000)
		p := &briefing.Preset{OwnerID: owner.ID, Name: "墒情周报", TemplateID: briefing.TemplateCounty,
			Province: "河南省", City: "郑州市", District: "中牟县", Company: "县农技站", UnitName: "中牟县农业农村局",
			Lang: i18n.ZhCN, Regions: []briefing.Region{{Name: "城关镇", DeviceIDs: []int64{11, 12}}, {Name: "官渡镇", DeviceIDs: []int64{13}}},
			Depth1: []int{10, 20}, Depth2: []int{30, 40}, Depth3: []int{50, 60},
			SoilDevices: []briefing.SoilDevice{{DeviceID: 11, FieldCapacity: &fc}, {DeviceID: 12}, {DeviceID: 13}},
			WeatherIDs:  []int64{21}, Stage: agro.DroughtCritical, ReferenceNode: 1, Period: briefing.PeriodWeek,
			Schedule: briefing.Schedule{Enabled: true, Weekday: 1, Hour: 8}, Recipients: []string{"bureau@example.com"},
			CreatedAt: at, UpdatedAt: at}
		if err := db.CreateBriefing(ctx, p); err != nil {
			t.Fatal(err)
		}
		if p.ID == 0 {
			t.Fatal("no id")
		}
		p.LastRunAt = &at // the schedule counts from the creation
		got, err := db.Briefing(ctx, owner.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, p) {
			t.Fatalf("read back\n got %+v\nwant %+v", got, p)
		}
		// Another account's preset looks missing, for reading, updating and deleting.
		if _, err := db.Briefing(ctx, other.ID, p.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("other owner reads: %v", err)
		}
		theirs := *p
		theirs.OwnerID, theirs.Name = other.ID, "taken"
		if err := db.UpdateBriefing(ctx, &theirs); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("other owner updates: %v", err)
		}
		if err := db.DeleteBriefing(ctx, other.ID, p.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("other owner deletes: %v", err)
		}

		second := *p
		second.ID, second.Name, second.Schedule, second.LastRunAt = 0, "Farm", briefing.Schedule{}, nil
		second.Regions = []briefing.Region{{Name: "Farm", DeviceIDs: []int64{11}}}
		if err := db.CreateBriefing(ctx, &second); err != nil {
			t.Fatal(err)
		}
		list, total, err := db.Briefings(ctx, owner.ID, 1, 10)
		if err != nil || total != 2 || len(list) != 2 || list[0].ID != second.ID || list[1].ID != p.ID {
			t.Fatalf("list: %v %d %+v", err, total, list)
		}
		if list, total, _ := db.Briefings(ctx, owner.ID, 2, 1); total != 2 || len(list) != 1 || list[0].ID != p.ID {
			t.Fatalf("page 2: %d %+v", total, list)
		}
		if list, total, _ := db.Briefings(ctx, other.ID, 1, 10); total != 0 || len(list) != 0 {
			t.Fatalf("other's list: %d %+v", total, list)
		}
		sched, err := db.ScheduledBriefings(ctx)
		if err != nil || len(sched) != 1 || sched[0].ID != p.ID {
			t.Fatalf("scheduled: %v %+v", err, sched)
		}

		// A scheduled time is claimed once, and only while the schedule is on.
		slot := at.Add(24 * time.Hour)
		if ok, err := db.ClaimBriefingRun(ctx, p.ID, slot); !ok || err != nil {
			t.Fatalf("claim: %v %v", ok, err)
		}
		if ok, _ := db.ClaimBriefingRun(ctx, p.ID, slot); ok {
			t.Fatal("claimed twice")
		}
		if ok, _ := db.ClaimBriefingRun(ctx, p.ID, at.Add(time.Hour)); ok {
			t.Fatal("claimed an earlier time")
		}
		if ok, _ := db.ClaimBriefingRun(ctx, second.ID, slot); ok {
			t.Fatal("claimed an unscheduled preset")
		}
		p.LastRunAt = &slot

		// Update replaces the whole document and the schedule column.
		p.Name, p.Schedule.Enabled, p.Stage = "Renamed", false, agro.DroughtSeedling
		p.UpdatedAt = at.Add(time.Hour)
		if err := db.UpdateBriefing(ctx, p); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.Briefing(ctx, owner.ID, p.ID); !reflect.DeepEqual(got, p) {
			t.Fatalf("updated\n got %+v\nwant %+v", got, p)
		}
		if sched, _ := db.ScheduledBriefings(ctx); len(sched) != 0 {
			t.Fatalf("still scheduled: %+v", sched)
		}
		// Switched on again, the schedule counts from then.
		p.Schedule.Enabled, p.UpdatedAt = true, at.Add(72*time.Hour)
		if err := db.UpdateBriefing(ctx, p); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.Briefing(ctx, owner.ID, p.ID); got.LastRunAt == nil || !got.LastRunAt.Equal(p.UpdatedAt) {
			t.Fatalf("switched on: last run %v, want %v", got.LastRunAt, p.UpdatedAt)
		}
		if err := db.DeleteBriefing(ctx, owner.ID, p.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Briefing(ctx, owner.ID, p.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("deleted: %v", err)
		}
		if err := db.DeleteBriefing(ctx, owner.ID, p.ID); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("deleted twice: %v", err)
		}
	})
}
