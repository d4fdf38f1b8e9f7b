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
)

var _ devices.Store = (*DB)(nil)

const deviceColumns = `d.id, d.hash_id, d.sn, d.type_id, d.slave, d.host_id, d.owner_id, d.name, d.state,
	d.location, d.lat, d.lng, d.altitude, d.install_at, d.service_until, d.warranty_until, d.created_at,
	d.last_report_at, d.offline_at, d.battery, d.charge_voltage, d.signal, d.faults, d.last_error, d.config, d.api_only, d.gap_from, d.gap_to`

func scanDevice(row interface{ Scan(...any) error }) (*devices.Device, error) {
	var (
		d                                     devices.Device
		host, owner                           sql.NullInt64
		state, faults, config                 string
		lat, lng, alt, battery, charge, sig   sql.NullFloat64
		install, service, warranty, last, off sql.NullInt64
		gapFrom, gapTo                        sql.NullInt64
		created                               int64
		lastErr                               sql.NullString
	)
	err := row.Scan(&d.ID, &d.HashID, &d.SN, &d.TypeID, &d.Slave, &host, &owner, &d.Name, &state,
		&d.Location, &lat, &lng, &alt, &install, &service, &warranty, &created,
		&last, &off, &battery, &charge, &sig, &faults, &lastErr, &config, &d.APIOnly, &gapFrom, &gapTo)
	if err != nil {
		return nil, err
	}
	d.HostID, d.OwnerID, d.State = host.Int64, owner.Int64, devices.State(state)
	d.Lat, d.Lng, d.Altitude = nullFloat(lat), nullFloat(lng), nullFloat(alt)
	d.Battery, d.ChargeVoltage, d.Signal = nullFloat(battery), nullFloat(charge), nullFloat(sig)
	d.InstallAt, d.ServiceUntil, d.WarrantyUntil = fromNullMillis(install), fromNullMillis(service), fromNullMillis(warranty)
	d.LastReportAt, d.OfflineAt = fromNullMillis(last), fromNullMillis(off)
	d.GapFrom, d.GapTo = fromNullMillis(gapFrom), fromNullMillis(gapTo)
	d.CreatedAt = fromMillis(created)
	d.Faults = parseFaults(faults)
	if lastErr.Valid {
		var e ingestErrorJSON
		if json.Unmarshal([]byte(lastErr.String), &e) == nil {
			d.LastError = &devices.IngestError{At: fromMillis(e.At), Code: e.Code, Field: e.Field, Params: e.Params}
		}
	}
	_ = json.Unmarshal([]byte(config), &d.Config)
	return &d, nil
}

type ingestErrorJSON struct {
	At     int64          `json:"at"`
	Code   string         `json:"code"`
	Field  string         `json:"field,omitempty"`
	Params map[string]any `json:"params,omitempty"`
}

func nullFloat(f sql.NullFloat64) *float64 {
	if !f.Valid {
		return nil
	}
	v := f.Float64
	return &v
}

func nullMillis(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMilli()
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func parseFaults(s string) []int {
	if s == "" {
		return nil
	}
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func formatFaults(fs []int) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = strconv.Itoa(f)
	}
	return strings.Join(parts, ",")
}

// CreateDevice inserts d and sets its ID. Returns ECONFLICT when the SN is taken.
func (db *DB) CreateDevice(ctx context.Context, d *devices.Device, sealedKey string) error {
	cfg, _ := json.Marshal(d.Config)
	var boundAt any
	if d.OwnerID != 0 {
		boundAt = d.CreatedAt.UnixMilli()
	}
	err := db.writeRow(ctx, `INSERT INTO devices (hash_id, sn, type_id, slave, host_id, owner_id, name, state,
		key_sealed, location, lat, lng, altitude, install_at, service_until, warranty_until, created_at, bound_at, config)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) RETURNING id`,
		[]any{d.HashID, d.SN, d.TypeID, d.Slave, nullID(d.HostID), nullID(d.OwnerID), d.Name, string(d.State),
			sealedKey, d.Location, d.Lat, d.Lng, d.Altitude, nullMillis(d.InstallAt), nullMillis(d.ServiceUntil),
			nullMillis(d.WarrantyUntil), d.CreatedAt.UnixMilli(), boundAt, string(cfg)}, &d.ID)
	if isUniqueViolation(err) {
		return errs.New(errs.EConflict, "device.sn.taken").With(map[string]any{"sn": d.SN})
	}
	if err != nil {
		return errs.Internal("create device: %w", err)
	}
	return nil
}

