package bootstrap

import (
	"net/netip"
	"slices"

	"github.com/corium/corium-agent/internal/schema"
)

// ReloadSuffices says whether a running interface takes the change from old
// to next through wg-quick@'s ExecReload, `wg syncconf IF <(wg-quick strip
// IF)`, instead of a restart. A restart of wg-quick@IF is propagated by
// systemd to every unit that Requires= it, k0s among them; a reload is not.
// old and next carry the MTU their files state: render fills in a derived
// one (InterfaceMTU), and an old file that states none leaves old.MTU nil.
//
// syncconf sets what `wg-quick strip` keeps: the private key, the listen
// port and the peers (keys, preshared keys, endpoints, allowed IPs,
// keepalives), removing peers that are gone. It does not touch what wg-quick
// itself does at `up`: the addresses, the MTU, and a route for each allowed
// IP the addresses do not already cover. So a change to the addresses, the
// MTU, or that set of routes needs a restart; everything else reloads.
func ReloadSuffices(old, next schema.WireGuard) bool {
	oldAddrs, ok1 := prefixSet(old.Address, false)
	newAddrs, ok2 := prefixSet(next.Address, false)
	if !ok1 || !ok2 || !slices.Equal(oldAddrs, newAddrs) {
		return false
	}
	if !equalIntPtr(old.MTU, next.MTU) {
		return false
	}
	oldRoutes, ok1 := wgQuickRoutes(old, oldAddrs)
	newRoutes, ok2 := wgQuickRoutes(next, newAddrs)
	return ok1 && ok2 && slices.Equal(oldRoutes, newRoutes)
}

// wgQuickRoutes is the set of routes `wg-quick up` adds for the peers'
// allowed IPs: one per prefix that no connected route of the interface's
// addresses already matches (wg-quick checks `ip route show dev IF match`).
func wgQuickRoutes(wg schema.WireGuard, addrs []netip.Prefix) ([]netip.Prefix, bool) {
	var allowed []string
	for _, p := range wg.Peers {
		allowed = append(allowed, p.AllowedIPs...)
	}
	all, ok := prefixSet(allowed, true)
	if !ok {
		return nil, false
	}
	var routes []netip.Prefix
	for _, p := range all {
		if !coveredBy(p, addrs) {
			routes = append(routes, p)
		}
	}
	return routes, true
}

func coveredBy(p netip.Prefix, connected []netip.Prefix) bool {
	for _, c := range connected {
		if c.Bits() <= p.Bits() && c.Contains(p.Addr()) {
			return true
		}
	}
	return false
}

// prefixSet parses prefixes into a sorted set, so the order they are
// written in does not count as a change; masked drops host bits (routes),
// unmasked keeps them (an interface's own addresses).
func prefixSet(list []string, masked bool) ([]netip.Prefix, bool) {
	out := make([]netip.Prefix, 0, len(list))
	for _, s := range list {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, false
		}
		if masked {
			p = p.Masked()
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b netip.Prefix) int {
		if c := a.Addr().Compare(b.Addr()); c != 0 {
			return c
		}
		return a.Bits() - b.Bits()
	})
	return slices.Compact(out), true
}

func equalIntPtr(a, b *int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
