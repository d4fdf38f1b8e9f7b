-- +goose Up
-- Soil-moisture briefing presets (SPEC §3 "Soil briefing config"). The
-- regions, bands, devices, schedule and recipients are one JSON document,
-- always read and written whole; the columns beside it are what lists and
-- the scheduler select on. Times are unix milliseconds.
CREATE TABLE soil_briefings (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id         INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name             TEXT    NOT NULL,
    template_id      TEXT    NOT NULL,
    config           TEXT    NOT NULL,
    schedule_enabled BOOLEAN NOT NULL,
    created_at       BIGINT  NOT NULL,
    updated_at       BIGINT  NOT NULL
);
CREATE INDEX soil_briefings_owner ON soil_briefings (owner_id, id);
CREATE INDEX soil_briefings_scheduled ON soil_briefings (schedule_enabled);

-- +goose Down
DROP TABLE soil_briefings;