// FindDeviceByID returns ENOTFOUND when absent.
func (db *DB) FindDeviceByID(ctx context.Context, id int64) (*devices.Device, error) {
	d, err := scanDevice(db.sql.QueryRowContext(ctx, `SELECT `+deviceColumns+` FROM devices d WHERE d.id = $1`, id))
	if err != nil {
		return nil, notFound(err, "find device")
	}
	return d, nil
}

// FindDeviceBySN returns ENOTFOUND when absent.
func (db *DB) FindDeviceBySN(ctx context.Context, sn string) (*devices.Device, error) {
	d, err := scanDevice(db.sql.QueryRowContext(ctx, `SELECT `+deviceColumns+` FROM devices d WHERE d.sn = $1`, sn))
	if err != nil {
		return nil, notFound(err, "find device")
	}
	return d, nil
}

// DeviceSNs returns every registered device's SN, in SN order.
func (db *DB) DeviceSNs(ctx context.Context) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT sn FROM devices ORDER BY sn`)
	if err != nil {
		return nil, errs.Internal("device SNs: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var sn string
		if err := rows.Scan(&sn); err != nil {
			return nil, errs.Internal("device SNs: %w", err)
		}
		out = append(out, sn)
	}
	if err := rows.Err(); err != nil {
		return nil, errs.Internal("device SNs: %w", err)
	}
	return out, nil
}

// FindDeviceByHashID returns ENOTFOUND when absent.
func (db *DB) FindDeviceByHashID(ctx context.Context, hashID string) (*devices.Device, error) {
	d, err := scanDevice(db.sql.QueryRowContext(ctx, `SELECT `+deviceColumns+` FROM devices d WHERE d.hash_id = $1`, hashID))
	if err != nil {
		return nil, notFound(err, "find device")
	}
	return d, nil
}

// DeviceKey returns the sealed key of a device. Returns ENOTFOUND.
func (db *DB) DeviceKey(ctx context.Context, id int64) (string, error) {
	var k string
	if err := db.sql.QueryRowContext(ctx, `SELECT key_sealed FROM devices WHERE id = $1`, id).Scan(&k); err != nil {
		return "", notFound(err, "device key")
	}
	return k, nil
}

// SetDeviceKey replaces a device's sealed key. Returns ENOTFOUND.
func (db *DB) SetDeviceKey(ctx context.Context, id int64, sealedKey string) error {
	res, err := db.sql.ExecContext(ctx, `UPDATE devices SET key_sealed = $2 WHERE id = $1`, id, sealedKey)
	if err != nil {
		return errs.Internal("set device key: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errs.NotFound()
	}
	return nil
}

// visibleClause restricts d to the devices viewer (the argument $n) holds as
// belong says. Every device query goes through it (or through visibleTo),
// so there is one place that decides who sees what.
func visibleClause(belong devices.Belong, n int) string {
	v := fmt.Sprintf("$%d", n)
	switch belong {
	case devices.BelongMine:
		return "d.owner_id = " + v + " AND NOT d.api_only"
	case devices.BelongShared:
		return "d.id IN (SELECT device_id FROM grants WHERE grantee_id = " + v + ") AND NOT d.api_only"
	default:
		// Both halves are index lookups (devices_owner, grants_grantee): a
		// viewer's list costs their own devices, not the whole table.
		return "d.id IN (SELECT id FROM devices WHERE owner_id = " + v +
			" UNION ALL SELECT device_id FROM grants WHERE grantee_id = " + v + ") AND NOT d.api_only"
	}
}

// narrow turns "all" into "mine" for a viewer nobody shares with, the
// common case: the plain owner condition walks the (owner_id, id) index in
// page order and stops at the page, where the union must collect every
// candidate before sorting.
func (db *DB) narrow(ctx context.Context, viewer int64, belong devices.Belong) devices.Belong {
	if belong != devices.BelongAll && belong != "" {
		return belong
	}
	var one int
	if err := db.sql.QueryRowContext(ctx, `SELECT 1 FROM grants WHERE grantee_id = $1 LIMIT 1`, viewer).Scan(&one); err != nil {
		return devices.BelongMine // none (an error here fails the main query too)
	}
	return devices.BelongAll
}

// visibleTo is the condition that account (a column such as r.owner_id,
// or a parameter) can see device d, already fixed by a join: it owns it or
// holds a grant on it. A device reachable only through the open API
// (api_only) is seen by nobody in the console.
func visibleTo(account string) string {
	return "(d.owner_id = " + account + " OR " + sharedWith(account) + ") AND NOT d.api_only"
}

func sharedWith(account string) string {
	return "EXISTS (SELECT 1 FROM grants g WHERE g.device_id = d.id AND g.grantee_id = " + account + ")"
}

// DeviceRight returns the device and viewer's right on it. A device the
// viewer cannot see is ENOTFOUND, exactly like one that does not exist.
func (db *DB) DeviceRight(ctx context.Context, viewer, id int64) (*devices.Device, devices.Right, error) {
	var (
		r                         devices.Right
		rename, settings, export_ sql.NullBool
	)
	d, err := scanDevice(scanAfter{db.sql.QueryRowContext(ctx, `SELECT `+deviceColumns+`, g.can_rename, g.can_settings, g.can_export
		FROM devices d LEFT JOIN grants g ON g.device_id = d.id AND g.grantee_id = $2
		WHERE d.id = $1 AND (d.owner_id = $2 OR g.grantee_id IS NOT NULL) AND NOT d.api_only`, id, viewer), []any{&rename, &settings, &export_}})
	if err != nil {
		return nil, devices.Right{}, notFound(err, "find device")
	}
	if d.OwnerID == viewer {
		return d, devices.OwnerRight, nil
	}
	r.Rename, r.Settings, r.Export = rename.Bool, settings.Bool, export_.Bool
	return d, r, nil
}

// scanAfter scans a device row followed by the extra columns.
type scanAfter struct {
	row   interface{ Scan(...any) error }
	extra []any
}

func (s scanAfter) Scan(dest ...any) error { return s.row.Scan(append(dest, s.extra...)...) }

// statusExpr computes devices.Device.StatusAt in SQL; $n is now (unix ms).
func statusExpr(n int) string {
	return fmt.Sprintf(`CASE WHEN d.state <> 'used' THEN d.state
		WHEN d.faults <> '' THEN 'fault'
		WHEN d.offline_at IS NULL OR d.offline_at < $%d THEN 'offline'
		WHEN d.battery < %g THEN 'lowpower'
		ELSE 'online' END`, n, devices.LowBattery)
}

var deviceSorts = map[string]string{
	"name":       "d.name",
	"sn":         "d.sn",
	"type":       "d.type_id",
	"created":    "d.created_at",
	"lastReport": "d.last_report_at",
	"status":     "status",
}

// FindDevices returns one page of the devices viewer can see and the total
// matching. A negative Limit returns every match.
func (db *DB) FindDevices(ctx context.Context, viewer int64, f devices.Filter, now time.Time) ([]*devices.Device, int, error) {
	args := []any{viewer}
	where := []string{visibleClause(db.narrow(ctx, viewer, f.Belong), 1)}
	if f.NameOrSN != "" {
		args = append(args, "%"+escapeLike(strings.ToLower(f.NameOrSN))+"%")
		cond := fmt.Sprintf(`%s LIKE $%d ESCAPE '\'`, db.dialect.likeFold("d.name"), len(args))
		// Five or more digits also match the end of the SN (SPEC §9: search by
		// the last 5 digits printed on the label).
		if len(f.NameOrSN) >= 5 && isDigits(f.NameOrSN) {
			args = append(args, "%"+f.NameOrSN)
			cond = fmt.Sprintf("(%s OR d.sn LIKE $%d)", cond, len(args))
		}
		where = append(where, cond)
	}
	if f.Status != nil {
		args = append(args, now.UnixMilli(), string(*f.Status))
		where = append(where, fmt.Sprintf("%s = $%d", statusExpr(len(args)-1), len(args)))
	}
	if f.TypeID != nil {
		args = append(args, *f.TypeID)
		where = append(where, fmt.Sprintf("d.type_id = $%d", len(args)))
	}
	if f.Category != nil {
		var ids []string
		for _, t := range devices.Types() {
			if t.Category == *f.Category {
				ids = append(ids, strconv.Itoa(t.ID))
			}
		}
		if len(ids) == 0 {
			ids = []string{"-1"}
		}
		where = append(where, "d.type_id IN ("+strings.Join(ids, ",")+")")
	}
	if f.TagID != nil {
		args = append(args, *f.TagID)
		where = append(where, fmt.Sprintf("EXISTS (SELECT 1 FROM device_tags t WHERE t.device_id = d.id AND t.tag_id = $%d AND t.account_id = $1)", len(args)))
	}
	cond := strings.Join(where, " AND ")
	nCond := len(args)

	order := deviceSorts[f.Sort]
	if order == "" {
		order = "d.id"
	}
	dir := "ASC"
	if f.Desc {
		dir = "DESC"
	}
	// Never-reported devices sort last either way; id breaks ties so pages
	// do not overlap. Only last_report_at can be NULL: other keys sort
	// plainly, so the default order walks the (owner_id, id) index and stops
	// at the page.
	nulls := ""
	if f.Sort == "lastReport" {
		nulls = order + ` IS NULL, `
	}
	args = append(args, now.UnixMilli())
	// A search or status filter reads every candidate row anyway: the total
	// rides along each row of the page (one scan instead of two). Without
	// one, a count of the owner index and a page walking it are cheaper.
	total := -1
	window := "-1"
	if f.NameOrSN != "" || f.Status != nil {
		window = "count(*) OVER ()"
	}
	// The page is chosen on narrow rows (id, sort key, total) and only its
	// devices are read whole: sorting ten thousand full rows to keep twenty
	// cost more than the filter itself.
	sortBy := nulls + order + ` ` + dir + `, d.id ` + dir
	page := `SELECT d.id, ` + statusExpr(len(args)) + ` AS status, ` + window + ` AS total FROM devices d WHERE ` + cond +
		` ORDER BY ` + sortBy
	if f.Limit >= 0 {
		args = append(args, f.Limit, f.Offset)
		page += fmt.Sprintf(" LIMIT $%d OFFSET $%d", len(args)-1, len(args))
	}
	if f.Sort == "status" {
		sortBy = "p.status " + dir + ", d.id " + dir
	}
	q := `SELECT ` + deviceColumns + `, p.status, p.total FROM (` + page + `) p JOIN devices d ON d.id = p.id ORDER BY ` + sortBy
	rows, err := db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, 0, errs.Internal("find devices: %w", err)
	}
	defer rows.Close()
	var list []*devices.Device
	for rows.Next() {
		var status string
		d, err := scanDevice(scanExtra{rows, &status, &total})
		if err != nil {
			return nil, 0, errs.Internal("find devices: %w", err)
		}
		list = append(list, d)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, errs.Internal("find devices: %w", err)
	}
	if total < 0 { // a page past the end: count separately
		total = 0
		if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM devices d WHERE `+cond, args[:nCond]...).Scan(&total); err != nil {
			return nil, 0, errs.Internal("count devices: %w", err)
		}
	}
	return list, total, nil
}

// scanExtra scans a device row followed by extra columns.
type scanExtra struct {
	rows  *sql.Rows
	extra *string
	total *int
}

func (s scanExtra) Scan(dest ...any) error { return s.rows.Scan(append(dest, s.extra, s.total)...) }

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// MapDevices returns the devices viewer can see with the fields a map
// needs, status computed here, as plain values.
func (db *DB) MapDevices(ctx context.Context, viewer int64, now time.Time, each func(*devices.MapPoint)) error {
	// Status, hash id and SN travel as one column, "status hashID SN" (the
	// first two never hold a space), and the rows are read through the
	// driver directly: each column and each row through database/sql costs
	// a call and a lock, the better part of a ten-thousand-device map.
	q := `SELECT d.id, ` + statusExpr(2) + ` || ' ' || d.hash_id || ' ' || d.sn, d.type_id, d.name,
		d.lat, d.lng, COALESCE(d.last_report_at, 0)
		FROM devices d WHERE ` + visibleClause(db.narrow(ctx, viewer, devices.BelongAll), 1) + ` ORDER BY d.id`
	var p devices.MapPoint
	err := db.rawQuery(ctx, q, []any{viewer, now.UnixMilli()}, func(row []driver.Value) error {
		id, ok1 := row[0].(int64)
		key, ok2 := row[1].(string)
		typ, ok3 := row[2].(int64)
		name, ok4 := row[3].(string)
		last, ok5 := row[6].(int64)
		if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
			return fmt.Errorf("map row (%T, %T, %T, %T, %T)", row[0], row[1], row[2], row[3], row[6])
		}
		st, rest, _ := strings.Cut(key, " ")
		p.ID, p.TypeID, p.Name, p.LastReport = id, int(typ), name, last
		p.HashID, p.SN, _ = strings.Cut(rest, " ")
		p.Status = statusOf(st)
		lat, okLat := asFloat(row[4])
		lng, okLng := asFloat(row[5])
		p.HasPos, p.Lat, p.Lng = okLat && okLng, lat, lng
		each(&p)
		return nil
	})
	if err != nil {
		return errs.Internal("map devices: %w", err)
	}
	return nil
}

// statusOf returns the Status constant spelled b.
func statusOf(b string) devices.Status {
	for _, s := range devices.Statuses {
		if string(s) == string(b) {
			return s
		}
	}
	return devices.Status(b)
}

// UpdateProfile stores a validated profile. Returns ENOTFOUND.
func (db *DB) UpdateProfile(ctx context.Context, id int64, p devices.Profile) error {
	return db.execOne(ctx, "update profile", `UPDATE devices SET name = $2, location = $3, lat = $4, lng = $5,
		altitude = $6, install_at = $7 WHERE id = $1`, id, p.Name, p.Location, p.Lat, p.Lng, p.Altitude, nullMillis(p.InstallAt))
}

// SetState changes a device's lifecycle state. Returns ENOTFOUND.
func (db *DB) SetState(ctx context.Context, id int64, st devices.State) error {
	return db.execOne(ctx, "set state", `UPDATE devices SET state = $2 WHERE id = $1`, id, string(st))
}

// UpdateConfig stores validated settings. Returns ENOTFOUND.
func (db *DB) UpdateConfig(ctx context.Context, id int64, c devices.Config) error {
	b, _ := json.Marshal(c)
	return db.execOne(ctx, "update config", `UPDATE devices SET config = $2 WHERE id = $1`, id, string(b))
}

// BindDevice gives an unbound device (and its slaves) an owner. Returns
// ECONFLICT when it already has one, ENOTFOUND.
func (db *DB) BindDevice(ctx context.Context, id, owner int64, name string, at time.Time) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE devices SET owner_id = $2, name = $3, state = 'used', bound_at = $4,
			install_at = COALESCE(install_at, $4) WHERE id = $1 AND owner_id IS NULL`, id, owner, name, at.UnixMilli())
		if err != nil {
			return errs.Internal("bind device: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var exists bool
			if err := tx.QueryRowContext(ctx, `SELECT TRUE FROM devices WHERE id = $1`, id).Scan(&exists); err != nil {
				return notFound(err, "bind device")
			}
			return errs.New(errs.EConflict, "device.bind.taken")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE devices SET owner_id = $2, state = 'used', bound_at = $3
			WHERE host_id = $1`, id, owner, at.UnixMilli()); err != nil {
			return errs.Internal("bind slaves: %w", err)
		}
		return nil
	})
}

// UnbindDevice removes a device (and its slaves) from its owner and erases
// their history, images and tags. Returns ENOTFOUND.
func (db *DB) UnbindDevice(ctx context.Context, id int64) error {
	defer db.rollupCache.reset() // its rollup rows are deleted
	return db.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id FROM devices WHERE id = $1 OR host_id = $1`, id)
		if err != nil {
			return errs.Internal("unbind: %w", err)
		}
		var ids []int64
		for rows.Next() {
			var x int64
			if err := rows.Scan(&x); err != nil {
				rows.Close()
				return errs.Internal("unbind: %w", err)
			}
			ids = append(ids, x)
		}
		rows.Close()
		if len(ids) == 0 {
			return errs.NotFound()
		}
		for _, x := range ids {
			for _, q := range []string{
				`DELETE FROM telemetry WHERE device_id = $1`,
				`DELETE FROM telemetry_chunks WHERE device_id = $1`,
				`DELETE FROM reports WHERE device_id = $1`,
				`DELETE FROM telemetry_daily WHERE device_id = $1`,
				`DELETE FROM images WHERE device_id = $1`,
				`DELETE FROM commands WHERE device_id = $1`,
				`DELETE FROM device_tags WHERE device_id = $1`,
				`DELETE FROM soil_settings WHERE device_id = $1`,
				`DELETE FROM grants WHERE device_id = $1`,
				`DELETE FROM share_link_devices WHERE device_id = $1`,
				`DELETE FROM device_portals WHERE device_id = $1`,
				`DELETE FROM ailab_app_devices WHERE device_id = $1`,
				`DELETE FROM ailab_jobs WHERE device_id = $1`,
				`UPDATE devices SET owner_id = NULL, state = 'idle', bound_at = NULL, install_at = NULL,
				  last_report_at = NULL, offline_at = NULL, gap_from = NULL, gap_to = NULL, battery = NULL, charge_voltage = NULL, signal = NULL,
				  status_at = NULL, faults = '', last_error = NULL WHERE id = $1`,
			} {
				if _, err := tx.ExecContext(ctx, q, x); err != nil {
					return errs.Internal("unbind: %w", err)
				}
			}
		}
		return nil
	})
}

