package store_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/store"
	"github.com/fieldwatch/fieldwatch/internal/store/storetest"
	"github.com/fieldwatch/fieldwatch/internal/telemetry"
)

// refKey is one reading's identity: (param, node, time) of one device.
type refKey struct {
	param string
	node  int
	ts    int64
}

// reference is the plain model of what a device's readings must read back
// as: the first report with a (device, time) key is stored, later copies
// are not.
type reference struct {
	reports map[int64]bool
	vals    map[refKey]float64
}

func newReference() *reference {
	return &reference{reports: map[int64]bool{}, vals: map[refKey]float64{}}
}

// write records reports and returns how many readings were new.
func (r *reference) write(rs []*telemetry.Report) int {
	n := 0
	for _, rep := range rs {
		ts := rep.Time.UnixMilli()
		if r.reports[ts] {
			continue
		}
		r.reports[ts] = true
		for _, p := range rep.Points {
			r.vals[refKey{p.Param, p.Node, ts}] = p.Value
			n++
		}
	}
	return n
}

func (r *reference) purge(before int64) {
	for k := range r.vals {
		if k.ts < before {
			delete(r.vals, k)
		}
	}
}

// query returns the reference's readings of q in Readings' order.
func (r *reference) query(q telemetry.Query) []telemetry.Reading {
	var out []telemetry.Reading
	for k, v := range r.vals {
		if k.ts < q.Begin.UnixMilli() || k.ts >= q.End.UnixMilli() {
			continue
		}
		if len(q.Params) > 0 && !slices.Contains(q.Params, k.param) {
			continue
		}
		if len(q.Nodes) > 0 && !slices.Contains(q.Nodes, k.node) {
			continue
		}
		out = append(out, telemetry.Reading{Param: k.param, Node: k.node, Time: time.UnixMilli(k.ts), Value: v})
	}
	slices.SortFunc(out, func(a, b telemetry.Reading) int {
		if a.Param != b.Param {
			if a.Param < b.Param {
				return -1
			}
			return 1
		}
		if a.Node != b.Node {
			return a.Node - b.Node
		}
		return a.Time.Compare(b.Time)
	})
	return out
}

// randomReports makes reports of a soil station over days starting at
// start: a random interval with jitter, silences, and values at a fixed
// precision with extremes mixed in.
func randomReports(r *rand.Rand, dev int64, start time.Time, days int) []*telemetry.Report {
	step := []time.Duration{time.Minute, 10 * time.Minute, time.Hour}[r.IntN(3)]
	var out []*telemetry.Report
	for at := start; at.Before(start.Add(time.Duration(days) * 24 * time.Hour)); {
		var pts []telemetry.Point
		for _, node := range []int{10, 20, 30} {
			if r.IntN(10) > 0 { // a node sometimes missing
				pts = append(pts, telemetry.Point{Param: "soilMoisture", Node: node, Value: value(r)})
			}
		}
		pts = append(pts, telemetry.Point{Param: "battery", Value: value(r)})
		out = append(out, report(dev, at, pts...))
		at = at.Add(step + time.Duration(r.IntN(3000))*time.Millisecond)
		if r.IntN(40) == 0 {
			at = at.Add(time.Duration(r.IntN(48)) * time.Hour) // offline for a while
		}
	}
	return out
}

func value(r *rand.Rand) float64 {
	if r.IntN(25) == 0 {
		// No -0: SQLite's REAL column stores it as 0 already as a row.
		return []float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 1e300, -1e-300, 0,
			math.Inf(1), math.Pi, 1 << 60, -123456.789}[r.IntN(10)]
	}
	return float64(r.IntN(1000)) / 10
}

