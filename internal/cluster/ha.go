package cluster

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/corium/corium-agent/internal/schema"
)

// haView is what the set states about the controllers' keepalived: who
// carries the virtual IP, and the underlay addresses the documents give
// each node. The cluster check has no host facts: a node's underlay address
// is known only where another document states it, as the endpoint it dials
// the node at (or, below, as the address the other controllers' unicast
// lists give it).
type haView struct {
	c *check
	// carriers are the controllers with ha enabled and a virtual IP that
	// parses, in order; vip is the first one's.
	carriers []*node
	vip      netip.Prefix
	// under are the nodes other documents dial at each underlay address,
	// with the first entry that does; stated the same by node.
	under  map[netip.Addr][]stating
	stated map[*node][]stating
	// atVIP are the entries that dial a node of the set at the virtual
	// IP; vipOwned says the virtual IP was found to be a node's address.
	atVIP    []*entry
	vipOwned bool
	// vipReported: the virtual IP was found off the controllers' family
	// or network (ha_vip.go).
	vipReported bool
	// missing are the controllers reported for lacking the ha block,
	// whose addresses in the unicast lists follow from it.
	missing map[*node]bool
}

// stating is an entry that dials a node at an address.
type stating struct {
	n    *node
	addr netip.Addr
	by   *entry
}

func (s stating) String() string {
	return fmt.Sprintf("%s, where %s dials it", s.addr, s.by.in.n.File)
}

// ha: keepalived's VRRP instances of the controllers make one group on one
// network, holding one virtual IP that is nobody's own address, and every
// controller speaks to the API through it. Each document renders only its
// own instance, so every mistake here is between documents, and each ends
// in the same place: two controllers holding the virtual IP at once, or
// none.
func (c *check) ha() {
	v := c.haView()
	if len(v.carriers) > 0 {
		// The cause first: with a virtual IP that is a node's own
		// address, or on no network the set states, where the controllers
		// stand and what the endpoint is follow from it.
		v.vipIsAnAddress()
		sound := !v.vipOwned && v.vipOfTheCarriers()
		if sound {
			// The controllers' host facts, where given, show the network
			// of each VRRP interface; the set only guesses it.
			reported, all := v.vipOnVRRPInterfaces()
			sound = !reported && (all || v.vipOnAStatedNetwork())
		}
		if !v.vipOwned {
			v.vipInAllowedIPs()
		}
		if sound {
			v.carriersOnTheVIPNetwork()
			v.controllersWithoutHA()
		}
		v.endpoints(sound)
		v.unicast()
	}
	c.etcdMembers()
}

func (c *check) haView() *haView {
	v := &haView{c: c, under: map[netip.Addr][]stating{}, stated: map[*node][]stating{}, missing: map[*node]bool{}}
	for _, n := range c.set {
		if !isController(n) || !n.cfg.HA.On() || n.bad["ha.virtualIP"] {
			continue
		}
		p, err := netip.ParsePrefix(n.cfg.HA.VirtualIP)
		if err != nil {
			continue
		}
		if len(v.carriers) == 0 {
			v.vip = p
		}
		v.carriers = append(v.carriers, n)
	}
	if len(v.carriers) == 0 {
		return v
	}
	c.entries(func(e *entry) {
		if e.target == nil || e.elsewhere != nil {
			return
		}
		ap, err := netip.ParseAddrPort(e.p.Endpoint)
		if err != nil {
			return // a name: resolved on the node only
		}
		a, n := ap.Addr().Unmap(), e.target.n
		if a == v.vip.Addr() {
			v.atVIP = append(v.atVIP, e) // see vipIsAnAddress
			return
		}
		for _, s := range v.under[a] {
			if s.n == n {
				return
			}
		}
		s := stating{n: n, addr: a, by: e}
		v.under[a] = append(v.under[a], s)
		v.stated[n] = append(v.stated[n], s)
	})
	return v
}

// isController: a role that runs a controller in a cluster of several
// (single is refused in a set already).
func isController(n *node) bool {
	return n.cfg.Role.IsController() && n.cfg.Role != schema.RoleSingle
}

// owner is the one node whose address a is, by its overlay address or the
// underlay address other documents dial it at; nil when none or several
// (nodes behind one NAT share its address).
func (v *haView) owner(a netip.Addr) *node {
	if f, ok := v.c.addrs.byAddr[a]; ok {
		return f.n
	}
	if ss := v.under[a]; len(ss) == 1 {
		return ss[0].n
	}
	return nil
}

