package httpapi_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/sharing"
	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// grant shares the devices of owner with the account grantee, with right r.
func (e *env) grant(owner, grantee string, r devices.Right, ids ...int64) {
	e.t.Helper()
	ctx := context.Background()
	from, err := e.db.FindAccountByNumber(ctx, owner)
	if err != nil {
		e.t.Fatal(err)
	}
	to, err := e.db.FindAccountByNumber(ctx, grantee)
	if err != nil {
		e.t.Fatal(err)
	}
	now := time.Now()
	l := &sharing.Link{ID: "link-" + now.Format("150405.000000000"), Kind: sharing.KindGrant, OwnerID: from.ID, Right: r,
		CreatedAt: now, ExpiresAt: now.Add(time.Minute), DeviceIDs: ids}
	if err := e.db.CreateLink(ctx, l); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.db.AcceptLink(ctx, l.ID, to.ID, now); err != nil {
		e.t.Fatal(err)
	}
}

// exportedSNs downloads the caller's device list and returns the SN column.
func (u *user) exportedSNs(t *testing.T) []string {
	t.Helper()
	req, _ := http.NewRequest("GET", u.e.url+"/apis/export/device/info", nil)
	req.Header.Set("lang", "en_US")
	res, err := u.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("export: %d %s", res.StatusCode, b)
	}
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows(f.GetSheetName(0))
	if err != nil {
		t.Fatal(err)
	}
	var sns []string
	for _, r := range rows[1:] {
		sns = append(sns, r[1])
	}
	slices.Sort(sns)
	return sns
}

// TestExportDevices_ExportRight: the device-list export follows the export
// right of shared devices, as data downloads do.
func TestExportDevices_ExportRight(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		if _, err := e.svc.Create(context.Background(), "farmer02", "secret2", ""); err != nil {
			t.Fatal(err)
		}
		e.register("ZS0000000001", 2, "farmer01")
		readOnly := e.register("ZS0000000002", 2, "farmer02")
		exportable := e.register("ZS0000000003", 2, "farmer02")
		e.register("ZS0000000004", 2, "farmer02") // not shared
		e.grant("farmer02", "farmer01", devices.Right{Rename: true, Settings: true}, readOnly.ID)
		e.grant("farmer02", "farmer01", devices.Right{Export: true}, exportable.ID)

		u := e.user("en_US")
		u.login("farmer01", "secret1").want(t, 200, 0)
		if got := u.exportedSNs(t); !slices.Equal(got, []string{"ZS0000000001", "ZS0000000003"}) {
			t.Fatalf("exported %v: want the own device and the one shared with the export right", got)
		}
		// The grantee sees the device without the export right in the list all the same.
		if r := u.do("GET", "/apis/devices?size=50", nil); !bytes.Contains(r.Data, []byte("ZS0000000002")) {
			t.Fatalf("device list: %s", r.Data)
		}
		owner := e.user("en_US")
		owner.login("farmer02", "secret2").want(t, 200, 0)
		if got := owner.exportedSNs(t); len(got) != 3 {
			t.Fatalf("the owner's export: %v", got)
		}
	})
}
