-- +goose Up
-- Verification codes sent to an e-mail address or a phone (binding, unbinding,
-- password reset). Only a hash of each code is kept; the row's id is the
-- SHA-256 of the ticket the client holds. Times are unix milliseconds.
CREATE TABLE verification_codes (
    id         TEXT    PRIMARY KEY,
    account_id BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    purpose    TEXT    NOT NULL,
    channel    TEXT    NOT NULL,
    address    TEXT    NOT NULL,
    code_hash  TEXT    NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    client_ip  TEXT    NOT NULL DEFAULT '',
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL,
    used_at    BIGINT
);
CREATE INDEX verification_codes_address ON verification_codes (channel, address, created_at);
CREATE INDEX verification_codes_account ON verification_codes (account_id, created_at);
CREATE INDEX verification_codes_client ON verification_codes (client_ip, created_at);

-- One WeChat user links to one account at most (QR login finds it by openid).
CREATE UNIQUE INDEX accounts_wechat_key ON accounts (wechat_openid) WHERE wechat_openid <> '';

ALTER TABLE accounts ADD COLUMN disabled_at BIGINT;

-- Parametric WeChat QR codes shown to link an account (purpose bind, for
-- account_id) or to log in (purpose login). The id is the SHA-256 of the
-- token the page polls with; scene is what the scan event carries back.
-- state: pending, then bound or taken (bind), scanned, unlinked or done (login).
CREATE TABLE wechat_scans (
    id         TEXT    PRIMARY KEY,
    scene      TEXT    NOT NULL UNIQUE,
    purpose    TEXT    NOT NULL,
    account_id BIGINT  REFERENCES accounts (id) ON DELETE CASCADE,
    openid     TEXT    NOT NULL DEFAULT '',
    state      TEXT    NOT NULL DEFAULT 'pending',
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL
);
CREATE INDEX wechat_scans_created ON wechat_scans (created_at);

-- The language an account last logged in with: the one its alerts as a
-- grantee are written in.
ALTER TABLE accounts ADD COLUMN lang TEXT NOT NULL DEFAULT '';

-- An alert goes to the rule's owner and to each grantee of the device who
-- has bound an address for the method: one delivery per recipient.
ALTER TABLE notifications ADD COLUMN recipient_id BIGINT REFERENCES accounts (id) ON DELETE CASCADE;
UPDATE notifications n SET recipient_id = e.owner_id FROM alert_events e WHERE e.id = n.event_id;
ALTER TABLE notifications ALTER COLUMN recipient_id SET NOT NULL;
ALTER TABLE notifications DROP CONSTRAINT notifications_event_id_method_key;
ALTER TABLE notifications ADD CONSTRAINT notifications_event_method_recipient_key UNIQUE (event_id, method, recipient_id);

-- +goose Down
DELETE FROM notifications n USING alert_events e WHERE e.id = n.event_id AND n.recipient_id <> e.owner_id;
ALTER TABLE notifications DROP CONSTRAINT notifications_event_method_recipient_key;
ALTER TABLE notifications ADD CONSTRAINT notifications_event_id_method_key UNIQUE (event_id, method);
ALTER TABLE notifications DROP COLUMN recipient_id;
ALTER TABLE accounts DROP COLUMN lang;
DROP TABLE wechat_scans;
ALTER TABLE accounts DROP COLUMN disabled_at;
DROP INDEX accounts_wechat_key;
DROP TABLE verification_codes;
