-- +goose Up
-- Compacted readings (docs/storage.md): one row per series (device, param,
-- node) and UTC day (days since 1970-01-01), the day's readings packed by
-- package tsz; n is how many. Readings move here from telemetry once their
-- day is out of the hot window (store/chunks.go). The packed data does not
-- compress further: stored as it is, never run through pglz.
CREATE TABLE telemetry_chunks (
    device_id BIGINT   NOT NULL,
    param     SMALLINT NOT NULL,
    node      SMALLINT NOT NULL,
    day       INTEGER  NOT NULL,
    n         INTEGER  NOT NULL,
    data      BYTEA    NOT NULL
);
CREATE UNIQUE INDEX telemetry_chunks_key ON telemetry_chunks (device_id, param, node, day);
ALTER TABLE telemetry_chunks ALTER COLUMN data SET STORAGE EXTERNAL;

-- +goose Down
DROP TABLE telemetry_chunks;
