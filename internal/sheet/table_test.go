package sheet

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

func testParams(t *testing.T) (moisture, insects *devices.Param) {
	t.Helper()
	soil, _ := devices.TypeByID(2)
	trap, _ := devices.TypeByID(20)
	moisture, _ = soil.Param("soilMoisture")
	insects, _ = trap.Param("insectCount")
	return moisture, insects
}

func TestDataHeader(t *testing.T) {
	m, ins := testParams(t)
	for _, c := range []struct {
		p    *devices.Param
		node int
		agg  devices.Agg
		lang i18n.Lang
		want string
	}{
		{m, 10, "", i18n.EnUS, "Soil moisture 10 cm (%)"},
		{m, 10, "", i18n.ZhCN, "土壤体积含水量 10厘米 (%)"},
		{m, 20, devices.AggAvg, i18n.ZhTW, "土壤體積含水量 20公分 平均值 (%)"},
		{m, 20, devices.AggMax, i18n.EnUS, "Soil moisture 20 cm maximum (%)"},
		{ins, 0, "", i18n.EnUS, "Insect count"},
		{ins, 0, devices.AggSum, i18n.ZhCN, "虫口数 累计值"},
	} {
		if got := DataHeader(c.p, c.node, c.agg, c.lang); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
	if TimeHeader(false, i18n.ZhCN) != "时间" || TimeHeader(true, i18n.EnUS) != "Date" {
		t.Error("time headers")
	}
	for _, lang := range i18n.Langs {
		for _, a := range devices.Aggs {
			if aggNames[a].In(lang) == "" {
				t.Errorf("statistic %s has no %s name", a, lang)
			}
		}
		for _, n := range []devices.Names{dataSheetNames, timeNames, dateNames} {
			if n.In(lang) == "" {
				t.Errorf("a data export label has no %s text", lang)
			}
		}
	}
}

var (
	testHeader = []string{"Time", "Soil moisture 10 cm (%)", "Insect count"}
	testRows   = []struct {
		label  string
		values []float64
	}{
		{"2026-01-01 00:00:00", []float64{21.5, 3}},
		{"2026-01-01 00:10:00", []float64{math.NaN(), 0}},
		{"2026-01-01 00:20:00", []float64{21.25, math.NaN()}},
	}
)

func writeTable(t *testing.T, f Format, lang i18n.Lang) []byte {
	t.Helper()
	var buf bytes.Buffer
	tb, err := NewTable(f, &buf, lang, testHeader)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range testRows {
		if err := tb.Row(r.label, r.values); err != nil {
			t.Fatal(err)
		}
	}
	if err := tb.Row("short", []float64{1}); err == nil {
		t.Fatal("a row with too few values was written")
	}
	if tb.Rows() != 3 {
		t.Fatalf("rows: %d", tb.Rows())
	}
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestTable_XLSX(t *testing.T) {
	f, err := excelize.OpenReader(bytes.NewReader(writeTable(t, XLSX, i18n.ZhTW)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !slices.Equal(got, []string{"數據"}) {
		t.Fatalf("sheets: %v", got)
	}
	rows, err := f.GetRows("數據")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{testHeader,
		{"2026-01-01 00:00:00", "21.5", "3"},
		{"2026-01-01 00:10:00", "", "0"},
		{"2026-01-01 00:20:00", "21.25"},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows: %q", rows)
	}
	for i := range want {
		if !slices.Equal(rows[i], want[i]) {
			t.Errorf("row %d: %q, want %q", i+1, rows[i], want[i])
		}
	}
	// Values are numbers, not text, so the sheet sorts and charts them.
	if typ, _ := f.GetCellType("數據", "B2"); typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString {
		t.Errorf("B2 is text")
	}
}

func TestTable_XLSXContinuesOnAnotherSheet(t *testing.T) {
	defer func(n int) { maxSheetRows = n }(maxSheetRows)
	maxSheetRows = 2
	f, err := excelize.OpenReader(bytes.NewReader(writeTable(t, XLSX, i18n.EnUS)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !slices.Equal(got, []string{"Data", "Data 2"}) {
		t.Fatalf("sheets: %v", got)
	}
	first, _ := f.GetRows("Data")
	second, _ := f.GetRows("Data 2")
	if len(first) != 3 || len(second) != 2 || !slices.Equal(second[0], testHeader) || second[1][0] != "2026-01-01 00:20:00" {
		t.Fatalf("sheets: %q %q", first, second)
	}
}

func TestTable_CSV(t *testing.T) {
	got := string(writeTable(t, CSV, i18n.EnUS))
	want := "\ufeffTime,Soil moisture 10 cm (%),Insect count\r\n" +
		"2026-01-01 00:00:00,21.5,3\r\n" +
		"2026-01-01 00:10:00,,0\r\n" +
		"2026-01-01 00:20:00,21.25,\r\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