// vipIsAnAddress: keepalived adds the virtual IP to the interface of the
// controller that holds it; a node whose own address it is answers it as
// well, and loses it on every failover. A node the set dials at the virtual
// IP and nowhere else has it as its own address (the cause, reported once);
// an entry that dials at it a node the set dials elsewhere too reaches
// whichever controller holds it, whose key is another.
func (v *haView) vipIsAnAddress() {
	ref := v.carriers[0]
	if f, ok := v.c.addrs.byAddr[v.vip.Addr()]; ok {
		v.vipOwned = true
		v.c.errorf(ref, "ha.virtualIP", []Place{f.n.at(f.path().Field("address").String())},
			"%s is the address of %s: the virtual IP moves between the controllers and must be no node's own; give every controller's ha.virtualIP a free address", v.vip.Addr(), f)
	}
	for _, e := range v.atVIP {
		t := e.target.n
		if len(v.stated[t]) > 0 {
			e.atVIP = true
			v.c.errorf(e.in.n, e.path().Field("endpoint").String(), []Place{ref.at("ha.virtualIP")},
				"dials %s at the virtual IP %s, which moves between the controllers: WireGuard then reaches whichever holds it, with another key; dial %s at its own address (%s)",
				t.File, v.vip.Addr(), t.File, v.stated[t][0].addr)
			continue
		}
		if !v.vipOwned {
			v.vipOwned = true
			v.c.errorf(ref, "ha.virtualIP", []Place{e.in.n.at(e.path().Field("endpoint").String())},
				"%s is the address of %s, where %s dials it: the virtual IP moves between the controllers and must be no node's own; give every controller's ha.virtualIP a free address on that network", v.vip.Addr(), t.File, e.in.n.File)
		}
	}
}

// vipOnAStatedNetwork: a virtual IP on no network any document states is a
// typo, or a network the set does not show. False when it is reported, so
// that the controllers are not each told the same.
func (v *haView) vipOnAStatedNetwork() bool {
	net := v.vip.Masked()
	stated := false
	for a := range v.under {
		stated = true
		if net.Contains(a) {
			return true
		}
	}
	onOverlay := false
	v.c.ifaces(func(f *iface) {
		for _, p := range f.addrs {
			onOverlay = onOverlay || p.Contains(v.vip.Addr()) || net.Contains(p.Addr())
		}
	})
	if onOverlay {
		return true
	}
	for _, n := range v.carriers {
		for _, s := range n.cfg.HA.UnicastPeers {
			if a, err := netip.ParseAddr(s); err == nil {
				stated = true
				if net.Contains(a) {
					return true
				}
			}
		}
		if a, err := netip.ParseAddr(n.cfg.Cluster.Endpoint); err == nil && a != v.vip.Addr() {
			stated = true
			if net.Contains(a) {
				return true
			}
		}
	}
	if !stated {
		return true // nothing to judge by
	}
	v.c.warnf(v.carriers[0], "ha.virtualIP", nil,
		"%s is on no network the set states: no peer endpoint, unicast peer, cluster.endpoint or overlay address of any node is in %s, so no controller is shown on the network keepalived puts it on (a typo?); the set cannot show the network of ha.interface: check it on the node",
		v.vip, net)
	return false
}

// carriersOnTheVIPNetwork: VRRP adverts stay on one layer-2 network. A
// controller at another site that takes part hears no adverts, holds the
// virtual IP on its own network as well, and answers for it there.
func (v *haView) carriersOnTheVIPNetwork() {
	net := v.vip.Masked()
	for _, n := range v.carriers {
		if f := vrrpWireGuard(n); f != nil {
			if !anyIn(net, f.addrs) {
				v.c.errorf(n, "ha.interface", []Place{n.at(f.path().Field("address").String())},
					"is %s, whose addresses (%s) are outside the virtual IP's network %s: keepalived adds the virtual IP where no peer's allowedIPs route it; give the virtual IP an address of that interface's network",
					f.wg.Name, prefixes(f.addrs), net)
			}
			continue
		}
		ss := v.stated[n]
		if len(ss) == 0 {
			continue
		}
		in := false
		for _, s := range ss {
			in = in || net.Contains(s.addr)
		}
		if !in {
			v.c.warnf(n, "ha.enabled", []Place{ss[0].by.in.n.at(ss[0].by.path().Field("endpoint").String())},
				"takes part in VRRP for %s, but the set shows this controller only outside %s (%s): adverts do not cross sites, so it holds the virtual IP too, on its own network; leave ha out on a controller at another site (it serves the API at its own address, and its cluster.endpoint stays the virtual IP)",
				v.vip, net, statings(ss))
		}
	}
}

