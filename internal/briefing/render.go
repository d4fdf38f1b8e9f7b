package briefing

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/go-pdf/fpdf"
	"github.com/xuri/excelize/v2"
)

// Format is a report file's format.
type Format string

const (
	PDF  Format = "pdf"
	XLSX Format = "xlsx"
)

// ContentType is the format's MIME type.
func (f Format) ContentType() string {
	if f == PDF {
		return "application/pdf"
	}
	return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
}

// text is the report's text in its language.
type text struct {
	lang i18n.Lang
	loc  *time.Location
}

func (t text) T(key string, params map[string]any) string {
	return i18n.T(t.lang, "briefing.r."+key, params)
}

func (t text) date(d time.Time) string { return d.In(t.loc).Format("2006-01-02") }

func (t text) grade(g string) string {
	if g == "" {
		return t.T("noData", nil)
	}
	return i18n.T(t.lang, "drought."+g, nil)
}

func (t text) band(i int) string { return fmt.Sprintf("%d–%d cm", Bands[i][0], Bands[i][1]) }

func (t text) num(v *float64) string {
	if v == nil {
		return t.T("noData", nil)
	}
	return fmt.Sprintf("%.1f", *v)
}

func (t text) signed(v *float64) string {
	if v == nil {
		return t.T("noData", nil)
	}
	return fmt.Sprintf("%+.1f", *v)
}

func (t text) lastDay(r *Report) time.Time { return r.End.AddDate(0, 0, -1) }

// adviceText is a region's advice as a sentence.
func (t text) adviceText(r *Report, rg RegionReport) string {
	p := map[string]any{"region": rg.Name, "band": t.band(r.Reference - 1)}
	a := rg.Advice
	if a.DepthMM != nil {
		p["depth"] = fmt.Sprintf("%.1f", *a.DepthMM)
	}
	key := a.Action
	if a.Action == ActionIrrigate && a.By != nil {
		key, p["by"] = "irrigateBy", t.date(*a.By)
	}
	return t.T("adviceText."+key, p)
}

// Grade colours, as on the console's map.
var gradeColors = map[string][3]int{
	"none": {82, 196, 26}, "light": {250, 219, 20}, "moderate": {250, 140, 22},
	"severe": {245, 34, 45}, "extreme": {168, 7, 26}, "waterlogged": {22, 119, 255}, "": {170, 170, 170},
}

var seriesColors = [][3]int{{57, 97, 255}, {250, 140, 22}, {82, 196, 26}, {235, 47, 150}, {19, 194, 194},
	{114, 46, 209}, {250, 84, 28}, {47, 84, 235}, {160, 217, 17}, {140, 140, 140}}

