package httpapi

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
)

// Every route of the table is registered once, no two patterns conflict
// (ServeMux would panic), and each path reaches its own pattern rather than
// a neighbour's: /apis/poi/analysis/moisture is not /apis/poi/{id}/…, and
// /apis/poi/scan/bind is not /apis/poi/{id}/….
func TestRoutes_EachPathReachesItsOwnPattern(t *testing.T) {
	s := New(Options{})
	mux := http.NewServeMux()
	seen := map[string]bool{}
	pattern := func(rt route) string {
		if rt.path == "/" {
			return "/"
		}
		return rt.method + " " + rt.path
	}
	for _, rt := range s.routes() {
		p := pattern(rt)
		if seen[p] {
			t.Errorf("%s is in the table twice", p)
			continue
		}
		seen[p] = true
		mux.Handle(p, rt.handler)
	}
	wildcard := regexp.MustCompile(`\{[^}]+\}`)
	for _, rt := range s.routes() {
		if rt.path == "/" {
			continue
		}
		path := wildcard.ReplaceAllString(rt.path, "12")
		_, got := mux.Handler(httptest.NewRequest(rt.method, path+"?id=12", nil))
		if want := pattern(rt); got != want {
			t.Errorf("%s %s reaches %q, not %q", rt.method, path, got, want)
		}
	}
}
