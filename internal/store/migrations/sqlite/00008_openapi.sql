-- +goose Up
-- A device reachable only through the open API (SPEC §6): its owner's
-- applications read it; the console does not list it.
ALTER TABLE devices ADD COLUMN api_only BOOLEAN NOT NULL DEFAULT FALSE;
-- A channel of all the owner's devices, present and future (an open-API
-- application's push with range "all").
ALTER TABLE push_channels ADD COLUMN all_devices BOOLEAN NOT NULL DEFAULT FALSE;

-- Open-API applications (SPEC §3). app_key is public; the secret is sealed
-- (the server verifies signatures with it), shown once. channel_id is the
-- push channel of its push address, if any.
CREATE TABLE openapi_apps (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id      INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL,
    app_key       TEXT    NOT NULL UNIQUE,
    secret_sealed TEXT    NOT NULL,
    push_url      TEXT    NOT NULL DEFAULT '',
    all_devices   BOOLEAN NOT NULL DEFAULT TRUE,
    published     BOOLEAN NOT NULL DEFAULT FALSE,
    channel_id    INTEGER REFERENCES push_channels (id) ON DELETE SET NULL,
    created_at    BIGINT  NOT NULL,
    updated_at    BIGINT  NOT NULL
);
CREATE INDEX openapi_apps_owner ON openapi_apps (owner_id, id);

CREATE TABLE openapi_app_devices (
    app_id    INTEGER NOT NULL REFERENCES openapi_apps (id) ON DELETE CASCADE,
    device_id INTEGER NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    PRIMARY KEY (app_id, device_id)
);

-- Nonces seen in the last minutes: a signed request is accepted once.
CREATE TABLE openapi_nonces (
    app_id INTEGER NOT NULL REFERENCES openapi_apps (id) ON DELETE CASCADE,
    nonce  TEXT   NOT NULL,
    at     BIGINT NOT NULL,
    PRIMARY KEY (app_id, nonce)
);
CREATE INDEX openapi_nonces_at ON openapi_nonces (at);

-- +goose Down
DROP TABLE openapi_nonces;
DROP TABLE openapi_app_devices;
DROP TABLE openapi_apps;
ALTER TABLE push_channels DROP COLUMN all_devices;
ALTER TABLE devices DROP COLUMN api_only;
