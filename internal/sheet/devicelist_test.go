package sheet

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

var (
	testNow = time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	// Beijing time, as most users see it.
	testLoc = time.FixedZone("CST", 8*3600)
)

func ptr[T any](v T) *T { return &v }

// reported records a report of d at ago before testNow, as the store does.
func reported(d *devices.Device, ago time.Duration) *devices.Device {
	at := testNow.Add(-ago)
	d.LastReportAt = &at
	d.OfflineAt = ptr(at.Add(devices.OfflineAfter(d.Interval())))
	return d
}

// testDevices are one device of each kind the sheet must render:
//
//	row 2: every field set, battery 3.199 V (low power)
//	row 3: in use, never reported, every optional field nil (offline)
//	row 4: last report three hours ago on an hourly type (offline)
//	row 5: reporting, healthy (online)
//	row 6: back for repair
//	row 7: a type id this build does not know
func testDevices() []*devices.Device {
	return []*devices.Device{
		reported(&devices.Device{
			Name: "北区1号", SN: "SMP0030001", TypeID: 1, State: devices.StateUsed,
			Location: "北区试验田", Lng: ptr(116.397128), Lat: ptr(39.916527), Altitude: ptr(52.5),
			InstallAt:     ptr(time.Date(2025, 3, 31, 17, 0, 0, 0, time.UTC)), // 1 April in Beijing
			ServiceUntil:  ptr(time.Date(2027, 3, 31, 16, 0, 0, 0, time.UTC)),
			WarrantyUntil: ptr(time.Date(2026, 3, 31, 16, 0, 0, 0, time.UTC)),
			Battery:       ptr(3.199), Signal: ptr(-87.0),
			Tags: []devices.Tag{{ID: 1, Name: "玉米"}, {ID: 2, Name: "A区"}},
		}, 10*time.Minute),
		{Name: "Station B", SN: "TQC0050002", TypeID: 4, State: devices.StateUsed},
		reported(&devices.Device{
			Name: "C", SN: "SMP0030003", TypeID: 1, State: devices.StateUsed, Battery: ptr(3.6),
		}, 3*time.Hour),
		reported(&devices.Device{
			Name: "D", SN: "TQS0100004", TypeID: 5, State: devices.StateUsed,
			Battery: ptr(12.48), Signal: ptr(-71.0),
		}, 5*time.Minute),
		{Name: "E", SN: "RG00100005", TypeID: 6, State: devices.StateRepair},
		{Name: "F", SN: "XX00000006", TypeID: 999, State: devices.StateProduce},
	}
}

// writeList runs DeviceList.
func writeList(t testing.TB, lang i18n.Lang, list []*devices.Device) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := DeviceList(&buf, lang, list, testNow, testLoc); err != nil {
		t.Fatalf("DeviceList: %v", err)
	}
	return buf.Bytes()
}

// writeAndOpen runs DeviceList and reopens its output.
func writeAndOpen(t testing.TB, lang i18n.Lang, list []*devices.Device) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(writeList(t, lang, list)))
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestDeviceList_Headers(t *testing.T) {
	for _, tc := range []struct {
		lang          i18n.Lang
		sheet         string
		first, last   string
		battery, tags string
	}{
		// Tags are the users' own words: only the separator changes.
		{i18n.ZhCN, "设备列表", "设备名称", "标签", "电池电压 (V)", "玉米、A区"},
		{i18n.ZhTW, "設備列表", "設備名稱", "標籤", "電池電壓 (V)", "玉米、A区"},
		{i18n.EnUS, "Devices", "Name", "Tags", "Battery (V)", "玉米, A区"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			f := writeAndOpen(t, tc.lang, testDevices())
			if got := f.GetSheetList(); len(got) != 1 || got[0] != tc.sheet {
				t.Fatalf("sheets %q, want [%s]", got, tc.sheet)
			}
			rows, err := f.GetRows(tc.sheet)
			if err != nil {
				t.Fatal(err)
			}
			header := rows[0]
			if len(header) != len(columns) {
				t.Fatalf("header has %d cells, want %d: %q", len(header), len(columns), header)
			}
			for i, c := range columns {
				if header[i] != c.names.In(tc.lang) || header[i] == "" {
					t.Errorf("header %d = %q, want %q", i, header[i], c.names.In(tc.lang))
				}
			}
			if header[0] != tc.first || header[len(header)-1] != tc.last || header[colBattery-1] != tc.battery {
				t.Errorf("header %q", header)
			}
			if got := rows[1][15]; got != tc.tags {
				t.Errorf("tags %q, want %q", got, tc.tags)
			}
			if got := rows[2][4]; got != StatusName(devices.StatusOffline, tc.lang) {
				t.Errorf("status %q, want offline in %s", got, tc.lang)
			}
		})
	}
}

