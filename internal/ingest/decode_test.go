package ingest

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

var received = time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)

func mustType(t testing.TB, id int) *devices.Type {
	t.Helper()
	ty, ok := devices.TypeByID(id)
	if !ok {
		t.Fatalf("no type %d", id)
	}
	return ty
}

func TestDecodeTelemetry_Soil(t *testing.T) {
	soil := mustType(t, 2)
	r, err := DecodeTelemetry(soil, []byte(`{
		"ts": 1795334400,
		"values": {"battery": 3.71, "signal": -87},
		"nodes": {"20": {"soilMoisture": 23.5, "soilTemp": 14.2}, "10": {"soilMoisture": 21}}
	}`), received)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Time.Equal(time.Unix(1795334400, 0)) {
		t.Errorf("time %v", r.Time)
	}
	want := []Point{
		{Param: "battery", Node: 0, Value: 3.71}, {Param: "signal", Node: 0, Value: -87},
		{Param: "soilMoisture", Node: 10, Value: 21}, {Param: "soilMoisture", Node: 20, Value: 23.5}, {Param: "soilTemp", Node: 20, Value: 14.2},
	}
	if len(r.Points) != len(want) {
		t.Fatalf("points %+v", r.Points)
	}
	for i := range want {
		if r.Points[i] != want[i] {
			t.Errorf("point %d: %+v, want %+v", i, r.Points[i], want[i])
		}
	}
}

func TestDecodeTelemetry_Time(t *testing.T) {
	weather := mustType(t, 5)
	for name, tc := range map[string]struct {
		ts   string
		want time.Time
	}{
		"Absent":             {``, received},
		"Null":               {`"ts": null,`, received},
		"UnixSeconds":        {`"ts": 1795334400,`, time.Unix(1795334400, 0)},
		"FractionToMillis":   {`"ts": 1795334400.1234,`, time.UnixMilli(1795334400123)},
		"UnixMillis":         {`"ts": 1795334400123,`, time.UnixMilli(1795334400123)},
		"MillisFraction":     {`"ts": 1795334400123.4,`, time.UnixMilli(1795334400123)},
		"MillisFromBoundary": {`"ts": 1000000000000,`, time.UnixMilli(1e12)},
		"RFC3339":            {`"ts": "2026-11-22T15:30:00+08:00",`, time.Date(2026, 11, 22, 7, 30, 0, 0, time.UTC)},
		"ClockSlightlyAhead": {`"ts": "2026-11-22T09:00:00Z",`, received.Add(time.Hour)},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := DecodeTelemetry(weather, []byte(`{`+tc.ts+` "values": {"airTemp": 12.5}}`), received)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Time.Equal(tc.want) {
				t.Errorf("time %v, want %v", r.Time, tc.want)
			}
		})
	}
}

