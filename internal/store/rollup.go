package store

import (
	"cmp"
	"encoding/binary"
	"errors"
	"math"
	"slices"
)

// rollup is one series' statistics for one day.
type rollup struct {
	param, node   int
	min, max, sum float64
	count         int64
	lastTS        int64
	last          float64
}

// rollupSize is the encoded size of one rollup: param and node (uint16
// each), min, max, sum (float64), count (uint32), last time (int64) and
// last value (float64).
const rollupSize = 2 + 2 + 8*3 + 4 + 8 + 8

// encodeRollups packs a day's rollups, sorted by param and node.
func encodeRollups(rs []rollup) []byte {
	slices.SortFunc(rs, func(a, b rollup) int { return cmp.Or(cmp.Compare(a.param, b.param), cmp.Compare(a.node, b.node)) })
	b := make([]byte, 0, len(rs)*rollupSize)
	for _, r := range rs {
		b = binary.LittleEndian.AppendUint16(b, uint16(r.param))
		b = binary.LittleEndian.AppendUint16(b, uint16(r.node))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.min))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.max))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.sum))
		b = binary.LittleEndian.AppendUint32(b, uint32(r.count))
		b = binary.LittleEndian.AppendUint64(b, uint64(r.lastTS))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.last))
	}
	return b
}

var errRollup = errors.New("malformed daily rollup")

// decodeRollups unpacks what encodeRollups wrote.
func decodeRollups(b []byte) ([]rollup, error) {
	out := make([]rollup, 0, len(b)/rollupSize)
	if err := eachRollup(b, func(r rollup) { out = append(out, r) }); err != nil {
		return nil, err
	}
	return out, nil
}

// merge adds the rollups of add into base (both for one day).
func mergeRollups(base, add []rollup) []rollup {
	type key struct{ param, node int }
	idx := make(map[key]int, len(base))
	for i, r := range base {
		idx[key{r.param, r.node}] = i
	}
	for _, r := range add {
		i, ok := idx[key{r.param, r.node}]
		if !ok {
			idx[key{r.param, r.node}] = len(base)
			base = append(base, r)
			continue
		}
		b := &base[i]
		b.min, b.max, b.sum, b.count = math.Min(b.min, r.min), math.Max(b.max, r.max), b.sum+r.sum, b.count+r.count
		if r.lastTS >= b.lastTS {
			b.lastTS, b.last = r.lastTS, r.last
		}
	}
	return base
}

// eachRollup calls f with each rollup encodeRollups packed, without
// collecting them.
func eachRollup(b []byte, f func(rollup)) error {
	if len(b)%rollupSize != 0 {
		return errRollup
	}
	for ; len(b) > 0; b = b[rollupSize:] {
		f(rollup{
			param:  int(binary.LittleEndian.Uint16(b[0:])),
			node:   int(binary.LittleEndian.Uint16(b[2:])),
			min:    math.Float64frombits(binary.LittleEndian.Uint64(b[4:])),
			max:    math.Float64frombits(binary.LittleEndian.Uint64(b[12:])),
			sum:    math.Float64frombits(binary.LittleEndian.Uint64(b[20:])),
			count:  int64(binary.LittleEndian.Uint32(b[28:])),
			lastTS: int64(binary.LittleEndian.Uint64(b[32:])),
			last:   math.Float64frombits(binary.LittleEndian.Uint64(b[40:])),
		})
	}
	return nil
}
