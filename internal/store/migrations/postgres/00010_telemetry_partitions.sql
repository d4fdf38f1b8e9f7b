-- +goose Up
-- Raw readings become range-partitioned by ts, one partition per UTC month
-- named telemetry_YYYY_MM, so retention drops a month whole instead of
-- deleting its rows. The store makes partitions ahead and on demand
-- (store/specific_postgres.go); telemetry_default catches a reading whose
-- month has none all the same. Existing readings move into partitions made
-- for every month from the oldest reading's to two months after the later
-- of the newest reading's and now's. The move is one transaction: on a large
-- table it takes as long as copying the table, with ingest stopped.
-- +goose StatementBegin
DO $$
DECLARE
    first_ms BIGINT;
    last_ms  BIGINT;
    m        TIMESTAMP;
    stop     TIMESTAMP;
BEGIN
    ALTER TABLE telemetry RENAME TO telemetry_unpartitioned;
    ALTER INDEX telemetry_pkey RENAME TO telemetry_unpartitioned_pkey;
    CREATE TABLE telemetry (
        device_id BIGINT  NOT NULL,
        param     SMALLINT NOT NULL,
        node      SMALLINT NOT NULL,
        ts        BIGINT  NOT NULL,
        value     DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (device_id, param, node, ts)
    ) PARTITION BY RANGE (ts);
    CREATE TABLE telemetry_default PARTITION OF telemetry DEFAULT;

    SELECT min(ts), max(ts) INTO first_ms, last_ms FROM telemetry_unpartitioned;
    m := date_trunc('month', LEAST(to_timestamp(COALESCE(first_ms, 'infinity'::float8) / 1000.0), now()) AT TIME ZONE 'UTC');
    stop := date_trunc('month', GREATEST(to_timestamp(COALESCE(last_ms, '-infinity'::float8) / 1000.0), now()) AT TIME ZONE 'UTC')
        + INTERVAL '3 months';
    WHILE m < stop LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF telemetry FOR VALUES FROM (%s) TO (%s)',
            'telemetry_' || to_char(m, 'YYYY_MM'),
            (extract(epoch FROM m AT TIME ZONE 'UTC') * 1000)::BIGINT,
            (extract(epoch FROM (m + INTERVAL '1 month') AT TIME ZONE 'UTC') * 1000)::BIGINT);
        m := m + INTERVAL '1 month';
    END LOOP;

    INSERT INTO telemetry (device_id, param, node, ts, value)
        SELECT device_id, param, node, ts, value FROM telemetry_unpartitioned;
    DROP TABLE telemetry_unpartitioned;
END
$$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE telemetry RENAME TO telemetry_partitioned;
ALTER INDEX telemetry_pkey RENAME TO telemetry_partitioned_pkey;
CREATE TABLE telemetry (
    device_id BIGINT  NOT NULL,
    param     SMALLINT NOT NULL,
    node      SMALLINT NOT NULL,
    ts        BIGINT  NOT NULL,
    value     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (device_id, param, node, ts)
);
INSERT INTO telemetry (device_id, param, node, ts, value)
    SELECT device_id, param, node, ts, value FROM telemetry_partitioned;
DROP TABLE telemetry_partitioned;
