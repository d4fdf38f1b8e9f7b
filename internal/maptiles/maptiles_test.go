package maptiles

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Source{
		"":     OSM,
		"osm":  OSM,
		"amap": AMap,
		"https://tiles.example.com/{z}/{x}/{y}.png": {URL: "https://tiles.example.com/{z}/{x}/{y}.png", Coords: WGS84, MaxZoom: 18},
		"gcj02:http://{s}.tiles.example.cn/t?x={x}&y={y}&z={z}": {URL: "http://{s}.tiles.example.cn/t?x={x}&y={y}&z={z}",
			Subdomains: "abc", Coords: GCJ02, MaxZoom: 18},
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("%q: got %+v %v, want %+v", in, got, err, want)
		}
	}
	if OSM.URL != "https://tile.openstreetmap.org/{z}/{x}/{y}.png" || OSM.Coords != "wgs84" || OSM.Attribution != "© OpenStreetMap contributors" {
		t.Errorf("osm: %+v", OSM)
	}
	if !strings.Contains(AMap.URL, "webrd0{s}.is.autonavi.com") || AMap.Subdomains != "1234" || AMap.Coords != "gcj02" {
		t.Errorf("amap: %+v", AMap)
	}
	for _, bad := range []string{
		"google",
		"https://tiles.example.com/{z}/{x}.png",
		"ftp://tiles.example.com/{z}/{x}/{y}.png",
		"/tiles/{z}/{x}/{y}.png",
		"gcj02:amap",
		"wgs84:https://tiles.example.com/{z}/{x}/{y}.png",
	} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