// checkEqual compares Readings of random queries with the reference, value
// bits included.
func checkEqual(t *testing.T, db *store.DB, ref *reference, dev int64, from, to time.Time, r *rand.Rand, what string) {
	t.Helper()
	ctx := context.Background()
	queries := []telemetry.Query{{DeviceID: dev, Begin: from.Add(-48 * time.Hour), End: to.Add(48 * time.Hour)}}
	for range 12 {
		a := from.Add(time.Duration(r.Int64N(int64(to.Sub(from)))))
		b := a.Add(time.Duration(r.Int64N(int64(4 * 24 * time.Hour))))
		q := telemetry.Query{DeviceID: dev, Begin: a, End: b}
		switch r.IntN(3) {
		case 1:
			q.Params = []string{"soilMoisture"}
			q.Nodes = []int{[]int{10, 20, 30}[r.IntN(3)]}
		case 2:
			q.Params = []string{"battery", "soilMoisture"}
		}
		queries = append(queries, q)
	}
	for _, q := range queries {
		got, err := db.Readings(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		want := ref.query(q)
		if len(got) != len(want) {
			t.Fatalf("%s: %v–%v %v %v: %d readings, want %d", what, q.Begin, q.End, q.Params, q.Nodes, len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Param != w.Param || g.Node != w.Node || !g.Time.Equal(w.Time) || math.Float64bits(g.Value) != math.Float64bits(w.Value) {
				t.Fatalf("%s: reading %d: got %s/%d %d %v, want %s/%d %d %v", what, i, g.Param, g.Node, g.Time.UnixMilli(), g.Value,
					w.Param, w.Node, w.Time.UnixMilli(), w.Value)
			}
		}
	}
}

// dayCount sums the daily rollups' counts: every stored reading once.
func dayCount(t *testing.T, db *store.DB, dev int64) int {
	t.Helper()
	ds, err := db.Days(context.Background(), telemetry.Query{DeviceID: dev, Begin: time.Unix(0, 0), End: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range ds {
		n += d.Count
	}
	return n
}

// TestChunks_Property writes random series (gaps, redeliveries, extremes,
// batches out of order), compacts them, writes late reports into the
// compacted days, compacts again and purges, and after each step reads back
// exactly what a plain reference holds; the rollups count every reading
// once throughout.
func TestChunks_Property(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		for seed := range uint64(3) {
			t.Run(fmt.Sprint(seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 99))
				dev := newDevice(t, db, fmt.Sprintf("ZS%07d", seed+1), 2, owner.ID).ID
				ref := newReference()
				start := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(86400)) * time.Second)
				days := 6 + r.IntN(6)
				end := start.Add(time.Duration(days) * 24 * time.Hour)
				all := randomReports(r, dev, start, days)

				// Write in random batches, out of order, some reports twice.
				write := func(rs []*telemetry.Report) {
					t.Helper()
					r.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
					for len(rs) > 0 {
						k := min(len(rs), 1+r.IntN(200))
						want := ref.write(rs[:k])
						n, err := db.WriteReports(ctx, rs[:k], shanghai)
						if err != nil {
							t.Fatal(err)
						}
						if n != want {
							t.Fatalf("stored %d readings, want %d", n, want)
						}
						rs = rs[k:]
					}
				}
				late := []*telemetry.Report{}
				var first []*telemetry.Report
				for _, rep := range all {
					if r.IntN(6) == 0 {
						late = append(late, rep) // arrives after its day is compacted
					} else {
						first = append(first, rep)
					}
				}
				for range len(first) / 10 {
					first = append(first, first[r.IntN(len(first))])
				}
				write(first)
				checkEqual(t, db, ref, dev, start, end, r, "written")

				// Compact all but the last two days.
				res, err := db.CompactReadings(ctx, end, nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.Readings == 0 {
					t.Fatal("nothing compacted")
				}
				checkEqual(t, db, ref, dev, start, end, r, "compacted")

				// Late reports and redeliveries of compacted ones.
				for range len(first) / 10 {
					late = append(late, first[r.IntN(len(first))])
				}
				write(late)
				checkEqual(t, db, ref, dev, start, end, r, "late reports merged")
				if got, want := dayCount(t, db, dev), len(ref.vals); got != want {
					t.Fatalf("rollups count %d readings, want %d", got, want)
				}

				// Compact everything, twice: the second finds nothing.
				if _, err := db.CompactReadings(ctx, end.Add(72*time.Hour), nil); err != nil {
					t.Fatal(err)
				}
				checkEqual(t, db, ref, dev, start, end, r, "compacted again")
				res, err = db.CompactReadings(ctx, end.Add(72*time.Hour), nil)
				if err != nil || res.Readings != 0 {
					t.Fatalf("second compaction moved %d readings (%v)", res.Readings, err)
				}

				// Retention: whole chunks and part of the day it straddles.
				before := start.Add(time.Duration(r.Int64N(int64(end.Sub(start)))))
				if _, err := db.PurgeReadings(ctx, before); err != nil {
					t.Fatal(err)
				}
				ref.purge(before.UnixMilli())
				checkEqual(t, db, ref, dev, start, end, r, "purged")
			})
		}
	})
}

// TestChunks_StorageStats: compaction moves the readings from rows to chunks
// and stats counts them in both places.
func TestChunks_StorageStats(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		owner := newAccount(t, db, "farmer01")
		dev := newDevice(t, db, "ZS0000009", 2, owner.ID).ID
		r := rand.New(rand.NewPCG(1, 1))
		rs := randomReports(r, dev, time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC), 5)
		n, err := db.WriteReports(ctx, rs, shanghai)
		if err != nil {
			t.Fatal(err)
		}
		st, err := db.StorageStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st[0].Readings != int64(n) || st[1].Readings != 0 || st[0].Bytes == 0 {
			t.Fatalf("before compaction: %+v, want %d hot readings", st, n)
		}
		if _, err := db.CompactReadings(ctx, time.Now(), nil); err != nil {
			t.Fatal(err)
		}
		st, err = db.StorageStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st[0].Readings != 0 || st[1].Readings != int64(n) || st[1].Rows == 0 || st[1].Bytes == 0 {
			t.Fatalf("after compaction: %+v, want %d readings in chunks", st, n)
		}
	})
}
