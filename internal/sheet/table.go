package sheet

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// Format is the file type of a data export.
type Format string

const (
	XLSX Format = "xlsx"
	CSV  Format = "csv"
)

// Formats lists the data export formats.
var Formats = []Format{XLSX, CSV}

// ContentType is the format's MIME type.
func (f Format) ContentType() string {
	if f == CSV {
		return "text/csv"
	}
	return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
}

// maxSheetRows is how many data rows one sheet holds: Excel's limit of
// 1,048,576 rows less the header. Rows past it continue on another sheet.
var maxSheetRows = 1<<20 - 1

// DataHeader names the column of one parameter at one node (0: the device
// as a whole) and, for daily data, one of its daily statistics (agg "" for
// raw readings), with its unit: "Soil moisture 10 cm average (%)",
// "土壤体积含水量 10厘米 平均值 (%)".
func DataHeader(p *devices.Param, node int, agg devices.Agg, lang i18n.Lang) string {
	s := p.Name(lang)
	if node > 0 {
		s += " " + nodeName(node, lang)
	}
	if agg != "" {
		s += " " + AggName(agg, lang)
	}
	if p.Unit != "" {
		s += " (" + p.Unit + ")"
	}
	return s
}

// TimeHeader names the first column: the reading's time, or for daily data
// its date.
func TimeHeader(daily bool, lang i18n.Lang) string {
	if daily {
		return dateNames.In(lang)
	}
	return timeNames.In(lang)
}

// Table writes rows of readings, one per time, as an XLSX workbook or a CSV
// file. Rows go out as they come: the XLSX stream writer moves them to a
// temporary file past 16 MB, and CSV goes straight to the output, so the
// number of rows is not bounded by memory.
type Table struct {
	format Format
	out    io.Writer
	lang   i18n.Lang
	header []string
	rows   int64

	// XLSX
	f       *excelize.File
	sw      *excelize.StreamWriter
	sheets  int
	inSheet int
	style   int
	cells   []any

	// CSV
	bw     *bufio.Writer
	cw     *csv.Writer
	fields []string
}

// NewTable starts a table with the given header row (the time column's
// name first). The file is complete once Close returns.
func NewTable(format Format, out io.Writer, lang i18n.Lang, header []string) (*Table, error) {
	t := &Table{format: format, out: out, lang: lang, header: header}
	switch format {
	case XLSX:
		t.f = excelize.NewFile()
		style, err := t.f.NewStyle(&excelize.Style{
			Font:   &excelize.Font{Bold: true},
			Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"F2F2F2"}},
			Border: []excelize.Border{{Type: "bottom", Color: "BFBFBF", Style: 1}},
		})
		if err != nil {
			t.f.Close()
			return nil, fmt.Errorf("data table: header style: %w", err)
		}
		t.style, t.cells = style, make([]any, len(header))
		if err := t.newSheet(); err != nil {
			t.f.Close()
			return nil, err
		}
	case CSV:
		t.bw = bufio.NewWriterSize(out, 64<<10)
		// A byte order mark makes spreadsheet programs read the file as
		// UTF-8 rather than the system's code page, which garbles Chinese.
		t.bw.WriteString("\ufeff")
		t.cw = csv.NewWriter(t.bw)
		t.cw.UseCRLF = true
		t.fields = make([]string, len(header))
		if err := t.cw.Write(header); err != nil {
			return nil, fmt.Errorf("data table: %w", err)
		}
	default:
		return nil, fmt.Errorf("data table: unknown format %q", format)
	}
	return t, nil
}

// sheetName is the n-th data sheet's name: "Data", then "Data 2", ….
func (t *Table) sheetName(n int) string {
	name := dataSheetNames.In(t.lang)
	if n > 1 {
		name += " " + strconv.Itoa(n)
	}
	return name
}

