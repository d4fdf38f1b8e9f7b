-- +goose Up
-- Compacted readings (docs/storage.md): one row per series (device, param,
-- node) and UTC day (days since 1970-01-01), the day's readings packed by
-- package tsz; n is how many. Readings move here from telemetry once their
-- day is out of the hot window (store/chunks.go). A rowid table, not
-- WITHOUT ROWID: a row's payload then stays on its page up to ~4 KB instead
-- of ~1 KB, so a day of one-minute readings needs no overflow page.
CREATE TABLE telemetry_chunks (
    device_id INTEGER NOT NULL,
    param     INTEGER NOT NULL,
    node      INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    n         INTEGER NOT NULL,
    data      BLOB    NOT NULL
);
CREATE UNIQUE INDEX telemetry_chunks_key ON telemetry_chunks (device_id, param, node, day);

-- +goose Down
DROP TABLE telemetry_chunks;
