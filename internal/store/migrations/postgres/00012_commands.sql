-- +goose Up
-- Commands sent to devices (package commands): who sent what, from where,
-- and when it reached each state. reason_code is an i18n key; reason is a
-- failing device's own words. Times are unix ms.
CREATE TABLE commands (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    device_id    BIGINT NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    account_id   BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
    source       TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    params       TEXT    NOT NULL,
    state        TEXT    NOT NULL,
    reason_code  TEXT    NOT NULL DEFAULT '',
    reason       TEXT    NOT NULL DEFAULT '',
    confirmed_by TEXT    NOT NULL DEFAULT '',
    submitted_at BIGINT  NOT NULL,
    pending_at   BIGINT,
    delivered_at BIGINT,
    finished_at  BIGINT,
    expires_at   BIGINT  NOT NULL
);
CREATE INDEX commands_device ON commands (device_id, id);
CREATE INDEX commands_open ON commands (state, expires_at);

-- +goose Down
DROP TABLE commands;
