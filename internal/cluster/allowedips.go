package cluster

import (
	"net/netip"
	"strings"
)

// allowedIPs: WireGuard takes a packet from a peer only when its source is
// in that peer's allowedIPs, and sends to the peer only what they hold, so an
// entry holds every address of the interface it stands for; and one file
// sends a node's address to one peer only.
func (c *check) allowedIPs() {
	c.entries(func(e *entry) {
		t := e.target
		if t == nil || e.mismatched {
			return
		}
		var missing []string
		for _, a := range t.addrs {
			if !e.holds(a.Addr()) {
				missing = append(missing, a.Addr().String())
			}
		}
		if len(missing) > 0 {
			c.errorf(e.in.n, e.path().Field("allowedIPs").String(), []Place{t.n.at(t.path().Field("address").String())},
				"do not hold %s of %s: WireGuard drops what it sends from there, and routes nothing to it; add %s",
				strings.Join(missing, " and "), t, hostPrefixes(missing))
			c.fix(allowedFix(e, missing))
		}
	})
	first := map[netip.Addr]claim{} // emptied for each file, its room kept
	for _, n := range c.set {
		clear(first)
		c.claims(n, first)
	}
}

// claims: two entries of one file on different interfaces that hold one
// address of another node send its traffic two ways (entries of one
// interface are the file's own overlap check). first comes empty, and
// takes the first entry to hold each address.
func (c *check) claims(n *node, first map[netip.Addr]claim) {
	for _, f := range n.ifaces {
		for _, e := range f.peers {
			for k, p := range e.allowed {
				c.each(p, n, func(a netip.Addr, owner *iface) {
					o, seen := first[a]
					switch {
					case !seen:
						first[a] = claim{e, k}
					case o.e.in != e.in:
						c.errorf(n, e.path().Field("allowedIPs").Index(k).String(), []Place{n.at(o.e.path().Field("allowedIPs").Index(o.k).String())},
							"holds %s, the address of %s, as %s.allowedIPs[%d] of this file does: one node's traffic goes to one peer", a, owner, o.e.path(), o.k)
					}
				})
			}
		}
	}
}

// claim is the entry of a file that holds an address first, and where in
// its allowedIPs.
type claim struct {
	e *entry
	k int
}

// each calls f for every address of another file's interface that p holds.
func (c *check) each(p netip.Prefix, n *node, f func(netip.Addr, *iface)) {
	for _, a := range c.addrs.within(p) {
		if o := c.addrs.byAddr[a]; o.n != n {
			f(a, o)
		}
	}
}

func hostPrefixes(addrs []string) string {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = a + "/32"
		if strings.Contains(a, ":") {
			out[i] = a + "/128"
		}
	}
	return strings.Join(out, ", ")
}
