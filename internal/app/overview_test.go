package app_test

// The overview over the demo farm: one request whose figures agree with the
// device list, and nothing of the farm for another account.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

type overviewView struct {
	Hours   int
	Devices struct {
		Total  int
		Status map[string]int
		Types  []struct {
			TypeID int
			Name   string
			Total  int
			Status map[string]int
		}
	}
	Attention struct {
		Total   int
		Counts  map[string]int
		Devices []struct {
			ID      int64
			HashID  string
			Page    string
			Status  string
			Reasons []string
		}
	}
	Alerts struct {
		Total  int
		Levels map[string]int
		Hourly []int
	}
	Rain, ET0 struct {
		Day      string
		Devices  int
		Mean     *float64
		Min, Max *struct {
			ID    int64
			Value float64
		}
	}
	Push struct {
		Channels []struct{ ID int64 }
	}
}

func TestOverview(t *testing.T) {
	cfg := serveConfig(t)
	cfg.DemoDays = 3
	m := start(t, cfg)
	<-m.DemoLoaded()
	owner := loginAPI(t, m.URL())
	var o overviewView
	owner.get("/apis/overview", nil, &o)

	var all struct{ Total int }
	owner.get("/apis/devices?size=1", nil, &all)
	if o.Devices.Total != all.Total || all.Total == 0 {
		t.Fatalf("overview counts %d devices, the list %d", o.Devices.Total, all.Total)
	}
	sum, typed := 0, 0
	for status, n := range o.Devices.Status {
		sum += n
		var page struct{ Total int }
		owner.get("/apis/devices?size=1&status="+status, nil, &page)
		if page.Total != n {
			t.Errorf("%s: overview %d, list %d", status, n, page.Total)
		}
	}
	for _, ty := range o.Devices.Types {
		typed += ty.Total
		if ty.Name == "" {
			t.Errorf("type %d has no name", ty.TypeID)
		}
	}
	if sum != all.Total || typed != all.Total {
		t.Errorf("statuses add up to %d, types to %d, of %d", sum, typed, all.Total)
	}

	// Devices needing attention: the counts cover the statuses they show.
	if o.Attention.Counts["offline"] < o.Devices.Status["offline"] || o.Attention.Counts["fault"] < o.Devices.Status["fault"] {
		t.Errorf("attention %v, statuses %v", o.Attention.Counts, o.Devices.Status)
	}
	if len(o.Attention.Devices) != min(o.Attention.Total, 20) || o.Attention.Total > all.Total {
		t.Errorf("%d needing attention, %d listed", o.Attention.Total, len(o.Attention.Devices))
	}
	for _, d := range o.Attention.Devices {
		if len(d.Reasons) == 0 || d.HashID == "" || d.Page == "" {
			t.Errorf("attention device %+v", d)
		}
	}

	// Alerts of the last day, hour by hour.
	hourly := 0
	for _, n := range o.Alerts.Hourly {
		hourly += n
	}
	if o.Hours != 24 || len(o.Alerts.Hourly) != 24 || hourly != o.Alerts.Total || o.Alerts.Levels["alarm"]+o.Alerts.Levels["normal"] != o.Alerts.Total {
		t.Errorf("alerts %+v", o.Alerts)
	}

	// Today's rain and yesterday's ET0, from the demo's gauges and stations.
	loc, err := cfg.Location()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().In(loc)
	if o.Rain.Day != now.Format(time.DateOnly) || o.Rain.Devices == 0 || o.Rain.Mean == nil || *o.Rain.Mean < 0 ||
		o.Rain.Min.Value > *o.Rain.Mean || o.Rain.Max.Value < *o.Rain.Mean {
		t.Errorf("rain %+v", o.Rain)
	}
	if o.ET0.Day != now.AddDate(0, 0, -1).Format(time.DateOnly) || o.ET0.Devices == 0 || o.ET0.Mean == nil || *o.ET0.Mean <= 0 || *o.ET0.Mean > 15 {
		t.Errorf("ET0 %+v", o.ET0)
	}
	// Another account: nothing of the farm.
	if _, err := m.Accounts.Create(context.Background(), "stranger1", "secret1", "stranger1"); err != nil {
		t.Fatal(err)
	}
	st := loginAs(t, m, "stranger1", "secret1")
	a := st.call("GET", "/apis/overview", "")
	if a.status != 200 {
		t.Fatalf("stranger: HTTP %d %s", a.status, a.raw)
	}
	for _, leak := range []string{fmt.Sprintf(`"total":%d`, all.Total), `"reasons"`, `"hashId"`} {
		if strings.Contains(string(a.raw), leak) {
			t.Errorf("another account's overview holds %s: %s", leak, a.raw)
		}
	}
}
