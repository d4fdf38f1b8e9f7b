-- +goose Up
-- Unified portal links (docs/decisions.md, "The unified portal"): at most
-- one per device, made by its owner. Only the SHA-256 of the link's token
-- is kept. A link counts only while the device has the owner who made it.
CREATE TABLE device_portals (
    device_id     INTEGER PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
    owner_id      INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    token_hash    TEXT   NOT NULL UNIQUE,
    allow_control BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    BIGINT NOT NULL
);

-- +goose Down
DROP TABLE device_portals;
