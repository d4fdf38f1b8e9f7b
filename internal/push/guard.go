package push

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"syscall"

	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// Guard keeps push targets off the server's own network: an address that
// resolves to loopback, private, link-local, shared (CGNAT), multicast or
// unspecified space is refused, unless the operator allows private targets
// (--push-allow-private). It checks twice: when a channel is saved (a clear
// error) and at every connection (a name that resolves elsewhere later
// cannot reach inside).
type Guard struct {
	AllowPrivate bool
	// Allow are exact addresses allowed although not public: the demo
	// farm's receiver on loopback. A URL reaches one only by naming its IP
	// and port.
	Allow    []netip.AddrPort
	Resolver *net.Resolver // nil: net.DefaultResolver
}

var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// Allowed reports whether ip may be a push target.
func (g Guard) Allowed(ip netip.Addr) bool {
	if g.AllowPrivate {
		return true
	}
	ip = ip.Unmap()
	return ip.IsValid() && !(ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || sharedSpace.Contains(ip))
}

// Check resolves a target's host and refuses it when any of its addresses
// is not allowed. Returns EINVALID naming field.
func (g Guard) Check(ctx context.Context, field, target string) error {
	u, err := url.Parse(target)
	if err != nil || u.Hostname() == "" {
		return errs.Invalid(field, "push.url.invalid")
	}
	if g.AllowPrivate {
		return nil
	}
	if ap, err := netip.ParseAddrPort(u.Host); err == nil && slices.Contains(g.Allow, ap) {
		return nil
	}
	r := g.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupNetIP(ctx, "ip", u.Hostname())
	if err != nil || len(addrs) == 0 {
		return errs.Invalid(field, "push.url.unresolved").With(map[string]any{"host": u.Hostname()})
	}
	for _, a := range addrs {
		if !g.Allowed(a) {
			return errs.Invalid(field, "push.url.private").With(map[string]any{"host": u.Hostname()})
		}
	}
	return nil
}

// errRefused is what a connection to a forbidden address fails with.
type errRefused struct{ addr string }

func (e errRefused) Error() string {
	return "refused to connect to " + e.addr + ": not a public address (see --push-allow-private)"
}

// Dialer returns a dialer that refuses forbidden addresses at connect
// time, after name resolution.
func (g Guard) Dialer() *net.Dialer {
	d := &net.Dialer{Timeout: defaultTimeout}
	d.Control = func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !(g.Allowed(ap.Addr()) || slices.Contains(g.Allow, ap)) {
			return errRefused{address}
		}
		return nil
	}
	return d
}
