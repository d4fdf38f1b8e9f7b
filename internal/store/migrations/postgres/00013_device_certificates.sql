-- +goose Up
-- Device certificates the console issued (docs/device-protocol.md): the
-- serial in hex; neither the certificate nor its key is kept. A certificate
-- counts only while the device has the owner it was issued to and it is
-- not revoked.
CREATE TABLE device_certificates (
    serial     TEXT    PRIMARY KEY,
    device_id  BIGINT  NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    owner_id   BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    not_after  BIGINT  NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX device_certificates_device ON device_certificates (device_id);

-- +goose Down
DROP TABLE device_certificates;