// WritePDF writes the report as an A4 PDF in its language, with the font
// at fontPath (a TrueType font or collection) embedded, times in loc.
func WritePDF(w io.Writer, r *Report, fontPath string, loc *time.Location) error {
	font, err := loadFont(fontPath)
	if err != nil {
		return &FontError{err}
	}
	t := text{lang: r.Lang, loc: loc}
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetTitle(r.Name, true)
	pdf.SetAuthor(r.UnitName, true)
	pdf.SetCreator("Fieldwatch", true)
	pdf.SetCreationDate(r.GeneratedAt)
	pdf.SetModificationDate(r.GeneratedAt)
	pdf.AddUTF8FontFromBytes("cjk", "", font)
	pdf.SetMargins(15, 15, 15)
	pdf.SetAutoPageBreak(true, 18)
	pdf.AddPage()
	const width = 180.0

	// Title block.
	pdf.SetFont("cjk", "", 18)
	place := strings.TrimSpace(r.Province + r.City + r.District)
	if r.Lang == i18n.EnUS {
		place = strings.TrimSpace(strings.Join(nonEmpty(r.District, r.City, r.Province), ", "))
	}
	title := t.T("title", nil)
	if place != "" {
		if r.Lang == i18n.EnUS {
			title = title + " — " + place
		} else {
			title = place + title
		}
	}
	pdf.CellFormat(width, 10, title, "", 1, "C", false, 0, "")
	pdf.SetFont("cjk", "", 12)
	pdf.CellFormat(width, 7, r.Name, "", 1, "C", false, 0, "")
	pdf.SetFont("cjk", "", 9.5)
	pdf.CellFormat(width, 5.5, t.T("period", map[string]any{"begin": t.date(r.Begin), "end": t.date(t.lastDay(r))}), "", 1, "C", false, 0, "")
	pdf.CellFormat(width, 5.5, t.T("issued", map[string]any{"unit": r.UnitName, "time": r.GeneratedAt.In(loc).Format("2006-01-02 15:04")}), "", 1, "C", false, 0, "")
	pdf.CellFormat(width, 5.5, t.T("stage", map[string]any{"stage": i18n.T(r.Lang, "stage."+string(r.Stage), nil), "a": fmt.Sprintf("%.1f", r.Coefficient)}), "", 1, "C", false, 0, "")
	pdf.SetDrawColor(57, 97, 255)
	pdf.SetLineWidth(0.6)
	pdf.Line(15, pdf.GetY()+1.5, 195, pdf.GetY()+1.5)
	pdf.SetLineWidth(0.2)
	pdf.Ln(4)

	heading := func(s string) {
		if pdf.GetY() > 250 {
			pdf.AddPage()
		}
		pdf.SetFont("cjk", "", 12.5)
		pdf.SetTextColor(57, 97, 255)
		pdf.CellFormat(width, 8, s, "", 1, "L", false, 0, "")
		pdf.SetTextColor(0, 0, 0)
		pdf.SetFont("cjk", "", 9)
	}

	// Summary: one sentence per region, rain, forecast.
	heading(t.T("summary", nil))
	for _, rg := range r.Regions {
		pdf.MultiCell(width, 5, "• "+t.adviceText(r, rg), "", "L", false)
	}
	rain := t.T("rainPeriod", nil) + ": " + t.num(r.Rain)
	pdf.MultiCell(width, 5, "• "+rain, "", "L", false)
	if r.Forecast != nil {
		pdf.MultiCell(width, 5, "• "+t.T("forecastTotal", map[string]any{"rain": fmt.Sprintf("%.1f", r.Forecast.Rain), "et0": fmt.Sprintf("%.1f", r.Forecast.ET0)}), "", "L", false)
	} else {
		pdf.MultiCell(width, 5, "• "+t.T("forecastNone", nil), "", "L", false)
	}
	pdf.Ln(2)

	// Regions × bands.
	heading(t.T("regions", nil))
	cols := []float64{30, 20, 24, 26, 24, 36, 20}
	table(pdf, cols, []string{t.T("region", nil), t.T("band", nil), t.T("thetaShort", nil), t.T("relativeShort", nil), t.T("change", nil),
		t.T("grade", nil), t.T("devicesUsed", nil)}, func(row func([]string, []*[3]int)) {
		for _, rg := range r.Regions {
			for i, b := range rg.Bands {
				name := ""
				if i == 0 {
					name = rg.Name
				}
				g := b.Grade
				gradeText := t.grade(g)
				if b.Waterlogged {
					g, gradeText = "waterlogged", t.T("waterlogged", nil) // above 90 % there is no drought
				}
				c := gradeColors[g]
				row([]string{name, t.band(i), t.num(b.Theta), t.num(b.Relative), t.signed(b.Change), gradeText, fmt.Sprint(b.Devices)},
					[]*[3]int{nil, nil, nil, nil, nil, &c, nil})
			}
		}
	})
	pdf.Ln(3)

	// Advice.
	heading(t.T("advice", nil))
	table(pdf, []float64{40, 30, 30, 30, 50}, []string{t.T("region", nil), t.T("action", nil), t.T("depth", nil), t.T("by", nil), t.T("rainPeriod", nil)},
		func(row func([]string, []*[3]int)) {
			for _, rg := range r.Regions {
				by := t.T("noData", nil)
				if rg.Advice.By != nil {
					by = t.date(*rg.Advice.By)
				}
				row([]string{rg.Name, t.T("action."+rg.Advice.Action, nil), t.num(rg.Advice.DepthMM), by, t.num(rg.Rain)}, nil)
			}
		})
	pdf.Ln(3)

	// Forecast.
	heading(t.T("forecast", nil))
	if r.Forecast == nil {
		pdf.CellFormat(width, 6, t.T("forecastNone", nil), "", 1, "L", false, 0, "")
	} else {
		table(pdf, []float64{60, 60, 60}, []string{t.T("date", nil), t.T("forecastRain", nil), t.T("et0", nil)}, func(row func([]string, []*[3]int)) {
			for _, d := range r.Forecast.Days {
				row([]string{t.date(d.Date), t.num(d.Rain), t.num(d.ET0)}, nil)
			}
		})
	}

	// Map of the devices coloured by grade.
	pdf.AddPage()
	heading(t.T("map", nil))
	drawMap(pdf, t, r, 15, pdf.GetY(), width, 75)
	pdf.SetY(pdf.GetY() + 79)

	// Charts of each band.
	heading(t.T("charts", nil))
	for i := range 3 {
		if pdf.GetY() > 232 {
			pdf.AddPage()
		}
		y := pdf.GetY()
		drawChart(pdf, t, r, i, 15, y, width, 49)
		pdf.SetY(y + 54)
	}

	// Every device.
	pdf.AddPage()
	heading(t.T("devices", nil))
	table(pdf, []float64{24, 26, 20, 18, 18, 18, 34, 22}, []string{t.T("sn", nil), t.T("device", nil), t.T("region", nil),
		"R " + t.band(0), "R " + t.band(1), "R " + t.band(2), t.T("grade", nil), t.T("issue", nil)}, func(row func([]string, []*[3]int)) {
		for _, d := range r.Devices {
			issue := ""
			if d.Issue != "" {
				issue = t.T("issue."+d.Issue, nil)
			}
			// A device left out shows its figures for checking, but no grade.
			var c *[3]int
			grade := t.grade("")
			if d.Issue == "" {
				g := d.Grade
				grade = t.grade(g)
				if d.Bands[r.Reference-1].Waterlogged {
					g, grade = "waterlogged", t.T("waterlogged", nil)
				}
				cc := gradeColors[g]
				c = &cc
			}
			row([]string{d.SN, d.Name, d.Region, t.num(d.Bands[0].Relative), t.num(d.Bands[1].Relative), t.num(d.Bands[2].Relative),
				grade, issue}, []*[3]int{nil, nil, nil, nil, nil, nil, c, nil})
		}
	})
	var excluded []string
	for _, d := range r.Devices {
		if d.Issue != "" {
			name := d.Name
			if name == "" {
				name = fmt.Sprintf("#%d", d.ID)
			}
			if r.Lang == i18n.EnUS {
				excluded = append(excluded, name+" ("+t.T("issue."+d.Issue, nil)+")")
			} else {
				excluded = append(excluded, name+"（"+t.T("issue."+d.Issue, nil)+"）")
			}
		}
	}
	if len(excluded) > 0 {
		pdf.Ln(3)
		sep := "、"
		if r.Lang == i18n.EnUS {
			sep = ", "
		}
		pdf.MultiCell(width, 5, t.T("excluded", nil)+" "+strings.Join(excluded, sep), "", "L", false)
	}
	if len(r.Weather) > 0 {
		pdf.Ln(3)
		heading(t.T("rain", nil))
		table(pdf, []float64{40, 60, 40, 40}, []string{t.T("sn", nil), t.T("weather", nil), t.T("rainPeriod", nil), t.T("issue", nil)},
			func(row func([]string, []*[3]int)) {
				for _, w := range r.Weather {
					issue := ""
					if w.Issue != "" {
						issue = t.T("issue."+w.Issue, nil)
					}
					row([]string{w.SN, w.Name, t.num(w.Rain), issue}, nil)
				}
			})
	}
	pdf.Ln(4)
	pdf.SetFont("cjk", "", 8)
	pdf.SetTextColor(110, 110, 110)
	pdf.MultiCell(width, 4.5, t.T("standard", nil), "", "L", false)

	// Footers: the unit's name and the page number on every page.
	total := pdf.PageCount()
	for n := 1; n <= total; n++ {
		pdf.SetPage(n)
		pdf.SetAutoPageBreak(false, 0)
		pdf.SetFont("cjk", "", 8)
		pdf.SetTextColor(110, 110, 110)
		pdf.SetXY(15, 285)
		pdf.CellFormat(90, 5, r.UnitName, "", 0, "L", false, 0, "")
		pdf.CellFormat(90, 5, t.T("page", map[string]any{"n": n, "total": total}), "", 0, "R", false, 0, "")
	}
	if err := pdf.Error(); err != nil {
		return err
	}
	return pdf.Output(w)
}

