package store_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// openPostgresRaw returns a store on a fresh PostgreSQL schema, not yet
// migrated, and a plain connection to the same schema for catalogue reads.
func openPostgresRaw(t *testing.T) (*store.DB, *sql.DB) {
	t.Helper()
	dsn := storetest.DSN(t)
	db, err := store.Open(context.Background(), dsn, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	raw, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return db, raw
}

// rowsByPartition counts the readings in each partition of telemetry.
func rowsByPartition(t *testing.T, raw *sql.DB) map[string]int {
	t.Helper()
	rows, err := raw.Query(`SELECT tableoid::regclass::text, count(*) FROM telemetry GROUP BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var (
			name string
			n    int
		)
		if err := rows.Scan(&name, &n); err != nil {
			t.Fatal(err)
		}
		out[name] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func tableExists(t *testing.T, raw *sql.DB, name string) bool {
	t.Helper()
	var ok bool
	if err := raw.QueryRow(`SELECT to_regclass($1) IS NOT NULL`, name).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

func utc(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 12, 0, 0, 0, time.UTC) }

// Readings stored before the partitioning migration survive it, each in
// its month's partition, and read back as before.
func TestPostgres_PartitionMigrationKeepsReadings(t *testing.T) {
	db, raw := openPostgresRaw(t)
	ctx := context.Background()
	if err := db.MigrateTo(ctx, 9); err != nil {
		t.Fatal(err)
	}
	var code int
	if err := raw.QueryRow(`SELECT code FROM params WHERE id = 'soilMoisture'`).Scan(&code); err != nil {
		t.Fatal(err)
	}
	times := []time.Time{utc(2025, 1, 15), utc(2025, 1, 31).Add(11*time.Hour + 59*time.Minute), utc(2025, 3, 10), time.Now().Truncate(time.Millisecond)}
	for i, at := range times {
		if _, err := raw.Exec(`INSERT INTO telemetry (device_id, param, node, ts, value) VALUES (7, $1, 10, $2, $3)`,
			code, at.UnixMilli(), float64(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var kind string
	if err := raw.QueryRow(`SELECT relkind::text FROM pg_class WHERE oid = 'telemetry'::regclass`).Scan(&kind); err != nil || kind != "p" {
		t.Fatalf("telemetry relkind %q (%v), want p (partitioned)", kind, err)
	}
	got := rowsByPartition(t, raw)
	now := time.Now().UTC()
	want := map[string]int{"telemetry_2025_01": 2, "telemetry_2025_03": 1, now.Format("telemetry_2006_01"): 1}
	if len(got) != len(want) {
		t.Fatalf("rows by partition %v, want %v", got, want)
	}
	for name, n := range want {
		if got[name] != n {
			t.Fatalf("rows by partition %v, want %v", got, want)
		}
	}
	// Every month between, and two after now's, has its partition.
	for m := utc(2025, 1, 1); m.Before(now.AddDate(0, 2, 0)); m = m.AddDate(0, 1, 0) {
		if name := m.Format("telemetry_2006_01"); !tableExists(t, raw, name) {
			t.Fatalf("no partition %s", name)
		}
	}
	rs, err := db.Readings(ctx, telemetry.Query{DeviceID: 7, Begin: utc(2024, 1, 1), End: now.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(times) {
		t.Fatalf("%d readings after the migration, want %d: %+v", len(rs), len(times), rs)
	}
	for i, r := range rs {
		if !r.Time.Equal(times[i]) || r.Value != float64(i) || r.Param != "soilMoisture" || r.Node != 10 {
			t.Fatalf("reading %d after the migration: %+v, want %v = %d", i, r, times[i], i)
		}
	}
}

// A batch makes the partitions of its months; retention drops the months
// that end before the cutoff whole and deletes the older rows of the month
// straddling it; a reading that landed in the default partition moves to
// its month's partition when that is made.
func TestPostgres_Partitions(t *testing.T) {
	db, raw := openPostgresRaw(t)
	ctx := context.Background()
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	owner := newAccount(t, db, "farmer01")
	dev := newDevice(t, db, "RG0000001", 6, owner.ID)
	rain := func(at time.Time, v float64) *telemetry.Report {
		return report(dev.ID, at, telemetry.Point{Param: "rainfall", Value: v})
	}
	if _, err := db.WriteReports(ctx, []*telemetry.Report{
		rain(utc(2025, 1, 15), 1), rain(utc(2025, 2, 10), 2), rain(utc(2025, 2, 20), 3), rain(utc(2025, 3, 5), 4),
	}, shanghai); err != nil {
		t.Fatal(err)
	}
	got := rowsByPartition(t, raw)
	if got["telemetry_2025_01"] != 1 || got["telemetry_2025_02"] != 2 || got["telemetry_2025_03"] != 1 || len(got) != 3 {
		t.Fatalf("rows by partition %v", got)
	}

	t.Run("DefaultPartitionMovesOut", func(t *testing.T) {
		var code int
		if err := raw.QueryRow(`SELECT code FROM params WHERE id = 'rainfall'`).Scan(&code); err != nil {
			t.Fatal(err)
		}
		// A row written while its month had no partition (another node's
		// retention dropped it) waits in the default partition.
		if _, err := raw.Exec(`INSERT INTO telemetry (device_id, param, node, ts, value) VALUES ($1, $2, 0, $3, 5)`,
			dev.ID, code, utc(2024, 6, 1).UnixMilli()); err != nil {
			t.Fatal(err)
		}
		if got := rowsByPartition(t, raw); got["telemetry_default"] != 1 {
			t.Fatalf("rows by partition %v, want one in telemetry_default", got)
		}
		if _, err := db.WriteReports(ctx, []*telemetry.Report{rain(utc(2024, 6, 2), 6)}, shanghai); err != nil {
			t.Fatal(err)
		}
		if got := rowsByPartition(t, raw); got["telemetry_default"] != 0 || got["telemetry_2024_06"] != 2 {
			t.Fatalf("rows by partition %v, want two in telemetry_2024_06", got)
		}
	})

	t.Run("PreparePartitionsAhead", func(t *testing.T) {
		if err := db.PreparePartitions(ctx, utc(2030, 11, 20)); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"telemetry_2030_11", "telemetry_2030_12", "telemetry_2031_01"} {
			if !tableExists(t, raw, name) {
				t.Fatalf("no partition %s", name)
			}
		}
		if tableExists(t, raw, "telemetry_2031_02") {
			t.Fatal("telemetry_2031_02 made three months ahead")
		}
	})

	t.Run("RetentionDropsMonths", func(t *testing.T) {
		if _, err := raw.Exec(`ANALYZE telemetry`); err != nil { // the dropped months' counts are estimates
			t.Fatal(err)
		}
		n, err := db.PurgeReadings(ctx, utc(2025, 2, 15))
		if err != nil {
			t.Fatal(err)
		}
		if n != 4 { // 2024-06 (two) and 2025-01 dropped, 2025-02-10 deleted
			t.Fatalf("purged %d readings, want 4", n)
		}
		for name, want := range map[string]bool{"telemetry_2024_06": false, "telemetry_2025_01": false,
			"telemetry_2025_02": true, "telemetry_2025_03": true, "telemetry_default": true} {
			if tableExists(t, raw, name) != want {
				t.Fatalf("partition %s exists: %v, want %v", name, !want, want)
			}
		}
		rs, err := db.Readings(ctx, telemetry.Query{DeviceID: dev.ID, Begin: utc(2024, 1, 1), End: utc(2026, 1, 1)})
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != 2 || rs[0].Value != 3 || rs[1].Value != 4 {
			t.Fatalf("readings after retention: %+v", rs)
		}
		// A late reading of a dropped month is stored again.
		if n, err := db.WriteReports(ctx, []*telemetry.Report{rain(utc(2025, 1, 20), 7)}, shanghai); err != nil || n != 1 {
			t.Fatalf("late reading: stored %d (%v)", n, err)
		}
		if got := rowsByPartition(t, raw); got["telemetry_2025_01"] != 1 {
			t.Fatalf("rows by partition %v, want one in telemetry_2025_01", got)
		}
	})
}
