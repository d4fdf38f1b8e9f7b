package briefing

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"
)

// DefaultFont is where Debian's fonts-wqy-microhei puts its font: a
// TrueType collection whose first face (WenQuanYi Micro Hei) has the CJK
// and Latin glyphs a briefing needs.
const DefaultFont = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"

var (
	fontMu    sync.Mutex
	fontCache = map[string][]byte{}
)

// loadFont reads a TrueType font (.ttf) or the first face of a TrueType
// collection (.ttc) as a plain TrueType file, which the PDF writer embeds.
func loadFont(path string) ([]byte, error) {
	fontMu.Lock()
	defer fontMu.Unlock()
	if b, ok := fontCache[path]; ok {
		return b, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b, err := firstFace(raw)
	if err != nil {
		return nil, fmt.Errorf("font %s: %w", path, err)
	}
	fontCache[path] = b
	return b, nil
}

// firstFace returns raw itself for a single font, or face 0 of a
// collection rewritten as a single font: its offset table followed by its
// tables, each 4-byte aligned, with offsets from the new file's start
// (OpenType spec, "Font Collections" and "Organization of an OpenType Font").
func firstFace(raw []byte) ([]byte, error) {
	if len(raw) < 12 {
		return nil, errors.New("too short")
	}
	if string(raw[:4]) != "ttcf" {
		return raw, nil
	}
	be := binary.BigEndian
	if be.Uint32(raw[8:]) == 0 || len(raw) < 16 {
		return nil, errors.New("empty collection")
	}
	off := int(be.Uint32(raw[12:]))
	if off+12 > len(raw) {
		return nil, errors.New("bad face offset")
	}
	n := int(be.Uint16(raw[off+4:]))
	head := off + 12
	if head+16*n > len(raw) {
		return nil, errors.New("bad table directory")
	}
	out := make([]byte, 12+16*n)
	copy(out, raw[off:off+12])
	pos := len(out)
	for i := range n {
		rec := raw[head+16*i : head+16*i+16]
		tOff, tLen := int(be.Uint32(rec[8:])), int(be.Uint32(rec[12:]))
		if tOff < 0 || tLen < 0 || tOff+tLen > len(raw) {
			return nil, errors.New("bad table record")
		}
		dst := out[12+16*i : 12+16*i+16]
		copy(dst, rec)
		be.PutUint32(dst[8:], uint32(pos))
		out = append(out, raw[tOff:tOff+tLen]...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
		pos = len(out)
	}
	return out, nil
}