// FontError is a report that could not be written for want of its font.
type FontError struct{ Err error }

func (e *FontError) Error() string { return "briefing font: " + e.Err.Error() }
func (e *FontError) Unwrap() error { return e.Err }

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// table draws a header row and the rows add gives, repeating the header
// on a new page; a row's colours (when not nil) mark a cell with a swatch.
func table(pdf *fpdf.Fpdf, widths []float64, header []string, add func(row func(cells []string, colors []*[3]int))) {
	const h = 6.0
	drawHeader := func() {
		pdf.SetFont("cjk", "", 8.5)
		pdf.SetFillColor(235, 239, 255)
		pdf.SetDrawColor(200, 205, 220)
		for i, s := range header {
			pdf.CellFormat(widths[i], h+1, fit(pdf, s, widths[i]), "1", 0, "C", true, 0, "")
		}
		pdf.Ln(-1)
	}
	drawHeader()
	pdf.SetFont("cjk", "", 8.5)
	add(func(cells []string, colors []*[3]int) {
		if pdf.GetY()+h > 279 {
			pdf.AddPage()
			drawHeader()
			pdf.SetFont("cjk", "", 8.5)
		}
		for i, s := range cells {
			x, y := pdf.GetX(), pdf.GetY()
			align := "C"
			if i == 0 {
				align = "L"
			}
			if i < len(colors) && colors[i] != nil {
				// A swatch, then the text beside it.
				c := colors[i]
				pdf.CellFormat(widths[i], h, "", "1", 0, "", false, 0, "")
				pdf.SetFillColor(c[0], c[1], c[2])
				pdf.Rect(x+1.5, y+1.8, 2.4, 2.4, "F")
				pdf.SetXY(x+4.5, y)
				pdf.CellFormat(widths[i]-4.5, h, fit(pdf, s, widths[i]-4.5), "", 0, "L", false, 0, "")
				pdf.SetXY(x+widths[i], y)
				continue
			}
			pdf.CellFormat(widths[i], h, fit(pdf, s, widths[i]), "1", 0, align, false, 0, "")
		}
		pdf.Ln(-1)
	})
}

