-- +goose Up
-- Times are unix milliseconds in both dialects, so the SQL that reads and writes them is shared.
CREATE TABLE accounts (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    account_number TEXT    NOT NULL,
    name           TEXT    NOT NULL,
    password_hash  TEXT    NOT NULL,
    phone          TEXT    NOT NULL DEFAULT '',
    mail           TEXT    NOT NULL DEFAULT '',
    wechat_openid  TEXT    NOT NULL DEFAULT '',
    created_at     BIGINT  NOT NULL,
    last_login_at  BIGINT
);
CREATE UNIQUE INDEX accounts_number_key ON accounts (lower(account_number));

CREATE TABLE sessions (
    id         TEXT    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL,
    user_agent TEXT    NOT NULL DEFAULT '',
    client_ip  TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE login_failures (
    key TEXT   NOT NULL,
    at  BIGINT NOT NULL
);
CREATE INDEX login_failures_key_at ON login_failures (key, at);

-- +goose Down
DROP TABLE login_failures;
DROP TABLE sessions;
DROP TABLE accounts;
