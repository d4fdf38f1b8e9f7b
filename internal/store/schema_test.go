package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// schema is what the parity test compares of a migrated database: each
// table's columns (name and type class), primary key and indexes.
type schema map[string]*table

type table struct {
	columns map[string]string // name → type class (see typeClass)
	pk      []string
	indexes []string // "[name ]UNIQUE? (columns)[ WHERE …]", sorted
}

// Allowed differences between the dialects' schemas, each with its reason.
var (
	// Tables of one dialect only.
	onlyPostgres = map[*regexp.Regexp]string{
		regexp.MustCompile(`^telemetry_(\d{4}_\d{2}|default)$`): "partitions of telemetry (readings by month, migration 00010)",
	}
	// Tables of neither dialect's migrations.
	notOurs = map[*regexp.Regexp]string{
		regexp.MustCompile(`^goose_db_version$`): "goose's version table, typed by goose per dialect",
		regexp.MustCompile(`^sqlite_`):           "SQLite's own tables",
	}
)

// TestSchemaParity migrates a fresh SQLite and a fresh PostgreSQL store and
// fails on every table, column, primary key or index in which their
// schemas differ, beyond the allowed differences above. Both dialects must
// also have the same migration versions.
func TestSchemaParity(t *testing.T) {
	lite, err := store.MigrationFiles(store.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := store.MigrationFiles(store.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	base := func(fs []string) []string {
		out := make([]string, len(fs))
		for i, f := range fs {
			out[i] = path.Base(f)
		}
		return out
	}
	if !slices.Equal(base(lite), base(pg)) {
		t.Errorf("migration files differ:\n  sqlite:   %v\n  postgres: %v", base(lite), base(pg))
	}

	ctx := context.Background()
	dir := t.TempDir()
	ldb, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ldb.Close()
	if _, err := ldb.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	lraw, err := sql.Open("sqlite", "file:"+path.Join(dir, "fieldwatch.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lraw.Close()
	liteSchema := readSQLite(t, lraw)

	dsn := storetest.DSN(t)
	pdb, err := store.Open(ctx, dsn, "")
	if err != nil {
		t.Fatal(err)
	}
	defer pdb.Close()
	if _, err := pdb.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	praw, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer praw.Close()
	pgSchema := readPostgres(t, praw)

	for _, d := range compareSchemas(liteSchema, pgSchema) {
		t.Error(d)
	}
}

// compareSchemas describes each difference between the two schemas that is
// not allowed.
func compareSchemas(lite, pg schema) []string {
	allowed := func(name string, reasons map[*regexp.Regexp]string) bool {
		for re := range reasons {
			if re.MatchString(name) {
				return true
			}
		}
		return false
	}
	var out []string
	for _, name := range sortedKeys(lite) {
		if allowed(name, notOurs) {
			continue
		}
		p, ok := pg[name]
		if !ok {
			out = append(out, fmt.Sprintf("table %s: in SQLite only", name))
			continue
		}
		l := lite[name]
		for _, c := range sortedKeys(l.columns) {
			switch pc, ok := p.columns[c]; {
			case !ok:
				out = append(out, fmt.Sprintf("table %s: column %s in SQLite only", name, c))
			case pc != l.columns[c]:
				out = append(out, fmt.Sprintf("table %s: column %s is %s in SQLite, %s in PostgreSQL", name, c, l.columns[c], pc))
			}
		}
		for _, c := range sortedKeys(p.columns) {
			if _, ok := l.columns[c]; !ok {
				out = append(out, fmt.Sprintf("table %s: column %s in PostgreSQL only", name, c))
			}
		}
		if !slices.Equal(l.pk, p.pk) {
			out = append(out, fmt.Sprintf("table %s: primary key (%s) in SQLite, (%s) in PostgreSQL", name,
				strings.Join(l.pk, ", "), strings.Join(p.pk, ", ")))
		}
		for _, ix := range l.indexes {
			if !slices.Contains(p.indexes, ix) {
				out = append(out, fmt.Sprintf("table %s: index %s in SQLite only", name, ix))
			}
		}
		for _, ix := range p.indexes {
			if !slices.Contains(l.indexes, ix) {
				out = append(out, fmt.Sprintf("table %s: index %s in PostgreSQL only", name, ix))
			}
		}
	}
	for _, name := range sortedKeys(pg) {
		if _, ok := lite[name]; !ok && !allowed(name, notOurs) && !allowed(name, onlyPostgres) {
			out = append(out, fmt.Sprintf("table %s: in PostgreSQL only", name))
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// typeClass maps a declared column type of either dialect to what it
// stores: integer, real, text, blob or boolean.
func typeClass(declared string) string {
	t := strings.ToLower(declared)
	switch {
	case strings.Contains(t, "int"):
		return "integer"
	case strings.Contains(t, "char"), strings.Contains(t, "text"), strings.Contains(t, "clob"):
		return "text"
	case strings.Contains(t, "real"), strings.Contains(t, "floa"), strings.Contains(t, "doub"):
		return "real"
	case strings.Contains(t, "blob"), t == "bytea":
		return "blob"
	case strings.Contains(t, "bool"):
		return "boolean"
	}
	return t
}

// indexKey names an index for comparison (a column that is an expression
// reads "expr"): by its name when it was created
// by name (CREATE INDEX), by its columns alone when a constraint made it
// (each dialect names those its own way).
func indexKey(name string, unique bool, cols []string, partial bool) string {
	k := "(" + strings.Join(cols, ", ") + ")"
	if unique {
		k = "UNIQUE " + k
	}
	if name != "" {
		k = name + " " + k
	}
	if partial {
		k += " partial"
	}
	return k
}

func readSQLite(t *testing.T, db *sql.DB) schema {
	t.Helper()
	names := queryStrings(t, db, `SELECT name FROM sqlite_schema WHERE type = 'table'`)
	out := schema{}
	for _, name := range names {
		tb := &table{columns: map[string]string{}}
		rows, err := db.Query(`SELECT name, type, pk FROM pragma_table_info(?)`, name)
		if err != nil {
			t.Fatal(err)
		}
		pk := map[int]string{}
		for rows.Next() {
			var (
				col, typ string
				n        int
			)
			if err := rows.Scan(&col, &typ, &n); err != nil {
				t.Fatal(err)
			}
			tb.columns[col] = typeClass(typ)
			if n > 0 {
				pk[n] = col
			}
		}
		rows.Close()
		for i := 1; i <= len(pk); i++ {
			tb.pk = append(tb.pk, pk[i])
		}
		rows, err = db.Query(`SELECT name, "unique", origin, partial FROM pragma_index_list(?)`, name)
		if err != nil {
			t.Fatal(err)
		}
		type ix struct {
			name, origin    string
			unique, partial bool
		}
		var ixs []ix
		for rows.Next() {
			var i ix
			if err := rows.Scan(&i.name, &i.unique, &i.origin, &i.partial); err != nil {
				t.Fatal(err)
			}
			ixs = append(ixs, i)
		}
		rows.Close()
		for _, i := range ixs {
			if i.origin == "pk" {
				continue // the primary key, compared above
			}
			cols := queryStrings(t, db, `SELECT COALESCE(name, 'expr') FROM pragma_index_info(?) ORDER BY seqno`, i.name)
			named := i.name
			if i.origin != "c" {
				named = ""
			}
			tb.indexes = append(tb.indexes, indexKey(named, i.unique, cols, i.partial))
		}
		slices.Sort(tb.indexes)
		out[name] = tb
	}
	return out
}

func readPostgres(t *testing.T, db *sql.DB) schema {
	t.Helper()
	names := queryStrings(t, db, `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')`)
	out := schema{}
	for _, name := range names {
		tb := &table{columns: map[string]string{}}
		rows, err := db.Query(`SELECT column_name, data_type FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = $1`, name)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var col, typ string
			if err := rows.Scan(&col, &typ); err != nil {
				t.Fatal(err)
			}
			tb.columns[col] = typeClass(typ)
		}
		rows.Close()
		rows, err = db.Query(`SELECT ic.relname, i.indisprimary, i.indisunique, i.indpred IS NOT NULL,
				EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid),
				array_to_string(ARRAY(SELECT COALESCE(a.attname, 'expr') FROM unnest(i.indkey) WITH ORDINALITY AS u(attnum, pos)
					LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = u.attnum AND u.attnum > 0 ORDER BY u.pos), ',')
			FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
			WHERE i.indrelid = (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
				WHERE n.nspname = current_schema() AND c.relname = $1)`, name)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var (
				ixName, cols                          string
				primary, unique, partial, constrained bool
			)
			if err := rows.Scan(&ixName, &primary, &unique, &partial, &constrained, &cols); err != nil {
				t.Fatal(err)
			}
			if primary {
				tb.pk = strings.Split(cols, ",")
				continue
			}
			if constrained {
				ixName = ""
			}
			tb.indexes = append(tb.indexes, indexKey(ixName, unique, strings.Split(cols, ","), partial))
		}
		rows.Close()
		slices.Sort(tb.indexes)
		out[name] = tb
	}
	return out
}

func queryStrings(t *testing.T, db *sql.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// The comparison itself: partitions are allowed on PostgreSQL, anything
// else that differs is named.
func TestCompareSchemas(t *testing.T) {
	ts := map[string]string{"device_id": "integer", "ts": "integer"}
	lite := schema{
		"telemetry":        {columns: ts, pk: []string{"ts"}, indexes: []string{"UNIQUE (device_id)"}},
		"goose_db_version": {columns: map[string]string{"tstamp": "timestamp"}},
	}
	pg := schema{
		"telemetry":         {columns: ts, pk: []string{"device_id", "ts"}, indexes: []string{"UNIQUE (device_id)"}},
		"telemetry_2026_11": {columns: ts},
		"telemetry_default": {columns: ts},
		"telemetry_old":     {columns: ts},
		"goose_db_version":  {columns: map[string]string{"tstamp": "timestamp without time zone"}},
	}
	got := compareSchemas(lite, pg)
	want := []string{
		"table telemetry: primary key (ts) in SQLite, (device_id, ts) in PostgreSQL",
		"table telemetry_old: in PostgreSQL only",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