func TestDecodeTelemetry_Refusals(t *testing.T) {
	weather, soil := mustType(t, 5), mustType(t, 2)
	for _, tc := range []struct {
		name    string
		typ     *devices.Type
		payload string
		code    string
		field   string
	}{
		{"ErrMalformed", weather, `{"values": {"airTemp": 1}`, "ingest.malformed", ""},
		{"ErrNotAnObject", weather, `[1,2]`, "ingest.malformed", ""},
		{"ErrTrailingData", weather, `{"values": {"airTemp": 1}} {}`, "ingest.malformed", ""},
		{"ErrValuesNotObject", weather, `{"values": 5}`, "ingest.wrongShape", "values"},
		{"ErrEmpty", weather, `{"values": {}}`, "ingest.empty", "values"},
		{"ErrNothing", weather, `{}`, "ingest.empty", "values"},
		{"ErrUnknownParam", weather, `{"values": {"airTemp": 1, "flux": 2}}`, "ingest.unknownParam", "values.flux"},
		{"ErrString", weather, `{"values": {"airTemp": "12"}}`, "ingest.notNumber", "values.airTemp"},
		{"ErrNaNString", weather, `{"values": {"airTemp": "NaN"}}`, "ingest.notNumber", "values.airTemp"},
		{"ErrNull", weather, `{"values": {"airTemp": null}}`, "ingest.notNumber", "values.airTemp"},
		{"ErrBool", weather, `{"values": {"airTemp": true}}`, "ingest.notNumber", "values.airTemp"},
		{"ErrInfinite", weather, `{"values": {"airTemp": 1e999}}`, "ingest.notFinite", "values.airTemp"},
		{"ErrOutOfRange", weather, `{"values": {"airHumidity": 140}}`, "ingest.outOfRange", "values.airHumidity"},
		{"ErrFuture", weather, `{"ts": "2026-11-23T08:00:01Z", "values": {"airTemp": 1}}`, "ingest.future", "ts"},
		{"ErrMicroseconds", weather, `{"ts": 1795334400000000, "values": {"airTemp": 1}}`, "ingest.badTime", "ts"},
		{"ErrFutureMillis", weather, `{"ts": 1795420800001, "values": {"airTemp": 1}}`, "ingest.future", "ts"},
		{"ErrSecondsBelowMillis", weather, `{"ts": 999999999999, "values": {"airTemp": 1}}`, "ingest.future", "ts"},
		{"ErrUnsetClock", weather, `{"ts": 86400, "values": {"airTemp": 1}}`, "ingest.badTime", "ts"},
		{"ErrNegativeTime", weather, `{"ts": -5, "values": {"airTemp": 1}}`, "ingest.badTime", "ts"},
		{"ErrBadTimeString", weather, `{"ts": "yesterday", "values": {"airTemp": 1}}`, "ingest.badTime", "ts"},
		{"ErrPerNodeAtSurface", soil, `{"values": {"soilMoisture": 20}}`, "ingest.perNodeParam", "values.soilMoisture"},
		{"ErrSurfaceInNode", soil, `{"nodes": {"10": {"battery": 3.7}}}`, "ingest.surfaceParam", "nodes.10.battery"},
		{"ErrUnknownDepth", soil, `{"nodes": {"15": {"soilMoisture": 20}}}`, "ingest.unknownNode", "nodes.15"},
		{"ErrDepthNotANumber", soil, `{"nodes": {"top": {"soilMoisture": 20}}}`, "ingest.unknownNode", "nodes.top"},
		{"ErrNodesOnSurfaceType", weather, `{"nodes": {"10": {"airTemp": 1}}}`, "ingest.unknownNode", "nodes.10"},
		{"ErrTooLarge", weather, `{"values": {"airTemp": 1}, "pad": "` + strings.Repeat("x", MaxPayload) + `"}`, "ingest.tooLarge", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := DecodeTelemetry(tc.typ, []byte(tc.payload), received)
			e := errs.As(err)
			if e == nil || e.Kind != errs.EInvalid || e.Code != tc.code || e.Field != tc.field {
				t.Fatalf("got %v (%+v), want %s at %q", err, r, tc.code, tc.field)
			}
		})
	}
}

func TestDecodeStatus(t *testing.T) {
	s, err := DecodeStatus([]byte(`{"battery": 3.12, "signal": -101, "chargeVoltage": 0, "faults": [3, 17]}`), received)
	if err != nil {
		t.Fatal(err)
	}
	if *s.Battery != 3.12 || *s.Signal != -101 || *s.ChargeVoltage != 0 || len(s.Faults) != 2 || s.Faults[1] != 17 || !s.Time.Equal(received) {
		t.Fatalf("%+v", s)
	}
	s, err = DecodeStatus([]byte(`{"ts": 1795334400}`), received)
	if err != nil || s.Battery != nil || s.Signal != nil || len(s.Faults) != 0 {
		t.Fatalf("empty status: %+v %v", s, err)
	}
	for _, tc := range []struct{ payload, code, field string }{
		{`{"battery": "low"}`, "ingest.notNumber", "battery"},
		{`{"battery": 31}`, "ingest.outOfRange", "battery"},
		{`{"signal": 5}`, "ingest.outOfRange", "signal"},
		{`{"faults": [70000]}`, "ingest.badFault", "faults"},
		{`{"faults": [-1]}`, "ingest.badFault", "faults"},
		{`{"faults": [1.5]}`, "ingest.badFault", "faults"},
		{`{"faults": ["E1"]}`, "ingest.badFault", "faults"},
		{`{"faults": 3}`, "ingest.wrongShape", "faults"},
		{`{"faults": [` + strings.Repeat("1,", 32) + `1]}`, "ingest.tooManyFaults", "faults"},
		{`{"ts": "2027-01-01T00:00:00Z"}`, "ingest.future", "ts"},
		{`nope`, "ingest.malformed", ""},
	} {
		_, err := DecodeStatus([]byte(tc.payload), received)
		if e := errs.As(err); e == nil || e.Code != tc.code || e.Field != tc.field {
			t.Errorf("%s: got %v, want %s at %q", tc.payload, err, tc.code, tc.field)
		}
	}
}