func TestDeviceList_Cells(t *testing.T) {
	f := writeAndOpen(t, i18n.ZhCN, testDevices())
	const sheet = "设备列表"
	want := map[string]string{
		// Every field set.
		"A2": "北区1号", "B2": "SMP0030001", "C2": "三层土壤墒情探头（SMP003）", "D2": "土壤",
		"E2": "低电量", "F2": "2026-11-22 09:50:00", "G2": "3.19", "H2": "-87",
		"I2": "北区试验田", "J2": "116.397128", "K2": "39.916527", "L2": "52.5",
		"M2": "2025-04-01", "N2": "2027-04-01", "O2": "2026-04-01", "P2": "玉米、A区",
		// Optional fields nil: empty cells, and offline since it never reported.
		"A3": "Station B", "C3": "五要素小型气象站（TQC005）", "D3": "气象", "E3": "离线",
		"F3": "", "G3": "", "H3": "", "I3": "", "J3": "", "K3": "", "L3": "",
		"M3": "", "N3": "", "O3": "", "P3": "",
		// Last report older than the hourly type's offline limit.
		"E4": "离线", "F4": "2026-11-22 07:00:00", "G4": "3.60",
		"E5": "在线", "G5": "12.48", "H5": "-71",
		"C6": "雨量计（RG001）", "D6": "灾害", "E6": "维修中",
		"C7": "999", "D7": "", "E7": "已生产",
	}
	for cell, w := range want {
		got, err := f.GetCellValue(sheet, cell)
		if err != nil {
			t.Fatal(err)
		}
		if got != w {
			t.Errorf("%s = %q, want %q", cell, got, w)
		}
	}
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+len(testDevices()) {
		t.Errorf("%d rows, want %d", len(rows), 1+len(testDevices()))
	}

	t.Run("NumbersAreNumbers", func(t *testing.T) {
		// Raw values: sortable numbers, the battery already truncated.
		for cell, w := range map[string]string{"G2": "3.19", "H2": "-87", "J2": "116.397128", "L2": "52.5"} {
			got, err := f.GetCellValue(sheet, cell, excelize.Options{RawCellValue: true})
			if err != nil {
				t.Fatal(err)
			}
			typ, err := f.GetCellType(sheet, cell)
			if err != nil {
				t.Fatal(err)
			}
			if got != w || typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
				t.Errorf("%s = %q (type %v), want number %s", cell, got, typ, w)
			}
		}
	})

	t.Run("Layout", func(t *testing.T) {
		panes, err := f.GetPanes(sheet)
		if err != nil {
			t.Fatal(err)
		}
		if !panes.Freeze || panes.YSplit != 1 || panes.TopLeftCell != "A2" {
			t.Errorf("panes %+v, want the header row frozen", panes)
		}
		style, err := f.GetCellStyle(sheet, "A1")
		if err != nil {
			t.Fatal(err)
		}
		s, err := f.GetStyle(style)
		if err != nil {
			t.Fatal(err)
		}
		if s.Font == nil || !s.Font.Bold {
			t.Error("header not bold")
		}
		var filter bool
		for _, dn := range f.GetDefinedName() {
			if dn.Name == "_xlnm._FilterDatabase" && dn.RefersTo == "'设备列表'!$A$1:$P$7" {
				filter = true
			}
		}
		if !filter {
			t.Errorf("no autofilter over A1:P7: %+v", f.GetDefinedName())
		}
		for _, col := range []string{"A", "C", "F", "P"} {
			w, err := f.GetColWidth(sheet, col)
			if err != nil {
				t.Fatal(err)
			}
			if w < 12 || w > 40 {
				t.Errorf("column %s width %v", col, w)
			}
		}
	})
}

