package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/accounts"
	"github.com/fieldwatch/fieldwatch/internal/commands"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// The command record on both databases: created pending, delivered once,
// finished, expired with the reason that fits, listed newest first.
func TestCommands(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newSharing(t, db)
		acct := &accounts.Account{AccountNumber: "cmdowner", Name: "Owner", PasswordHash: "x", CreatedAt: time.Now()}
		if err := db.CreateAccount(ctx, acct); err != nil {
			t.Fatal(err)
		}
		owner := acct.ID
		dev, _, err := e.devices.Register(ctx, devices.Registration{SN: "YYSTORE001", TypeID: 10, Owner: owner})
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.UnixMilli(1795331798000)
		mk := func(name string) *commands.Command {
			c := &commands.Command{DeviceID: dev.ID, Name: name, Params: map[string]any{"minutes": int64(5)}, By: owner,
				Source: commands.SourceConsole, State: commands.StatePending, SubmittedAt: t0, PendingAt: &t0, ExpiresAt: t0.Add(15 * time.Minute)}
			if err := db.CreateCommand(ctx, c); err != nil {
				t.Fatal(err)
			}
			return c
		}
		a, b, c := mk("openFor"), mk("close"), mk("open")
		if err := db.MarkCommandsDelivered(ctx, map[int64]time.Time{a.ID: t0.Add(time.Second), b.ID: t0.Add(2 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		// A second delivery changes nothing.
		if err := db.MarkCommandsDelivered(ctx, map[int64]time.Time{a.ID: t0.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		got, err := db.FindCommand(ctx, dev.ID, a.ID)
		if err != nil || got.DeliveredAt == nil || !got.DeliveredAt.Equal(t0.Add(time.Second)) || got.ByName == "" || got.Params["minutes"] != float64(5) {
			t.Fatalf("a: %+v %v", got, err)
		}
		done, err := db.FinishCommand(ctx, dev.ID, a.ID, commands.StateEffective, commands.ByAck, "", "", t0.Add(3*time.Second), t0.Add(3*time.Second))
		if err != nil || done.State != commands.StateEffective || !done.DeliveredAt.Equal(t0.Add(time.Second)) || !done.FinishedAt.Equal(t0.Add(3*time.Second)) {
			t.Fatalf("finish a: %+v %v", done, err)
		}
		if _, err := db.FinishCommand(ctx, dev.ID+1000, b.ID, commands.StateFailed, commands.ByAck, commands.ReasonDevice, "x", t0, t0); errs.KindOf(err) != errs.ENotFound {
			t.Fatalf("another device's command: %v", err)
		}
		open, err := db.OpenCommands(ctx, dev.ID)
		if err != nil || len(open) != 2 || open[0].ID != b.ID || open[1].ID != c.ID {
			t.Fatalf("open: %+v %v", open, err)
		}
		if ids, err := db.DevicesWithOpenCommands(ctx); err != nil || len(ids) != 1 || ids[0] != dev.ID {
			t.Fatalf("devices with open commands: %v %v", ids, err)
		}
		n, err := db.ExpireCommands(ctx, t0.Add(15*time.Minute), commands.ReasonNotDelivered, commands.ReasonNoAck)
		if err != nil || n != 2 {
			t.Fatalf("expired %d %v", n, err)
		}
		if x, _ := db.FindCommand(ctx, dev.ID, b.ID); x.State != commands.StateExpired || x.ReasonCode != commands.ReasonNoAck {
			t.Errorf("b: %+v", x)
		}
		if x, _ := db.FindCommand(ctx, dev.ID, c.ID); x.State != commands.StateExpired || x.ReasonCode != commands.ReasonNotDelivered {
			t.Errorf("c: %+v", x)
		}
		list, total, err := db.DeviceCommands(ctx, dev.ID, 0, 2)
		if err != nil || total != 3 || len(list) != 2 || list[0].ID != c.ID {
			t.Fatalf("list: %d %+v %v", total, list, err)
		}
		// Removing the device erases its record.
		if err := db.UnbindDevice(ctx, dev.ID); err != nil {
			t.Fatal(err)
		}
		if _, total, _ := db.DeviceCommands(ctx, dev.ID, 0, 10); total != 0 {
			t.Errorf("%d commands after removal", total)
		}
	})
}
