-- +goose Up
-- AI lab samples (docs/ai-lab.md): a picture with its labels, owned by one
-- account. A sample made from a camera picture references the picture
-- (image_id) and keeps no copy; an uploaded one keeps its bytes in data.
-- labels is a JSON array of boxes and points, each naming an element.
CREATE TABLE ailab_samples (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id     BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    device_id    BIGINT,
    image_id     BIGINT REFERENCES images (id) ON DELETE CASCADE,
    device_name  TEXT   NOT NULL DEFAULT '',
    sn           TEXT   NOT NULL DEFAULT '',
    sample_time  BIGINT NOT NULL,
    tag          TEXT   NOT NULL DEFAULT '',
    duration     INTEGER NOT NULL DEFAULT 0,
    location     TEXT   NOT NULL DEFAULT '',
    content_type TEXT   NOT NULL,
    width        INTEGER NOT NULL,
    height       INTEGER NOT NULL,
    data         BYTEA,
    labels       TEXT   NOT NULL DEFAULT '[]',
    created_at   BIGINT NOT NULL
);
CREATE INDEX ailab_samples_owner ON ailab_samples (owner_id, id);
CREATE UNIQUE INDEX ailab_samples_image ON ailab_samples (owner_id, image_id);

-- A sample set version: its samples with their labels as they were when
-- the version was made. A version once used (exported, tested) is never
-- changed; editing it makes the next version.
CREATE TABLE ailab_sets (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id    BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    used        BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX ailab_sets_name ON ailab_sets (owner_id, name, version);
CREATE TABLE ailab_set_samples (
    set_id    BIGINT NOT NULL REFERENCES ailab_sets (id) ON DELETE CASCADE,
    sample_id BIGINT NOT NULL REFERENCES ailab_samples (id) ON DELETE CASCADE,
    labels    TEXT NOT NULL,
    PRIMARY KEY (set_id, sample_id)
);

-- The account's elements, what labels name (e.g. an insect species).
CREATE TABLE ailab_elements (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id    BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    unit        TEXT NOT NULL DEFAULT '',
    identifier  TEXT NOT NULL
);
CREATE UNIQUE INDEX ailab_elements_identifier ON ailab_elements (owner_id, identifier);

-- +goose Down
DROP TABLE ailab_elements;
DROP TABLE ailab_set_samples;
DROP TABLE ailab_sets;
DROP TABLE ailab_samples;
