-- +goose Up
-- AI lab applications (docs/ai-lab.md): a model run on each new picture of
-- the devices an application watches, while it is published. elements is
-- the JSON list of the model's elements the application reports.
CREATE TABLE ailab_apps (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id    BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    medium_name TEXT    NOT NULL DEFAULT '',
    description TEXT    NOT NULL DEFAULT '',
    type        TEXT    NOT NULL,
    model_id    BIGINT NOT NULL REFERENCES ailab_models (id),
    elements    TEXT    NOT NULL,
    published   BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
CREATE INDEX ailab_apps_owner ON ailab_apps (owner_id, id);
CREATE UNIQUE INDEX ailab_apps_name ON ailab_apps (owner_id, name);

CREATE TABLE ailab_app_devices (
    app_id    BIGINT NOT NULL REFERENCES ailab_apps (id) ON DELETE CASCADE,
    device_id BIGINT NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    PRIMARY KEY (app_id, device_id)
);
CREATE INDEX ailab_app_devices_device ON ailab_app_devices (device_id);

-- A run of an application on one picture: the queue the detection workers
-- claim from. queued → running (leased until lease_until) → done or
-- failed; a failed attempt goes back to queued for next_at until the last.
CREATE TABLE ailab_jobs (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_id      BIGINT NOT NULL REFERENCES ailab_apps (id) ON DELETE CASCADE,
    image_id    BIGINT NOT NULL REFERENCES images (id) ON DELETE CASCADE,
    device_id   BIGINT NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'queued',
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     BIGINT  NOT NULL,
    lease_until BIGINT,
    error       TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL,
    finished_at BIGINT
);
CREATE UNIQUE INDEX ailab_jobs_run ON ailab_jobs (app_id, image_id);
CREATE INDEX ailab_jobs_due ON ailab_jobs (status, next_at, id);

-- A detection record: one run's outcome, kept when the application or the
-- picture goes (their names and the device's are copied in). packages is
-- the JSON list of per-element results.
CREATE TABLE ailab_records (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id    BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    app_id      BIGINT,
    app_name    TEXT    NOT NULL,
    device_id   BIGINT NOT NULL,
    device_name TEXT    NOT NULL,
    sn          TEXT    NOT NULL,
    image_id    BIGINT,
    detected_at BIGINT  NOT NULL,
    location    TEXT    NOT NULL DEFAULT '',
    lat         DOUBLE PRECISION,
    lng         DOUBLE PRECISION,
    packages    TEXT    NOT NULL,
    millis      DOUBLE PRECISION NOT NULL,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX ailab_records_owner ON ailab_records (owner_id, detected_at, id);
CREATE UNIQUE INDEX ailab_records_run ON ailab_records (app_id, image_id);

-- +goose Down
DROP TABLE ailab_records;
DROP TABLE ailab_jobs;
DROP TABLE ailab_app_devices;
DROP TABLE ailab_apps;
