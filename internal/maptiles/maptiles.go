// Package maptiles names the raster tile source the web app's map loads, and
// the coordinate system its tiles are drawn in: Chinese providers draw in
// GCJ-02, so the app offsets WGS84 device positions before placing them.
package maptiles

import (
	"fmt"
	"net/url"
	"strings"
)

// Coordinate systems of a tile source.
const (
	WGS84 = "wgs84"
	GCJ02 = "gcj02"
)

// Source is a tile source as Leaflet takes it.
type Source struct {
	URL         string `json:"url"`        // template with {z}, {x}, {y} and optionally {s}
	Subdomains  string `json:"subdomains"` // one character per subdomain {s} stands for; "" without {s}
	Coords      string `json:"coords"`     // wgs84 or gcj02
	Attribution string `json:"attribution"`
	MaxZoom     int    `json:"maxZoom"`
}

// The named sources --map-tiles accepts.
var (
	OSM = Source{
		URL: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", Coords: WGS84,
		Attribution: "© OpenStreetMap contributors", MaxZoom: 19,
	}
	AMap = Source{
		URL:        "https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}",
		Subdomains: "1234", Coords: GCJ02, Attribution: "© 高德地图 AutoNavi", MaxZoom: 18,
	}
)

// customMaxZoom is the deepest zoom offered for a custom source: most
// providers stop at 18.
const customMaxZoom = 18

// defaultSubdomains stand for {s} in a custom template, as in Leaflet.
const defaultSubdomains = "abc"

// Parse reads a --map-tiles value: "osm", "amap", or an http(s) URL template
// containing {z}, {x} and {y}, drawn in WGS84 unless prefixed "gcj02:".
func Parse(v string) (Source, error) {
	switch v {
	case "", "osm":
		return OSM, nil
	case "amap":
		return AMap, nil
	}
	src := Source{Coords: WGS84, MaxZoom: customMaxZoom}
	if rest, ok := strings.CutPrefix(v, GCJ02+":"); ok {
		src.Coords, v = GCJ02, rest
	}
	for _, p := range []string{"{z}", "{x}", "{y}"} {
		if !strings.Contains(v, p) {
			return Source{}, fmt.Errorf("%q: use osm, amap, or a tile URL template with {z}, {x} and {y} (missing %s)", v, p)
		}
	}
	sample := strings.NewReplacer("{z}", "1", "{x}", "1", "{y}", "1", "{s}", "a").Replace(v)
	u, err := url.Parse(sample)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Source{}, fmt.Errorf("%q: a tile URL template must be an http:// or https:// address", v)
	}
	src.URL = v
	if strings.Contains(v, "{s}") {
		src.Subdomains = defaultSubdomains
	}
	return src, nil
}
