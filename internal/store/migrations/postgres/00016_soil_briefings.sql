-- +goose Up
-- Soil-moisture briefing presets (SPEC §3 "Soil briefing config"). The
-- regions, bands, devices, schedule and recipients are one JSON document,
-- always read and written whole; the columns beside it are what lists and
-- the scheduler select on. last_run_at is the scheduled time of the last
-- scheduled report queued, so each time comes out once whatever the nodes.
-- Times are unix milliseconds.
CREATE TABLE soil_briefings (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id         BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name             TEXT    NOT NULL,
    template_id      TEXT    NOT NULL,
    config           TEXT    NOT NULL,
    schedule_enabled BOOLEAN NOT NULL,
    last_run_at      BIGINT,
    created_at       BIGINT  NOT NULL,
    updated_at       BIGINT  NOT NULL
);
CREATE INDEX soil_briefings_owner ON soil_briefings (owner_id, id);
CREATE INDEX soil_briefings_scheduled ON soil_briefings (schedule_enabled);

-- Briefing files go through the export job queue: a job is either a
-- device's data (kind 'data', device_id set) or a briefing (kind
-- 'briefing', briefing_id set).
ALTER TABLE export_jobs ALTER COLUMN device_id DROP NOT NULL;
ALTER TABLE export_jobs ADD COLUMN kind TEXT NOT NULL DEFAULT 'data';
ALTER TABLE export_jobs ADD COLUMN briefing_id BIGINT REFERENCES soil_briefings (id) ON DELETE CASCADE;
CREATE INDEX export_jobs_briefing ON export_jobs (briefing_id);

-- +goose Down
DELETE FROM export_jobs WHERE kind <> 'data';
DROP INDEX export_jobs_briefing;
ALTER TABLE export_jobs DROP COLUMN briefing_id;
ALTER TABLE export_jobs DROP COLUMN kind;
ALTER TABLE export_jobs ALTER COLUMN device_id SET NOT NULL;
DROP TABLE soil_briefings;
