-- +goose Up
-- The overview (docs/overview.md): a device's last silence longer than its
-- offline threshold, written when it reports again, so "data gaps in the
-- last day" is a column, not a scan of readings; and events by time.
ALTER TABLE devices ADD COLUMN gap_from BIGINT;
ALTER TABLE devices ADD COLUMN gap_to BIGINT;
CREATE INDEX alert_events_owner_at ON alert_events (owner_id, at);

-- +goose Down
DROP INDEX alert_events_owner_at;
ALTER TABLE devices DROP COLUMN gap_to;
ALTER TABLE devices DROP COLUMN gap_from;
