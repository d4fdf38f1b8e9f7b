package cli

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func calcOK(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	code, out, errOut := runCmd(t, stdin, append([]string{"calc"}, args...)...)
	if code != 0 {
		t.Fatalf("calc %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// FAO-56 Examples 17, 18 and 19 through the command line.
func TestCalc_FAO56Examples(t *testing.T) {
	t.Run("Ex17_BangkokApril", func(t *testing.T) {
		out := calcOK(t, "", "et0", "--tmax", "34.8", "--tmin", "25.6", "--ea", "2.85", "--wind", "2",
			"--sunshine", "8.5", "--lat", "13.7333", "--alt", "2", "--doy", "105", "--g", "0.14")
		if got := firstLine(out); got != "5.72 mm/day" {
			t.Errorf("first line %q, want 5.72 mm/day", got)
		}
	})
	t.Run("Ex18_Brussels6July", func(t *testing.T) {
		args := []string{"et0", "--tmax", "21.5", "--tmin", "12.3", "--rhmax", "84", "--rhmin", "63",
			"--wind", "2.778", "--wind-height", "10", "--sunshine", "9.25", "--lat", "50.8", "--alt", "100", "--doy", "187"}
		if got := firstLine(calcOK(t, "", args...)); got != "3.88 mm/day" {
			t.Errorf("first line %q, want 3.88 mm/day (FAO-56: 3.9)", got)
		}
		var r map[string]float64
		if err := json.Unmarshal([]byte(calcOK(t, "", append(args, "--json")...)), &r); err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]float64{
			"et0": 3.88, "ra": 41.09, "rs": 22.07, "rso": 30.90, "rns": 17.00, "rnl": 3.71, "rn": 13.28,
			"es": 1.997, "ea": 1.409, "u2": 2.078, "pressure": 100.1, "gamma": 0.0666, "delta": 0.122,
		} {
			if math.Abs(r[name]-want) > 0.006*math.Max(1, want/10) {
				t.Errorf("%s = %g, want %g", name, r[name], want)
			}
		}
	})
	t.Run("Ex19_NDiayeHourly", func(t *testing.T) {
		site := []string{"--lat", "16.2167", "--lon", "-16.25", "--tz", "-1", "--alt", "8", "--doy", "274"}
		day := append([]string{"et0-hourly", "--t", "38", "--rh", "52", "--wind", "3.3", "--rs", "2.45", "--hour", "14.5"}, site...)
		if got := firstLine(calcOK(t, "", day...)); got != "0.63 mm/hour" {
			t.Errorf("14:00-15:00: %q, want 0.63 mm/hour", got)
		}
		var r map[string]any
		if err := json.Unmarshal([]byte(calcOK(t, "", append(day, "--json")...)), &r); err != nil {
			t.Fatal(err)
		}
		if ra := r["ra"].(float64); math.Abs(ra-3.543) > 0.0015 {
			t.Errorf("Ra %g, want 3.543", ra)
		}
		night := append([]string{"et0-hourly", "--t", "28", "--rh", "90", "--wind", "1.9", "--rs", "0", "--hour", "2.5"}, site...)
		if got := firstLine(calcOK(t, "", night...)); got != "0.00 mm/hour" {
			t.Errorf("02:00-03:00: %q, want 0.00 mm/hour", got)
		}
	})
}

// The standard 49-day FWI table through stdin: every printed value is
// the table's, or (twice) one unit of its last digit away where the
// unrounded value sits on the rounding boundary.
func TestCalc_FWIStandardTable(t *testing.T) {
	f, err := os.Open("../../internal/agro/testdata/fwi_vanwagner_pickett_1985.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	in.WriteString("month,temp,rh,wind,rain\n")
	for _, r := range rows[1:] {
		in.WriteString(strings.Join([]string{r[0], r[2], r[3], r[4], r[5]}, ",") + "\n")
	}
	out := strings.Split(strings.TrimSpace(calcOK(t, in.String(), "fwi", "--ffmc", "85", "--dmc", "6", "--dc", "15")), "\n")
	if out[0] != "ffmc,dmc,dc,isi,bui,fwi" || len(out) != 50 {
		t.Fatalf("%d lines, header %q", len(out), out[0])
	}
	off := 0
	for i, line := range out[1:] {
		got := strings.Split(line, ",")
		for j, want := range rows[i+1][6:] {
			g, _ := strconv.ParseFloat(got[j], 64)
			w, _ := strconv.ParseFloat(want, 64)
			if d := math.Abs(g - w); d > 0.1+1e-9 {
				t.Errorf("row %d column %d: %s, table %s", i+1, j, got[j], want)
			} else if d > 1e-9 {
				off++
			}
		}
	}
	if off > 2 {
		t.Errorf("%d values off by one unit, want at most 2", off)
	}

	var days []map[string]any
	if err := json.Unmarshal([]byte(calcOK(t, "month,temp,rh,wind,rain\n5,28,17,27,0\n", "fwi", "--json",
		"--ffmc", "91.7", "--dmc", "48.1", "--dc", "94.7")), &days); err != nil {
		t.Fatal(err)
	}
	if len(days) != 1 || days[0]["levelName"] != "extreme" || math.Abs(days[0]["fwi"].(float64)-52.6) > 0.1 {
		t.Errorf("7 May: %v", days)
	}
}

func TestCalc_SmallCalculators(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"coord", "--from", "wgs84", "--to", "gcj02", "--lng", "116.391275", "--lat", "39.906217"}, "116.39751600,39.90761821"},
		{[]string{"coord", "--from", "gcj02", "--to", "bd09", "--lng", "116.404", "--lat", "39.915"}, "116.41036949,39.92133699"},
		{[]string{"coord", "--from", "bd09", "--to", "gcj02", "--lng", "116.41036949", "--lat", "39.92133699"}, "116.40400000,39.91500000"},
		{[]string{"coord", "--from", "wgs84", "--to", "gcj02", "--lng", "2.35", "--lat", "48.85"}, "2.35000000,48.85000000"},
		{[]string{"wind", "--speed", "6.2", "--dir", "50"}, "4 NE"},
		{[]string{"wind", "--speed", "0.2"}, "0"},
		{[]string{"wind", "--speed", "56.1", "--dir", "337.5"}, "17 N"},
		{[]string{"aqi", "--pm25", "80", "--pm10", "120"}, "3 light"},
		{[]string{"aqi", "--pm25", "10", "--pm10", "20", "--tvoc", "12000.5"}, "5 heavy"},
		{[]string{"rain", "--mm", "55", "--hours", "24"}, "storm"},
		{[]string{"rain", "--mm", "140", "--hours", "12"}, "severe storm"},
		{[]string{"rain", "--mm", "2.5", "--hours", "1"}, "light"},
	} {
		if got := firstLine(calcOK(t, "", tc.args...)); got != tc.want {
			t.Errorf("calc %s: %q, want %q", strings.Join(tc.args, " "), got, tc.want)
		}
	}
}

