package cli

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fieldwatch/fieldwatch/internal/agro"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

const calcUse = `Usage: fieldwatch calc <calculation> [flags]

Calculations (docs/agronomy.md has the formulas and their sources):
  et0         daily FAO-56 Penman-Monteith reference evapotranspiration, mm/day
  et0-hourly  hourly FAO-56 reference evapotranspiration, mm/hour
  fwi         Canadian Fire Weather Index System over daily weather read as CSV on stdin
  coord       convert a point between WGS84, GCJ-02 and BD-09
  wind        wind level 0-17 and compass sector
  aqi         air-quality grade 1-6 from PM2.5, PM10 and TVOC
  rain        rain class over 1, 12 or 24 hours
  drought     relative soil moisture and GB/T 32136-2015 drought grade

The result is on the first line of the output; --json prints every
intermediate as JSON instead. calc reads no FIELDWATCH_* variables.
Run "fieldwatch calc <calculation> --help" for its flags.
`

// calc is "fieldwatch calc": the agronomy calculators of internal/agro on
// the command line (docs/agronomy.md), with args the words after "calc" and
// the FWI weather read from stdin. The result goes to stdout, messages about
// bad input to stderr (then the error is errUsage).
func calc(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, calcUse)
		return errUsage
	}
	switch name, rest := args[0], args[1:]; name {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, calcUse)
		return nil
	case "et0":
		return calcET0(rest, stdout, stderr)
	case "et0-hourly":
		return calcET0Hourly(rest, stdout, stderr)
	case "fwi":
		return calcFWI(rest, stdin, stdout, stderr)
	case "coord":
		return calcCoord(rest, stdout, stderr)
	case "wind":
		return calcWind(rest, stdout, stderr)
	case "aqi":
		return calcAQI(rest, stdout, stderr)
	case "rain":
		return calcRain(rest, stdout, stderr)
	case "drought":
		return calcDrought(rest, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "fieldwatch calc: unknown calculation %q\n\n%s", name, calcUse)
		return errUsage
	}
}

// calcCmd is one calculation's flags. Unlike the server commands it reads
// no environment: a stray FIELDWATCH_LAT must not change a calculation.
type calcCmd struct {
	name   string
	fs     *flag.FlagSet
	stderr io.Writer
	json   bool
	set    map[string]bool
}

func newCalc(name, synopsis string, stderr io.Writer) *calcCmd {
	c := &calcCmd{name: name, fs: newFlags("calc "+name+" [flags]", synopsis, stderr), stderr: stderr}
	c.fs.BoolVar(&c.json, "json", false, "print every intermediate as JSON")
	return c
}

func (c *calcCmd) parse(args []string) error {
	if err := c.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage // the flag package named the flag and printed the usage
	}
	if c.fs.NArg() > 0 {
		return c.fail("unexpected arguments: %s", strings.Join(c.fs.Args(), " "))
	}
	c.set = map[string]bool{}
	c.fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
	return nil
}

func (c *calcCmd) has(name string) bool { return c.set[name] }

// fail reports bad input and exits 2.
func (c *calcCmd) fail(format string, args ...any) error {
	fmt.Fprintf(c.stderr, "fieldwatch calc %s: %s\n", c.name, fmt.Sprintf(format, args...))
	return errUsage
}

func (c *calcCmd) require(names ...string) error {
	for _, n := range names {
		if !c.has(n) {
			return c.fail("--%s is required (see --help)", n)
		}
	}
	return nil
}

// inputError names the flag an agro.InputError is about.
func (c *calcCmd) inputError(err error) error {
	var ie *agro.InputError
	if errors.As(err, &ie) {
		return c.fail("--%s: %s", ie.Field, ie.Reason)
	}
	return err
}

