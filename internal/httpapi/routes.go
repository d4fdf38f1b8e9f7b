package httpapi

import "net/http"

// route is one entry of the HTTP route table.
type route struct {
	method, path string
	handler      http.Handler
}

// routes is the whole route table. Handlers wrapped in public() need no
// session; authed() ones answer code 2 without one.
func (s *Server) routes() []route {
	return []route{
		{"POST", "/apis/account/login", s.public(s.login)},
		{"POST", "/apis/account/logout", s.public(s.logout)},
		{"GET", "/apis/account/profile", s.authed(s.profile)},
		{"PUT", "/apis/account/name", s.authed(s.rename)},
		{"PUT", "/apis/account/password", s.authed(s.changePassword)},
		{"POST", "/apis/account/password", s.authed(s.changePasswordLegacy)},

		{"GET", "/healthz", http.HandlerFunc(s.healthz)},
		{"GET", "/metrics", s.metrics.Handler()},
		// Every other path is the web app, which routes on the client.
		{"GET", "/", http.HandlerFunc(s.app)},
	}
}
