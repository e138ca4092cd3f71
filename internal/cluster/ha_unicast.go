package cluster

import (
	"net/netip"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
)

// unicastList is one controller's ha.unicastPeers, parsed.
type unicastList struct {
	n     *node
	idx   int
	addrs map[netip.Addr]int // address → its index in the list
}

// unicast: with ha.unicastPeers keepalived sends its adverts to each listed
// address and hears only those. Render drops the node's own address, so a
// list may hold it or not: each controller's list plus its own address is
// one set, the same on every controller. A controller's own underlay
// address is known only where the set states it (a peer dials it there),
// or where every other list names one address this list lacks.
func (v *haView) unicast() {
	var lists []*unicastList
	var without []*node
	for _, n := range v.carriers {
		if len(n.cfg.HA.UnicastPeers) == 0 {
			without = append(without, n)
			continue
		}
		if n.bad["ha.unicastPeers"] {
			continue
		}
		l := &unicastList{n: n, idx: len(lists), addrs: map[netip.Addr]int{}}
		for i, s := range n.cfg.HA.UnicastPeers {
			if a, err := netip.ParseAddr(s); err == nil && !n.bad[finding.Path("ha.unicastPeers").Index(i).String()] {
				if _, dup := l.addrs[a]; !dup {
					l.addrs[a] = i
				}
			}
		}
		lists = append(lists, l)
	}
	if len(lists) == 0 {
		return
	}
	for _, n := range without {
		v.c.errorf(n, "ha.unicastPeers", []Place{lists[0].n.at("ha.unicastPeers")},
			"is unset, but %s sends its VRRP adverts unicast: this controller sends them multicast, which the unicast ones do not hear, so each holds the virtual IP; give it the list the others have", lists[0].n.File)
	}
	members := v.unicastEntries(lists)
	v.unicastSets(lists, members)
}

// unicastEntries checks what each listed address is, and returns the
// addresses that stand for a controller of the group, in the order first
// listed.
func (v *haView) unicastEntries(lists []*unicastList) []netip.Addr {
	var order []netip.Addr
	seen := map[netip.Addr]bool{}
	for _, l := range lists {
		n := l.n
		overlayVRRP := vrrpWireGuard(n) != nil
		for i, s := range n.cfg.HA.UnicastPeers {
			a, err := netip.ParseAddr(s)
			if err != nil || l.addrs[a] != i {
				continue
			}
			path := finding.Path("ha.unicastPeers").Index(i).String()
			o := v.owner(a)
			switch {
			case a == v.vip.Addr():
				if v.vipOwned {
					continue // follows from the virtual IP being a node's address
				}
				v.c.errorf(n, path, []Place{n.at("ha.virtualIP")},
					"is the virtual IP: keepalived would send its adverts to whichever controller holds it, and none to the others; list the controllers' own addresses")
				continue
			case !overlayVRRP && v.onOverlay(n, a):
				v.c.errorf(n, path, nil,
					"%s is an overlay address, but VRRP runs on %s, an underlay interface: keepalived sends the adverts from that interface's address into the tunnel, where the peer's WireGuard drops them (the source is not in its allowedIPs), so every controller holds the virtual IP; list the controllers' addresses on %s",
					a, vrrpName(n), vrrpName(n))
				continue
			case o != nil && o != n && !(isController(o) && o.cfg.HA.On()):
				if v.missing[o] {
					continue // follows from its missing ha block, reported
				}
				what := "a worker"
				if isController(o) {
					what = "a controller without an ha block"
				}
				v.c.errorf(n, path, []Place{o.at("role")},
					"%s is the address of %s, %s: nothing there answers the adverts; remove it, or give %s the same ha block", a, o.File, what, o.File)
				continue
			}
			if !seen[a] {
				seen[a] = true
				order = append(order, a)
			}
		}
	}
	return order
}

// onOverlay says whether a is an overlay address: one of the set's
// interfaces', or on a network of the node's own wireguard interfaces.
func (v *haView) onOverlay(n *node, a netip.Addr) bool {
	if _, ok := v.c.addrs.byAddr[a]; ok {
		return true
	}
	for _, f := range n.ifaces {
		for _, p := range f.addrs {
			if p.Masked().Contains(a) {
				return true
			}
		}
	}
	return false
}