// oneOf checks exactly one of the alternatives is given and returns its
// index; each alternative is a set of flags that go together.
func (c *calcCmd) oneOf(alternatives ...[]string) (int, error) {
	names := make([]string, len(alternatives))
	for i, alt := range alternatives {
		names[i] = "--" + strings.Join(alt, " --")
	}
	chosen := -1
	for i, alt := range alternatives {
		given := 0
		for _, n := range alt {
			if c.has(n) {
				given++
			}
		}
		if given == 0 {
			continue
		}
		for _, n := range alt {
			if !c.has(n) {
				return 0, c.fail("--%s is required with %s", n, names[i])
			}
		}
		if chosen >= 0 {
			return 0, c.fail("give only one of %s", strings.Join(names, " | "))
		}
		chosen = i
	}
	if chosen < 0 {
		return 0, c.fail("give one of %s", strings.Join(names, " | "))
	}
	return chosen, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func calcET0(args []string, stdout, stderr io.Writer) error {
	c := newCalc("et0", "Daily reference evapotranspiration ET0 by FAO-56 Penman-Monteith (eq. 6), mm/day.\n"+
		"Humidity: --rhmax and --rhmin, or --rhmean, or --ea. Radiation: --sunshine or --rs.", stderr)
	var in agro.DailyInput
	var rhmax, rhmin, rhmean, ea, sunshine, rs float64
	c.fs.Float64Var(&in.Tmax, "tmax", 0, "maximum air temperature, °C (required)")
	c.fs.Float64Var(&in.Tmin, "tmin", 0, "minimum air temperature, °C (required)")
	c.fs.Float64Var(&rhmax, "rhmax", 0, "maximum relative humidity, %")
	c.fs.Float64Var(&rhmin, "rhmin", 0, "minimum relative humidity, %")
	c.fs.Float64Var(&rhmean, "rhmean", 0, "mean relative humidity, %")
	c.fs.Float64Var(&ea, "ea", 0, "actual vapour pressure, kPa")
	c.fs.Float64Var(&in.Wind, "wind", 0, "mean wind speed, m/s (required)")
	c.fs.Float64Var(&in.WindHeight, "wind-height", 2, "height of the wind measurement, m")
	c.fs.Float64Var(&sunshine, "sunshine", 0, "hours of bright sunshine n")
	c.fs.Float64Var(&rs, "rs", 0, "measured solar radiation Rs, MJ/m²/day")
	c.fs.Float64Var(&in.Lat, "lat", 0, "latitude, degrees, north positive (required)")
	c.fs.Float64Var(&in.Alt, "alt", 0, "altitude, m (required)")
	c.fs.IntVar(&in.DOY, "doy", 0, "day of the year, 1-366 (required)")
	c.fs.Float64Var(&in.G, "g", 0, "soil heat flux G, MJ/m²/day")
	if err := c.parse(args); err != nil {
		return err
	}
	if err := c.require("tmax", "tmin", "wind", "lat", "alt", "doy"); err != nil {
		return err
	}
	hum, err := c.oneOf([]string{"rhmax", "rhmin"}, []string{"rhmean"}, []string{"ea"})
	if err != nil {
		return err
	}
	in.Humidity = []agro.Humidity{agro.RHMaxMin(rhmax, rhmin), agro.RHMean(rhmean), agro.VapourPressure(ea)}[hum]
	rad, err := c.oneOf([]string{"sunshine"}, []string{"rs"})
	if err != nil {
		return err
	}
	in.Radiation = []agro.Radiation{agro.Sunshine(sunshine), agro.MeasuredRs(rs)}[rad]
	r, err := agro.ET0Daily(in)
	if err != nil {
		return c.inputError(err)
	}
	if c.json {
		return writeJSON(stdout, r)
	}
	fmt.Fprintf(stdout, "%.2f mm/day\n", r.ET0)
	fmt.Fprintf(stdout, "Tmean %.2f °C, P %.2f kPa, γ %.5f kPa/°C, Δ %.4f kPa/°C\n", r.Tmean, r.Pressure, r.Gamma, r.Delta)
	fmt.Fprintf(stdout, "es %.3f kPa, ea %.3f kPa, es-ea %.3f kPa, u2 %.3f m/s\n", r.Es, r.Ea, r.VPD, r.U2)
	fmt.Fprintf(stdout, "Ra %.2f, Rs %.2f, Rso %.2f, Rns %.2f, Rnl %.2f, Rn %.2f, G %.2f MJ/m²/day; N %.2f h\n",
		r.Ra, r.Rs, r.Rso, r.Rns, r.Rnl, r.Rn, r.G, r.N)
	return nil
}

func calcET0Hourly(args []string, stdout, stderr io.Writer) error {
	c := newCalc("et0-hourly", "Hourly reference evapotranspiration ET0 by FAO-56 Penman-Monteith (eq. 53), mm/hour.\n"+
		"Humidity: --rh or --ea. --hour is the standard clock time at the middle of the hour (14.5 for 14:00-15:00).", stderr)
	var in agro.HourlyInput
	var rh, ea float64
	c.fs.Float64Var(&in.T, "t", 0, "mean air temperature of the hour, °C (required)")
	c.fs.Float64Var(&rh, "rh", 0, "relative humidity of the hour, %")
	c.fs.Float64Var(&ea, "ea", 0, "actual vapour pressure, kPa")
	c.fs.Float64Var(&in.Wind, "wind", 0, "mean wind speed, m/s (required)")
	c.fs.Float64Var(&in.WindHeight, "wind-height", 2, "height of the wind measurement, m")
	c.fs.Float64Var(&in.Rs, "rs", 0, "measured solar radiation Rs, MJ/m²/hour (required)")
	c.fs.Float64Var(&in.Lat, "lat", 0, "latitude, degrees, north positive (required)")
	c.fs.Float64Var(&in.Lon, "lon", 0, "longitude, degrees east (required)")
	c.fs.Float64Var(&in.TZ, "tz", 0, "standard time zone, hours from UTC, e.g. 8 for China (required)")
	c.fs.Float64Var(&in.Alt, "alt", 0, "altitude, m (required)")
	c.fs.IntVar(&in.DOY, "doy", 0, "day of the year, 1-366 (required)")
	c.fs.Float64Var(&in.Hour, "hour", 0, "clock time at the middle of the hour, 0-24 (required)")
	if err := c.parse(args); err != nil {
		return err
	}
	if err := c.require("t", "wind", "rs", "lat", "lon", "tz", "alt", "doy", "hour"); err != nil {
		return err
	}
	hum, err := c.oneOf([]string{"rh"}, []string{"ea"})
	if err != nil {
		return err
	}
	in.Humidity = []agro.Humidity{agro.RHMean(rh), agro.VapourPressure(ea)}[hum]
	r, err := agro.ET0Hourly(in)
	if err != nil {
		return c.inputError(err)
	}
	if c.json {
		return writeJSON(stdout, r)
	}
	fmt.Fprintf(stdout, "%.2f mm/hour\n", r.ET0)
	fmt.Fprintf(stdout, "P %.2f kPa, γ %.5f kPa/°C, Δ %.4f kPa/°C, e°(T) %.3f kPa, ea %.3f kPa, u2 %.3f m/s\n",
		r.Pressure, r.Gamma, r.Delta, r.Es, r.Ea, r.U2)
	sun := "sun up"
	if !r.Daytime {
		sun = "sun down"
	}
	fmt.Fprintf(stdout, "ω %.4f rad (%s), Ra %.3f, Rso %.3f, Rs/Rso %.2f, Rns %.3f, Rnl %.3f, Rn %.3f, G %.3f MJ/m²/hour\n",
		r.HourAngle, sun, r.Ra, r.Rso, r.RsRso, r.Rns, r.Rnl, r.Rn, r.G)
	return nil
}

// fwiRow is one output row of calc fwi --json.
type fwiRow struct {
	agro.FWIDay
	Level     agro.FireLevel `json:"level"`
	LevelName string         `json:"levelName"`
}

func calcFWI(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c := newCalc("fwi", "Canadian Forest Fire Weather Index System (Van Wagner & Pickett 1985) over consecutive days.\n"+
		"Reads CSV on standard input with the header month,temp,rh,wind,rain (noon temperature °C,\n"+
		"RH %, wind km/h, 24-hour rain mm) and writes ffmc,dmc,dc,isi,bui,fwi for each row, one\n"+
		"decimal; the codes carry forward unrounded. --json adds the SPEC fire level of each day.", stderr)
	start := agro.FWIStartup
	c.fs.Float64Var(&start.FFMC, "ffmc", start.FFMC, "yesterday's Fine Fuel Moisture Code")
	c.fs.Float64Var(&start.DMC, "dmc", start.DMC, "yesterday's Duff Moisture Code")
	c.fs.Float64Var(&start.DC, "dc", start.DC, "yesterday's Drought Code")
	if err := c.parse(args); err != nil {
		return err
	}
	if err := start.Validate(); err != nil {
		return c.inputError(err)
	}
	r := csv.NewReader(stdin)
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err != nil {
		return c.fail("standard input: no CSV header (want month,temp,rh,wind,rain)")
	}
	cols := map[string]int{}
	for i, h := range header {
		cols[strings.ToLower(strings.TrimSpace(h))] = i
	}
	for _, want := range []string{"month", "temp", "rh", "wind", "rain"} {
		if _, ok := cols[want]; !ok {
			return c.fail("standard input: the header has no %q column (want month,temp,rh,wind,rain)", want)
		}
	}
	var days []agro.FireWeather
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return c.fail("standard input: %v", err)
		}
		field := func(name string) (float64, error) {
			v, err := strconv.ParseFloat(strings.TrimSpace(rec[cols[name]]), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, c.fail("standard input line %d: %s %q is not a number", line, name, rec[cols[name]])
			}
			return v, nil
		}
		var w agro.FireWeather
		var vals [5]float64
		for i, name := range []string{"month", "temp", "rh", "wind", "rain"} {
			if vals[i], err = field(name); err != nil {
				return err
			}
		}
		if vals[0] != math.Trunc(vals[0]) {
			return c.fail("standard input line %d: month %g is not a whole number", line, vals[0])
		}
		w.Month, w.Temp, w.RH, w.Wind, w.Rain = int(vals[0]), vals[1], vals[2], vals[3], vals[4]
		if err := w.Validate(); err != nil {
			var ie *agro.InputError
			errors.As(err, &ie)
			return c.fail("standard input line %d: %s: %s", line, ie.Field, ie.Reason)
		}
		days = append(days, w)
	}
	out, err := agro.FWISeries(start, days)
	if err != nil {
		return c.inputError(err)
	}
	if c.json {
		rows := make([]fwiRow, len(out))
		for i, d := range out {
			l := agro.FireLevelOf(d.FWI)
			rows[i] = fwiRow{FWIDay: d, Level: l, LevelName: l.String()}
		}
		return writeJSON(stdout, rows)
	}
	fmt.Fprintln(stdout, "ffmc,dmc,dc,isi,bui,fwi")
	for _, d := range out {
		fmt.Fprintf(stdout, "%.1f,%.1f,%.1f,%.1f,%.1f,%.1f\n", d.FFMC, d.DMC, d.DC, d.ISI, d.BUI, d.FWI)
	}
	return nil
}

