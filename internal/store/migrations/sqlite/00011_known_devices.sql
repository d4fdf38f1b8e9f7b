-- +goose Up
-- Clients that have logged in to an account: the hex SHA-256 of the token in
-- their known-device cookie. A known device still logs in while strangers'
-- failures throttle the account (accounts.Options).
CREATE TABLE known_devices (
    id         TEXT    NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL,
    PRIMARY KEY (id, account_id)
);
CREATE INDEX known_devices_account ON known_devices (account_id);
CREATE INDEX known_devices_expires ON known_devices (expires_at);
CREATE INDEX login_failures_at ON login_failures (at);

-- +goose Down
DROP INDEX login_failures_at;
DROP TABLE known_devices;
