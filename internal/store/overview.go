package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/rules"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// The overview's reads (docs/overview.md): each is one query over an index
// or over the viewer's devices, so the page stays one quick request at ten
// thousand devices.

// FleetCount is how many of a viewer's devices have a type, a status and
// a set of attention reasons.
type FleetCount struct {
	TypeID  int
	Slave   bool
	Status  devices.Status
	Reasons []string // of devices in use; see AttentionReasons
	N       int
}

// FleetCounts counts the devices viewer sees by type, status and attention
// reasons at now (gaps since gapSince), in one pass over their rows.
func (db *DB) FleetCounts(ctx context.Context, viewer int64, now, gapSince time.Time) ([]FleetCount, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT d.type_id, d.slave, `+statusExpr(2)+` AS st, CASE WHEN d.state = 'used' THEN `+reasonMask()+` ELSE 0 END AS m, count(*)
		FROM devices d WHERE `+visibleClause(db.narrow(ctx, viewer, devices.BelongAll), 1)+` GROUP BY d.type_id, d.slave, st, m`,
		viewer, now.UnixMilli(), gapSince.UnixMilli())
	if err != nil {
		return nil, errs.Internal("fleet counts: %w", err)
	}
	defer rows.Close()
	var out []FleetCount
	for rows.Next() {
		var c FleetCount
		var st string
		var m int
		if err := rows.Scan(&c.TypeID, &c.Slave, &st, &m, &c.N); err != nil {
			return nil, errs.Internal("fleet counts: %w", err)
		}
		c.Status, c.Reasons = statusOf(st), reasonsOf(m)
		out = append(out, c)
	}
	return out, rows.Err()
}

// Attention reasons, in the order the overview lists them.
const (
	ReasonFault      = "fault"
	ReasonOffline    = "offline"
	ReasonLowBattery = "lowBattery"
	ReasonGap        = "gap"
)

// AttentionReasons lists the reasons, most pressing first.
var AttentionReasons = []string{ReasonFault, ReasonOffline, ReasonLowBattery, ReasonGap}

// attentionConds are the SQL conditions of each reason for a device in use;
// $2 is now and $3 the start of the gap window (unix ms).
var attentionConds = map[string]string{
	ReasonFault:      "d.faults <> ''",
	ReasonOffline:    "(d.offline_at IS NULL OR d.offline_at < $2)",
	ReasonLowBattery: fmt.Sprintf("d.battery < %g", devices.LowBattery),
	ReasonGap:        "d.gap_to >= $3",
}

// AttentionDevice is a device in use that needs a look, and why.
type AttentionDevice struct {
	*devices.Device
	Reasons []string
}

// reasonMask is the SQL of a device's reasons as bits, bit i for
// AttentionReasons[i]; $2 is now and $3 the start of the gap window.
func reasonMask() string {
	flags := make([]string, len(AttentionReasons))
	for i, r := range AttentionReasons {
		flags[i] = fmt.Sprintf("CASE WHEN %s THEN %d ELSE 0 END", attentionConds[r], 1<<i)
	}
	return strings.Join(flags, " + ")
}

func reasonsOf(m int) []string {
	var out []string
	for i, r := range AttentionReasons {
		if m&(1<<i) != 0 {
			out = append(out, r)
		}
	}
	return out
}

// Attention returns the devices in use viewer sees that have a fault, are
// offline, run on a low battery or had a data gap since gapSince: the limit
// most pressing (by their most pressing reason, then the most recently
// heard first).
func (db *DB) Attention(ctx context.Context, viewer int64, now, gapSince time.Time, limit int) ([]AttentionDevice, error) {
	var either, rank []string
	for i, r := range AttentionReasons {
		either = append(either, attentionConds[r])
		rank = append(rank, fmt.Sprintf("WHEN %s THEN %d", attentionConds[r], i))
	}
	where := visibleClause(db.narrow(ctx, viewer, devices.BelongAll), 1) + ` AND d.state = 'used' AND (` + strings.Join(either, " OR ") + `)`
	rows, err := db.sql.QueryContext(ctx, `SELECT `+deviceColumns+`, `+reasonMask()+` FROM devices d WHERE `+where+
		` ORDER BY CASE `+strings.Join(rank, " ")+` END, COALESCE(d.last_report_at, 0) DESC, d.id LIMIT $4`,
		viewer, now.UnixMilli(), gapSince.UnixMilli(), limit)
	if err != nil {
		return nil, errs.Internal("attention: %w", err)
	}
	defer rows.Close()
	var out []AttentionDevice
	for rows.Next() {
		var m int
		d, err := scanDevice(scanAfter{rows, []any{&m}})
		if err != nil {
			return nil, errs.Internal("attention: %w", err)
		}
		out = append(out, AttentionDevice{Device: d, Reasons: reasonsOf(m)})
	}
	return out, rows.Err()
}

// DeviceDay names one device's day (local midnight, unix ms).
type DeviceDay struct {
	Device int64
	Day    int64
}

// FleetDays returns the rollups of days of the devices viewer sees among
// typeIDs (a slave's type is its host's), keyed by device and day, with the
// devices: params selects the series (surface readings only). The devices carry what
// a day's figures need (id, hash id, name, type, position, altitude,
// settings), read through the driver directly: thousands of rows.
func (db *DB) FleetDays(ctx context.Context, viewer int64, typeIDs []int, days []time.Time, params []string) ([]*devices.Device, map[DeviceDay]map[string]telemetry.Day, error) {
	out := map[DeviceDay]map[string]telemetry.Day{}
	if len(typeIDs) == 0 {
		return nil, out, nil
	}
	ids := make([]string, len(typeIDs))
	for i, t := range typeIDs {
		ids[i] = strconv.Itoa(t)
	}
	want := map[int]string{}
	for _, p := range params {
		if c, ok := db.paramCode[p]; ok {
			want[c] = p
		}
	}
	dayList := make([]string, len(days))
	for i, d := range days {
		dayList[i] = strconv.FormatInt(d.UnixMilli(), 10)
	}
	q := `SELECT d.id, d.hash_id, d.name, d.type_id, d.slave, d.lat, d.lng, d.altitude, d.config, t.data, t.day
		FROM devices d JOIN telemetry_daily t ON t.device_id = d.id AND t.day IN (` + strings.Join(dayList, ",") + `)
		WHERE d.type_id IN (` + strings.Join(ids, ",") + `) AND ` + visibleClause(db.narrow(ctx, viewer, devices.BelongAll), 1) + ` ORDER BY d.id`
	var list []*devices.Device
	err := db.rawQuery(ctx, q, []any{viewer}, func(row []driver.Value) error {
		id, ok1 := row[0].(int64)
		hash, ok2 := asText(row[1])
		name, ok3 := asText(row[2])
		typ, ok4 := row[3].(int64)
		data, ok5 := row[9].([]byte)
		day, ok6 := row[10].(int64)
		if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
			return fmt.Errorf("fleet day row (%T, %T, %T, %T, %T, %T)", row[0], row[1], row[2], row[3], row[9], row[10])
		}
		var m map[string]telemetry.Day
		err := eachRollup(data, func(r rollup) {
			if p, ok := want[r.param]; ok && r.node == 0 {
				if m == nil {
					m = map[string]telemetry.Day{}
				}
				m[p] = telemetry.Day{Param: p, Day: time.UnixMilli(day), Min: r.min, Max: r.max, Sum: r.sum, Count: int(r.count), Last: r.last}
			}
		})
		if err != nil || m == nil {
			return err
		}
		out[DeviceDay{id, day}] = m
		if len(list) > 0 && list[len(list)-1].ID == id {
			return nil // its other day
		}
		d := &devices.Device{ID: id, HashID: hash, Name: name, TypeID: int(typ), Slave: asBool(row[4])}
		if v, ok := asFloat(row[5]); ok {
			d.Lat = &v
		}
		if v, ok := asFloat(row[6]); ok {
			d.Lng = &v
		}
		if v, ok := asFloat(row[7]); ok {
			d.Altitude = &v
		}
		if cfg, ok := asText(row[8]); ok && cfg != defaultConfig {
			_ = json.Unmarshal([]byte(cfg), &d.Config)
		}
		list = append(list, d)
		return nil
	})
	if err != nil {
		return nil, nil, errs.Internal("fleet days: %w", err)
	}
	return list, out, nil
}

// defaultConfig is the settings column of a device with none changed.
var defaultConfig = func() string { b, _ := json.Marshal(devices.Config{}); return string(b) }()

// asText reads a TEXT column (a string, or bytes from some drivers).
func asText(v driver.Value) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []byte:
		return string(x), true
	}
	return "", false
}

// asBool reads a BOOLEAN column (SQLite stores 0 or 1).
func asBool(v driver.Value) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int64:
		return x != 0
	}
	return false
}

// AlertCounts are an owner's alert events (into a condition) since a time.
type AlertCounts struct {
	ByLevel map[rules.Level]int
	Hourly  []int // events per hour, oldest first, hours counted back from now
	Devices int   // distinct devices alerted
}

// AlertsSince counts owner's alerts of devices they still see over the
// hours before now.
func (db *DB) AlertsSince(ctx context.Context, owner int64, now time.Time, hours int) (AlertCounts, error) {
	since := now.Add(-time.Duration(hours) * time.Hour)
	c := AlertCounts{ByLevel: map[rules.Level]int{}, Hourly: make([]int, hours)}
	rows, err := db.sql.QueryContext(ctx, `SELECT e.level, e.at, e.device_id FROM alert_events e JOIN devices d ON d.id = e.device_id
		WHERE e.owner_id = $1 AND e.at >= $2 AND e.at <= $3 AND e.kind = 'warning' AND `+visibleTo("e.owner_id"),
		owner, since.UnixMilli(), now.UnixMilli())
	if err != nil {
		return c, errs.Internal("alerts since: %w", err)
	}
	defer rows.Close()
	seen := map[int64]bool{}
	for rows.Next() {
		var (
			level string
			at    int64
			dev   int64
		)
		if err := rows.Scan(&level, &at, &dev); err != nil {
			return c, errs.Internal("alerts since: %w", err)
		}
		c.ByLevel[rules.Level(level)]++
		h := int((at - since.UnixMilli()) / int64(time.Hour/time.Millisecond))
		c.Hourly[min(max(h, 0), hours-1)]++
		seen[dev] = true
	}
	c.Devices = len(seen)
	return c, rows.Err()
}

// ChannelHealth is a push channel's state over a window.
type ChannelHealth struct {
	ID        int64
	Name      string
	Kind      string
	Enabled   bool
	Pending   int        // waiting or retrying now
	Overdue   int        // pending past their due time by more than a minute
	Failed    int        // given up within the window
	LastError string     // the newest failure's error
	LastFail  *time.Time // when it was given up
}

// PushHealth returns the state of each of owner's push channels: what is
// queued now and what failed since a time.
func (db *DB) PushHealth(ctx context.Context, owner int64, now, since time.Time) ([]ChannelHealth, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT c.id, c.name, c.kind, c.enabled,
		(SELECT count(*) FROM push_deliveries p WHERE p.channel_id = c.id AND p.status = 'pending'),
		(SELECT count(*) FROM push_deliveries p WHERE p.channel_id = c.id AND p.status = 'pending' AND p.next_at < $2),
		(SELECT count(*) FROM push_deliveries p WHERE p.channel_id = c.id AND p.status = 'fail' AND p.created_at >= $3)
		FROM push_channels c WHERE c.owner_id = $1 ORDER BY c.id`, owner, now.Add(-time.Minute).UnixMilli(), since.UnixMilli())
	if err != nil {
		return nil, errs.Internal("push health: %w", err)
	}
	var out []ChannelHealth
	for rows.Next() {
		var h ChannelHealth
		if err := rows.Scan(&h.ID, &h.Name, &h.Kind, &h.Enabled, &h.Pending, &h.Overdue, &h.Failed); err != nil {
			rows.Close()
			return nil, errs.Internal("push health: %w", err)
		}
		out = append(out, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("push health: %w", err)
	}
	for i := range out {
		if out[i].Failed == 0 {
			continue
		}
		var (
			msg string
			at  sql.NullInt64
		)
		err := db.sql.QueryRowContext(ctx, `SELECT error, COALESCE(pushed_at, created_at) FROM push_deliveries
			WHERE channel_id = $1 AND status = 'fail' ORDER BY next_at DESC LIMIT 1`, out[i].ID).Scan(&msg, &at)
		if err != nil && err != sql.ErrNoRows {
			return nil, errs.Internal("push health: %w", err)
		}
		out[i].LastError, out[i].LastFail = msg, fromNullMillis(at)
	}
	return out, nil
}
