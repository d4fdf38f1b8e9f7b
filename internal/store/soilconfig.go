package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/fieldwatch/fieldwatch/internal/errs"
	"github.com/fieldwatch/fieldwatch/internal/soil"
)

var _ soil.Store = (*DB)(nil)

// soilNode is a node of the soil settings as the nodes column holds it.
type soilNode struct {
	Depth         int     `json:"depth"`
	FieldCapacity float64 `json:"fieldCapacity"`
	UnitWeight    float64 `json:"unitWeight"`
}

// SoilSettings returns a device's soil settings; ENOTFOUND when it has none,
// or when they were saved under another owner than the device's current one.
func (db *DB) SoilSettings(ctx context.Context, deviceID int64) (*soil.Settings, error) {
	var (
		s                soil.Settings
		nodes            string
		stored           []soilNode
		planted, enabled sql.NullInt64
		area             sql.NullFloat64
		updated          int64
	)
	err := db.sql.QueryRowContext(ctx, `SELECT s.device_id, s.nodes, s.crop_type, s.crop_variety, s.irrigation_method,
		s.planted_at, s.area_mu, s.enabled_at, s.upload, s.updated_at
		FROM soil_settings s JOIN devices d ON d.id = s.device_id AND d.owner_id = s.owner_id
		WHERE s.device_id = $1`, deviceID).Scan(&s.DeviceID, &nodes, &s.CropType, &s.CropVariety, &s.IrrigationMethod,
		&planted, &area, &enabled, &s.Upload, &updated)
	if err != nil {
		return nil, notFound(err, "soil settings")
	}
	if err := json.Unmarshal([]byte(nodes), &stored); err != nil {
		return nil, errs.Internal("soil settings %d: nodes: %w", deviceID, err)
	}
	s.Nodes = make([]soil.NodeConfig, len(stored))
	for i, n := range stored {
		s.Nodes[i] = soil.NodeConfig(n)
	}
	s.PlantingTime, s.EnableTime = fromNullMillis(planted), fromNullMillis(enabled)
	s.AreaMu = nullFloat(area)
	s.UpdatedAt = fromMillis(updated)
	return &s, nil
}

// SaveSoilSettings creates or replaces a device's soil settings under its
// current owner. Returns ENOTFOUND for a device that does not exist or has
// no owner.
func (db *DB) SaveSoilSettings(ctx context.Context, s *soil.Settings) error {
	nodes := make([]soilNode, len(s.Nodes))
	for i, n := range s.Nodes {
		nodes[i] = soilNode(n)
	}
	b, err := json.Marshal(nodes)
	if err != nil {
		return errs.Internal("soil settings: %w", err)
	}
	// WHERE on the SELECT also keeps SQLite from reading ON CONFLICT as a join.
	return db.execOne(ctx, "save soil settings", `INSERT INTO soil_settings (device_id, owner_id, nodes, crop_type,
		crop_variety, irrigation_method, planted_at, area_mu, enabled_at, upload, updated_at)
		SELECT id, owner_id, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM devices WHERE id = $1 AND owner_id IS NOT NULL
		ON CONFLICT (device_id) DO UPDATE SET owner_id = excluded.owner_id, nodes = excluded.nodes,
		crop_type = excluded.crop_type, crop_variety = excluded.crop_variety, irrigation_method = excluded.irrigation_method,
		planted_at = excluded.planted_at, area_mu = excluded.area_mu, enabled_at = excluded.enabled_at,
		upload = excluded.upload, updated_at = excluded.updated_at`,
		s.DeviceID, string(b), s.CropType, s.CropVariety, s.IrrigationMethod, nullMillis(s.PlantingTime),
		optFloat(s.AreaMu), nullMillis(s.EnableTime), s.Upload, millis(s.UpdatedAt))
}

// optFloat is an optional number as a query argument.
func optFloat(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}
