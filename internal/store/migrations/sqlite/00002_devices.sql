-- +goose Up
-- Devices and their telemetry. Times are unix milliseconds, as everywhere.
CREATE TABLE devices (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    hash_id        TEXT    NOT NULL,
    sn             TEXT    NOT NULL,
    type_id        INTEGER NOT NULL,
    slave          BOOLEAN NOT NULL DEFAULT FALSE,
    host_id        INTEGER REFERENCES devices (id) ON DELETE SET NULL,
    owner_id       INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
    name           TEXT    NOT NULL,
    state          TEXT    NOT NULL,
    -- The device key sealed with the server's secret: its owner may read it back.
    key_sealed     TEXT    NOT NULL,
    location       TEXT    NOT NULL DEFAULT '',
    lat            DOUBLE PRECISION,
    lng            DOUBLE PRECISION,
    altitude       DOUBLE PRECISION,
    install_at     BIGINT,
    service_until  BIGINT,
    warranty_until BIGINT,
    created_at     BIGINT  NOT NULL,
    bound_at       BIGINT,
    last_report_at BIGINT,
    -- When the device counts as offline unless it reports again: set on each
    -- report from its interval, so status filters need no per-type arithmetic.
    offline_at     BIGINT,
    battery        DOUBLE PRECISION,
    charge_voltage DOUBLE PRECISION,
    signal         DOUBLE PRECISION,
    status_at      BIGINT,
    faults         TEXT    NOT NULL DEFAULT '',
    last_error     TEXT,
    config         TEXT    NOT NULL DEFAULT '{}'
);
CREATE UNIQUE INDEX devices_sn ON devices (sn);
CREATE UNIQUE INDEX devices_hash_id ON devices (hash_id);
CREATE INDEX devices_owner ON devices (owner_id, id);
CREATE INDEX devices_host ON devices (host_id);

CREATE TABLE tags (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,
    created_at BIGINT  NOT NULL
);
CREATE UNIQUE INDEX tags_account_name ON tags (account_id, name);

-- Tags belong to accounts; device_tags holds one account's labels on a device.
CREATE TABLE device_tags (
    device_id  INTEGER NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    tag_id     INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    PRIMARY KEY (device_id, tag_id)
);
CREATE INDEX device_tags_account ON device_tags (account_id, device_id);
CREATE INDEX device_tags_tag ON device_tags (tag_id);

-- Parameter identifiers get small stable codes so the telemetry key stays short.
CREATE TABLE params (
    code INTEGER PRIMARY KEY,
    id   TEXT    NOT NULL UNIQUE
);

-- One row per report: (device, ts) is what makes a redelivery store once.
CREATE TABLE reports (
    device_id INTEGER NOT NULL,
    ts        BIGINT  NOT NULL,
    points    INTEGER NOT NULL,
    PRIMARY KEY (device_id, ts)
) WITHOUT ROWID;

-- One row per reading; node is the depth in cm, 0 for the device as a whole.
CREATE TABLE telemetry (
    device_id INTEGER NOT NULL,
    param     INTEGER NOT NULL,
    node      INTEGER NOT NULL,
    ts        BIGINT  NOT NULL,
    value     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (device_id, param, node, ts)
) WITHOUT ROWID;

-- Daily rollups, kept when raw readings age out: one row per device and
-- local day (midnight, unix ms) holding every series' min, max, sum, count
-- and last reading, packed (see store/rollup.go). One row per device-day
-- keeps the write path to one upsert per device per batch, and a year of a
-- device's days is 365 rows. The newest rows also give the latest values.
CREATE TABLE telemetry_daily (
    device_id INTEGER NOT NULL,
    day       BIGINT  NOT NULL,
    data      BLOB    NOT NULL,
    PRIMARY KEY (device_id, day)
) WITHOUT ROWID;

CREATE TABLE images (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    device_id    INTEGER NOT NULL,
    ts           BIGINT  NOT NULL,
    content_type TEXT    NOT NULL,
    data         BLOB    NOT NULL
);
CREATE UNIQUE INDEX images_device_ts ON images (device_id, ts);

-- +goose Down
DROP TABLE images;
DROP TABLE telemetry_daily;
DROP TABLE telemetry;
DROP TABLE reports;
DROP TABLE params;
DROP TABLE device_tags;
DROP TABLE tags;
DROP TABLE devices;
