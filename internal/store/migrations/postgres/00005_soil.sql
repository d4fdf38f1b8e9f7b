-- +goose Up
-- Soil device settings (SPEC §3): the soil at each node and the crop on the
-- plot. nodes is JSON, [{"depth": 10, "fieldCapacity": 30.5, "unitWeight":
-- 1.35}, …], always read and written with its row. owner_id is the device's
-- owner when they were saved: a device unbound and bound by someone else
-- does not bring the last owner's plot along. Times are unix ms.
CREATE TABLE soil_settings (
    device_id         BIGINT  PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
    owner_id          BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    nodes             TEXT    NOT NULL,
    crop_type         TEXT    NOT NULL DEFAULT '',
    crop_variety      TEXT    NOT NULL DEFAULT '',
    irrigation_method TEXT    NOT NULL DEFAULT '',
    planted_at        BIGINT,
    area_mu           DOUBLE PRECISION,
    enabled_at        BIGINT,
    upload            BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at        BIGINT  NOT NULL
);

-- +goose Down
DROP TABLE soil_settings;
