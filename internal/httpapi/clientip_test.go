package httpapi

import (
	"bytes"
	"crypto/tls"
	"log/slog"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

func TestClientIP(t *testing.T) {
	lan := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8:1::/48")}
	for _, tc := range []struct {
		name    string
		trust   bool
		proxies []netip.Prefix
		peer    string
		xff     []string // header lines, in order
		want    string
	}{
		{"NoTrustIgnoresHeader", false, nil, "127.0.0.1:5000", []string{"203.0.113.9"}, "127.0.0.1"},
		{"NoHeader", true, nil, "127.0.0.1:5000", nil, "127.0.0.1"},
		{"OneProxy", true, nil, "127.0.0.1:5000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"ForgedLeftEntryIgnored", true, nil, "127.0.0.1:5000", []string{"1.1.1.1, 203.0.113.9"}, "203.0.113.9"},
		{"ForgedLoopbackEntryIgnored", true, nil, "127.0.0.1:5000", []string{"127.0.0.1, 198.51.100.4"}, "198.51.100.4"},
		{"ForgedHeaderLineIgnored", true, nil, "127.0.0.1:5000", []string{"1.1.1.1", "203.0.113.9"}, "203.0.113.9"},
		{"UntrustedPeerUsesPeer", true, nil, "198.51.100.77:5000", []string{"203.0.113.9"}, "198.51.100.77"},
		{"PrivatePeerNotTrustedByDefault", true, nil, "10.1.2.3:5000", []string{"203.0.113.9"}, "10.1.2.3"},
		{"ChainOfTrustedProxies", true, lan, "10.0.0.2:5000", []string{"1.1.1.1, 203.0.113.9, 10.0.0.7"}, "203.0.113.9"},
		{"ForgedProxyAddressInChain", true, lan, "10.0.0.2:5000", []string{"203.0.113.9, 10.9.9.9, 198.51.100.4, 10.0.0.7"}, "198.51.100.4"},
		{"AllTrustedGivesLeftmost", true, lan, "10.0.0.2:5000", []string{"10.0.0.9, 10.0.0.7"}, "10.0.0.9"},
		{"NamedProxiesReplaceDefault", true, lan, "127.0.0.1:5000", []string{"203.0.113.9"}, "127.0.0.1"},
		{"GarbageStopsAtTheHopRight", true, lan, "10.0.0.2:5000", []string{"203.0.113.9, bogus, 10.0.0.7"}, "10.0.0.7"},
		{"GarbageRightmostUsesPeer", true, nil, "127.0.0.1:5000", []string{"203.0.113.9, unknown"}, "127.0.0.1"},
		{"EntriesWithPorts", true, nil, "127.0.0.1:5000", []string{"1.1.1.1, 203.0.113.9:4711"}, "203.0.113.9"},
		{"IPv6", true, lan, "[2001:db8:1::5]:5000", []string{"1.1.1.1, [2001:db8:2::9]:443, 2001:db8:1::7"}, "2001:db8:2::9"},
		{"IPv6LoopbackPeer", true, nil, "[::1]:5000", []string{"2001:db8:2::9"}, "2001:db8:2::9"},
		{"MappedIPv4", true, nil, "[::ffff:127.0.0.1]:5000", []string{"::ffff:203.0.113.9"}, "203.0.113.9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{TrustProxy: tc.trust, TrustedProxies: tc.proxies})
			r := httptest.NewRequest("GET", "/apis/account/profile", nil)
			r.RemoteAddr = tc.peer
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := s.clientIP(r); got != tc.want {
				t.Errorf("clientIP = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSecure_OnlyFromTrustedProxy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		trust bool
		peer  string
		tls   bool
		want  bool
	}{
		{"DirectTLS", false, "198.51.100.77:5000", true, true},
		{"NoTrust", false, "127.0.0.1:5000", false, false},
		{"TrustedProxy", true, "127.0.0.1:5000", false, true},
		{"UntrustedPeer", true, "198.51.100.77:5000", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{TrustProxy: tc.trust})
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.peer
			r.Header.Set("X-Forwarded-Proto", "https")
			if tc.tls {
				r.TLS = &tls.ConnectionState{}
			}
			if got := s.secure(r); got != tc.want {
				t.Errorf("secure = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestClientIP_UntrustedForwarderLoggedOnce(t *testing.T) {
	var buf bytes.Buffer
	s := New(Options{TrustProxy: true, Log: slog.New(slog.NewTextHandler(&buf, nil))})
	for range 3 {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "10.0.0.2:5000"
		r.Header.Set("X-Forwarded-For", "203.0.113.9")
		if got := s.clientIP(r); got != "10.0.0.2" {
			t.Fatalf("clientIP = %q", got)
		}
	}
	if n := strings.Count(buf.String(), "--trusted-proxies"); n != 1 {
		t.Fatalf("logged %d times: %s", n, buf.String())
	}
}
