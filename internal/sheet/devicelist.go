// Package sheet writes the files users download: spreadsheets of their
// devices and data, in the language they asked for.
package sheet

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// Cell formats. Times are written as text rather than Excel dates: an Excel
// date carries no zone, and text in this layout reads the same in every
// spreadsheet program and still sorts in time order.
const (
	dateTimeLayout = "2006-01-02 15:04:05"
	// Install, service and warranty times are days in the user's eyes.
	dateLayout = "2006-01-02"
)

// Built-in Excel number formats.
const (
	numFmtInteger  = 1 // 0
	numFmtDecimal2 = 2 // 0.00
)

// Columns written as numbers with a fixed format (1-based, as Excel counts).
const (
	colBattery = 7
	colSignal  = 8
)

// DeviceList writes devices as one sheet: a header row in lang, then one row
// per device: name, SN, type name (with model), category, status (localized),
// last report time (in loc, "2006-01-02 15:04:05", empty when never), battery
// (V, 2 decimals truncated not rounded, empty when unknown), signal (dBm),
// location, longitude, latitude, altitude, install time, data service period
// end, warranty end (those three as "2006-01-02" in loc), tags (joined with
// "、" in Chinese, ", " in English). The status is the one the device shows at
// now. Unknown values leave their cell empty (a type this build does not know
// shows its id instead); numbers are written as numbers, so the sheet sorts
// and filters them as such.
//
// The sheet has its header bold, frozen and under an autofilter. Rows go
// through excelize's stream writer, which moves them to a temporary file past
// 16 MB rather than holding a long list in memory; the workbook is written to
// w once complete. A nil loc means UTC.
func DeviceList(w io.Writer, lang i18n.Lang, list []*devices.Device, now time.Time, loc *time.Location) (err error) {
	if loc == nil {
		loc = time.UTC
	}
	f := excelize.NewFile()
	defer func() {
		// Close removes the stream's temporary files, if it needed any.
		if cerr := f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("device list: close workbook: %w", cerr)
		}
	}()

	sheet := sheetNames.In(lang)
	if err := f.SetSheetName(f.GetSheetName(0), sheet); err != nil {
		return fmt.Errorf("device list: name sheet: %w", err)
	}
	lastCol, err := excelize.ColumnNumberToName(len(columns))
	if err != nil {
		return fmt.Errorf("device list: %w", err)
	}
	// The autofilter goes on before streaming starts: the stream writer
	// takes the sheet's settings from the sheet as it is when created.
	filterRange := fmt.Sprintf("A1:%s%d", lastCol, len(list)+1)
	if err := f.AutoFilter(sheet, filterRange, nil); err != nil {
		return fmt.Errorf("device list: autofilter: %w", err)
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return fmt.Errorf("device list: %w", err)
	}
	if err := setLayout(f, sw, lang); err != nil {
		return fmt.Errorf("device list: %w", err)
	}

	header, err := f.NewStyle(&excelize.Style{
		Font:      &excelize.Font{Bold: true},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"F2F2F2"}},
		Border:    []excelize.Border{{Type: "bottom", Color: "BFBFBF", Style: 1}},
		Alignment: &excelize.Alignment{Vertical: "center"},
	})
	if err != nil {
		return fmt.Errorf("device list: header style: %w", err)
	}
	row := make([]any, len(columns))
	for i, c := range columns {
		row[i] = excelize.Cell{StyleID: header, Value: c.names.In(lang)}
	}
	if err := sw.SetRow("A1", row); err != nil {
		return fmt.Errorf("device list: header: %w", err)
	}

	for i, d := range list {
		fillRow(row, d, lang, now, loc)
		cell, err := excelize.CoordinatesToCellName(1, i+2)
		if err != nil {
			return fmt.Errorf("device list: %w", err)
		}
		if err := sw.SetRow(cell, row); err != nil {
			return fmt.Errorf("device list: row %d: %w", i+2, err)
		}
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("device list: flush: %w", err)
	}
	if err := f.Write(w); err != nil {
		return fmt.Errorf("device list: write: %w", err)
	}
	return nil
}

