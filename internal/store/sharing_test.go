package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/secret"
	"github.com/fieldwatch/fieldwatch/internal/sharing"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

type sharingEnv struct {
	t       *testing.T
	db      *store.DB
	devices *devices.Service
	sharing *sharing.Service
	now     time.Time
}

func newSharing(t *testing.T, db *store.DB) *sharingEnv {
	keys, err := secret.New(make([]byte, secret.Size))
	if err != nil {
		t.Fatal(err)
	}
	e := &sharingEnv{t: t, db: db, devices: devices.New(devices.Options{Store: db, Keys: keys}), now: time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)}
	e.sharing = sharing.New(sharing.Options{Store: db, Devices: e.devices, Now: func() time.Time { return e.now }})
	return e
}

// offer makes a link and fails the test on error.
func (e *sharingEnv) offer(from int64, kind sharing.Kind, r devices.Right, ids ...int64) string {
	e.t.Helper()
	_, token, err := e.sharing.Offer(context.Background(), from, kind, ids, r)
	if err != nil {
		e.t.Fatal(err)
	}
	return token
}

func (e *sharingEnv) accept(who int64, token string) []int64 {
	e.t.Helper()
	_, ids, err := e.sharing.Accept(context.Background(), who, token)
	if err != nil {
		e.t.Fatal(err)
	}
	return ids
}

func (e *sharingEnv) right(viewer, id int64) (devices.Right, errs.Kind) {
	_, r, err := e.db.DeviceRight(context.Background(), viewer, id)
	if err != nil {
		return r, errs.KindOf(err)
	}
	return r, ""
}

func wantKind(t *testing.T, what string, err error, kind errs.Kind, code string) {
	t.Helper()
	e := errs.As(err)
	if e == nil || e.Kind != kind || code != "" && e.Code != code {
		t.Fatalf("%s: %v, want %s %s", what, err, kind, code)
	}
}