// SetHealth records a status message unless a newer one is stored.
func (db *DB) SetHealth(ctx context.Context, id int64, h devices.Health) error {
	_, err := db.exec(ctx, `UPDATE devices SET
		battery = COALESCE($2, battery), charge_voltage = COALESCE($3, charge_voltage),
		signal = COALESCE($4, signal), faults = $5, status_at = $6
		WHERE id = $1 AND (status_at IS NULL OR status_at <= $6)`,
		id, h.Battery, h.ChargeVoltage, h.Signal, formatFaults(h.Faults), h.At.UnixMilli())
	if err != nil {
		return errs.Internal("set health: %w", err)
	}
	return nil
}

// SetLastError keeps a device's last refused report.
func (db *DB) SetLastError(ctx context.Context, id int64, e *devices.IngestError) error {
	b, _ := json.Marshal(ingestErrorJSON{At: e.At.UnixMilli(), Code: e.Code, Field: e.Field, Params: e.Params})
	_, err := db.exec(ctx, `UPDATE devices SET last_error = $2 WHERE id = $1`, id, string(b))
	if err != nil {
		return errs.Internal("set last error: %w", err)
	}
	return nil
}

// Slaves returns the slaves of a host, by SN.
func (db *DB) Slaves(ctx context.Context, hostID int64) ([]*devices.Device, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+deviceColumns+` FROM devices d WHERE d.host_id = $1 ORDER BY d.sn`, hostID)
	if err != nil {
		return nil, errs.Internal("slaves: %w", err)
	}
	defer rows.Close()
	var out []*devices.Device
	for rows.Next() {
		d, err := scanDevice(rows)
		if err != nil {
			return nil, errs.Internal("slaves: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// Tags lists an account's tags by name.
func (db *DB) Tags(ctx context.Context, account int64) ([]devices.Tag, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, name FROM tags WHERE account_id = $1 ORDER BY name, id`, account)
	if err != nil {
		return nil, errs.Internal("tags: %w", err)
	}
	defer rows.Close()
	out := []devices.Tag{}
	for rows.Next() {
		var t devices.Tag
		if err := rows.Scan(&t.ID, &t.Name); err != nil {
			return nil, errs.Internal("tags: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// CreateTag adds a tag. Returns EINVALID (tag): device.tag.taken when the
// account has one of that name.
func (db *DB) CreateTag(ctx context.Context, account int64, name string) (*devices.Tag, error) {
	t := &devices.Tag{Name: name}
	err := db.writeRow(ctx, `INSERT INTO tags (account_id, name, created_at) VALUES ($1, $2, $3) RETURNING id`,
		[]any{account, name, time.Now().UnixMilli()}, &t.ID)
	if isUniqueViolation(err) {
		return nil, errs.Invalid("tag", "device.tag.taken")
	}
	if err != nil {
		return nil, errs.Internal("create tag: %w", err)
	}
	return t, nil
}

// DeleteTag removes an account's tag. Returns ENOTFOUND.
func (db *DB) DeleteTag(ctx context.Context, account, id int64) error {
	return db.execOne(ctx, "delete tag", `DELETE FROM tags WHERE id = $1 AND account_id = $2`, id, account)
}

// AddDeviceTag labels a device with one of the account's tags; adding a tag
// it already carries is a no-op. Returns EINVALID (tagId): device.tag.notFound
// for a tag that is not the account's, ECONFLICT (the device carries MaxTags
// of the account's tags).
func (db *DB) AddDeviceTag(ctx context.Context, account, device, tag int64) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		var owner int64
		if err := tx.QueryRowContext(ctx, `SELECT account_id FROM tags WHERE id = $1`, tag).Scan(&owner); err != nil || owner != account {
			if err != nil && err != sql.ErrNoRows {
				return errs.Internal("tag device: %w", err)
			}
			return errs.Invalid("tagId", "device.tag.notFound")
		}
		return db.addDeviceTag(ctx, tx, account, device, tag)
	})
}

// AddDeviceTagNamed labels a device with the account's tag of that name,
// creating the tag in the same transaction when the account has none: a
// refusal (the device already carries MaxTags) leaves no new tag behind.
// Returns the tag, ECONFLICT (device.tag.limit).
func (db *DB) AddDeviceTagNamed(ctx context.Context, account, device int64, name string) (*devices.Tag, error) {
	t := &devices.Tag{Name: name}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		// A tag of that name created meanwhile by another request is taken
		// as it is: the insert does nothing and the select sees it.
		err := tx.QueryRowContext(ctx, `INSERT INTO tags (account_id, name, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (account_id, name) DO NOTHING RETURNING id`, account, name, time.Now().UnixMilli()).Scan(&t.ID)
		if err == sql.ErrNoRows {
			err = tx.QueryRowContext(ctx, `SELECT id FROM tags WHERE account_id = $1 AND name = $2`, account, name).Scan(&t.ID)
		}
		if err != nil {
			return errs.Internal("tag device: %w", err)
		}
		return db.addDeviceTag(ctx, tx, account, device, t.ID)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// addDeviceTag puts the account's tag on a device within tx, unless the
// device carries it already; ECONFLICT when it carries MaxTags.
func (db *DB) addDeviceTag(ctx context.Context, tx *sql.Tx, account, device, tag int64) error {
	// Serialize concurrent taggings of one device on PostgreSQL so two
	// requests cannot both see two tags and add a fourth (SQLite's
	// immediate transactions already serialize writers).
	if _, err := tx.ExecContext(ctx, `SELECT id FROM devices WHERE id = $1`+db.dialect.forUpdate(), device); err != nil {
		return errs.Internal("tag device: %w", err)
	}
	var n int
	var has bool
	if err := tx.QueryRowContext(ctx, `SELECT count(*), COALESCE(SUM(CASE WHEN tag_id = $3 THEN 1 ELSE 0 END), 0) > 0
		FROM device_tags WHERE device_id = $1 AND account_id = $2`, device, account, tag).Scan(&n, &has); err != nil {
		return errs.Internal("tag device: %w", err)
	}
	if has {
		return nil
	}
	if n >= devices.MaxTags {
		return errs.New(errs.EConflict, "device.tag.limit").With(map[string]any{"max": devices.MaxTags})
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO device_tags (device_id, tag_id, account_id) VALUES ($1, $2, $3)`,
		device, tag, account); err != nil {
		return errs.Internal("tag device: %w", err)
	}
	return nil
}

// RemoveDeviceTag takes a tag off a device. Returns ENOTFOUND when it was not on it.
func (db *DB) RemoveDeviceTag(ctx context.Context, account, device, tag int64) error {
	return db.execOne(ctx, "untag device", `DELETE FROM device_tags WHERE device_id = $1 AND tag_id = $2 AND account_id = $3`,
		device, tag, account)
}

// DeviceTags returns the account's tags on each of the devices.
func (db *DB) DeviceTags(ctx context.Context, account int64, ids []int64) (map[int64][]devices.Tag, error) {
	out := map[int64][]devices.Tag{}
	if len(ids) == 0 {
		return out, nil
	}
	q := `SELECT dt.device_id, t.id, t.name FROM device_tags dt JOIN tags t ON t.id = dt.tag_id WHERE dt.account_id = $1`
	args := []any{account}
	if len(ids) <= 1000 { // a page: look up just its devices; an export reads them all
		in := make([]string, len(ids))
		for i, id := range ids {
			args = append(args, id)
			in[i] = fmt.Sprintf("$%d", i+2)
		}
		q += ` AND dt.device_id IN (` + strings.Join(in, ",") + `)`
	}
	rows, err := db.sql.QueryContext(ctx, q+` ORDER BY t.name, t.id`, args...)
	if err != nil {
		return nil, errs.Internal("device tags: %w", err)
	}
	defer rows.Close()
	want := make(map[int64]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	for rows.Next() {
		var (
			id int64
			t  devices.Tag
		)
		if err := rows.Scan(&id, &t.ID, &t.Name); err != nil {
			return nil, errs.Internal("device tags: %w", err)
		}
		if want[id] {
			out[id] = append(out[id], t)
		}
	}
	return out, rows.Err()
}
