// Package ingest turns what devices send into validated readings.
package ingest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// MaxPayload bounds one report. The largest real report, a 10-node soil
// probe with every parameter, is under 2 KiB.
const MaxPayload = 16 << 10

// MaxFuture is how far ahead of the server's clock a report may be dated.
// Device clocks drift by minutes; a day ahead is a broken clock.
const MaxFuture = 24 * time.Hour

// earliest is the oldest time a report may carry: a device whose clock was
// never set counts from 1970 or from its firmware's epoch, and such readings
// would land in history as if they were decades old.
var earliest = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Point is one reading (see telemetry.Point).
type Point = telemetry.Point

// Report is one decoded telemetry message.
type Report struct {
	Time   time.Time // millisecond precision; (device, Time) identifies the report
	Points []Point   // sorted by Param, then Node
}

type telemetryJSON struct {
	TS     json.RawMessage                       `json:"ts"`
	Values map[string]json.RawMessage            `json:"values"`
	Nodes  map[string]map[string]json.RawMessage `json:"nodes"`
}

// DecodeTelemetry reads a telemetry payload of a device of type t:
//
//	{"ts": <unix seconds | RFC 3339>, "values": {"<param>": <number>}, "nodes": {"<depth cm>": {"<param>": <number>}}}
//
// ts is optional (received is used). The whole report is refused when any
// part is wrong, so a report is stored entirely or not at all. Returns
// EINVALID whose Field is the JSON path of the fault.
func DecodeTelemetry(t *devices.Type, payload []byte, received time.Time) (*Report, error) {
	var in telemetryJSON
	at, err := parse(payload, &in, &in.TS, received)
	if err != nil {
		return nil, err
	}
	r := &Report{Time: at}
	for id, raw := range in.Values {
		pt, err := point(t, id, 0, raw, "values."+id)
		if err != nil {
			return nil, err
		}
		r.Points = append(r.Points, pt)
	}
	for key, values := range in.Nodes {
		depth, err := strconv.Atoi(key)
		if err != nil || depth == 0 || !slices.Contains(t.Nodes, depth) {
			return nil, invalid("nodes."+key, "ingest.unknownNode", nil)
		}
		for id, raw := range values {
			pt, err := point(t, id, depth, raw, "nodes."+key+"."+id)
			if err != nil {
				return nil, err
			}
			r.Points = append(r.Points, pt)
		}
	}
	if len(r.Points) == 0 {
		return nil, invalid("values", "ingest.empty", nil)
	}
	slices.SortFunc(r.Points, func(a, b Point) int {
		return cmp.Or(strings.Compare(a.Param, b.Param), cmp.Compare(a.Node, b.Node))
	})
	return r, nil
}

// Status is a decoded status message: the device's health, not its readings.
type Status struct {
	Time          time.Time
	Battery       *float64 // volts
	ChargeVoltage *float64 // volts at the solar/charging input
	Signal        *float64 // dBm
	Faults        []int    // device fault codes; empty when healthy
}

type statusJSON struct {
	TS            json.RawMessage   `json:"ts"`
	Battery       json.RawMessage   `json:"battery"`
	ChargeVoltage json.RawMessage   `json:"chargeVoltage"`
	Signal        json.RawMessage   `json:"signal"`
	Faults        []json.RawMessage `json:"faults"`
}

// maxFaults bounds the fault list; a device reports a handful at most.
const maxFaults = 32

// Bounds of the status readings; outside them the reading is a fault of its own.
var (
	batteryRange = [2]float64{0, 30}
	chargeRange  = [2]float64{0, 40}
	signalRange  = [2]float64{-150, 0}
)

// DecodeStatus reads a status payload:
//
//	{"ts": …, "battery": <V>, "chargeVoltage": <V>, "signal": <dBm>, "faults": [<code>, …]}
//
// Every field is optional. Returns EINVALID naming the faulty field.
func DecodeStatus(payload []byte, received time.Time) (*Status, error) {
	var in statusJSON
	at, err := parse(payload, &in, &in.TS, received)
	if err != nil {
		return nil, err
	}
	s := &Status{Time: at}
	for _, f := range []struct {
		raw   json.RawMessage
		field string
		rng   [2]float64
		dst   **float64
	}{
		{in.Battery, "battery", batteryRange, &s.Battery},
		{in.ChargeVoltage, "chargeVoltage", chargeRange, &s.ChargeVoltage},
		{in.Signal, "signal", signalRange, &s.Signal},
	} {
		if f.raw == nil {
			continue
		}
		v, err := number(f.raw, f.field)
		if err != nil {
			return nil, err
		}
		if v < f.rng[0] || v > f.rng[1] {
			return nil, invalid(f.field, "ingest.outOfRange", map[string]any{"min": f.rng[0], "max": f.rng[1]})
		}
		*f.dst = &v
	}
	if len(in.Faults) > maxFaults {
		return nil, invalid("faults", "ingest.tooManyFaults", map[string]any{"max": maxFaults})
	}
	for _, n := range in.Faults {
		code, err := strconv.ParseUint(string(n), 10, 16)
		if err != nil {
			return nil, invalid("faults", "ingest.badFault", nil)
		}
		s.Faults = append(s.Faults, int(code))
	}
	return s, nil
}

