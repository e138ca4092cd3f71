package cluster

import (
	"net/netip"
	"slices"
)

// sharedEndpoints: entries that dial two different nodes at one address and
// port, where neither the host facts nor the set says whose it is
// (endpointOwners found no owner). One address and port reaches one host,
// so at most one of them answers there; each such entry gets the error,
// since the set does not say which is wrong. The entries are then not
// taken as where their targets are dialled.
func (c *check) sharedEndpoints() {
	byFacts := c.factsOwners()
	at := map[netip.AddrPort][]*entry{}
	var order []netip.AddrPort
	c.entries(func(e *entry) {
		ap, ok := e.dialsIP()
		if !ok || e.target == nil || e.elsewhere != nil || e.mismatched || e.atVIP || byFacts[ap.Addr()] != nil {
			return
		}
		if at[ap] == nil {
			order = append(order, ap)
		}
		at[ap] = append(at[ap], e)
	})
	for _, ap := range order {
		es := at[ap]
		var targets []*node
		for _, e := range es {
			if !slices.Contains(targets, e.target.n) {
				targets = append(targets, e.target.n)
			}
		}
		if len(targets) < 2 {
			continue
		}
		for _, e := range es {
			other := targets[0]
			if other == e.target.n {
				other = targets[1]
			}
			e.elsewhere = other
			c.errorf(e.in.n, e.path().Field("endpoint").String(), []Place{other.at("")},
				"%s is where the set dials both %s and %s: one address and port reaches one host, so at most one of them answers there and the other's tunnel never comes up; dial each at the address it answers at",
				ap, nodeName(e.target.n), nodeName(other))
		}
	}
}