// vrrpWireGuard is the node's wireguard interface that ha.interface names,
// nil when VRRP runs on the underlay (ha.interface unset: k0s takes the
// default route's).
func vrrpWireGuard(n *node) *iface {
	for _, f := range n.ifaces {
		if n.cfg.HA.Interface != "" && f.wg.Name == n.cfg.HA.Interface {
			return f
		}
	}
	return nil
}

func anyIn(net netip.Prefix, ps []netip.Prefix) bool {
	for _, p := range ps {
		if net.Contains(p.Addr()) {
			return true
		}
	}
	return false
}

func statings(ss []stating) string {
	s := make([]string, len(ss))
	for i, x := range ss {
		s[i] = x.String()
	}
	return strings.Join(s, "; ")
}

// controllersWithoutHA: a controller on the virtual IP's network without
// the ha block never holds it, and its k0s keeps the endpoint reconciler the
// others turn off. A controller at another site leaves ha out by design;
// one the set shows nowhere cannot be told apart.
func (v *haView) controllersWithoutHA() {
	ref := v.carriers[0]
	net := v.vip.Masked()
	for _, n := range v.c.set {
		if !isController(n) || n.cfg.HA.On() {
			continue
		}
		ss := v.stated[n]
		var here []stating
		for _, s := range ss {
			if net.Contains(s.addr) {
				here = append(here, s)
			}
		}
		switch {
		case len(here) > 0:
			v.missing[n] = true
			v.c.errorf(n, "ha", []Place{ref.at("ha")},
				"is missing on this controller, which is on the virtual IP's network %s (%s), while %s and the other controllers there share it: it never holds the virtual IP, and its k0s runs the endpoint reconciler the others turn off; give it the same ha block",
				net, statings(here), ref.File)
		case len(ss) == 0 && !v.c.partial:
			v.c.warnf(n, "ha", []Place{ref.at("ha")},
				"is missing on this controller while %s shares the virtual IP %s, and no document dials this controller at an address to show its site: on that network it needs the same ha block; at another site, state its address in a peer's endpoint",
				ref.File, v.vip)
		}
	}
}

// endpoints (the comparison with the virtual IP only when it is sound):
// every controller makes cluster.endpoint k0s's externalAddress
// (the tokens it creates, its konnectivity agents, the API certificate);
// with a virtual IP, it is the address that survives a controller.
func (v *haView) endpoints(sound bool) {
	var with *node
	for _, n := range v.c.set {
		if isController(n) && n.cfg.Cluster.Endpoint != "" {
			with = n
			break
		}
	}
	for _, n := range v.c.set {
		if !isController(n) {
			continue
		}
		ep := n.cfg.Cluster.Endpoint
		if ep == "" {
			if with != nil {
				v.c.errorf(n, "cluster.endpoint", []Place{with.at("cluster.endpoint")},
					"is unset on this controller, but %s sets it: k0s makes it the API's externalAddress, so the tokens this controller creates and the agents it serves would point at its own address, and its API certificate lacks the endpoint; give every controller the same cluster.endpoint",
					with.File)
			}
			continue
		}
		a, err := netip.ParseAddr(ep)
		if err != nil || !sound || !n.cfg.HA.On() || n.bad["cluster.endpoint"] || a == v.vip.Addr() {
			continue // a name may resolve to the virtual IP
		}
		whose := ""
		if o := v.owner(a); o != nil {
			whose = ", the address of " + o.File
		}
		v.c.warnf(n, "cluster.endpoint", []Place{n.at("ha.virtualIP")},
			"is %s%s, not the virtual IP %s: clients and joining nodes reach the API there, not at the address that follows a failover; set the virtual IP (or, with a load balancer in front, leave ha out)",
			a, whose, v.vip.Addr())
	}
}