func vrrpName(n *node) string {
	if n.cfg.HA.Interface == "" {
		return "the interface k0s chooses (the default route's)"
	}
	return n.cfg.HA.Interface
}

// unicastSets: the lists plus each controller's own address agree. An
// address every list but one names is that one's own, unless the set says
// it is another controller's; one named by fewer is missing from some
// lists, or wrong in the others. Counted in one pass over the lists; the
// list that lacks an address is found by the sum of the lists' indexes.
func (v *haView) unicastSets(lists []*unicastList, members []netip.Addr) {
	k := len(lists)
	count := map[netip.Addr]int{}
	idxSum := map[netip.Addr]int{}
	for _, l := range lists {
		for a := range l.addrs {
			count[a]++
			idxSum[a] += l.idx
		}
	}
	all := k * (k - 1) / 2
	// Where the set shows every controller's address among those listed,
	// an address of no known controller is a mistake of the lists naming
	// it, not of the others.
	owners := map[*node]bool{}
	for _, a := range members {
		if o := v.owner(a); o != nil {
			owners[o] = true
		}
	}
	allKnown := len(owners) >= len(v.carriers)
	inferred := map[*unicastList][]netip.Addr{}
	for _, a := range members {
		o := v.owner(a)
		switch c := count[a]; {
		case c == k:
		case o == nil && allKnown:
			for _, l := range lists {
				if i, has := l.addrs[a]; has {
					v.c.errorf(l.n, finding.Path("ha.unicastPeers").Index(i).String(), nil,
						"%s is no controller's address the set shows, while it shows each controller's among the lists: a typo, or a stale address; each controller's list plus its own address must be the same set", a)
				}
			}
		case c == k-1:
			lacker := lists[all-idxSum[a]]
			switch {
			case o == nil:
				inferred[lacker] = append(inferred[lacker], a)
			case o != lacker.n:
				v.lacks(lacker, a, o)
			}
		case o != nil:
			for _, l := range lists {
				if _, has := l.addrs[a]; !has && l.n != o {
					v.lacks(l, a, o)
				}
			}
		case v.c.partial:
			// the address may be the left-out file's controller
		case 2*c <= k:
			for _, l := range lists {
				if i, has := l.addrs[a]; has {
					v.c.errorf(l.n, finding.Path("ha.unicastPeers").Index(i).String(), nil,
						"%s is named by %d of the %d controllers' unicast lists, and no document shows it as a controller's address: a typo, or a controller the other lists lack; each controller's list plus its own address must be the same set",
						a, c, k)
				}
			}
		default:
			for _, l := range lists {
				if _, has := l.addrs[a]; !has {
					v.lacks(l, a, nil)
				}
			}
		}
	}
	for _, l := range lists {
		got := inferred[l]
		if len(got) > 1 {
			v.c.errorf(l.n, "ha.unicastPeers", nil,
				"lacks %s, which every other controller's list names: a list may leave out only this controller's own address; the controllers it lacks hear no adverts from it and take the virtual IP as well (two masters); give every controller the same list",
				addrList(got))
			continue
		}
		// An address the others name that this list lacks is its own,
		// unless the others name the address the set shows it at.
		if len(got) == 1 {
			for _, s := range v.stated[l.n] {
				if _, named := count[s.addr]; named && v.owner(s.addr) == l.n {
					v.lacks(l, got[0], nil)
					break
				}
			}
		}
	}
}

// lacks reports a list that lacks a controller's address.
func (v *haView) lacks(l *unicastList, a netip.Addr, o *node) {
	whose := "which the other controllers' lists name"
	var related []Place
	if o != nil {
		whose = "the address of " + o.File
		related = []Place{o.at("ha")}
	}
	v.c.errorf(l.n, "ha.unicastPeers", related,
		"lacks %s, %s: keepalived here sends it no adverts, so it takes the virtual IP as well (two masters); each controller's list plus its own address must be the same set",
		a, whose)
}

func addrList(as []netip.Addr) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}
