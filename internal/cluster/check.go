package cluster

import "golang.zx2c4.com/wireguard/wgctrl/wgtypes"

// Check checks that the files describe one cluster and returns what it
// found, in a fixed order. Files that hold no configuration, or whose role
// is refused, take no part: one finding names each, and what depends on a
// file's refused fields is left out (invalid.go).
func Check(in []Node, opts ...Option) Findings {
	var set []*node
	for i, n := range in {
		if takesPart(n) {
			set = append(set, newNode(i, n))
		}
	}
	r := &report{findings: Findings{}}
	out := leftOut(in)
	c := &check{report: r, set: set, partial: len(out) > 0}
	for _, o := range opts {
		o(c)
	}
	c.settings()
	c.networkFacts()
	c.identity()
	c.keys()
	c.swaps()
	c.match()
	c.place()
	c.endpointOwners()
	c.listenPorts()
	c.ha()
	c.sharedEndpoints()
	c.patches()
	c.pairs()
	c.dial()
	c.allowedIPs()
	c.reach()
	c.podRanges()
	c.keepalives()
	c.topology()
	c.endpoints()
	c.presharedKeys()
	c.routeMTUs()
	c.mtus()
	c.guards()
	c.datasources()
	c.credentials()
	c.followFrom()
	c.dropDependent()
	c.stopped(out)
	r.findings.sort()
	return r.findings.arrange()
}

// check is one run over a set.
type check struct {
	*report
	set []*node
	// owners are the interfaces of the set by public key, where known.
	owners map[wgtypes.Key][]*iface
	// addrs are the interfaces of the set by address.
	addrs *addressIndex
	// netReported are the nodes networkFacts found running another
	// network, whose patches of spec.network are not compared again.
	netReported map[*node]bool
	// explained are the interfaces found not to be the ones their peers
	// mean, by file and path, with the place of the finding that says so.
	explained map[string]Place
	// partial: a file of the set is left out (invalid.go), so that a node
	// or an address the set does not show may be that file's.
	partial bool
	// dialledAt is where the set dials each interface (fix.go).
	dialledAt map[*iface]string
	// portReported are the interfaces whose listenPort every dialer
	// disagrees with, reported at the listenPort (listenport.go).
	portReported map[*iface]bool
	// overRoute are the interfaces whose stated mtu their route cannot
	// carry (mtu_route.go): that is what to fix, not their difference
	// from the overlay's.
	overRoute map[*iface]bool
	// topo is the set's topology, nil without one (topology.go), and
	// placed each node's part in it.
	topo   *Topology
	placed map[*node]*placed
	// swapped are the entries whose keys are swapped with another's of
	// their interface, each with the interface it stands for (swap.go).
	swapped map[*entry]*iface
}

// ifaces walks every interface of the set, in order.
func (c *check) ifaces(f func(*iface)) {
	for _, n := range c.set {
		for _, i := range n.ifaces {
			f(i)
		}
	}
}

// entries walks every peer entry of the set, in order.
func (c *check) entries(f func(*entry)) {
	c.ifaces(func(i *iface) {
		for _, e := range i.peers {
			f(e)
		}
	})
}
