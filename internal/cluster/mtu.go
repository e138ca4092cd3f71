package cluster

// mtus: the interfaces of one overlay (joined by pairs, however many hops)
// carry the same packets, so MTUs that differ black-hole the large ones on
// the path that is smaller. A difference is a warning: an interface may sit
// behind a smaller link on purpose. An unset MTU is derived at boot and
// not compared.
func (c *check) mtus() {
	root := map[*iface]*iface{}
	var find func(*iface) *iface
	find = func(f *iface) *iface {
		if p, ok := root[f]; ok && p != f {
			r := find(p)
			root[f] = r
			return r
		}
		root[f] = f
		return f
	}
	c.entries(func(e *entry) {
		if e.target != nil {
			root[find(e.in)] = find(e.target)
		}
	})
	first := map[*iface]*iface{} // overlay -> its first interface with an mtu
	c.ifaces(func(f *iface) {
		if f.wg.MTU == nil || f.n.bad[f.path().Field("mtu").String()] || c.overRoute[f] {
			return
		}
		o := find(f)
		ref, seen := first[o]
		switch {
		case !seen:
			first[o] = f
		case *ref.wg.MTU != *f.wg.MTU:
			c.warnf(f.n, f.path().Field("mtu").String(), []Place{ref.n.at(ref.path().Field("mtu").String())},
				"is %d, but %s on the same overlay has %d: packets that fit one end are dropped on the way to the other; give the overlay one mtu", *f.wg.MTU, ref, *ref.wg.MTU)
		}
	})

}