// setLayout sets what the stream writer needs before the first row: column
// widths and formats, and the frozen header.
func setLayout(f *excelize.File, sw *excelize.StreamWriter, lang i18n.Lang) error {
	numFmts := map[int]int{colBattery: numFmtDecimal2, colSignal: numFmtInteger}
	// The stream writer writes column settings in the order they were
	// last touched, most recent first, and Excel asks to repair a sheet
	// whose columns are out of order; going from the last column to the
	// first leaves them ascending.
	for col := len(columns); col >= 1; col-- {
		if numFmt, ok := numFmts[col]; ok {
			style, err := f.NewStyle(&excelize.Style{NumFmt: numFmt})
			if err != nil {
				return fmt.Errorf("column style: %w", err)
			}
			if err := sw.SetColStyle(col, col, style); err != nil {
				return fmt.Errorf("column style: %w", err)
			}
		}
		// Two more units than the header's text leave room for the
		// autofilter's drop-down button.
		c := columns[col-1]
		width := max(c.width, displayWidth(c.names.In(lang))+2)
		if err := sw.SetColWidth(col, col, width); err != nil {
			return fmt.Errorf("column width: %w", err)
		}
	}
	err := sw.SetPanes(&excelize.Panes{
		Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	})
	if err != nil {
		return fmt.Errorf("freeze header: %w", err)
	}
	return nil
}

// fillRow puts d's cells into row, in the order of columns. A nil cell is
// left empty in the sheet.
func fillRow(row []any, d *devices.Device, lang i18n.Lang, now time.Time, loc *time.Location) {
	var typeName, category any
	if t := d.Type(); t != nil {
		typeName = t.Name(lang) + modelSuffix(t.Model, lang)
		category = CategoryName(t.Category, lang)
	} else {
		// A type this build does not know still says which one it was.
		typeName = strconv.Itoa(d.TypeID)
	}
	var battery any
	if d.Battery != nil {
		battery = number(truncate2(*d.Battery))
	}
	row[0] = d.Name
	row[1] = d.SN
	row[2] = typeName
	row[3] = category
	row[4] = StatusName(d.StatusAt(now), lang)
	row[5] = timeText(d.LastReportAt, loc, dateTimeLayout)
	row[colBattery-1] = battery
	row[colSignal-1] = numberPtr(d.Signal)
	row[8] = text(d.Location)
	row[9] = numberPtr(d.Lng)
	row[10] = numberPtr(d.Lat)
	row[11] = numberPtr(d.Altitude)
	row[12] = timeText(d.InstallAt, loc, dateLayout)
	row[13] = timeText(d.ServiceUntil, loc, dateLayout)
	row[14] = timeText(d.WarrantyUntil, loc, dateLayout)
	row[15] = tagsText(d.Tags, lang)
}

// modelSuffix is the model in parentheses after a type name, full-width in
// Chinese as the type names themselves use.
func modelSuffix(model string, lang i18n.Lang) string {
	if model == "" {
		return ""
	}
	if lang == i18n.EnUS {
		return " (" + model + ")"
	}
	return "（" + model + "）"
}

func tagsText(tags []devices.Tag, lang i18n.Lang) any {
	if len(tags) == 0 {
		return nil
	}
	sep := "、" // the Chinese enumeration comma
	if lang == i18n.EnUS {
		sep = ", "
	}
	names := make([]string, len(tags))
	for i, t := range tags {
		names[i] = t.Name
	}
	return strings.Join(names, sep)
}

func timeText(t *time.Time, loc *time.Location, layout string) any {
	if t == nil {
		return nil
	}
	return t.In(loc).Format(layout)
}

func text(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func numberPtr(v *float64) any {
	if v == nil {
		return nil
	}
	return number(*v)
}

// number is v as a cell value; NaN and infinities have no spreadsheet
// spelling, so they leave the cell empty like an unknown value.
func number(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// truncate2 cuts v to two decimals toward zero, so a cell never shows a
// battery fuller than it read: 3.199 V is 3.19, not 3.20. It cuts the
// shortest decimal text of v, because math.Trunc(v*100)/100 is off for values
// such as 0.29, whose product is 28.999….
func truncate2(v float64) float64 {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 && len(s) > i+3 {
		s = s[:i+3]
	}
	t, _ := strconv.ParseFloat(s, 64) // a prefix of a formatted float parses
	return t
}

// displayWidth approximates the width of s in Excel character units: East
// Asian characters take two.
func displayWidth(s string) float64 {
	var w float64
	for _, r := range s {
		if r >= 0x1100 {
			w += 2
		} else {
			w++
		}
	}
	return w
}