func TestSharing_GrantLinks(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newSharing(t, db)
		owner, grantee, other := newAccount(t, db, "farmer01"), newAccount(t, db, "agron01"), newAccount(t, db, "stranger1")
		soil := newDevice(t, db, "ZS0000001", 21, owner.ID)
		host, _, err := e.devices.Register(ctx, devices.Registration{SN: "LQM0000001", TypeID: 19, Owner: owner.ID})
		if err != nil {
			t.Fatal(err)
		}
		slave, _, err := e.devices.Register(ctx, devices.Registration{SN: "LQS0000001", TypeID: 19, Slave: true, HostSN: host.SN})
		if err != nil {
			t.Fatal(err)
		}

		// Only the owner offers, and only devices.
		_, _, err = e.sharing.Offer(ctx, owner.ID, sharing.KindGrant, nil, devices.Right{})
		wantKind(t, "no devices", err, errs.EInvalid, "share.noDevices")
		_, _, err = e.sharing.Offer(ctx, other.ID, sharing.KindGrant, []int64{soil.ID}, devices.Right{})
		wantKind(t, "a stranger's offer", err, errs.ENotFound, "")

		token := e.offer(owner.ID, sharing.KindGrant, devices.Right{Export: true, Owner: true}, soil.ID, host.ID)
		o, err := e.sharing.Describe(ctx, token)
		if err != nil || o == nil || len(o.Devices) != 2 || o.From.Name != owner.Name || !o.Link.Right.Export || o.Link.Right.Owner {
			t.Fatalf("describe: %+v %v", o, err)
		}
		if o.Link.ExpiresAt.Sub(e.now) != 30*time.Minute {
			t.Fatalf("expires in %v", o.Link.ExpiresAt.Sub(e.now))
		}
		_, _, err = e.sharing.Accept(ctx, owner.ID, token)
		wantKind(t, "own link", err, errs.EConflict, "share.ownLink")

		got := e.accept(grantee.ID, token)
		if len(got) != 3 { // the soil station, the host and its slave
			t.Fatalf("accepted %v", got)
		}
		for _, id := range []int64{soil.ID, host.ID, slave.ID} {
			if r, k := e.right(grantee.ID, id); k != "" || r != (devices.Right{Export: true}) {
				t.Fatalf("grantee's right on %d: %+v %s", id, r, k)
			}
		}
		if _, k := e.right(other.ID, soil.ID); k != errs.ENotFound {
			t.Fatalf("a stranger sees the device: %s", k)
		}
		// Used once.
		_, _, err = e.sharing.Accept(ctx, other.ID, token)
		wantKind(t, "second use", err, errs.EConflict, "share.linkUnavailable")
		if o, _ := e.sharing.Describe(ctx, token); o != nil {
			t.Fatalf("a used link still describes itself: %+v", o)
		}
		// A grantee cannot pass the device on.
		_, _, err = e.sharing.Offer(ctx, grantee.ID, sharing.KindGrant, []int64{soil.ID}, devices.Right{})
		wantKind(t, "a grantee's offer", err, errs.EForbidden, "device.noModifyRight")

		// The shared list, with the grant's flags.
		list, total, err := e.devices.List(ctx, grantee.ID, devices.Filter{Belong: devices.BelongShared})
		if err != nil || total != 3 || list[0].Grant == nil || !list[0].Grant.Export {
			t.Fatalf("shared list: %d %+v %v", total, list, err)
		}
		if _, total, _ := e.devices.List(ctx, grantee.ID, devices.Filter{Belong: devices.BelongMine}); total != 0 {
			t.Fatalf("grantee's own devices: %d", total)
		}

		// Expired after 30 minutes.
		late := e.offer(owner.ID, sharing.KindGrant, devices.Right{Rename: true}, soil.ID)
		e.now = e.now.Add(30*time.Minute + time.Second)
		if o, _ := e.sharing.Describe(ctx, late); o != nil {
			t.Fatal("an expired link describes itself")
		}
		_, _, err = e.sharing.Accept(ctx, grantee.ID, late)
		wantKind(t, "expired", err, errs.EConflict, "share.linkUnavailable")
		_, _, err = e.sharing.Accept(ctx, grantee.ID, "not-a-token")
		wantKind(t, "unknown", err, errs.EConflict, "share.linkUnavailable")

		// A second grant link replaces the rights; the owner edits them too.
		e.accept(grantee.ID, e.offer(owner.ID, sharing.KindGrant, devices.Right{Rename: true}, soil.ID))
		if r, _ := e.right(grantee.ID, soil.ID); r != (devices.Right{Rename: true}) {
			t.Fatalf("after a second link: %+v", r)
		}
		if err := e.sharing.SetPermissions(ctx, owner.ID, soil.ID, grantee.ID, devices.Right{Settings: true, Owner: true}); err != nil {
			t.Fatal(err)
		}
		if r, _ := e.right(grantee.ID, soil.ID); r != (devices.Right{Settings: true}) {
			t.Fatalf("after editing: %+v", r)
		}
		wantKind(t, "grantee edits", e.sharing.SetPermissions(ctx, grantee.ID, soil.ID, grantee.ID, devices.OwnerRight), errs.EForbidden, "")

		// Lists by device and by user, then revocation from each side.
		es, err := e.sharing.Granted(ctx, owner.ID)
		if err != nil || len(es) != 3 || es[0].Grantee.ID != grantee.ID || es[0].Owner.ID != owner.ID {
			t.Fatalf("granted: %+v %v", es, err)
		}
		tag, err := db.CreateTag(ctx, grantee.ID, "mine")
		if err != nil {
			t.Fatal(err)
		}
		if err := e.devices.TagDevice(ctx, grantee.ID, soil.ID, tag.ID); err != nil {
			t.Fatal(err)
		}
		if err := e.sharing.GiveBack(ctx, grantee.ID, host.ID); err != nil {
			t.Fatal(err)
		}
		if _, k := e.right(grantee.ID, host.ID); k != errs.ENotFound {
			t.Fatalf("given back, still seen: %s", k)
		}
		if err := e.sharing.RevokeUser(ctx, owner.ID, grantee.ID); err != nil {
			t.Fatal(err)
		}
		for _, id := range []int64{soil.ID, slave.ID} {
			if _, k := e.right(grantee.ID, id); k != errs.ENotFound {
				t.Fatalf("revoked, still sees %d: %s", id, k)
			}
		}
		if tags, _ := db.DeviceTags(ctx, grantee.ID, []int64{soil.ID}); len(tags[soil.ID]) != 0 {
			t.Fatalf("the former grantee's tags stay: %+v", tags)
		}
		wantKind(t, "revoke nothing", e.sharing.RevokeUser(ctx, owner.ID, grantee.ID), errs.ENotFound, "")
	})
}

func TestSharing_Transfer(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newSharing(t, db)
		owner, buyer, agron := newAccount(t, db, "farmer01"), newAccount(t, db, "coop0001"), newAccount(t, db, "agron01")
		soil := newDevice(t, db, "ZS0000001", 21, owner.ID)
		if _, err := db.WriteReports(ctx, []*telemetry.Report{report(soil.ID, e.now.Add(-time.Hour),
			telemetry.Point{Param: "battery", Value: 3.9})}, time.UTC); err != nil {
			t.Fatal(err)
		}
		tag, _ := db.CreateTag(ctx, owner.ID, "north")
		if err := e.devices.TagDevice(ctx, owner.ID, soil.ID, tag.ID); err != nil {
			t.Fatal(err)
		}
		e.accept(agron.ID, e.offer(owner.ID, sharing.KindGrant, devices.Right{Export: true}, soil.ID))

		ids := e.accept(buyer.ID, e.offer(owner.ID, sharing.KindTransfer, devices.OwnerRight, soil.ID))
		if len(ids) != 1 || ids[0] != soil.ID {
			t.Fatalf("transferred %v", ids)
		}
		if r, k := e.right(buyer.ID, soil.ID); k != "" || !r.Owner {
			t.Fatalf("the buyer: %+v %s", r, k)
		}
		for _, who := range []int64{owner.ID, agron.ID} {
			if _, k := e.right(who, soil.ID); k != errs.ENotFound {
				t.Fatalf("account %d still sees the device: %s", who, k)
			}
		}
		if tags, _ := db.DeviceTags(ctx, owner.ID, []int64{soil.ID}); len(tags[soil.ID]) != 0 {
			t.Fatal("tags went with the device")
		}
		if latest, err := db.Latest(ctx, soil.ID); err != nil || len(latest) == 0 {
			t.Fatalf("history lost: %v %v", latest, err)
		}
		if trs, err := db.Transfers(ctx, soil.ID); err != nil || len(trs) != 1 || trs[0].From != owner.ID || trs[0].To != buyer.ID || !trs[0].At.Equal(e.now) {
			t.Fatalf("transfer record: %+v %v", trs, err)
		}
		// The old owner's outstanding link is dead: the device is no longer theirs.
		_, _, err := e.sharing.Offer(ctx, owner.ID, sharing.KindGrant, []int64{soil.ID}, devices.Right{})
		wantKind(t, "offer after transfer", err, errs.ENotFound, "")
	})
}

