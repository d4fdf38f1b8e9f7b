package et0grid

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
)

// NoData is the value of a cell without one, as the GeoTIFF declares it.
const NoData = -9999

// TIFF field types.
const (
	tShort  = 3
	tLong   = 4
	tASCII  = 2
	tDouble = 12
)

type tag struct {
	id, typ uint16
	count   uint32
	value   []byte // the value's bytes; kept inline when 4 bytes or fewer
}

func shorts(vs ...uint16) []byte {
	b := make([]byte, 2*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint16(b[2*i:], v)
	}
	return b
}

func longs(vs ...uint32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

func doubles(vs ...float64) []byte {
	b := make([]byte, 8*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return b
}

// WriteGeoTIFF writes g as a single-band 32-bit float GeoTIFF in WGS 84
// geographic coordinates (EPSG:4326), pixels as areas, north up, with
// NoData declared as GDAL reads it: what GDAL, QGIS and other GIS tools open.
func WriteGeoTIFF(w io.Writer, g *Grid) error {
	if g.Cols < 1 || g.Rows < 1 || len(g.Values) != g.Cols*g.Rows {
		return fmt.Errorf("et0grid: a %d × %d grid with %d values", g.Cols, g.Rows, len(g.Values))
	}
	pixels := make([]byte, 4*len(g.Values))
	for i, v := range g.Values {
		if math.IsNaN(v) {
			v = NoData
		}
		binary.LittleEndian.PutUint32(pixels[4*i:], math.Float32bits(float32(v)))
	}
	nodata := append([]byte(strconv.Itoa(NoData)), 0)
	geoKeys := shorts(
		1, 1, 0, 3, // directory version 1.1.0, three keys
		1024, 0, 1, 2, // GTModelTypeGeoKey: geographic
		1025, 0, 1, 1, // GTRasterTypeGeoKey: pixel is area
		2048, 0, 1, 4326, // GeographicTypeGeoKey: WGS 84
	)
	tags := []tag{
		{256, tLong, 1, longs(uint32(g.Cols))},
		{257, tLong, 1, longs(uint32(g.Rows))},
		{258, tShort, 1, shorts(32)},
		{259, tShort, 1, shorts(1)}, // no compression
		{262, tShort, 1, shorts(1)}, // min is black
		{273, tLong, 1, nil},        // strip offset, set below
		{277, tShort, 1, shorts(1)},
		{278, tLong, 1, longs(uint32(g.Rows))},
		{279, tLong, 1, longs(uint32(len(pixels)))},
		{284, tShort, 1, shorts(1)}, // one plane
		{339, tShort, 1, shorts(3)}, // IEEE floating point
		{33550, tDouble, 3, doubles(g.Cell, g.Cell, 0)},
		{33922, tDouble, 6, doubles(0, 0, 0, g.Box.West, g.Box.North, 0)},
		{34735, tShort, uint32(len(geoKeys) / 2), geoKeys},
		{42113, tASCII, uint32(len(nodata)), nodata},
	}
	// Layout: header, IFD, the values too long to sit in it, the pixels.
	const header = 8
	ifdLen := 2 + 12*len(tags) + 4
	extra := 0
	for _, t := range tags {
		if len(t.value) > 4 {
			extra += len(t.value) + len(t.value)%2
		}
	}
	dataOffset := header + ifdLen + extra
	for i := range tags {
		if tags[i].id == 273 {
			tags[i].value = longs(uint32(dataOffset))
		}
	}
	var buf bytes.Buffer
	buf.WriteString("II")
	buf.Write(shorts(42))
	buf.Write(longs(header))
	buf.Write(shorts(uint16(len(tags))))
	var tail bytes.Buffer
	next := header + ifdLen
	for _, t := range tags {
		buf.Write(shorts(t.id, t.typ))
		buf.Write(longs(t.count))
		if len(t.value) <= 4 {
			v := make([]byte, 4)
			copy(v, t.value)
			buf.Write(v)
			continue
		}
		buf.Write(longs(uint32(next + tail.Len())))
		tail.Write(t.value)
		if len(t.value)%2 == 1 {
			tail.WriteByte(0) // values start on a word boundary
		}
	}
	buf.Write(longs(0)) // no further image
	buf.Write(tail.Bytes())
	buf.Write(pixels)
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteCSV writes one line per cell: the latitude and longitude of its
// centre and its value, mm, with a header line.
func WriteCSV(w io.Writer, g *Grid) error {
	var buf bytes.Buffer
	buf.WriteString("lat,lng,et0_mm\n")
	for r := 0; r < g.Rows; r++ {
		for c := 0; c < g.Cols; c++ {
			lat, lng := g.Center(r, c)
			fmt.Fprintf(&buf, "%.5f,%.5f,%.2f\n", lat, lng, g.At(r, c))
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}
