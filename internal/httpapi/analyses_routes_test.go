package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The analysis routes fit the route table: registered beside every other
// route no pattern conflicts (ServeMux would panic), and each analysis path
// reaches its own pattern rather than a neighbour such as
// /apis/poi/{id}/config. Holds before and after the table includes them.
func TestAnalysisRoutes_FitTheTable(t *testing.T) {
	s := New(Options{})
	mux := http.NewServeMux()
	seen := map[string]bool{}
	add := func(rt route) {
		pattern := rt.method + " " + rt.path
		if rt.path == "/" {
			pattern = "/"
		}
		if !seen[pattern] {
			seen[pattern] = true
			mux.Handle(pattern, rt.handler)
		}
	}
	for _, rt := range s.routes() {
		add(rt)
	}
	for _, rt := range s.analysisRoutes() {
		add(rt)
	}
	for _, rt := range s.analysisRoutes() {
		path := strings.ReplaceAll(rt.path, "{id}", "12")
		_, pattern := mux.Handler(httptest.NewRequest(rt.method, path+"?id=12", nil))
		if want := rt.method + " " + rt.path; pattern != want {
			t.Errorf("%s %s reaches %q", rt.method, path, pattern)
		}
	}
}
