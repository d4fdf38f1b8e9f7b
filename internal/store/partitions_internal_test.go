package store

import (
	"slices"
	"testing"
	"time"
)

func TestPartitionNames(t *testing.T) {
	for _, m := range []time.Time{
		time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		got, ok := partitionMonth(partitionName(m))
		if !ok || !got.Equal(m) {
			t.Fatalf("%s parsed as %v (%v), want %v", partitionName(m), got, ok, m)
		}
	}
	for _, name := range []string{"telemetry_default", "telemetry_2026_13", "telemetry_2026_1", "telemetry_2026_011", "telemetry_daily"} {
		if m, ok := partitionMonth(name); ok {
			t.Fatalf("%s parsed as the partition of %v", name, m)
		}
	}
}

func TestMonthsOf(t *testing.T) {
	ms := func(y int, m time.Month, d, h int) int64 { return time.Date(y, m, d, h, 0, 0, 0, time.UTC).UnixMilli() }
	// Sorted by device first, so months come back and forth.
	got := monthsOf([]int64{ms(2026, 10, 31, 23), ms(2026, 11, 1, 0), ms(2026, 10, 2, 0), ms(2026, 11, 30, 23), ms(2027, 1, 1, 0)},
		func(ts int64) int64 { return ts })
	want := []int64{ms(2026, 10, 1, 0), ms(2026, 11, 1, 0), ms(2027, 1, 1, 0)}
	if !slices.Equal(got, want) {
		t.Fatalf("months %v, want %v", got, want)
	}
}
