-- +goose Up
-- Sharing (SPEC §3 Authorization, §6). A grant lets grantee_id read device_id
-- and, per flag, rename it, change its settings or export its data. The
-- owner is the device's owner_id; a grant never outlives a transfer.
CREATE TABLE grants (
    device_id  BIGINT NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    grantee_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    can_rename   BOOLEAN NOT NULL DEFAULT FALSE,
    can_settings BOOLEAN NOT NULL DEFAULT FALSE,
    can_export   BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT  NOT NULL,
    PRIMARY KEY (device_id, grantee_id)
);
CREATE INDEX grants_grantee ON grants (grantee_id, device_id);

-- A link an owner hands out: kind 'grant' or 'transfer', valid until
-- expires_at and used once. Only the SHA-256 of the link's secret is kept.
CREATE TABLE share_links (
    id           TEXT    PRIMARY KEY,
    kind         TEXT    NOT NULL,
    owner_id     BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    can_rename   BOOLEAN NOT NULL DEFAULT FALSE,
    can_settings BOOLEAN NOT NULL DEFAULT FALSE,
    can_export   BOOLEAN NOT NULL DEFAULT FALSE,
    created_at   BIGINT  NOT NULL,
    expires_at   BIGINT  NOT NULL,
    used_at      BIGINT,
    used_by      BIGINT REFERENCES accounts (id) ON DELETE SET NULL
);
CREATE TABLE share_link_devices (
    link_id   TEXT    NOT NULL REFERENCES share_links (id) ON DELETE CASCADE,
    device_id BIGINT NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    PRIMARY KEY (link_id, device_id)
);

-- Every change of ownership, for the record.
CREATE TABLE transfers (
    device_id BIGINT NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    from_id   BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
    to_id     BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
    at        BIGINT  NOT NULL
);
CREATE INDEX transfers_device ON transfers (device_id, at);

-- +goose Down
DROP TABLE transfers;
DROP TABLE share_link_devices;
DROP TABLE share_links;
DROP TABLE grants;
