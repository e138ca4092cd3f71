package cluster

import (
	"fmt"
	"net/netip"
	"strings"
)

// endpointOwners: an endpoint that is another node's address sends the
// handshake to that node, which answers only its own key: no handshake
// ever happens, and the node meant is never reached. Whose address an
// endpoint is comes from the host facts where they are given (an address
// on one node's own interfaces), else from the set itself: the node most
// entries dial at that endpoint (address and port, so that nodes behind one
// NAT with a port forward each are told apart), or, between nodes dialled
// there equally often, the one the set dials nowhere else. The entry
// found is the cause: the target's "dialled at two endpoints" and its
// endpoint's port are not reported again from it, and the HA check does
// not take the endpoint for the target's underlay address.
func (c *check) endpointOwners() {
	byFacts := c.factsOwners()
	type count struct{ n int }
	at := map[netip.AddrPort]map[*node]*count{}
	endpoints := map[*node]map[netip.AddrPort]bool{}
	c.entries(func(e *entry) {
		ap, ok := e.dialsIP()
		if !ok || e.target == nil {
			return
		}
		t := e.target.n
		if at[ap] == nil {
			at[ap] = map[*node]*count{}
		}
		if at[ap][t] == nil {
			at[ap][t] = &count{}
		}
		at[ap][t].n++
		if endpoints[t] == nil {
			endpoints[t] = map[netip.AddrPort]bool{}
		}
		endpoints[t][ap] = true
	})
	owner := func(ap netip.AddrPort) *node {
		if o := byFacts[ap.Addr()]; o != nil {
			return o
		}
		var most []*node
		for n, k := range at[ap] {
			switch {
			case len(most) == 0 || k.n > at[ap][most[0]].n:
				most = []*node{n}
			case k.n == at[ap][most[0]].n:
				most = append(most, n)
			}
		}
		if len(most) == 1 {
			return most[0]
		}
		// Equally often: the one dialled nowhere else owns it.
		var only []*node
		for _, n := range most {
			if len(endpoints[n]) == 1 {
				only = append(only, n)
			}
		}
		if len(only) == 1 {
			return only[0]
		}
		return nil
	}
	c.entries(func(e *entry) {
		ap, ok := e.dialsIP()
		if !ok || e.target == nil {
			return
		}
		t := e.target.n
		o := owner(ap)
		if o == nil || o == t || (byFacts[ap.Addr()] == nil && len(at[ap]) < 2) || holdsAddr(t, ap.Addr()) {
			return
		}
		if e.mismatched || holdsAnyOf(e, o) && !holdsAnyOf(e, t) {
			return // its addresses name o, not t: the key is what is wrong (match)
		}
		e.elsewhere = o
		var how string
		if byFacts[ap.Addr()] == o {
			how = "on its host's interfaces"
		} else {
			var who []string
			c.entries(func(d *entry) {
				if d.target != nil && d.target.n == o {
					if dp, ok := d.dialsIP(); ok && dp == ap {
						who = append(who, d.in.n.File)
					}
				}
			})
			how = "where " + strings.Join(who, " and ") + " " + plural(len(who), "dials", "dial") + " it"
		}
		fix := "dial it at the address it answers at"
		if other := c.ownEndpoint(e.target, ap); other != "" {
			fix = "dial it at " + other + ", as the set does elsewhere"
		}
		c.errorf(e.in.n, e.path().Field("endpoint").String(), []Place{o.at("")},
			"%s is the address of %s, %s, not of %s, whose key this entry holds: the handshakes go to %s, which answers only its own key, so the tunnel never comes up; %s",
			ap, nodeName(o), how, e.target, o.File, fix)
	})
}

// holdsAnyOf says whether e's allowedIPs hold an overlay address of n.
func holdsAnyOf(e *entry, n *node) bool {
	for _, f := range n.ifaces {
		for _, a := range f.addrs {
			if e.holds(a.Addr()) {
				return true
			}
		}
	}
	return false
}

// dialsIP is the entry's endpoint when it is an IP address its file's
// rules took; a host name is resolved on the node only.
func (e *entry) dialsIP() (netip.AddrPort, bool) {
	if e.p.Endpoint == "" || e.in.n.bad[e.path().Field("endpoint").String()] {
		return netip.AddrPort{}, false
	}
	ap, err := netip.ParseAddrPort(e.p.Endpoint)
	if err != nil {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), true
}

// ownEndpoint is an endpoint another entry of the set dials f at, other
// than not; "" when there is none.
func (c *check) ownEndpoint(f *iface, not netip.AddrPort) string {
	out := ""
	c.entries(func(d *entry) {
		if ap, ok := d.dialsIP(); ok && out == "" && d.target == f && ap != not {
			out = ap.String()
		}
	})
	return out
}

// factsOwners are the addresses on exactly one node's own interfaces, by
// the host facts given; loopback and link-local addresses, and addresses
// several hosts have (a container bridge's), name no node.
func (c *check) factsOwners() map[netip.Addr]*node {
	out := map[netip.Addr]*node{}
	shared := map[netip.Addr]bool{}
	for _, n := range c.set {
		if n.Facts == nil {
			continue
		}
		for _, i := range n.Facts.Interfaces {
			for _, p := range i.Addresses {
				a := p.Addr().Unmap()
				if a.IsLoopback() || a.IsLinkLocalUnicast() {
					continue
				}
				if o, ok := out[a]; ok && o != n {
					shared[a] = true
				}
				out[a] = n
			}
		}
	}
	for a := range shared {
		delete(out, a)
	}
	return out
}

// holdsAddr says whether n's host facts list a as its own.
func holdsAddr(n *node, a netip.Addr) bool {
	if n.Facts == nil {
		return false
	}
	for _, i := range n.Facts.Interfaces {
		for _, p := range i.Addresses {
			if p.Addr().Unmap() == a {
				return true
			}
		}
	}
	return false
}

// nodeName names a node in a message: node.name and its file, or the file.
func nodeName(n *node) string {
	if name := n.name(); name != "" {
		return fmt.Sprintf("%s (%s)", name, n.File)
	}
	return n.File
}