// TestRefusalMessages checks a refusal reads well in every language, with the
// JSON path shown as it is rather than looked up as a form field.
func TestRefusalMessages(t *testing.T) {
	_, err := DecodeTelemetry(mustType(t, 5), []byte(`{"values": {"airHumidity": 140}}`), received)
	e := errs.As(err)
	want := map[i18n.Lang]string{
		i18n.EnUS: "values.airHumidity: outside the possible range 0 to 100",
		i18n.ZhCN: "values.airHumidity：超出可能范围 0 至 100",
		i18n.ZhTW: "values.airHumidity：超出可能範圍 0 至 100",
	}
	for lang, w := range want {
		if got := i18n.T(lang, e.Code, e.Params); got != w {
			t.Errorf("%s: %q, want %q", lang, got, w)
		}
	}
}

// checkReport asserts what any accepted report must satisfy.
func checkReport(t *testing.T, ty *devices.Type, r *Report) {
	if len(r.Points) == 0 {
		t.Fatal("accepted a report without readings")
	}
	if r.Time.After(received.Add(MaxFuture)) || r.Time.Before(earliest) {
		t.Fatalf("accepted time %v", r.Time)
	}
	for _, p := range r.Points {
		def, ok := ty.Param(p.Param)
		if !ok || math.IsNaN(p.Value) || math.IsInf(p.Value, 0) || !def.InRange(p.Value) {
			t.Fatalf("accepted point %+v", p)
		}
		if def.PerNode != (p.Node != 0) {
			t.Fatalf("accepted point %+v in the wrong place", p)
		}
	}
}

func FuzzDecodeTelemetry(f *testing.F) {
	f.Add(2, []byte(`{"ts": 1795334400, "values": {"battery": 3.7}, "nodes": {"20": {"soilMoisture": 23.5}}}`))
	f.Add(5, []byte(`{"ts": "2026-11-22T15:30:00+08:00", "values": {"airTemp": 12.5, "rainfall": 0.2}}`))
	f.Add(5, []byte(`{"values": {"airTemp": 1e999}}`))
	f.Add(19, []byte(`{"values": {"waterLevel": -0.0}}`))
	f.Fuzz(func(t *testing.T, typeID int, payload []byte) {
		ty, ok := devices.TypeByID(typeID)
		if !ok {
			ty = mustType(t, 5)
		}
		r, err := DecodeTelemetry(ty, payload, received)
		if err != nil {
			if errs.KindOf(err) != errs.EInvalid {
				t.Fatalf("refusal of another kind: %v", err)
			}
			return
		}
		checkReport(t, ty, r)
	})
}

func FuzzDecodeStatus(f *testing.F) {
	f.Add([]byte(`{"battery": 3.12, "signal": -101, "faults": [3]}`))
	f.Add([]byte(`{"ts": "2026-11-22T00:00:00Z", "chargeVoltage": 5.2}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		s, err := DecodeStatus(payload, received)
		if err != nil {
			if errs.KindOf(err) != errs.EInvalid {
				t.Fatalf("refusal of another kind: %v", err)
			}
			return
		}
		for _, v := range []*float64{s.Battery, s.Signal, s.ChargeVoltage} {
			if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
				t.Fatalf("accepted %v", *v)
			}
		}
		if len(s.Faults) > maxFaults {
			t.Fatalf("accepted %d faults", len(s.Faults))
		}
	})
}

// BenchmarkDecodeTelemetry decodes a full soil report: 6 nodes × 3 parameters + 2 surface = 20 points.
func BenchmarkDecodeTelemetry(b *testing.B) {
	soil := mustType(b, 2)
	payload := []byte(`{"ts": 1795334400, "values": {"battery": 3.71, "signal": -87}, "nodes": {` +
		`"10": {"soilMoisture": 21.2, "soilTemp": 14.1, "ec": 310}, "20": {"soilMoisture": 23.5, "soilTemp": 14.2, "ec": 320},` +
		`"30": {"soilMoisture": 25.1, "soilTemp": 14.4, "ec": 330}, "40": {"soilMoisture": 26.8, "soilTemp": 14.6, "ec": 340},` +
		`"50": {"soilMoisture": 27.9, "soilTemp": 14.8, "ec": 350}, "60": {"soilMoisture": 28.3, "soilTemp": 15.0, "ec": 360}}}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(payload)))
	for b.Loop() {
		if _, err := DecodeTelemetry(soil, payload, received); err != nil {
			b.Fatal(err)
		}
	}
}
