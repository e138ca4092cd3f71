package cluster

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/schema"
)

// member is a node whose node address is on the overlay (an interface with
// nodeAddress), with what that address carries: pods, when it runs a kubelet
// with kube-router or calico, whose BGP sessions, tunnels and VXLAN run
// between the node addresses of every two nodes; etcd, when it is a
// controller of an etcd cluster, whose peers talk at the node addresses. A
// custom CNI is not judged, nor a node whose address is on the underlay:
// its traffic does not take the overlay.
type member struct {
	f      *iface
	addrs  []netip.Addr // the node addresses: the first of each family
	groups groups
}

func newMember(n *node) *member {
	var g groups
	if n.eff.Role.HasKubelet() && (n.eff.Network.CNI == schema.CNIKubeRouter || n.eff.Network.CNI == schema.CNICalico) {
		g |= groupPods
	}
	if n.eff.Role.IsController() && n.eff.Role != schema.RoleSingle && n.eff.Storage.Type == schema.StorageEtcd {
		g |= groupEtcd
	}
	if g == 0 {
		return nil
	}
	for _, f := range n.ifaces {
		if !f.wg.NodeAddress || n.bad[f.path().Field("address").String()] {
			continue
		}
		m := &member{f: f, groups: g}
		var v4, v6 bool
		for _, p := range f.addrs {
			if a := p.Addr(); a.Is4() && !v4 || !a.Is4() && !v6 {
				m.addrs = append(m.addrs, a)
				v4, v6 = v4 || a.Is4(), v6 || !a.Is4()
			}
		}
		if len(m.addrs) > 0 {
			return m
		}
	}
	return nil
}

// reach: two nodes that share a group must reach each other's node
// addresses through the overlay. A node reaches an address when the peer
// entry whose allowedIPs hold it stands for the interface that has it, or
// for an interface of the set that forwards it: one that is itself a peer
// of that interface, with allowedIPs holding the address (one hop, a hub).
// An entry for a peer outside the set is trusted with what it holds. The
// return way is the other node's own check. Reachability is counted per
// entry (addrSet), so a set costs its entries, not its pairs of nodes;
// only a node found short is walked address by address, along routes of
// any number of hops (stop), to name what it misses.
func (c *check) reach() {
	byAddr := map[netip.Addr]*member{}
	of := map[*iface]*member{}
	var members []*member
	var addrs []netip.Addr
	for _, n := range c.set {
		m := newMember(n)
		if m == nil {
			continue
		}
		members = append(members, m)
		of[m.f] = m
		for _, a := range m.addrs {
			if _, dup := byAddr[a]; !dup { // a duplicate is identity's finding
				byAddr[a] = m
				addrs = append(addrs, a)
			}
		}
	}
	if len(members) < 2 {
		return
	}
	groupOf := func(a netip.Addr) groups { return byAddr[a].groups }
	all := newAddrSet(addrs, groupOf)
	// carried is, by interface, the member addresses it delivers: its own,
	// and those of the peers it lists for them.
	carried := map[*iface]*addrSet{}
	carries := func(t *iface) *addrSet {
		if s, ok := carried[t]; ok {
			return s
		}
		var own []netip.Addr
		for _, p := range t.addrs {
			if _, ok := byAddr[p.Addr()]; ok {
				own = append(own, p.Addr())
			}
		}
		for _, e := range t.peers {
			if e.target == nil || e.mismatched {
				continue
			}
			if m := of[e.target]; m != nil {
				for _, a := range m.addrs {
					if byAddr[a] == m && e.holds(a) {
						own = append(own, a)
					}
				}
			}
		}
		s := newAddrSet(own, groupOf)
		carried[t] = s
		return s
	}
	for _, m := range members {
		want, got := all.cum[m.groups][len(all.addrs)], 0
		for _, a := range m.addrs {
			if byAddr[a] == m {
				want--
			}
		}
		for _, f := range m.f.n.ifaces {
			for _, e := range f.peers {
				via := all
				if e.target != nil {
					via = carries(e.target)
				}
				for _, p := range distinct(e.allowed) {
					got += via.count(p, m.groups)
					for _, a := range m.addrs {
						if p.Contains(a) && via.has(a) {
							got-- // its own address, which it never sends a peer
						}
					}
				}
			}
		}
		if got < want {
			c.unreached(m, members, byAddr)
		}
	}
}