// fit shortens s to the width of a cell.
func fit(pdf *fpdf.Fpdf, s string, w float64) string {
	if pdf.GetStringWidth(s) <= w-2 {
		return s
	}
	rs := []rune(s)
	for len(rs) > 1 && pdf.GetStringWidth(string(rs)+"…") > w-2 {
		rs = rs[:len(rs)-1]
	}
	return string(rs) + "…"
}

// drawMap draws the devices at their positions in a box, coloured by the
// reference band's grade (grey: left out), with a legend.
func drawMap(pdf *fpdf.Fpdf, t text, r *Report, x, y, w, h float64) {
	pdf.SetDrawColor(200, 205, 220)
	pdf.SetFillColor(247, 249, 255)
	pdf.Rect(x, y, w, h, "FD")
	minLat, maxLat, minLng, maxLng := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, d := range r.Devices {
		if d.Lat == nil || d.Lng == nil {
			continue
		}
		minLat, maxLat = math.Min(minLat, *d.Lat), math.Max(maxLat, *d.Lat)
		minLng, maxLng = math.Min(minLng, *d.Lng), math.Max(maxLng, *d.Lng)
	}
	legendH := 8.0
	plotH := h - legendH
	if !math.IsInf(minLat, 1) {
		// Equal scale in both directions, at the latitude of the box.
		kx := math.Cos((minLat + maxLat) / 2 * math.Pi / 180)
		spanX, spanY := math.Max((maxLng-minLng)*kx, 1e-4), math.Max(maxLat-minLat, 1e-4)
		scale := math.Min((w-24)/spanX, (plotH-16)/spanY)
		cx, cy := x+w/2, y+plotH/2
		midLng, midLat := (minLng+maxLng)/2, (minLat+maxLat)/2
		pdf.SetFont("cjk", "", 6.5)
		for _, d := range r.Devices {
			if d.Lat == nil || d.Lng == nil {
				continue
			}
			px := cx + (*d.Lng-midLng)*kx*scale
			py := cy - (*d.Lat-midLat)*scale
			g := d.Grade
			if d.Issue != "" {
				g = ""
			} else if d.Bands[r.Reference-1].Waterlogged {
				g = "waterlogged"
			}
			c := gradeColors[g]
			pdf.SetFillColor(c[0], c[1], c[2])
			pdf.SetDrawColor(255, 255, 255)
			pdf.Circle(px, py, 1.8, "FD")
			pdf.SetTextColor(60, 60, 60)
			pdf.Text(px+2.4, py+1, d.Name)
		}
	}
	// Legend.
	pdf.SetFont("cjk", "", 7.5)
	lx, ly := x+3, y+h-4
	for _, g := range []string{"none", "light", "moderate", "severe", "extreme", "waterlogged", ""} {
		c := gradeColors[g]
		pdf.SetFillColor(c[0], c[1], c[2])
		pdf.Rect(lx, ly-2.2, 3, 3, "F")
		label := t.grade(g)
		switch g {
		case "waterlogged":
			label = t.T("waterlogged", nil)
		case "":
			label = t.T("issue.noData", nil)
		}
		pdf.SetTextColor(60, 60, 60)
		pdf.Text(lx+4, ly, label)
		lx += 6 + pdf.GetStringWidth(label) + 3
	}
	pdf.SetTextColor(0, 0, 0)
}

