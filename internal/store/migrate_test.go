package store_test

import (
	"context"
	"sync"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
)

// Nodes started together on an empty PostgreSQL schema each apply the
// migrations at start: one does, the others wait for it and find nothing
// pending, and every one of them starts.
func TestMigrate_NodesStartingTogether(t *testing.T) {
	dsn := storetest.DSN(t)
	const nodes = 3
	versions := make([]int64, nodes)
	errs := make([]error, nodes)
	var wg sync.WaitGroup
	for i := range nodes {
		db, err := store.Open(context.Background(), dsn, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		wg.Go(func() { versions[i], errs[i] = db.Migrate(context.Background()) })
	}
	wg.Wait()
	for i := range nodes {
		if errs[i] != nil {
			t.Fatalf("node %d: %v", i, errs[i])
		}
		if versions[i] != versions[0] || versions[i] == 0 {
			t.Fatalf("versions %v", versions)
		}
	}
}