// distinct drops the prefixes of ps that another of ps holds, so an address
// is counted once however the entry's allowedIPs repeat it. Sorted by start,
// shorter first, a prefix inside another comes after it, and after every
// prefix kept since, so it is held by the last one kept.
func distinct(ps []netip.Prefix) []netip.Prefix {
	if len(ps) < 2 {
		return ps
	}
	sorted := slices.Clone(ps)
	slices.SortFunc(sorted, func(a, b netip.Prefix) int {
		if c := a.Addr().Compare(b.Addr()); c != 0 {
			return c
		}
		return a.Bits() - b.Bits()
	})
	out := sorted[:1]
	for _, p := range sorted[1:] {
		if last := out[len(out)-1]; last.Bits() <= p.Bits() && last.Contains(p.Addr()) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// unreached names the member addresses m's node cannot reach, and why, with
// the first few of them in the message.
func (c *check) unreached(m *member, members []*member, byAddr map[netip.Addr]*member) {
	route := map[netip.Addr]*entry{} // address -> the entry whose allowedIPs hold it
	for _, f := range m.f.n.ifaces {
		for _, e := range f.peers {
			for _, p := range e.allowed {
				for _, a := range c.addrs.within(p) {
					if _, seen := route[a]; !seen {
						route[a] = e
					}
				}
			}
		}
	}
	const shown = 3
	var unheld, unforwarded []string // "file wireguard[0] (address)", and why
	var related []Place
	missed := 0
	for _, o := range members {
		if o == m || o.groups&m.groups == 0 {
			continue
		}
		for _, a := range o.addrs {
			if byAddr[a] != o {
				continue
			}
			e := route[a]
			var end *iface
			var loops bool
			if e != nil {
				if end, loops = stop(e, a, o.f); end == nil {
					continue
				}
			}
			missed++
			if missed > shown {
				continue
			}
			related = append(related, o.f.n.at(o.f.path().Field("address").String()))
			name := fmt.Sprintf("%s (%s)", o.f, a)
			if e == nil {
				unheld = append(unheld, name)
				continue
			}
			why := fmt.Sprintf("%s, whose address %s holds for %s", name, e.path(), e.target)
			switch {
			case loops:
				why += fmt.Sprintf(", and the peers it goes through send it back to %s", end)
			case end != e.target:
				why += fmt.Sprintf(", and the peers it goes through hand it to %s, which has no peer for it", end)
			default:
				why += ", which has no peer for it"
			}
			unforwarded = append(unforwarded, why)
		}
	}
	if missed == 0 {
		return
	}
	var why []string
	switch len(unheld) {
	case 0:
	case 1:
		why = append(why, unheld[0]+", whose address no peer entry holds")
	default:
		why = append(why, strings.Join(unheld, ", ")+", whose addresses no peer entry holds")
	}
	why = append(why, unforwarded...)
	more := ""
	if missed > shown {
		more = fmt.Sprintf(", and %d more", missed-shown)
	}
	c.errorf(m.f.n, m.f.path().Field("peers").String(), related,
		"cannot reach, through the overlay, %s%s; %s: list each as a peer, or hold its address in the allowedIPs of a peer that lists it",
		strings.Join(why, "; "), more, traffic(m))
}

// stop follows the route to a from entry e, peer to peer, each handing it
// on by its allowedIPs: nil when it reaches o, or a peer outside the set
// (trusted with what it holds); else the interface where it stops, one
// whose entries hold no a, or, with loops, one it came through before.
// Only a node found short is walked so.
func stop(e *entry, a netip.Addr, o *iface) (end *iface, loops bool) {
	seen := map[*iface]bool{e.in: true}
	for t := e.target; t != nil && t != o; {
		if seen[t] {
			return t, true
		}
		seen[t] = true
		var next *entry
		for _, x := range t.peers {
			if !x.mismatched && x.holds(a) {
				next = x
				break
			}
		}
		if next == nil {
			return t, false
		}
		t = next.target
	}
	return nil, false
}

// traffic says what runs between m and the nodes it must reach.
func traffic(m *member) string {
	pods := "the pods' traffic runs"
	switch m.f.n.eff.Network.CNI {
	case schema.CNIKubeRouter:
		pods = "kube-router's BGP sessions and tunnels run"
	case schema.CNICalico:
		pods = "calico's VXLAN runs"
	}
	pods += " between the node addresses of every two nodes"
	const etcd = "etcd's peer traffic between those of every two controllers"
	switch m.groups {
	case groupPods:
		return pods
	case groupEtcd:
		return etcd + " runs"
	}
	return pods + ", and " + etcd
}