// drawChart draws each region's daily relative moisture of band i over the
// period, with the stage-adjusted drought thresholds and the waterlogging
// line.
func drawChart(pdf *fpdf.Fpdf, t text, r *Report, band int, x, y, w, h float64) {
	pdf.SetFont("cjk", "", 8.5)
	pdf.SetTextColor(0, 0, 0)
	pdf.Text(x, y+3, t.band(band)+" · "+t.T("daily", nil))
	left, top := x+12, y+6
	pw, ph := w-12-38, h-14
	lo, hi := 0.0, 120.0
	yOf := func(v float64) float64 { return top + ph - (math.Max(lo, math.Min(hi, v))-lo)/(hi-lo)*ph }
	pdf.SetDrawColor(200, 205, 220)
	pdf.SetFillColor(255, 255, 255)
	pdf.Rect(left, top, pw, ph, "D")
	pdf.SetFont("cjk", "", 6.5)
	pdf.SetTextColor(110, 110, 110)
	for v := lo; v <= hi; v += 20 {
		pdf.SetDrawColor(235, 235, 235)
		pdf.Line(left, yOf(v), left+pw, yOf(v))
		pdf.Text(left-8, yOf(v)+1, fmt.Sprintf("%3.0f%%", v))
	}
	// Thresholds: where light drought begins (60 / a) and waterlogging (90).
	a := r.Coefficient
	if a == 0 {
		a = 1
	}
	pdf.SetLineWidth(0.3)
	pdf.SetDashPattern([]float64{1.2, 1}, 0)
	c := gradeColors["light"]
	pdf.SetDrawColor(c[0], c[1], c[2])
	pdf.Line(left, yOf(60/a), left+pw, yOf(60/a))
	c = gradeColors["severe"]
	pdf.SetDrawColor(c[0], c[1], c[2])
	pdf.Line(left, yOf(40/a), left+pw, yOf(40/a))
	c = gradeColors["waterlogged"]
	pdf.SetDrawColor(c[0], c[1], c[2])
	pdf.Line(left, yOf(agro.WaterloggedRelative), left+pw, yOf(agro.WaterloggedRelative))
	pdf.SetDashPattern(nil, 0)
	pdf.SetFont("cjk", "", 6.5)
	pdf.SetTextColor(110, 110, 110)
	n := len(r.Days)
	xOf := func(i int) float64 {
		if n <= 1 {
			return left + pw/2
		}
		return left + 3 + float64(i)/float64(n-1)*(pw-6)
	}
	for i, d := range r.Days {
		if n > 10 && i%2 == 1 {
			continue
		}
		pdf.Text(xOf(i)-4, top+ph+4, d.In(t.loc).Format("01-02"))
	}
	pdf.SetLineWidth(0.5)
	for k, rg := range r.Regions {
		c := seriesColors[k%len(seriesColors)]
		pdf.SetDrawColor(c[0], c[1], c[2])
		pdf.SetFillColor(c[0], c[1], c[2])
		var px, py float64
		have := false
		for i, v := range rg.Bands[band].Daily {
			if v == nil {
				have = false
				continue
			}
			cx, cy := xOf(i), yOf(*v)
			if have {
				pdf.Line(px, py, cx, cy)
			}
			pdf.Circle(cx, cy, 0.6, "F")
			px, py, have = cx, cy, true
		}
		if k < 8 {
			ly := top + 2 + float64(k)*4
			pdf.Rect(left+pw+3, ly-1.5, 3, 1.6, "F")
			pdf.SetTextColor(60, 60, 60)
			pdf.Text(left+pw+7.5, ly, fit(pdf, rg.Name, 30))
		}
	}
	// The threshold lines' legend, below the regions'.
	pdf.SetLineWidth(0.3)
	pdf.SetFont("cjk", "", 6)
	for k, l := range []struct {
		label string
		c     string
	}{{t.T("lineWet", nil), "waterlogged"}, {t.T("lineLight", map[string]any{"v": fmt.Sprintf("%.0f", 60/a)}), "light"},
		{t.T("lineSevere", map[string]any{"v": fmt.Sprintf("%.0f", 40/a)}), "severe"}} {
		ly := top + ph - 10 + float64(k)*4
		c := gradeColors[l.c]
		pdf.SetDrawColor(c[0], c[1], c[2])
		pdf.SetDashPattern([]float64{1.2, 1}, 0)
		pdf.Line(left+pw+3, ly-0.8, left+pw+6.5, ly-0.8)
		pdf.SetDashPattern(nil, 0)
		pdf.SetTextColor(60, 60, 60)
		pdf.Text(left+pw+7.5, ly, fit(pdf, l.label, 30))
	}
	pdf.SetLineWidth(0.2)
	pdf.SetTextColor(0, 0, 0)
}

