-- +goose Up
-- Areas an account draws for the ET0 raster data service (docs/analyses.md,
-- "ET0 grids"): a box in WGS 84 degrees and the grid's cell size.
CREATE TABLE et0_areas (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name       TEXT   NOT NULL,
    west       DOUBLE PRECISION NOT NULL,
    south      DOUBLE PRECISION NOT NULL,
    east       DOUBLE PRECISION NOT NULL,
    north      DOUBLE PRECISION NOT NULL,
    cell       DOUBLE PRECISION NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX et0_areas_account ON et0_areas (account_id, id);

-- +goose Down
DROP TABLE et0_areas;
