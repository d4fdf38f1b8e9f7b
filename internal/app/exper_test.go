package app_test

// The effective utilization coefficient of irrigation water over the demo
// farm's fields and valves: the balance of each field recomputed from the
// inputs the answer shows, the XLSX, and the checks.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/agro"
)

type utilizationView struct {
	Fields []struct {
		ID            int64
		AreaMu        *float64
		ETc           *float64 `json:"etc"`
		EffectiveRain *float64
		Rain          *float64
		StorageStart  *float64
		StorageEnd    *float64
		NetMM         *float64 `json:"netMm"`
		NetM3         *float64 `json:"netM3"`
		Missing       []string
		MissingText   []string
	}
	Meters []struct {
		ID      int64
		GrossM3 float64 `json:"grossM3"`
		Days    int
	}
	NetM3       float64  `json:"netM3"`
	GrossM3     float64  `json:"grossM3"`
	Coefficient *float64 `json:"coefficient"`
	Warnings    []string
}

func TestUtilizationCoefficient(t *testing.T) {
	cfg := serveConfig(t)
	cfg.DemoDays = 4
	m := start(t, cfg)
	<-m.DemoLoaded()
	owner := loginAPI(t, m.URL())
	var list struct {
		List []struct {
			ID     int64
			TypeID int
			Slave  bool
			Page   string
		}
	}
	owner.get("/apis/devices?size=100", nil, &list)
	var fields, meters []int64
	for _, d := range list.List {
		switch {
		case d.Slave:
		case d.TypeID == 10:
			meters = append(meters, d.ID)
		case d.Page == "zhi-shang" || d.Page == "moisture":
			fields = append(fields, d.ID)
		}
	}
	if len(fields) == 0 || len(meters) == 0 {
		t.Fatalf("demo fields %v meters %v", fields, meters)
	}
	body := fmt.Sprintf(`{"fieldIds":%s,"meterIds":%s}`, jsonIDs(fields), jsonIDs(meters))
	status, env := owner.do("POST", "/apis/exper/coefficient", body, map[string]string{"lang": "en_US"})
	var u utilizationView
	if status != 200 || json.Unmarshal(env.Data, &u) != nil {
		t.Fatalf("HTTP %d %+v", status, env)
	}
	complete, net := 0, 0.0
	for _, f := range u.Fields {
		if len(f.Missing) > 0 {
			if f.NetMM != nil || len(f.MissingText) != len(f.Missing) {
				t.Errorf("field %d left out (%v) with a net %v or untold %v", f.ID, f.Missing, f.NetMM, f.MissingText)
			}
			continue
		}
		complete++
		want := agro.NetIrrigation(*f.ETc, *f.EffectiveRain, *f.StorageStart, *f.StorageEnd)
		if math.Abs(*f.NetMM-want) > 0.06 || math.Abs(*f.NetM3-want/1000**f.AreaMu*agro.MuM2) > 0.5 {
			t.Errorf("field %d: net %v mm %v m³, from its inputs %v mm", f.ID, *f.NetMM, *f.NetM3, want)
		}
		if *f.EffectiveRain > *f.Rain {
			t.Errorf("field %d: effective rain %v above the rain %v", f.ID, *f.EffectiveRain, *f.Rain)
		}
		net += *f.NetM3
	}
	if complete == 0 {
		t.Fatalf("no demo field is complete: %+v", u.Fields)
	}
	gross := 0.0
	for _, mt := range u.Meters {
		gross += mt.GrossM3
	}
	if math.Abs(u.NetM3-net) > 0.05 || math.Abs(u.GrossM3-gross) > 0.05 || u.GrossM3 <= 0 {
		t.Errorf("totals %v / %v, from the rows %v / %v", u.NetM3, u.GrossM3, net, gross)
	}
	if u.Coefficient == nil || math.Abs(*u.Coefficient-u.NetM3/u.GrossM3) > 1e-4 {
		t.Errorf("coefficient %v, want %v", u.Coefficient, u.NetM3/u.GrossM3)
	}

	// The XLSX: the result and every row, a sheet each.
	req, _ := http.NewRequest("POST", m.URL()+"/apis/exper/coefficient/export", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("lang", "zh_CN")
	res, err := owner.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	x, err := excelize.OpenReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("export: HTTP %d %.200s: %v", res.StatusCode, raw, err)
	}
	if got := x.GetSheetList(); strings.Join(got, ",") != "利用系数,田块,计量设备" {
		t.Errorf("sheets %v", got)
	}
	rows, _ := x.GetRows("田块")
	if len(rows) != len(fields)+1 {
		t.Errorf("field rows %d, want %d", len(rows), len(fields)+1)
	}
	if v, _ := x.GetCellValue("利用系数", "B5"); v != fmt.Sprint(*u.Coefficient) {
		t.Errorf("coefficient cell %q, want %v", v, *u.Coefficient)
	}
	// The demo's valves meter less than its fields' crops used: said, not hidden.
	if (*u.Coefficient > 1) != strings.Contains(strings.Join(u.Warnings, ","), "aboveOne") {
		t.Errorf("coefficient %v with warnings %v", *u.Coefficient, u.Warnings)
	}

	// Checks, named and in the caller's language.
	for lang, msg := range map[string]string{"en_US": "Fields: " + "", "zh_CN": "田块：", "zh_TW": "田塊："} {
		status, env := owner.do("POST", "/apis/exper/coefficient", fmt.Sprintf(`{"fieldIds":[%d],"meterIds":[%d]}`, meters[0], meters[0]),
			map[string]string{"lang": lang})
		if status != 400 || env.Error == nil || env.Error.Field != "fieldIds" || env.Error.Key != "exper.notField" || !strings.HasPrefix(env.Message, msg) {
			t.Errorf("%s: a valve as a field: HTTP %d %+v", lang, status, env)
		}
	}
	if status, env := owner.do("POST", "/apis/exper/coefficient", fmt.Sprintf(`{"fieldIds":[],"meterIds":[%d]}`, meters[0]),
		map[string]string{"lang": "en_US"}); status != 400 || env.Message != "Fields is required" {
		t.Errorf("no fields: HTTP %d %+v", status, env)
	}
	// Another account's device looks missing.
	if _, err := m.Accounts.Create(context.Background(), "stranger1", "secret1", "stranger1"); err != nil {
		t.Fatal(err)
	}
	s := loginAs(t, m, "stranger1", "secret1")
	gone := s.call("POST", "/apis/exper/coefficient", `{"fieldIds":[987654321],"meterIds":[987654322]}`)
	theirs := s.call("POST", "/apis/exper/coefficient", fmt.Sprintf(`{"fieldIds":[%d],"meterIds":[%d]}`, fields[0], meters[0]))
	if theirs.status != 404 || theirs.status != gone.status || theirs.Msg != gone.Msg {
		t.Errorf("another's devices: HTTP %d %s; missing ones: HTTP %d %s", theirs.status, theirs.raw, gone.status, gone.raw)
	}
}
