package sheet

import (
	"fmt"
	"io"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// detectionSheetNames is the detection records sheet's name.
var detectionSheetNames = devices.Names{ZhCN: "识别记录", ZhTW: "識別記錄", EnUS: "Detections"}

// detectionColumns are the detection records' columns, in sheet order.
var detectionColumns = []column{
	{devices.Names{ZhCN: "设备名称", ZhTW: "設備名稱", EnUS: "Device"}, 24},
	{devices.Names{ZhCN: "SN", ZhTW: "SN", EnUS: "SN"}, 20},
	{devices.Names{ZhCN: "应用名称", ZhTW: "應用名稱", EnUS: "Application"}, 24},
	{devices.Names{ZhCN: "识别时间", ZhTW: "識別時間", EnUS: "Detection time"}, 20},
	{devices.Names{ZhCN: "位置", ZhTW: "位置", EnUS: "Location"}, 24},
	{devices.Names{ZhCN: "经度", ZhTW: "經度", EnUS: "Longitude"}, 12},
	{devices.Names{ZhCN: "纬度", ZhTW: "緯度", EnUS: "Latitude"}, 12},
	{devices.Names{ZhCN: "要素", ZhTW: "要素", EnUS: "Element"}, 16},
	{devices.Names{ZhCN: "标识", ZhTW: "標識", EnUS: "Identifier"}, 14},
	{devices.Names{ZhCN: "单位", ZhTW: "單位", EnUS: "Unit"}, 8},
	{devices.Names{ZhCN: "平均值", ZhTW: "平均值", EnUS: "Average"}, 12},
	{devices.Names{ZhCN: "有效值", ZhTW: "有效值", EnUS: "Valid"}, 12},
}

// DetectionRecords writes detection records as one sheet: a header row in
// lang, then one row per element of each record (a record of two elements
// is two rows): device name, SN, application, detection time (in loc,
// "2006-01-02 15:04:05"), location, longitude, latitude, then the
// element's name, identifier and unit, its average and its valid value
// (numbers, as numbers). A record without packages still has its row. The
// header is bold, frozen and under an autofilter. A nil loc means UTC.
func DetectionRecords(w io.Writer, lang i18n.Lang, list []ailab.Record, loc *time.Location) (err error) {
	if loc == nil {
		loc = time.UTC
	}
	f := excelize.NewFile()
	defer func() {
		if cerr := f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("detection records: close workbook: %w", cerr)
		}
	}()
	sheet := detectionSheetNames.In(lang)
	if err := f.SetSheetName(f.GetSheetName(0), sheet); err != nil {
		return fmt.Errorf("detection records: name sheet: %w", err)
	}
	rows := 0
	for _, r := range list {
		rows += max(len(r.Packages), 1)
	}
	lastCol, err := excelize.ColumnNumberToName(len(detectionColumns))
	if err != nil {
		return fmt.Errorf("detection records: %w", err)
	}
	if err := f.AutoFilter(sheet, fmt.Sprintf("A1:%s%d", lastCol, rows+1), nil); err != nil {
		return fmt.Errorf("detection records: autofilter: %w", err)
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return fmt.Errorf("detection records: %w", err)
	}
	for col := len(detectionColumns); col >= 1; col-- {
		c := detectionColumns[col-1]
		if err := sw.SetColWidth(col, col, max(c.width, displayWidth(c.names.In(lang))+2)); err != nil {
			return fmt.Errorf("detection records: column width: %w", err)
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}}); err != nil {
		return fmt.Errorf("detection records: freeze header: %w", err)
	}
	header, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true},
		Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"F2F2F2"}},
		Border: []excelize.Border{{Type: "bottom", Color: "BFBFBF", Style: 1}}})
	if err != nil {
		return fmt.Errorf("detection records: header style: %w", err)
	}
	row := make([]any, len(detectionColumns))
	for i, c := range detectionColumns {
		row[i] = excelize.Cell{StyleID: header, Value: c.names.In(lang)}
	}
	if err := sw.SetRow("A1", row); err != nil {
		return fmt.Errorf("detection records: header: %w", err)
	}
	n := 2
	for _, r := range list {
		ps := r.Packages
		if len(ps) == 0 {
			ps = []ailab.RecordPackage{{}}
		}
		for _, p := range ps {
			row = []any{text(r.DeviceName), r.SN, text(r.AppName), r.DetectedAt.In(loc).Format(dateTimeLayout),
				text(r.Location), numberPtr(r.Lng), numberPtr(r.Lat), text(p.Name), text(p.Identifier), text(p.Unit), nil, nil}
			if p.Identifier != "" {
				row[10], row[11] = number(p.Average), number(p.Valid)
			}
			cell, err := excelize.CoordinatesToCellName(1, n)
			if err != nil {
				return fmt.Errorf("detection records: %w", err)
			}
			if err := sw.SetRow(cell, row); err != nil {
				return fmt.Errorf("detection records: row %d: %w", n, err)
			}
			n++
		}
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("detection records: flush: %w", err)
	}
	if err := f.Write(w); err != nil {
		return fmt.Errorf("detection records: write: %w", err)
	}
	return nil
}
