package tsz

import "encoding/binary"

// bitWriter appends bits, most significant first, to buf.
type bitWriter struct {
	buf []byte
	acc uint64 // pending bits, in the low n
	n   int
}

func (w *bitWriter) writeBit(b uint64) { w.writeBits(b, 1) }

// writeBits writes the low nb bits of v (nb ≤ 64).
func (w *bitWriter) writeBits(v uint64, nb int) {
	for nb > 0 {
		take := min(nb, 64-w.n)
		chunk := v >> (nb - take)
		if take < 64 {
			chunk &= 1<<take - 1
		}
		w.acc = w.acc<<take | chunk
		w.n += take
		nb -= take
		if w.n == 64 {
			w.buf = binary.BigEndian.AppendUint64(w.buf, w.acc)
			w.acc, w.n = 0, 0
		}
	}
}

// Variable-length fields of a zigzagged delta: '0' for zero, then prefixes
// of one to five 1 bits (the fifth without its closing 0) for 4, 9, 16, 32
// and 64 bits of payload.
var dodWidths = [...]int{4, 9, 16, 32, 64}

func (w *bitWriter) writeDod(u uint64) {
	switch {
	case u == 0:
		w.writeBits(0, 1)
	case u < 1<<4:
		w.writeBits(0b10<<4|u, 6)
	case u < 1<<9:
		w.writeBits(0b110<<9|u, 12)
	case u < 1<<16:
		w.writeBits(0b1110<<16|u, 20)
	case u < 1<<32:
		w.writeBits(0b11110<<32|u, 37)
	default:
		w.writeBits(0b11111, 5)
		w.writeBits(u, 64)
	}
}

func (w *bitWriter) writeVar(u uint64) { w.writeDod(u) }

func (w *bitWriter) finish() []byte {
	for w.n > 0 {
		take := min(w.n, 8)
		w.buf = append(w.buf, byte(w.acc>>(w.n-take))<<(8-take))
		w.n -= take
	}
	w.acc = 0
	return w.buf
}

// bitReader reads what bitWriter wrote; reading past the end sets err.
type bitReader struct {
	buf []byte
	pos int // in bits
	err bool
}

func (r *bitReader) readBit() uint64 {
	if r.pos >= len(r.buf)*8 {
		r.err = true
		return 0
	}
	b := uint64(r.buf[r.pos>>3]>>(7-r.pos&7)) & 1
	r.pos++
	return b
}

func (r *bitReader) readBits(nb int) uint64 {
	if nb == 0 {
		return 0
	}
	if r.pos+nb > len(r.buf)*8 {
		r.err = true
		r.pos = len(r.buf) * 8
		return 0
	}
	i, off := r.pos>>3, r.pos&7
	if nb <= 64-off && i+8 <= len(r.buf) {
		r.pos += nb
		return binary.BigEndian.Uint64(r.buf[i:]) << off >> (64 - nb)
	}
	var v uint64
	for nb > 0 {
		i, off := r.pos>>3, r.pos&7
		take := min(8-off, nb)
		v = v<<take | uint64(r.buf[i]>>(8-off-take))&(1<<take-1)
		r.pos += take
		nb -= take
	}
	return v
}

func (r *bitReader) readDod() uint64 {
	k := 0
	for k < len(dodWidths) && r.readBit() == 1 {
		k++
	}
	if k == 0 {
		return 0
	}
	return r.readBits(dodWidths[k-1])
}

func (r *bitReader) readVar() uint64 { return r.readDod() }