func calcCoord(args []string, stdout, stderr io.Writer) error {
	c := newCalc("coord", "Converts a point between WGS84 (GPS), GCJ-02 (AMap, Tencent) and BD-09 (Baidu).\n"+
		"Outside China (SPEC.md §5's box) WGS84 and GCJ-02 coincide.", stderr)
	var from, to string
	var lng, lat float64
	c.fs.StringVar(&from, "from", "", "the point's system: wgs84, gcj02 or bd09 (required)")
	c.fs.StringVar(&to, "to", "", "the system to convert to: wgs84, gcj02 or bd09 (required)")
	c.fs.Float64Var(&lng, "lng", 0, "longitude, degrees east (required)")
	c.fs.Float64Var(&lat, "lat", 0, "latitude, degrees north (required)")
	if err := c.parse(args); err != nil {
		return err
	}
	if err := c.require("from", "to", "lng", "lat"); err != nil {
		return err
	}
	x, y, err := agro.Convert(agro.Datum(strings.ToLower(from)), agro.Datum(strings.ToLower(to)), lng, lat)
	if err != nil {
		return c.inputError(err)
	}
	if c.json {
		return writeJSON(stdout, map[string]any{
			"from": strings.ToLower(from), "to": strings.ToLower(to), "lng": x, "lat": y,
			"outOfChina": agro.OutOfChina(lng, lat),
		})
	}
	fmt.Fprintf(stdout, "%.8f,%.8f\n", x, y)
	return nil
}

