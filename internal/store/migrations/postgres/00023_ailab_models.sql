-- +goose Up
-- AI lab models (docs/ai-lab.md): an uploaded .l5d package, checked before
-- it is stored, owned by one account. data is the package as uploaded;
-- manifest its manifest.json as read, operators the graph's operators.
CREATE TABLE ailab_models (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id    BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    version     TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    file_name   TEXT    NOT NULL,
    size        BIGINT  NOT NULL,
    manifest    TEXT    NOT NULL,
    operators   TEXT    NOT NULL,
    data        BYTEA   NOT NULL,
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX ailab_models_name ON ailab_models (owner_id, name, version);

-- +goose Down
DROP TABLE ailab_models;