// Bad input exits 2 with a message naming the flag.
func TestCalc_BadInput(t *testing.T) {
	et0 := []string{"et0", "--tmax", "30", "--tmin", "20", "--wind", "2", "--lat", "36", "--alt", "50", "--doy", "150"}
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{}, "Usage: fieldwatch calc"},
		{"", []string{"frobnicate"}, `unknown calculation "frobnicate"`},
		{"", append(et0[:3:3], "--sunshine", "5"), "--tmin is required"},
		{"", append(et0, "--sunshine", "5"), "give one of --rhmax --rhmin | --rhmean | --ea"},
		{"", append(et0, "--rhmax", "80", "--sunshine", "5"), "--rhmin is required"},
		{"", append(et0, "--rhmean", "50", "--ea", "2", "--sunshine", "5"), "give only one of"},
		{"", append(et0, "--rhmean", "50"), "give one of --sunshine | --rs"},
		{"", append(et0, "--rhmean", "150", "--sunshine", "5"), "--rhmean: 150 % is not a relative humidity"},
		{"", append(et0, "--rhmean", "50", "--sunshine", "15"), "--sunshine: 15 h is longer than the day's"},
		{"", append(et0, "--rhmean", "50", "--rs", "abc"), `invalid value "abc" for flag -rs`},
		{"", []string{"et0-hourly", "--t", "20", "--rh", "50", "--wind", "2", "--rs", "1", "--lat", "36", "--lon", "116",
			"--tz", "8", "--alt", "50", "--doy", "150", "--hour", "25"}, "--hour: 25 is not a clock time"},
		{"", []string{"coord", "--from", "wgs84", "--to", "mars", "--lng", "116", "--lat", "39"}, `--to: "mars" is not`},
		{"", []string{"coord", "--from", "wgs84", "--to", "gcj02", "--lng", "190", "--lat", "39"}, "--lng: 190 is not a longitude"},
		{"", []string{"wind", "--dir", "90"}, "--speed is required"},
		{"", []string{"rain", "--mm", "5", "--hours", "3"}, "--hours: 3: rain is classed over 1, 12 or 24 hours"},
		{"", []string{"aqi", "--pm25", "-5", "--pm10", "10"}, "--pm25: -5"},
		{"", []string{"fwi", "--ffmc", "120"}, "--ffmc: 120 is not an FFMC"},
		{"", []string{"fwi"}, "no CSV header"},
		{"temp,rh,wind,rain\n", []string{"fwi"}, `no "month" column`},
		{"month,temp,rh,wind,rain\n4,17,42,25,0\n13,17,42,25,0\n", []string{"fwi"}, "line 3: month: 13 is not a month"},
		{"month,temp,rh,wind,rain\n4,17,forty,25,0\n", []string{"fwi"}, `line 2: rh "forty" is not a number`},
		{"", []string{"wind", "--speed", "3", "extra"}, "unexpected arguments: extra"},
	} {
		code, _, errOut := runCmd(t, tc.stdin, append([]string{"calc"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("calc %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
	}
}

func TestCalc_Help(t *testing.T) {
	code, out, _ := runCmd(t, "", "--help")
	if code != 0 || !strings.Contains(out, "  calc ") {
		t.Errorf("top-level help lacks calc: %d", code)
	}
	code, out, _ = runCmd(t, "", "calc", "--help")
	if code != 0 || !strings.Contains(out, "et0-hourly") {
		t.Errorf("calc --help: %d %q", code, out)
	}
	code, _, errOut := runCmd(t, "", "calc", "et0", "--help")
	if code != 0 || !strings.Contains(errOut, "-wind-height") || strings.Contains(errOut, "FIELDWATCH_") {
		t.Errorf("calc et0 --help: %d %q", code, errOut)
	}
}

func TestCalc_Drought(t *testing.T) {
	out := calcOK(t, "", "drought", "--theta", "0.18", "--fc", "0.32")
	if got := firstLine(out); got != "56.3 % light" {
		t.Errorf("first line %q, want 56.3 %% light", got)
	}
	for _, want := range []string{"zh_CN: 土壤相对湿度 56.3 %, 轻旱", "zh_TW: 土壤相對濕度 56.3 %, 輕旱", "en_US: Relative soil moisture 56.3 %, Light drought"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The stage moves the grade: a = 1.1 lifts 56.25 to 61.9 (no drought);
	// 16/32 = 50 % in the critical period is 45 (moderate).
	if got := firstLine(calcOK(t, "", "drought", "--theta", "0.18", "--fc", "0.32", "--stage", "seedling")); got != "56.3 % none" {
		t.Errorf("seedling: %q, want 56.3 %% none", got)
	}
	var j struct {
		Index       float64
		Grade       string
		GradeNames  map[string]string
		Waterlogged bool
	}
	if err := json.Unmarshal([]byte(calcOK(t, "", "drought", "--theta", "16", "--fc", "32", "--stage", "critical", "--json")), &j); err != nil {
		t.Fatal(err)
	}
	if j.Grade != "moderate" || math.Abs(j.Index-45) > 1e-9 || j.GradeNames["zh_CN"] != "中旱" || j.Waterlogged {
		t.Errorf("critical 16/32: %+v", j)
	}
	if out := calcOK(t, "", "drought", "--theta", "30", "--fc", "32"); !strings.Contains(out, "Waterlogged") || !strings.Contains(out, "过湿") {
		t.Errorf("R 93.75 not flagged waterlogged:\n%s", out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--theta", "0.18"}, "--fc is required"},
		{[]string{"--theta", "0.18", "--fc", "0"}, "--fc:"},
		{[]string{"--theta", "-0.1", "--fc", "0.3"}, "--theta:"},
		{[]string{"--theta", "0.18", "--fc", "0.3", "--stage", "flowering"}, "--stage:"},
	} {
		code, _, errOut := runCmd(t, "", append([]string{"calc", "drought"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
