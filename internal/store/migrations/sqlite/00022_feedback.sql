-- +goose Up
-- Feedback from the console (docs/feedback.md): a text in one of a fixed
-- list of categories, the author's contact and language, and the
-- operator's answer (answered_at NULL: still open). Times are unix ms.
CREATE TABLE feedback (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    category    TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    contact     TEXT    NOT NULL DEFAULT '',
    lang        TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL,
    answer      TEXT    NOT NULL DEFAULT '',
    answered_at BIGINT
);
CREATE INDEX feedback_account ON feedback (account_id, id);

-- Screenshots sent with a feedback, their bytes kept in the row (as
-- uploaded AI lab samples and camera pictures are).
CREATE TABLE feedback_screenshots (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    feedback_id  INTEGER NOT NULL REFERENCES feedback (id) ON DELETE CASCADE,
    content_type TEXT    NOT NULL,
    width        INTEGER NOT NULL,
    height       INTEGER NOT NULL,
    size         INTEGER NOT NULL,
    data         BLOB    NOT NULL
);
CREATE INDEX feedback_screenshots_feedback ON feedback_screenshots (feedback_id, id);

-- Mails about feedback: kind received (to the operator's --feedback-mail)
-- or answer (to the author's bound address), claimed with a lease and
-- retried like alert notifications. status: queued, sending, sent, failed.
CREATE TABLE feedback_mails (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    feedback_id INTEGER NOT NULL REFERENCES feedback (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    recipient   TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'queued',
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     BIGINT  NOT NULL,
    last_error  TEXT    NOT NULL DEFAULT '',
    sent_at     BIGINT
);
CREATE INDEX feedback_mails_due ON feedback_mails (status, next_at);

-- +goose Down
DROP TABLE feedback_mails;
DROP TABLE feedback_screenshots;
DROP TABLE feedback;
