package app_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

type briefingCandidate struct {
	ID           int64
	TypeID       int
	Kind         string
	Nodes        []int
	MissingBands []int
}

// demoBriefingDevices returns the demo owner's soil devices (the first
// with all bands, one lacking the 40–60 cm band) and a weather point.
func demoBriefingDevices(t *testing.T, c *client) (full, partial, weather int64) {
	t.Helper()
	var cands []briefingCandidate
	c.must("GET", "/apis/soil_moisture/briefing/device", "", &cands)
	for _, d := range cands {
		switch {
		case d.Kind == "soil" && len(d.MissingBands) == 0 && full == 0:
			full = d.ID
		case d.Kind == "soil" && slices.Equal(d.MissingBands, []int{3}) && partial == 0:
			partial = d.ID
		case d.Kind == "weather" && weather == 0:
			weather = d.ID
		}
	}
	if full == 0 || partial == 0 || weather == 0 {
		t.Fatalf("demo candidates lack a kind: %+v", cands)
	}
	return full, partial, weather
}

func TestBriefings_API(t *testing.T) {
	cfg := serveConfig(t)
	m := start(t, cfg)
	<-m.DemoLoaded()
	if _, err := m.Accounts.Create(context.Background(), "stranger1", "secret1", "stranger1"); err != nil {
		t.Fatal(err)
	}
	own := loginAs(t, m, "demo01", "demo123456")
	other := loginAs(t, m, "stranger1", "secret1")
	full, partial, weather := demoBriefingDevices(t, own)

	// The stranger sees none of the demo devices.
	var theirs []briefingCandidate
	other.must("GET", "/apis/soil_moisture/briefing/device", "", &theirs)
	if len(theirs) != 0 {
		t.Fatalf("stranger's candidates: %+v", theirs)
	}

	// Templates in the caller's language.
	var tpls []struct {
		TemplateID string
		Name       string
		Preset     struct{ Depth1, Depth3 []int }
	}
	a := own.callLang("zh_CN", "GET", "/apis/soil_moisture/template", "")
	if a.Code != 0 || !strings.Contains(string(a.Data), "县级墒情周报") || !strings.Contains(string(a.Data), "农场墒情简报") {
		t.Fatalf("templates: %s", a.raw)
	}
	own.must("GET", "/apis/soil_moisture/template", "", &tpls)
	if len(tpls) != 2 || tpls[0].TemplateID != "county-weekly" || tpls[1].TemplateID != "farm" || !slices.Equal(tpls[0].Preset.Depth3, []int{50, 60}) {
		t.Fatalf("templates: %+v", tpls)
	}

	// no_node_device names the device without a 40–60 cm node, and the band.
	var nn []struct {
		ID    int64
		Bands []int
	}
	own.must("GET", fmt.Sprintf("/apis/soil_moisture/no_node_device?deviceIds=%d,%d", full, partial), "", &nn)
	if len(nn) != 1 || nn[0].ID != partial || !slices.Equal(nn[0].Bands, []int{3}) {
		t.Fatalf("no_node_device: %+v", nn)
	}
	// Moving band 3 to 60 cm only keeps the full device complete.
	own.must("GET", fmt.Sprintf("/apis/soil_moisture/no_node_device?deviceIds=%d&depth3=60", full), "", &nn)
	if len(nn) != 0 {
		t.Fatalf("no_node_device depth3=60: %+v", nn)
	}
	if a := own.call("GET", "/apis/soil_moisture/no_node_device?depth1=30", ""); a.Code == 0 || a.Msg != "0–20 cm layer has an invalid value" || !strings.Contains(string(a.raw), `"field":"depth1"`) {
		t.Fatalf("depth1=30: %s", a.raw)
	}
	// A device of someone else's answers like one that does not exist.
	mine := other.call("GET", fmt.Sprintf("/apis/soil_moisture/no_node_device?deviceIds=%d", full), "")
	none := other.call("GET", "/apis/soil_moisture/no_node_device?deviceIds=987654321", "")
	if mine.Code == 0 || string(mine.raw) != string(none.raw) {
		t.Fatalf("stranger's no_node_device: %s vs %s", mine.raw, none.raw)
	}

	bodyFor := func(full, partial, weather int64) string {
		return fmt.Sprintf(`{"name":"中牟县墒情周报","templateId":"county-weekly","province":"河南省","city":"郑州市","district":"中牟县",
		"unitName":"中牟县农业农村局","regionList":[{"name":"城关镇","deviceIds":[%d]},{"name":"官渡镇","deviceIds":[%d]}],
		"zsDeviceIds":[{"deviceId":%d,"fieldCapacity":30},{"deviceId":%d}],"tqDeviceIds":[%d],"stage":"critical",
		"schedule":{"enabled":true,"weekday":1,"hour":8,"minute":0},"recipients":["bureau@example.com"]}`, full, partial, full, partial, weather)
	}
	body := bodyFor(full, partial, weather)
	var created struct {
		ConfigID int64
		Lang     string
		Depth2   []int
		Period   string
		Schedule struct{ Enabled bool }
	}
	own.must("POST", "/apis/soil_moisture/briefing", body, &created)
	if created.ConfigID == 0 || created.Lang != "en_US" || !slices.Equal(created.Depth2, []int{30, 40}) || created.Period != "week" || !created.Schedule.Enabled {
		t.Fatalf("created: %+v", created)
	}
	// The stranger cannot create one over the owner's devices: the answer of a missing device.
	bad := other.call("POST", "/apis/soil_moisture/briefing", body)
	miss := other.call("POST", "/apis/soil_moisture/briefing", bodyFor(987654321, 987654322, 987654323))
	if bad.Code == 0 || bad.Msg != miss.Msg || bad.Msg != "A chosen device does not exist" {
		t.Fatalf("stranger creates: %s / missing: %s", bad.raw, miss.raw)
	}
	// The owner previews the report of the demo farm's devices.
	path := fmt.Sprintf("/apis/soil_moisture/briefing/%d", created.ConfigID)
	var rep struct {
		Regions []struct {
			Name  string
			Used  int
			Bands []struct{ Theta, Relative *float64 }
			Grade string
		}
		Devices []struct {
			ID    int64
			Issue string
		}
	}
	own.must("GET", path+"/report", "", &rep)
	if len(rep.Regions) != 2 || rep.Regions[0].Name != "城关镇" || len(rep.Devices) != 2 {
		t.Fatalf("report: %+v", rep)
	}
	// Nor read, change, switch, report or delete the owner's preset.
	for _, c := range []struct{ method, path, body string }{
		{"GET", path, ""}, {"GET", path + "/report", ""}, {"PUT", path, body}, {"PUT", path + "/schedule", `{"enabled":false}`}, {"DELETE", path, ""},
	} {
		got := other.call(c.method, c.path, c.body)
		none := other.call(c.method, "/apis/soil_moisture/briefing/987654321"+strings.TrimPrefix(c.path, path), c.body)
		if got.Code == 0 || string(got.raw) != string(none.raw) {
			t.Errorf("stranger %s %s: %s, want as missing %s", c.method, c.path, got.raw, none.raw)
		}
	}
	var list struct {
		List  []struct{ ConfigID int64 }
		Total int
	}
	other.must("GET", "/apis/soil_moisture/briefing", "", &list)
	if list.Total != 0 {
		t.Fatalf("stranger's list: %+v", list)
	}

	// Bad input: a localized message naming the field; nothing stored changes.
	for _, c := range []struct{ from, to, lang, want string }{
		{`"unitName":"中牟县农业农村局"`, `"unitName":""`, "zh_CN", "请输入单位名称"},
		{`"stage":"critical"`, `"stage":"flowering"`, "en_US", "The growth stage must be"},
		{`"recipients":["bureau@example.com"]`, `"recipients":["not an address"]`, "zh_TW", "不是有效的電子郵件地址"},
		{`"recipients":["bureau@example.com"]`, `"recipients":[]`, "en_US", "Please enter recipients before switching the schedule on"},
		{`{"name":"官渡镇","deviceIds":[` + fmt.Sprint(partial) + `]}`, `{"name":"城关镇","deviceIds":[` + fmt.Sprint(partial) + `]}`, "en_US", `Region "城关镇" appears twice`},
		{fmt.Sprintf(`"tqDeviceIds":[%d]`, weather), fmt.Sprintf(`"tqDeviceIds":[%d]`, full), "en_US", "cannot be a weather point"},
	} {
		changed := strings.Replace(body, c.from, c.to, 1)
		if changed == body {
			t.Fatalf("case %q does not apply", c.from)
		}
		a := own.callLang(c.lang, "PUT", path, changed)
		if a.Code == 0 || !strings.Contains(a.Msg, c.want) {
			t.Errorf("%s: %s, want %q", c.to, a.raw, c.want)
		}
	}
	var got struct {
		Name     string
		UnitName string
		Stage    string
	}
	own.must("GET", path, "", &got)
	if got.UnitName != "中牟县农业农村局" || got.Stage != "critical" {
		t.Fatalf("after refused updates: %+v", got)
	}

	// Update, schedule off, list, delete.
	own.must("PUT", path, strings.Replace(body, `"stage":"critical"`, `"stage":"seedling"`, 1), &got)
	if got.Stage != "seedling" {
		t.Fatalf("updated: %+v", got)
	}
	var sw struct{ Schedule struct{ Enabled bool } }
	own.must("PUT", path+"/schedule", `{"enabled":false}`, &sw)
	if sw.Schedule.Enabled {
		t.Fatal("schedule still on")
	}
	own.must("GET", "/apis/soil_moisture/briefing", "", &list)
	if list.Total != 1 || list.List[0].ConfigID != created.ConfigID {
		t.Fatalf("list: %+v", list)
	}
	own.must("DELETE", path, "", nil)
	if a := own.call("GET", path, ""); a.Code == 0 {
		t.Fatalf("deleted preset still there: %s", a.raw)
	}
}

