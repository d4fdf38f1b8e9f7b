-- +goose Up
-- Soil-moisture briefing presets (SPEC §3 "Soil briefing config"). The
-- regions, bands, devices, schedule and recipients are one JSON document,
-- always read and written whole; the columns beside it are what lists and
-- the scheduler select on. last_run_at is the scheduled time of the last
-- scheduled report queued, so each time comes out once whatever the nodes.
-- Times are unix milliseconds.
CREATE TABLE soil_briefings (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id         INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
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
-- 'briefing', briefing_id set). SQLite cannot drop NOT NULL from a column,
-- so the table is rebuilt with the same rows.
CREATE TABLE export_jobs_new (
    id          TEXT    PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    device_id   INTEGER REFERENCES devices (id) ON DELETE CASCADE,
    params      TEXT    NOT NULL,
    nodes       TEXT    NOT NULL DEFAULT '',
    email       TEXT    NOT NULL,
    begin_at    BIGINT  NOT NULL,
    end_at      BIGINT  NOT NULL,
    dim         TEXT    NOT NULL,
    format      TEXT    NOT NULL,
    lang        TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    progress    INTEGER NOT NULL DEFAULT 0,
    row_count   BIGINT  NOT NULL DEFAULT 0,
    attempts    INTEGER NOT NULL DEFAULT 0,
    error       TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL,
    next_at     BIGINT  NOT NULL,
    lease_until BIGINT,
    finished_at BIGINT,
    kind        TEXT    NOT NULL DEFAULT 'data',
    briefing_id INTEGER REFERENCES soil_briefings (id) ON DELETE CASCADE
);
INSERT INTO export_jobs_new (id, account_id, device_id, params, nodes, email, begin_at, end_at, dim, format, lang,
    status, progress, row_count, attempts, error, created_at, next_at, lease_until, finished_at)
SELECT id, account_id, device_id, params, nodes, email, begin_at, end_at, dim, format, lang,
    status, progress, row_count, attempts, error, created_at, next_at, lease_until, finished_at FROM export_jobs;
DROP TABLE export_jobs;
ALTER TABLE export_jobs_new RENAME TO export_jobs;
CREATE INDEX export_jobs_due ON export_jobs (status, next_at);
CREATE INDEX export_jobs_created ON export_jobs (created_at);
CREATE INDEX export_jobs_briefing ON export_jobs (briefing_id);

-- +goose Down
DELETE FROM export_jobs WHERE kind <> 'data';
CREATE TABLE export_jobs_old (
    id          TEXT    PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    device_id   INTEGER NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    params      TEXT    NOT NULL,
    nodes       TEXT    NOT NULL DEFAULT '',
    email       TEXT    NOT NULL,
    begin_at    BIGINT  NOT NULL,
    end_at      BIGINT  NOT NULL,
    dim         TEXT    NOT NULL,
    format      TEXT    NOT NULL,
    lang        TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    progress    INTEGER NOT NULL DEFAULT 0,
    row_count   BIGINT  NOT NULL DEFAULT 0,
    attempts    INTEGER NOT NULL DEFAULT 0,
    error       TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL,
    next_at     BIGINT  NOT NULL,
    lease_until BIGINT,
    finished_at BIGINT
);
INSERT INTO export_jobs_old SELECT id, account_id, device_id, params, nodes, email, begin_at, end_at, dim, format, lang,
    status, progress, row_count, attempts, error, created_at, next_at, lease_until, finished_at FROM export_jobs;
DROP TABLE export_jobs;
ALTER TABLE export_jobs_old RENAME TO export_jobs;
CREATE INDEX export_jobs_due ON export_jobs (status, next_at);
CREATE INDEX export_jobs_created ON export_jobs (created_at);
DROP TABLE soil_briefings;
