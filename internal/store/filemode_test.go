package store_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/store"
)

// The database, its WAL and shared-memory files and the data directory
// are the owner's only: they hold password hashes and sealed device keys.
func TestOpen_SQLiteFilesPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	db, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	wantMode(t, dir, 0o700|fs.ModeDir)
	for _, name := range []string{"fieldwatch.db", "fieldwatch.db-wal", "fieldwatch.db-shm"} {
		wantMode(t, filepath.Join(dir, name), 0o600)
	}
}

// An install made world-readable before is narrowed when opened.
func TestOpen_SQLiteNarrowsOldModes(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"fieldwatch.db", "fieldwatch.db-wal"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fieldwatch.db", "fieldwatch.db-wal", "fieldwatch.db-shm"} {
		wantMode(t, filepath.Join(dir, name), 0o600)
	}
}

func wantMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode() != want {
		t.Errorf("%s: mode %v, want %v", filepath.Base(path), st.Mode(), want)
	}
}