// TestDeviceList_ColumnOrder reads the sheet XML itself: excelize reads
// columns in any order, but Excel asks to repair a sheet whose column
// settings are not ascending.
func TestDeviceList_ColumnOrder(t *testing.T) {
	b := writeList(t, i18n.ZhCN, testDevices())
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := zr.Open("xl/worksheets/sheet1.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var mins []int
	dec := xml.NewDecoder(r)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "col" {
			for _, a := range el.Attr {
				if a.Name.Local == "min" {
					n, err := strconv.Atoi(a.Value)
					if err != nil {
						t.Fatal(err)
					}
					mins = append(mins, n)
				}
			}
		}
	}
	if len(mins) != len(columns) || !slices.IsSorted(mins) {
		t.Errorf("columns %v, want %d in ascending order", mins, len(columns))
	}
}

func TestDeviceList_Empty(t *testing.T) {
	f := writeAndOpen(t, i18n.EnUS, nil)
	rows, err := f.GetRows("Devices")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 {
		t.Errorf("%d rows, want the header only", len(rows))
	}
}

func TestDeviceList_Large(t *testing.T) {
	const n = 10_000
	list := make([]*devices.Device, n)
	for i := range list {
		list[i] = reported(&devices.Device{
			Name: fmt.Sprintf("设备%d", i), SN: fmt.Sprintf("SN%08d", i), TypeID: 1 + i%10,
			State: devices.StateUsed, Location: "某地", Lat: ptr(30.5), Lng: ptr(114.3),
			Battery: ptr(3.0 + float64(i%120)/100), Signal: ptr(-float64(60 + i%50)),
			Tags: []devices.Tag{{ID: 1, Name: "标签"}},
		}, time.Duration(i)*time.Second)
	}
	f := writeAndOpen(t, i18n.ZhTW, list)
	rows, err := f.GetRows("設備列表")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != n+1 {
		t.Fatalf("%d rows, want %d", len(rows), n+1)
	}
	if last := rows[n]; last[0] != "设备9999" || last[1] != "SN00009999" {
		t.Errorf("last row %q", last)
	}
}

func TestDeviceList_Truncate2(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{3.199, 3.19}, {3.2, 3.2}, {0.29, 0.29}, {1.005, 1}, {12.4899, 12.48},
		{4.2, 4.2}, {3, 3}, {-0.019, -0.01}, {1e-7, 0},
	} {
		if got := truncate2(tc.in); got != tc.want {
			t.Errorf("truncate2(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestLabels(t *testing.T) {
	for _, lang := range i18n.Langs {
		for _, s := range devices.Statuses {
			if n := statusNames[s].In(lang); n == "" {
				t.Errorf("status %s has no %s name", s, lang)
			}
		}
		for _, c := range devices.Categories {
			if n := categoryNames[c].In(lang); n == "" {
				t.Errorf("category %s has no %s name", c, lang)
			}
		}
		for i, c := range columns {
			if c.names.In(lang) == "" {
				t.Errorf("column %d has no %s header", i, lang)
			}
		}
		if sheetNames.In(lang) == "" {
			t.Errorf("no %s sheet name", lang)
		}
	}
	if len(statusNames) != len(devices.Statuses) || len(categoryNames) != len(devices.Categories) {
		t.Error("labels for statuses or categories that no longer exist")
	}
	t.Run("UnknownShowsWireValue", func(t *testing.T) {
		if got := StatusName("lost", i18n.EnUS); got != "lost" {
			t.Errorf("StatusName = %q", got)
		}
		if got := CategoryName("space", i18n.ZhCN); got != "space" {
			t.Errorf("CategoryName = %q", got)
		}
	})
}