// On demand: a PDF and an XLSX through the export queue, with progress,
// downloaded by their owner only; a missing font fails the PDF with SPEC's
// message and the reason.
func TestBriefings_Files(t *testing.T) {
	cfg := serveConfig(t)
	m := start(t, cfg)
	<-m.DemoLoaded()
	if _, err := m.Accounts.Create(context.Background(), "stranger1", "secret1", "stranger1"); err != nil {
		t.Fatal(err)
	}
	own := loginAs(t, m, "demo01", "demo123456")
	other := loginAs(t, m, "stranger1", "secret1")
	full, partial, weather := demoBriefingDevices(t, own)
	var created struct{ ConfigID int64 }
	own.must("POST", "/apis/soil_moisture/briefing", fmt.Sprintf(`{"name":"Demo farm","unitName":"Demo farm office","lang":"en_US",
		"regionList":[{"name":"North","deviceIds":[%d,%d]}],"zsDeviceIds":[{"deviceId":%d},{"deviceId":%d}],"tqDeviceIds":[%d]}`,
		full, partial, full, partial, weather), &created)
	path := fmt.Sprintf("/apis/soil_moisture/briefing/%d/export", created.ConfigID)

	type job struct {
		TaskID, Status, Format, Message, Reason string
		Progress                                int
	}
	wait := func(c *client, id string) job {
		var j job
		waitFor(t, "the briefing job to finish", func() bool {
			c.must("GET", "/apis/soil_moisture/export/"+id, "", &j)
			return j.Status == "ready" || j.Status == "failed"
		})
		return j
	}
	for _, format := range []string{"pdf", "xlsx"} {
		var j job
		own.must("POST", path, `{"format":"`+format+`"}`, &j)
		if j.TaskID == "" || j.Status != "queued" || j.Format != format {
			t.Fatalf("%s job: %+v", format, j)
		}
		if a := other.call("GET", "/apis/soil_moisture/export/"+j.TaskID, ""); a.Code == 0 {
			t.Fatalf("the stranger reads the job: %s", a.raw)
		}
		if j = wait(own, j.TaskID); j.Status != "ready" || j.Progress != 100 {
			t.Fatalf("%s: %+v", format, j)
		}
		res, err := own.http.Get(m.URL() + "/apis/soil_moisture/export/" + j.TaskID + "/file")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		magic := map[string]string{"pdf": "%PDF-", "xlsx": "PK"}[format]
		if res.StatusCode != 200 || !bytes.HasPrefix(b, []byte(magic)) || !strings.Contains(res.Header.Get("Content-Disposition"), "."+format) {
			t.Fatalf("%s download: %d %q %q", format, res.StatusCode, res.Header.Get("Content-Disposition"), b[:min(10, len(b))])
		}
		if a := other.call("GET", "/apis/soil_moisture/export/"+j.TaskID+"/file", ""); a.Code == 0 {
			t.Fatalf("the stranger downloads: %d", a.status)
		}
	}
	if a := own.call("POST", path, `{"format":"docx"}`); a.Code == 0 || !strings.Contains(string(a.raw), `"field":"format"`) {
		t.Fatalf("docx: %s", a.raw)
	}
	if a := other.call("POST", path, `{"format":"pdf"}`); a.Code == 0 {
		t.Fatalf("the stranger exports the owner's preset: %s", a.raw)
	}

	// Without its font the PDF fails for good, with the reason.
	m.Briefings.FontPath = "/nonexistent/font.ttc"
	var j job
	own.must("POST", path, `{"format":"pdf"}`, &j)
	j = wait(own, j.TaskID)
	if j.Status != "failed" || j.Message != "Export failed, please contact after-sales personnel" ||
		j.Reason != "The Chinese font the report needs was not found" {
		t.Fatalf("without the font: %+v", j)
	}
	a := own.callLang("zh_CN", "GET", "/apis/soil_moisture/export/"+j.TaskID, "")
	if !strings.Contains(string(a.raw), "导出失败，请联系售后人员") {
		t.Fatalf("zh_CN: %s", a.raw)
	}
}