func calcWind(args []string, stdout, stderr io.Writer) error {
	c := newCalc("wind", "Wind level 0-17 of a speed (SPEC.md §9 thresholds) and, with --dir, the compass\n"+
		"sector (8 sectors, each 22.5° either side of N, NE, E, SE, S, SW, W, NW).", stderr)
	var speed, dir float64
	c.fs.Float64Var(&speed, "speed", 0, "wind speed, m/s (required)")
	c.fs.Float64Var(&dir, "dir", 0, "direction the wind blows from, degrees clockwise from north")
	if err := c.parse(args); err != nil {
		return err
	}
	if err := c.require("speed"); err != nil {
		return err
	}
	if !(speed >= 0 && speed < 200) {
		return c.fail("--speed: %g m/s is not a wind speed (0-200)", speed)
	}
	if c.has("dir") && (math.IsNaN(dir) || math.IsInf(dir, 0)) {
		return c.fail("--dir: %g is not a direction", dir)
	}
	level := agro.WindLevel(speed)
	lo, hi := agro.WindLevelRange(level)
	sector := ""
	if c.has("dir") {
		sector = agro.WindSector(dir)
	}
	if c.json {
		res := map[string]any{"speed": speed, "level": level, "levelMin": lo, "levelMax": nil}
		if !math.IsInf(hi, 1) {
			res["levelMax"] = hi
		}
		if c.has("dir") {
			res["direction"], res["sector"] = dir, sector
		}
		return writeJSON(stdout, res)
	}
	if sector != "" {
		fmt.Fprintf(stdout, "%d %s\n", level, sector)
	} else {
		fmt.Fprintf(stdout, "%d\n", level)
	}
	if math.IsInf(hi, 1) {
		fmt.Fprintf(stdout, "level %d: %g m/s or more\n", level, lo)
	} else {
		fmt.Fprintf(stdout, "level %d: from %g up to %g m/s\n", level, lo, hi)
	}
	return nil
}