// parse bounds the payload's size, decodes it into v and returns the time in
// *ts, which v's decoding fills.
func parse(payload []byte, v any, ts *json.RawMessage, received time.Time) (time.Time, error) {
	if len(payload) > MaxPayload {
		return time.Time{}, invalid("", "ingest.tooLarge", map[string]any{"max": MaxPayload})
	}
	if err := strictJSON(payload, v); err != nil {
		return time.Time{}, err
	}
	return reportTime(*ts, received)
}

// strictJSON decodes one JSON object; anything else is ingest.malformed.
func strictJSON(payload []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(payload))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return invalid(typeErr.Field, "ingest.wrongShape", nil)
		}
		return invalid("", "ingest.malformed", nil)
	}
	if d.More() {
		return invalid("", "ingest.malformed", nil)
	}
	return nil
}

// invalid is a refusal about the JSON path field. The path goes into the
// message as it is: it names the device's payload, not a form input.
func invalid(field, code string, params map[string]any) *errs.Error {
	return errs.PayloadInvalid(field, code, params)
}

// msFrom is the smallest ts read as unix milliseconds: 10^12 ms is
// 2001-09-09, while 10^12 s lies beyond year 30,000, so no time a report may
// carry is ambiguous.
const msFrom = 1e12

// reportTime reads ts: absent or null means received; a number is unix
// milliseconds from msFrom on, else unix seconds (fractions allowed); a
// string is RFC 3339.
func reportTime(raw json.RawMessage, received time.Time) (time.Time, error) {
	var at time.Time
	switch {
	case raw == nil || string(raw) == "null":
		at = received
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return time.Time{}, invalid("ts", "ingest.badTime", nil)
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return time.Time{}, invalid("ts", "ingest.badTime", nil)
		}
		at = t
	default:
		n, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) || n < 0 || n > 1e14 {
			return time.Time{}, invalid("ts", "ingest.badTime", nil)
		}
		if n < msFrom {
			n *= 1000
		}
		at = time.UnixMilli(int64(math.Round(n)))
	}
	at = at.Truncate(time.Millisecond)
	if at.Before(earliest) {
		return time.Time{}, invalid("ts", "ingest.badTime", nil)
	}
	if at.After(received.Add(MaxFuture)) {
		return time.Time{}, invalid("ts", "ingest.future", nil)
	}
	return at, nil
}

// point checks one reading of t at the JSON path field: a parameter of the
// type, sent in its place (under a node when measured per depth, node 0
// otherwise), with a possible value.
func point(t *devices.Type, id string, node int, raw json.RawMessage, field string) (Point, error) {
	p, ok := t.Param(id)
	switch {
	case !ok || p.Detected: // a detected parameter is the server's to write
		return Point{}, invalid(field, "ingest.unknownParam", nil)
	case p.PerNode && node == 0:
		return Point{}, invalid(field, "ingest.perNodeParam", nil)
	case !p.PerNode && node != 0:
		return Point{}, invalid(field, "ingest.surfaceParam", nil)
	}
	v, err := reading(p, raw, field)
	if err != nil {
		return Point{}, err
	}
	return Point{Param: id, Node: node, Value: v}, nil
}

// reading parses a value and checks it is a possible reading of p.
func reading(p *devices.Param, raw json.RawMessage, field string) (float64, error) {
	v, err := number(raw, field)
	if err != nil {
		return 0, err
	}
	if !p.InRange(v) {
		return 0, invalid(field, "ingest.outOfRange", map[string]any{"min": p.Min, "max": p.Max})
	}
	return v, nil
}

// number parses a JSON number. JSON has no NaN or Infinity; a string such as
// "NaN" is not a number, and a literal too large for float64 is not finite.
func number(raw json.RawMessage, field string) (float64, error) {
	if len(raw) == 0 || !(raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		return 0, invalid(field, "ingest.notNumber", nil)
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, invalid(field, "ingest.notFinite", nil)
	}
	if err != nil {
		return 0, invalid(field, "ingest.notNumber", nil)
	}
	return v, nil
}
