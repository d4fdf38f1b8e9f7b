package briefing_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/briefing"
	"github.com/fieldwatch/fieldwatch/internal/forecast"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/readings"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/xuri/excelize/v2"
)

func countyReport(t *testing.T, lang i18n.Lang) *briefing.Report {
	t.Helper()
	c := countyFarm(t, storetest.OpenSQLite(t))
	c.p.Lang = lang
	c.p.Province, c.p.City, c.p.District = "河南省", "郑州市", "中牟县"
	srv := openMeteo(t, c.end, 0, 5)
	r, err := c.svc.Compute(context.Background(), briefing.ReportOptions{Readings: readings.New(c.hist, nil), Settings: c.svc.Store.(briefing.Settings),
		Forecast: forecast.New(forecast.Config{BaseURL: srv.URL, Location: cst})}, c.p, c.end, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// need returns the path of a tool the test drives, failing when CI=true
// and it is missing.
func need(t *testing.T, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed", tool)
		}
		t.Skipf("%s is not installed (apt-get install poppler-utils libreoffice-calc-nogui)", tool)
	}
	return p
}

// The PDF in Chinese and English: A4 pages that poppler renders, the font
// embedded, the title, the unit's name and page numbers on every page, the
// region figures in the text.
func TestWritePDF(t *testing.T) {
	for _, c := range []struct {
		lang  i18n.Lang
		wants []string
	}{
		{i18n.ZhCN, []string{"河南省郑州市中牟县土壤墒情简报", "县农业农村局", "第 1 页，共 3 页", "第 3 页，共 3 页", "城关镇", "中旱", "55.0", "-5.0", "灌溉", "数据不全", "读数长期不变", "GB/T 32136-2015"}},
		{i18n.EnUS, []string{"Soil Moisture Briefing — 中牟县, 郑州市, 河南省", "Page 1 of 3", "Page 3 of 3", "Moderate drought", "55.0", "Irrigate", "Incomplete data", "Reading never changes", "irrigate about 28.0 mm"}},
	} {
		t.Run(string(c.lang), func(t *testing.T) {
			r := countyReport(t, c.lang)
			var buf bytes.Buffer
			if err := briefing.WritePDF(&buf, r, briefing.DefaultFont, cst); err != nil {
				t.Fatal(err)
			}
			b := buf.Bytes()
			if !bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.Contains(b, []byte("/FontFile2")) || !bytes.Contains(b, []byte("/MediaBox [0 0 595.28 841.89]")) {
				t.Fatalf("not an A4 PDF with an embedded TrueType font (%d bytes)", len(b))
			}
			dir := t.TempDir()
			if out := os.Getenv("BRIEFING_OUT"); out != "" {
				dir = out
			}
			pdfPath := filepath.Join(dir, "county-"+string(c.lang)+".pdf")
			if err := os.WriteFile(pdfPath, b, 0o644); err != nil {
				t.Fatal(err)
			}
			txt, err := exec.Command(need(t, "pdftotext"), "-layout", pdfPath, "-").Output()
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.wants {
				if !strings.Contains(string(txt), w) {
					t.Errorf("the PDF's text lacks %q", w)
				}
			}
			if out, err := exec.Command(need(t, "pdftoppm"), "-r", "70", "-png", pdfPath, strings.TrimSuffix(pdfPath, ".pdf")).CombinedOutput(); err != nil {
				t.Fatalf("pdftoppm: %v %s", err, out)
			}
			pages, _ := filepath.Glob(strings.TrimSuffix(pdfPath, ".pdf") + "-*.png")
			if len(pages) != 3 {
				t.Errorf("pdftoppm made %d pages, want 3", len(pages))
			}
		})
	}
}

func TestWritePDF_NoFont(t *testing.T) {
	r := countyReport(t, i18n.ZhCN)
	err := briefing.WritePDF(&bytes.Buffer{}, r, filepath.Join(t.TempDir(), "missing.ttc"), cst)
	var fe *briefing.FontError
	if !errors.As(err, &fe) {
		t.Fatalf("missing font: %v", err)
	}
}

// The workbook, one sheet per table, read back by excelize and converted
// to CSV by LibreOffice.
func TestWriteXLSX(t *testing.T) {
	r := countyReport(t, i18n.ZhCN)
	var buf bytes.Buffer
	if err := briefing.WriteXLSX(&buf, r, cst); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	wantSheets := []string{"各区域墒情", "建议", "设备明细", "逐日相对湿度", "降雨", "未来7天预报"}
	if got := f.GetSheetList(); !slices.Equal(got, wantSheets) {
		t.Fatalf("sheets %v, want %v", got, wantSheets)
	}
	rows, _ := f.GetRows("各区域墒情")
	if len(rows) != 7 || rows[1][0] != "城关镇" || rows[1][1] != "0–20 cm" || rows[1][3] != "55" || rows[1][6] != "-5" || rows[1][7] != "中旱" {
		t.Fatalf("regions sheet: %v", rows)
	}

	// LibreOffice reads every sheet of it.
	soffice := need(t, "soffice")
	dir := t.TempDir()
	path := filepath.Join(dir, "county.xlsx")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(soffice, "--headless", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1", "--outdir", dir, path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v %s", err, out)
	}
	read := func(sheet string) [][]string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "county-"+sheet+".csv"))
		if err != nil {
			t.Fatalf("LibreOffice wrote no CSV of %s: %v", sheet, err)
		}
		recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
	regions := read("各区域墒情")
	if len(regions) != 7 || !slices.Equal(regions[1][:8], []string{"城关镇", "0–20 cm", "17", "55", "49.5", "60", "-5", "中旱"}) {
		t.Errorf("LibreOffice's regions: %v", regions)
	}
	advice := read("建议")
	if len(advice) != 3 || advice[1][1] != "灌溉" || advice[1][2] != "28" || advice[2][3] != "2026-11-24" {
		t.Errorf("LibreOffice's advice: %v", advice)
	}
	devs := read("设备明细")
	if len(devs) != 8 {
		t.Errorf("LibreOffice's devices: %d rows", len(devs))
	}
	fc := read("未来7天预报")
	if len(fc) != 8 || fc[1][2] != "5" {
		t.Errorf("LibreOffice's forecast: %v", fc)
	}
}