// newSheet finishes the current sheet, if any, and starts the next with
// its header row.
func (t *Table) newSheet() error {
	if t.sw != nil {
		if err := t.sw.Flush(); err != nil {
			return fmt.Errorf("data table: flush: %w", err)
		}
	}
	t.sheets++
	name := t.sheetName(t.sheets)
	if t.sheets == 1 {
		if err := t.f.SetSheetName(t.f.GetSheetName(0), name); err != nil {
			return fmt.Errorf("data table: name sheet: %w", err)
		}
	} else if _, err := t.f.NewSheet(name); err != nil {
		return fmt.Errorf("data table: new sheet: %w", err)
	}
	sw, err := t.f.NewStreamWriter(name)
	if err != nil {
		return fmt.Errorf("data table: %w", err)
	}
	t.sw, t.inSheet = sw, 0
	// Column settings go from the last column to the first: the stream
	// writer emits them most recent first, and Excel wants them ascending.
	for col := len(t.header); col >= 1; col-- {
		width := max(12, displayWidth(t.header[col-1])+2)
		if col == 1 {
			width = max(20, width)
		}
		if err := sw.SetColWidth(col, col, width); err != nil {
			return fmt.Errorf("data table: column width: %w", err)
		}
	}
	err = sw.SetPanes(&excelize.Panes{
		Freeze: true, XSplit: 1, YSplit: 1, TopLeftCell: "B2", ActivePane: "bottomRight",
		Selection: []excelize.Selection{{SQRef: "B2", ActiveCell: "B2", Pane: "bottomRight"}},
	})
	if err != nil {
		return fmt.Errorf("data table: freeze header: %w", err)
	}
	for i, h := range t.header {
		t.cells[i] = excelize.Cell{StyleID: t.style, Value: h}
	}
	if err := sw.SetRow("A1", t.cells); err != nil {
		return fmt.Errorf("data table: header: %w", err)
	}
	return nil
}

// Row writes one row: the time label, then one value per column after it.
// A NaN value leaves its cell empty (no reading at that time).
func (t *Table) Row(label string, values []float64) error {
	if len(values) != len(t.header)-1 {
		return fmt.Errorf("data table: %d values for %d columns", len(values), len(t.header)-1)
	}
	t.rows++
	if t.format == CSV {
		t.fields[0] = label
		for i, v := range values {
			t.fields[i+1] = ""
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				t.fields[i+1] = strconv.FormatFloat(v, 'f', -1, 64)
			}
		}
		return t.cw.Write(t.fields)
	}
	if t.inSheet == maxSheetRows {
		if err := t.newSheet(); err != nil {
			return err
		}
	}
	t.inSheet++
	t.cells[0] = label
	for i, v := range values {
		t.cells[i+1] = number(v)
	}
	cell, err := excelize.CoordinatesToCellName(1, t.inSheet+1)
	if err != nil {
		return fmt.Errorf("data table: %w", err)
	}
	if err := t.sw.SetRow(cell, t.cells); err != nil {
		return fmt.Errorf("data table: row %d: %w", t.rows, err)
	}
	return nil
}

// Rows is how many data rows were written.
func (t *Table) Rows() int64 { return t.rows }

// Close completes the file on the output and releases temporary files.
func (t *Table) Close() (err error) {
	if t.format == CSV {
		t.cw.Flush()
		if err := t.cw.Error(); err != nil {
			return fmt.Errorf("data table: %w", err)
		}
		if err := t.bw.Flush(); err != nil {
			return fmt.Errorf("data table: %w", err)
		}
		return nil
	}
	defer func() {
		if cerr := t.f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("data table: close workbook: %w", cerr)
		}
	}()
	if err := t.sw.Flush(); err != nil {
		return fmt.Errorf("data table: flush: %w", err)
	}
	if err := t.f.Write(t.out); err != nil {
		return fmt.Errorf("data table: write: %w", err)
	}
	return nil
}

// Abort releases a table's temporary files without completing it.
func (t *Table) Abort() {
	if t.f != nil {
		t.f.Close()
	}
}