// WriteXLSX writes the report's tables as a workbook, one sheet per table,
// in the report's language.
func WriteXLSX(w io.Writer, r *Report, loc *time.Location) error {
	t := text{lang: r.Lang, loc: loc}
	f := excelize.NewFile()
	defer f.Close()
	bold, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Color: []string{"EBEFFF"}, Pattern: 1}})
	sheets := []struct {
		name   string
		header []string
		rows   [][]any
	}{}
	add := func(name string, header []string, rows [][]any) {
		sheets = append(sheets, struct {
			name   string
			header []string
			rows   [][]any
		}{name, header, rows})
	}
	num := func(v *float64) any {
		if v == nil {
			return ""
		}
		return *v
	}

	var regionRows [][]any
	for _, rg := range r.Regions {
		for i, b := range rg.Bands {
			wl := ""
			if b.Waterlogged {
				wl = t.T("yes", nil)
			}
			regionRows = append(regionRows, []any{rg.Name, t.band(i), num(b.Theta), num(b.Relative), num(b.Index), num(b.PrevRelative),
				num(b.Change), t.grade(b.Grade), wl, b.Devices})
		}
	}
	add(t.T("regions", nil), []string{t.T("region", nil), t.T("band", nil), t.T("theta", nil), t.T("relative", nil), t.T("index", nil),
		t.T("prev", nil), t.T("change", nil), t.T("grade", nil), t.T("waterlogged", nil), t.T("devicesUsed", nil)}, regionRows)

	var adviceRows [][]any
	for _, rg := range r.Regions {
		by := ""
		if rg.Advice.By != nil {
			by = t.date(*rg.Advice.By)
		}
		adviceRows = append(adviceRows, []any{rg.Name, t.T("action."+rg.Advice.Action, nil), num(rg.Advice.DepthMM), by, num(rg.Rain), t.adviceText(r, rg)})
	}
	add(t.T("advice", nil), []string{t.T("region", nil), t.T("action", nil), t.T("depth", nil), t.T("by", nil), t.T("rainPeriod", nil), t.T("advice", nil)}, adviceRows)

	var devRows [][]any
	for _, d := range r.Devices {
		issue := ""
		if d.Issue != "" {
			issue = t.T("issue."+d.Issue, nil)
		}
		row := []any{d.SN, d.Name, d.Region}
		for _, b := range d.Bands {
			row = append(row, num(b.Theta), num(b.Relative))
		}
		row = append(row, t.grade(d.Grade), d.Coverage, issue)
		devRows = append(devRows, row)
	}
	devHeader := []string{t.T("sn", nil), t.T("device", nil), t.T("region", nil)}
	for i := range 3 {
		devHeader = append(devHeader, "θ "+t.band(i), "R "+t.band(i))
	}
	add(t.T("devices", nil), append(devHeader, t.T("grade", nil), t.T("coverage", nil), t.T("issue", nil)), devRows)

	var dailyRows [][]any
	for di, d := range r.Days {
		row := []any{t.date(d)}
		for _, rg := range r.Regions {
			for i := range 3 {
				row = append(row, num(rg.Bands[i].Daily[di]))
			}
		}
		dailyRows = append(dailyRows, row)
	}
	dailyHeader := []string{t.T("date", nil)}
	for _, rg := range r.Regions {
		for i := range 3 {
			dailyHeader = append(dailyHeader, rg.Name+" "+t.band(i))
		}
	}
	add(t.T("daily", nil), dailyHeader, dailyRows)

	var rainRows [][]any
	for _, w := range r.Weather {
		issue := ""
		if w.Issue != "" {
			issue = t.T("issue."+w.Issue, nil)
		}
		rainRows = append(rainRows, []any{w.SN, w.Name, num(w.Rain), issue})
	}
	add(t.T("rain", nil), []string{t.T("sn", nil), t.T("weather", nil), t.T("rainPeriod", nil), t.T("issue", nil)}, rainRows)

	var fcRows [][]any
	if r.Forecast != nil {
		for _, d := range r.Forecast.Days {
			fcRows = append(fcRows, []any{t.date(d.Date), num(d.Rain), num(d.ET0)})
		}
	}
	add(t.T("forecast", nil), []string{t.T("date", nil), t.T("forecastRain", nil), t.T("et0", nil)}, fcRows)

	for i, s := range sheets {
		name := sheetName(s.name)
		if i == 0 {
			if err := f.SetSheetName("Sheet1", name); err != nil {
				return err
			}
		} else if _, err := f.NewSheet(name); err != nil {
			return err
		}
		for c, h := range s.header {
			cell, _ := excelize.CoordinatesToCellName(c+1, 1)
			if err := f.SetCellValue(name, cell, h); err != nil {
				return err
			}
			col, _ := excelize.ColumnNumberToName(c + 1)
			_ = f.SetColWidth(name, col, col, math.Max(10, math.Min(40, float64(len([]rune(h)))*1.8)))
		}
		last, _ := excelize.CoordinatesToCellName(len(s.header), 1)
		_ = f.SetCellStyle(name, "A1", last, bold)
		for ri, row := range s.rows {
			for c, v := range row {
				cell, _ := excelize.CoordinatesToCellName(c+1, ri+2)
				if err := f.SetCellValue(name, cell, v); err != nil {
					return err
				}
			}
		}
		_ = f.SetPanes(name, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"})
	}
	f.SetActiveSheet(0)
	return f.Write(w)
}

// sheetName is a valid sheet name: at most 31 characters, none of []:*?/\.
func sheetName(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`[]:*?/\`, r) {
			return ' '
		}
		return r
	}, s)
	if rs := []rune(s); len(rs) > 31 {
		s = string(rs[:31])
	}
	return s
}
