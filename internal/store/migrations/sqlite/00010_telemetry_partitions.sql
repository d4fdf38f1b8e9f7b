-- +goose Up
-- PostgreSQL partitions its raw readings by month in this version; SQLite's
-- telemetry table stays one table. The version is kept so that both
-- dialects' migrations keep the same numbers (see TestSchemaParity).
SELECT 1;

-- +goose Down
SELECT 1;
