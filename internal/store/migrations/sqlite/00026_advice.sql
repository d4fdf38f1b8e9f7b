-- +goose Up
-- The farm advisor's tasks (docs/advice.md): proposed per account, device,
-- local day and kind, with the facts they were derived from (JSON) and the
-- farmer's answer.
CREATE TABLE advice_tasks (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    device_id   INTEGER NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    day         TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    facts       TEXT    NOT NULL,
    due_at      BIGINT,
    status      TEXT    NOT NULL DEFAULT 'open',
    note        TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL,
    feedback_at BIGINT,
    UNIQUE (account_id, device_id, day, kind)
);
CREATE INDEX advice_tasks_device ON advice_tasks (account_id, device_id, day);

-- +goose Down
DROP TABLE advice_tasks;