func calcAQI(args []string, stdout, stderr io.Writer) error {
	c := newCalc("aqi", "Air-quality grade 1-6 (excellent, good, light, moderate, heavy, severe) by the\n"+
		"SPEC.md §9 cut-offs of PM2.5, PM10 and TVOC; the worst grade wins.", stderr)
	var pm25, pm10, tvoc float64
	c.fs.Float64Var(&pm25, "pm25", 0, "PM2.5, µg/m³ (required)")
	c.fs.Float64Var(&pm10, "pm10", 0, "PM10, µg/m³ (required)")
	c.fs.Float64Var(&tvoc, "tvoc", 0, "TVOC, in the sensor's unit")
	if err := c.parse(args); err != nil {
		return err
	}
	if err := c.require("pm25", "pm10"); err != nil {
		return err
	}
	var tv *float64
	if c.has("tvoc") {
		tv = &tvoc
	}
	q, err := agro.AirQualityOf(pm25, pm10, tv)
	if err != nil {
		return c.inputError(err)
	}
	if c.json {
		return writeJSON(stdout, q)
	}
	fmt.Fprintf(stdout, "%d %s\n", q.Grade, q.Name)
	parts := []string{fmt.Sprintf("PM2.5 grade %d", q.PM25), fmt.Sprintf("PM10 grade %d", q.PM10)}
	if q.TVOC != nil {
		parts = append(parts, fmt.Sprintf("TVOC grade %d", *q.TVOC))
	}
	fmt.Fprintf(stdout, "%s; worst: %s\n", strings.Join(parts, ", "), strings.Join(q.Primary, ", "))
	return nil
}

