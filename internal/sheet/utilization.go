package sheet

import (
	"io"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

// Utilization writes the effective utilization coefficient and every input
// behind it as XLSX: the result, the fields and the meters, a sheet each,
// in lang.
func Utilization(w io.Writer, lang i18n.Lang, u *soil.Utilization, loc *time.Location) error {
	f := excelize.NewFile()
	defer f.Close()
	t := func(key string) string { return i18n.T(lang, key, nil) }
	summary := t("exper.sheet.summary")
	if err := f.SetSheetName("Sheet1", summary); err != nil {
		return err
	}
	rows := [][]any{
		{t("exper.col.begin"), u.Begin.In(loc).Format("2006-01-02")},
		{t("exper.col.end"), u.End.In(loc).Add(-time.Millisecond).Format("2006-01-02")},
		{t("exper.col.netM3"), u.NetM3},
		{t("exper.col.grossM3"), u.GrossM3},
		{t("exper.col.coefficient"), numberPtr(u.Coefficient)},
		{t("exper.col.method"), t("exper.method")},
	}
	for _, w := range u.Warnings {
		rows = append(rows, []any{t("exper.col.warning"), t("exper.warning." + w)})
	}
	if err := writeRows(f, summary, rows); err != nil {
		return err
	}
	fields := t("exper.sheet.fields")
	if _, err := f.NewSheet(fields); err != nil {
		return err
	}
	rows = [][]any{{t("exper.col.field"), "SN", t("exper.col.area"), t("exper.col.crop"), t("exper.col.station"), t("exper.col.etc"),
		t("exper.col.rain"), t("exper.col.effectiveRain"), t("exper.col.profile"), t("exper.col.storageStart"), t("exper.col.storageEnd"),
		t("exper.col.netMM"), t("exper.col.netM3"), t("exper.col.missing")}}
	for _, fw := range u.Fields {
		station := ""
		if fw.Station != nil {
			station = fw.Station.Device.Name
		}
		missing := ""
		for i, m := range fw.Missing {
			if i > 0 {
				missing += t("exper.separator")
			}
			missing += t("exper.missing." + m)
		}
		rows = append(rows, []any{fw.Device.Name, fw.Device.SN, numberPtr(fw.AreaMu), fw.Crop, station, numberPtr(fw.ETc), numberPtr(fw.Rain),
			numberPtr(fw.EffectiveRain), fw.ProfileCM, numberPtr(fw.StorageStart), numberPtr(fw.StorageEnd), numberPtr(fw.NetMM),
			numberPtr(fw.NetM3), missing})
	}
	if err := writeRows(f, fields, rows); err != nil {
		return err
	}
	meters := t("exper.sheet.meters")
	if _, err := f.NewSheet(meters); err != nil {
		return err
	}
	rows = [][]any{{t("exper.col.meter"), "SN", t("exper.col.grossM3"), t("exper.col.days")}}
	for _, m := range u.Meters {
		rows = append(rows, []any{m.Device.Name, m.Device.SN, m.GrossM3, m.Days})
	}
	if err := writeRows(f, meters, rows); err != nil {
		return err
	}
	return f.Write(w)
}

func writeRows(f *excelize.File, sheet string, rows [][]any) error {
	for i, row := range rows {
		cell, err := excelize.CoordinatesToCellName(1, i+1)
		if err != nil {
			return err
		}
		if err := f.SetSheetRow(sheet, cell, &row); err != nil {
			return err
		}
	}
	return f.SetColWidth(sheet, "A", "N", 16)
}