// Two people accepting one link at once: exactly one gets it.
func TestSharing_AcceptOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newSharing(t, db)
		owner := newAccount(t, db, "farmer01")
		soil := newDevice(t, db, "ZS0000001", 21, owner.ID)
		token := e.offer(owner.ID, sharing.KindTransfer, devices.Right{}, soil.ID)
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			wins int
		)
		for i := range 4 {
			a := newAccount(t, db, "buyer0"+string(rune('1'+i)))
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, _, err := e.sharing.Accept(context.Background(), a.ID, token); err == nil {
					mu.Lock()
					wins++
					mu.Unlock()
				} else if errs.As(err) == nil || errs.As(err).Code != "share.linkUnavailable" {
					t.Errorf("accept: %v", err)
				}
			}()
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("%d accepted", wins)
		}
	})
}

// A rule a grantee sets on a shared device fires while the grant lasts and
// stops the moment it is revoked; the grantee's events about it disappear
// with the device.
func TestSharing_RulesFollowTheGrant(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newSharing(t, db)
		owner, grantee := newAccount(t, db, "farmer01"), newAccount(t, db, "agron01")
		station := newDevice(t, db, "TQ0000001", 5, owner.ID)
		frost := &rules.Rule{OwnerID: grantee.ID, Name: "Frost", Enabled: true, TypeID: 5, DeviceIDs: []int64{station.ID},
			Level: rules.LevelAlarm, Expressions: []rules.Expression{{Param: "airTemp", Agg: rules.AggMin, Op: rules.OpLTE, Threshold: f64(0)}},
			CreatedAt: e.now, UpdatedAt: e.now}
		if err := db.CreateRule(ctx, frost); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("a rule on a device not shared yet: %v", err)
		}
		e.accept(grantee.ID, e.offer(owner.ID, sharing.KindGrant, devices.Right{}, station.ID))
		if err := db.CreateRule(ctx, frost); err != nil {
			t.Fatal(err)
		}
		clock := e.now
		eng := rules.NewEngine(rules.EngineOptions{Store: db, Now: func() time.Time { return clock }})
		step := func(at time.Time, v float64) {
			t.Helper()
			clock = at
			r := report(station.ID, at, telemetry.Point{Param: "airTemp", Value: v})
			if _, err := db.WriteReports(ctx, []*telemetry.Report{r}, time.UTC); err != nil {
				t.Fatal(err)
			}
			if err := eng.Evaluate(ctx, []*telemetry.Report{r}); err != nil {
				t.Fatal(err)
			}
		}
		step(e.now, 3)
		step(e.now.Add(10*time.Minute), -1) // frost: the grantee's rule fires
		if evs := events(t, db, grantee.ID); len(evs) != 1 || evs[0].RuleID != frost.ID {
			t.Fatalf("events while shared: %+v", evs)
		}
		if err := e.sharing.RevokeDevice(ctx, owner.ID, station.ID, 0); err != nil {
			t.Fatal(err)
		}
		step(e.now.Add(20*time.Minute), 4)
		step(e.now.Add(30*time.Minute), -2) // frost again, but the grant is gone
		if evs := events(t, db, grantee.ID); len(evs) != 0 {
			t.Fatalf("events after revocation: %+v", evs)
		}
		if n, _ := db.Unread(ctx, grantee.ID); n != 0 {
			t.Fatalf("unread after revocation: %d", n)
		}
		// Shared again: the rule resumes, and its earlier event is back in view.
		e.accept(grantee.ID, e.offer(owner.ID, sharing.KindGrant, devices.Right{}, station.ID))
		step(e.now.Add(40*time.Minute), 5)
		step(e.now.Add(50*time.Minute), -3)
		if evs := events(t, db, grantee.ID); len(evs) < 2 {
			t.Fatalf("events after sharing again: %+v", evs)
		}
	})
}
