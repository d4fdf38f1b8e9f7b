-- +goose Up
-- Data exports sent by e-mail: a job per request, claimed by one worker at a
-- time. A running job's lease_until is renewed by its worker's heartbeat; when
-- it passes, the worker is taken for dead and another node takes the job over.
CREATE TABLE export_jobs (
    id          TEXT    PRIMARY KEY,
    account_id  BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    device_id   BIGINT  NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    params      TEXT    NOT NULL, -- parameter identifiers, comma-separated
    nodes       TEXT    NOT NULL DEFAULT '', -- depths, comma-separated; empty: all
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
CREATE INDEX export_jobs_due ON export_jobs (status, next_at);
CREATE INDEX export_jobs_created ON export_jobs (created_at);

-- +goose Down
DROP TABLE export_jobs;
