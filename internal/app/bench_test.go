package app_test

import (
	"context"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/app"
)

// BenchmarkIngestMQTT runs the ingest load test (fieldwatch bench ingest)
// once per iteration on SQLite and reports both rates.
func BenchmarkIngestMQTT(b *testing.B) {
	for b.Loop() {
		r, err := app.BenchIngest(context.Background(), app.BenchOptions{Devices: 500, Reports: 40, TypeID: 2, InFlight: 8})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(r.IngestRate(), "ingest-points/s")
		b.ReportMetric(r.RawRate(), "raw-points/s")
		b.ReportMetric(r.IngestRate()/r.RawRate(), "ratio")
	}
}
