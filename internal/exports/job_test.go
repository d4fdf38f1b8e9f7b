package exports

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
	"github.com/fieldwatch/fieldwatch/internal/sheet"
)

func TestValidEmail(t *testing.T) {
	for _, ok := range []string{"a@b.c", "farmer.01+data@example.com", "x@mail.farm.example.cn"} {
		if !ValidEmail(ok) {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", "farmer", "@example.com", "farmer@", "farmer@localhost", "farmer@example..com",
		"farmer@.example.com", "Farmer <farmer@example.com>", "farmer @example.com", "a@b.c,d@e.f",
		"farmer@example.com\n", strings.Repeat("a", 250) + "@b.cn"} {
		if ValidEmail(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRequest_Job(t *testing.T) {
	soil, _ := devices.TypeByID(2)
	loc, _ := time.LoadLocation("Asia/Shanghai")
	begin := time.Date(2025, 3, 1, 0, 0, 0, 0, loc)
	end := begin.AddDate(1, 0, 0)
	ok := func() Request {
		return Request{Params: []string{"battery", "soilMoisture", "battery"}, Nodes: []int{30, 10, 30},
			Email: " farmer@example.com ", Begin: &begin, End: &end, Lang: i18n.EnUS}
	}
	r := ok()
	j, err := r.job(soil, loc, true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(j.Params, []string{"soilMoisture", "battery"}) || !slices.Equal(j.Nodes, []int{10, 30}) ||
		j.Email != "farmer@example.com" || j.Dim != DimRaw || j.Format != sheet.XLSX || j.Lang != i18n.EnUS {
		t.Fatalf("job: %+v", j)
	}
	after := end.Add(time.Millisecond)
	for name, c := range map[string]struct {
		edit        func(*Request)
		field, code string
	}{
		"NoParams":       {func(r *Request) { r.Params = nil }, "params", "export.params.required"},
		"UnknownParam":   {func(r *Request) { r.Params = []string{"windSpeed"} }, "params", "query.unknownParam"},
		"UnknownNode":    {func(r *Request) { r.Nodes = []int{15} }, "nodes", "query.unknownNode"},
		"Dim":            {func(r *Request) { r.Dim = "hourly" }, "dim", "query.unknownValue"},
		"Format":         {func(r *Request) { r.Format = "pdf" }, "format", "query.unknownValue"},
		"NoBegin":        {func(r *Request) { r.Begin = nil }, "begin", "error.required"},
		"NoEnd":          {func(r *Request) { r.End = nil }, "end", "error.required"},
		"EndBeforeBegin": {func(r *Request) { r.End = &begin }, "end", "query.endBeforeBegin"},
		"OverAYear":      {func(r *Request) { r.End = &after }, "begin", "export.range.tooLong"},
		"NoEmail":        {func(r *Request) { r.Email = "  " }, "email", "export.email.required"},
		"BadEmail":       {func(r *Request) { r.Email = "farmer@" }, "email", "export.email.invalid"},
	} {
		r := ok()
		c.edit(&r)
		_, err := r.job(soil, loc, true)
		if e := errs.As(err); e == nil || e.Kind != errs.EInvalid || e.Field != c.field || e.Code != c.code {
			t.Errorf("%s: got %v, want %s on %s", name, err, c.code, c.field)
		}
	}
	r = ok()
	r.Dim, r.Format = "daily", "csv"
	if j, err := r.job(soil, loc, true); err != nil || j.Dim != DimDaily || j.Format != sheet.CSV {
		t.Fatalf("daily CSV: %+v %v", j, err)
	}
	// Without a mail server the file is kept for download: no address is
	// asked for, and one given cannot be honoured.
	r = ok()
	r.Email = ""
	if j, err := r.job(soil, loc, false); err != nil || j.Email != "" {
		t.Fatalf("without mail: %+v %v", j, err)
	}
	r = ok()
	if _, err := r.job(soil, loc, false); errs.KindOf(err) != errs.EUnavailable {
		t.Fatalf("an address without mail: %v", err)
	}
}

func TestColumns(t *testing.T) {
	soil, _ := devices.TypeByID(2)
	j := &Job{Params: []string{"soilMoisture", "battery"}, Nodes: []int{20}, Dim: DimRaw}
	var got []string
	for _, c := range columns(soil, j) {
		got = append(got, sheet.DataHeader(c.param, c.node, c.agg, i18n.EnUS))
	}
	if want := []string{"Soil moisture 20 cm (%)", "Battery voltage (V)"}; !slices.Equal(got, want) {
		t.Fatalf("raw: %q", got)
	}
	j.Nodes, j.Dim, got = nil, DimDaily, nil
	for _, c := range columns(soil, j) {
		got = append(got, sheet.DataHeader(c.param, c.node, c.agg, i18n.EnUS))
	}
	// Six depths times average, minimum and maximum, then the battery's minimum and last.
	if len(got) != 6*3+2 || got[0] != "Soil moisture 10 cm average (%)" || got[17] != "Soil moisture 60 cm maximum (%)" ||
		got[18] != "Battery voltage minimum (V)" || got[19] != "Battery voltage last (V)" {
		t.Fatalf("daily: %q", got)
	}
}