func calcRain(args []string, stdout, stderr io.Writer) error {
	c := newCalc("rain", "Rain class (none, light, moderate, heavy, storm, heavy storm, severe storm) of a\n"+
		"rainfall total over 1 hour (CMA hourly grades) or 12 or 24 hours (GB/T 28592-2012).", stderr)
	var mm float64
	var hours int
	c.fs.Float64Var(&mm, "mm", 0, "rainfall, mm (required)")
	c.fs.IntVar(&hours, "hours", 0, "accumulation period: 1, 12 or 24 (required)")
	if err := c.parse(args); err != nil {
		return err
	}
	if err := c.require("mm", "hours"); err != nil {
		return err
	}
	class, err := agro.RainClassOf(mm, hours)
	if err != nil {
		return c.inputError(err)
	}
	if c.json {
		return writeJSON(stdout, map[string]any{"mm": mm, "hours": hours, "class": class.String(), "classIndex": int(class)})
	}
	fmt.Fprintln(stdout, class)
	lo, _ := agro.RainClassFloor(class, hours)
	if next, ok := agro.RainClassFloor(class+1, hours); ok {
		fmt.Fprintf(stdout, "%s over %d h: from %.1f mm to below %.1f mm\n", class, hours, lo, next)
	} else {
		fmt.Fprintf(stdout, "%s over %d h: %.1f mm or more\n", class, hours, lo)
	}
	return nil
}

func calcDrought(args []string, stdout, stderr io.Writer) error {
	c := newCalc("drought", "Relative soil moisture R = θ/θfc × 100 and the agricultural drought grade of\n"+
		"GB/T 32136-2015 (soil relative humidity index, adjusted for the growth stage: a = 1.1 at\n"+
		"the seedling stage, 0.9 in the critical water period, 1 otherwise), with the\n"+
		"waterlogging flag (R above 90 %). θ and θfc in the same unit (m³/m³ or vol %).", stderr)
	var theta, fc float64
	var stage string
	c.fs.Float64Var(&theta, "theta", 0, "soil water content θ (required)")
	c.fs.Float64Var(&fc, "fc", 0, "field capacity θfc, same unit as --theta (required)")
	c.fs.StringVar(&stage, "stage", "other", "growth stage: seedling, critical or other")
	if err := c.parse(args); err != nil {
		return err
	}
	if err := c.require("theta", "fc"); err != nil {
		return err
	}
	st, err := agro.ParseDroughtStage(stage)
	if err != nil {
		return c.inputError(err)
	}
	a, err := agro.AssessDrought([]float64{theta}, []float64{fc}, st)
	if err != nil {
		var ie *agro.InputError
		if errors.As(err, &ie) && ie.Field == "field-capacity" {
			ie.Field = "fc"
		}
		return c.inputError(err)
	}
	if c.json {
		names := map[string]string{}
		for _, l := range i18n.Langs {
			names[string(l)] = i18n.T(l, "drought."+a.Grade.String(), nil)
		}
		return writeJSON(stdout, map[string]any{"theta": theta, "fc": fc, "relative": a.Relative, "stage": a.Stage,
			"coefficient": a.Coefficient, "index": a.Index, "grade": a.Grade, "gradeNames": names, "waterlogged": a.Waterlogged})
	}
	r1 := math.Round(a.Relative*10) / 10
	fmt.Fprintf(stdout, "%.1f %% %s\n", r1, a.Grade)
	fmt.Fprintf(stdout, "R %.2f %%, stage %s (a %.1f), index %.2f %%\n", a.Relative, a.Stage, a.Coefficient, a.Index)
	for _, l := range i18n.Langs {
		line := fmt.Sprintf("%s %.1f %%, %s", i18n.T(l, "drought.relative", nil), r1, i18n.T(l, "drought."+a.Grade.String(), nil))
		if a.Waterlogged {
			line += ", " + i18n.T(l, "drought.waterlogged", nil)
		}
		fmt.Fprintf(stdout, "%s: %s\n", l, line)
	}
	return nil
}
