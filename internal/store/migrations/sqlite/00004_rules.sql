-- +goose Up
-- Alert rules, their per-device state, the events they raise and the
-- notifications those send. Times are unix milliseconds.
CREATE TABLE rules (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id     INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    enabled      BOOLEAN NOT NULL,
    type_id      INTEGER NOT NULL,
    level        TEXT    NOT NULL,
    -- The expressions and notification methods as JSON: always read and
    -- written with their rule.
    expressions  TEXT    NOT NULL,
    notify       TEXT    NOT NULL,
    silent_hours INTEGER NOT NULL,
    description  TEXT    NOT NULL,
    template     TEXT    NOT NULL,
    -- The language its owner used last when saving it: their notifications'.
    lang         TEXT    NOT NULL,
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL
);
CREATE INDEX rules_owner ON rules (owner_id, id);

-- The devices a rule is evaluated for.
CREATE TABLE rule_devices (
    rule_id   INTEGER NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
    device_id INTEGER NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    PRIMARY KEY (rule_id, device_id)
);
CREATE INDEX rule_devices_device ON rule_devices (device_id);

-- Whether a rule's condition held at the newest report evaluated for a
-- device: the engine raises an event only when this changes, and eval_at
-- makes a report evaluated twice (two nodes, a replay) count once.
CREATE TABLE rule_states (
    rule_id       INTEGER NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
    device_id     INTEGER NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    firing        BOOLEAN NOT NULL,
    eval_at       BIGINT  NOT NULL,
    last_event_at BIGINT,
    suppressed    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (rule_id, device_id)
);

-- An event is also its owner's message (read_at).
CREATE TABLE alert_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    rule_id     INTEGER NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
    device_id   INTEGER NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    owner_id    INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL, -- warning (into the condition) or common (back to normal)
    level       TEXT    NOT NULL,
    at          BIGINT  NOT NULL, -- the report's time
    created_at  BIGINT  NOT NULL,
    detail      TEXT    NOT NULL, -- JSON: the values judged
    read_at     BIGINT
);
CREATE UNIQUE INDEX alert_events_once ON alert_events (rule_id, device_id, at, kind);
CREATE INDEX alert_events_owner ON alert_events (owner_id, id);

-- One delivery per event and method, retried until sent or given up.
CREATE TABLE notifications (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id    INTEGER NOT NULL REFERENCES alert_events (id) ON DELETE CASCADE,
    method      TEXT    NOT NULL,
    status      TEXT    NOT NULL, -- queued, sending, sent, failed
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     BIGINT  NOT NULL,
    last_error  TEXT    NOT NULL DEFAULT '',
    sent_at     BIGINT,
    UNIQUE (event_id, method)
);
CREATE INDEX notifications_due ON notifications (status, next_at);

-- +goose Down
DROP TABLE notifications;
DROP TABLE alert_events;
DROP TABLE rule_states;
DROP TABLE rule_devices;
DROP TABLE rules;
