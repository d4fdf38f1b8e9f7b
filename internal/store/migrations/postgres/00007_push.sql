-- +goose Up
-- Data-push channels (SPEC §3): every new report of their devices is POSTed
-- to url. The signing secret is sealed with the server secret (the server
-- must use it to sign), shown once when made or reset. kind 'channel' is a
-- data-push channel; 'app' the push address of an open-API application.
CREATE TABLE push_channels (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id      BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL DEFAULT 'channel',
    name          TEXT    NOT NULL,
    url           TEXT    NOT NULL,
    enabled       BOOLEAN NOT NULL DEFAULT TRUE,
    secret_sealed TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL,
    updated_at    BIGINT  NOT NULL
);
CREATE INDEX push_channels_owner ON push_channels (owner_id, id);

CREATE TABLE push_channel_devices (
    channel_id BIGINT NOT NULL REFERENCES push_channels (id) ON DELETE CASCADE,
    device_id  BIGINT NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    PRIMARY KEY (channel_id, device_id)
);
CREATE INDEX push_channel_devices_device ON push_channel_devices (device_id, channel_id);

-- One row per report to deliver, written in the transaction that stores the
-- report: it is the queue, the log and the dead letter. status is pending
-- (waiting or retrying; next_at says when), success, or fail (gave up; a
-- manual retry makes it pending again). ts is the report's collect time.
CREATE TABLE push_deliveries (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel_id  BIGINT NOT NULL REFERENCES push_channels (id) ON DELETE CASCADE,
    device_id   BIGINT NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    ts          BIGINT  NOT NULL,
    payload     TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'pending',
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     BIGINT  NOT NULL,
    created_at  BIGINT  NOT NULL,
    pushed_at   BIGINT,
    duration_ms INTEGER,
    http_status INTEGER,
    error       TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX push_deliveries_due ON push_deliveries (channel_id, status, next_at);
CREATE INDEX push_deliveries_order ON push_deliveries (channel_id, device_id, ts);
CREATE INDEX push_deliveries_log ON push_deliveries (channel_id, created_at);

-- +goose Down
DROP TABLE push_deliveries;
DROP TABLE push_channel_devices;
DROP TABLE push_channels;
