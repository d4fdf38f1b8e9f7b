package bench_test

import (
	"context"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/bench"
)

// BenchmarkIngestMQTT runs the ingest load test (fieldwatch bench ingest)
// once per iteration on SQLite and reports both rates.
func BenchmarkIngestMQTT(b *testing.B) {
	for b.Loop() {
		r, err := bench.Ingest(context.Background(), bench.IngestOptions{Devices: 500, Reports: 40, TypeID: 2, InFlight: 8})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(r.IngestRate(), "ingest-points/s")
		b.ReportMetric(r.RawRate(), "raw-points/s")
		b.ReportMetric(r.IngestRate()/r.RawRate(), "ratio")
	}
}
