package cluster

import (
	"net/netip"

	"github.com/corium/corium-agent/internal/schema"
)

// identity: what tells nodes apart is unique, and the roles make one
// cluster.
func (c *check) identity() {
	c.names()
	c.addresses()
	c.roles()
}

// names: two nodes registering one name fight over one Node object. A node
// without node.name takes its name at boot, so only names written count.
func (c *check) names() {
	first := map[string]*node{}
	for _, n := range c.set {
		name := n.cfg.Node.Name
		if name == "" || n.bad["node.name"] {
			continue
		}
		if o, dup := first[name]; dup {
			c.errorf(n, "node.name", []Place{o.at("node.name")}, "is %s, as in %s: two nodes of one cluster cannot share a name", name, o.File)
			continue
		}
		first[name] = n
	}
}

// addresses: an overlay address belongs to one interface of the set; two
// nodes answering one address split its traffic between them. Two
// interfaces of one file are the file's own check.
func (c *check) addresses() {
	type owner struct {
		f *iface
		k int
	}
	first := map[netip.Addr]owner{}
	c.ifaces(func(f *iface) {
		for k, p := range f.addrs {
			o, dup := first[p.Addr()]
			switch {
			case !dup:
				first[p.Addr()] = owner{f, k}
			case o.f.n != f.n:
				// The one whose peers expect another there is named (blame.go).
				bad, good := c.blameAddr(f, o.f, p.Addr())
				path := bad.path().Field("address").Index(addrIndex(bad, p.Addr())).String()
				c.errorf(bad.n, path, []Place{good.n.at(good.path().Field("address").Index(addrIndex(good, p.Addr())).String())},
					"%s is also the address of %s: each node needs an address of its own", p.Addr(), good)
				c.explain(bad, path)
			}
		}
	})
}

// roles: one controller may start the cluster; every other controller
// joins it with a token. single is a cluster of its own. A set without a
// controller is workers joining a cluster the set does not describe.
func (c *check) roles() {
	var founder *node
	controllers := 0
	for _, n := range c.set {
		switch {
		case n.cfg.Role == schema.RoleSingle && len(c.set) > 1:
			c.errorf(n, "role", nil, "single is a cluster of one node, in a set of %d: use controller+worker, or controller, and join the others to it", len(c.set))
		case !n.cfg.Role.IsController():
			continue
		}
		controllers++
		if n.cfg.Role == schema.RoleSingle || n.cfg.Join.Token != nil || n.cfg.Join.TokenFrom != nil {
			continue
		}
		if founder == nil {
			founder = n
			continue
		}
		c.errorf(n, "join", []Place{founder.at("role")},
			"this controller has no join token, nor has %s: each would start a cluster of its own; give every controller but the first a controller token (k0s token create --role=controller)", founder.File)
	}
	if controllers == 0 && len(c.set) > 0 && !c.partial {
		c.warnf(c.set[0], "role", nil, "no file of the set is a controller: the nodes join a cluster the set does not describe, so their settings are checked only against each other")
	}
}
