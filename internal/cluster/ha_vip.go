package cluster

import (
	"net/netip"
	"slices"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/shown"
)

// vipOfTheCarriers: the controllers that share the virtual IP say where
// they stand in their unicast lists and where their peers dial them. A
// virtual IP of another family than all of those, or outside the network of
// every one of them while the set shows a node there, is the virtual IP's
// mistake, not each controller's: reported once, at the first controller's
// ha.virtualIP, and the controllers' sites are then not judged (each would
// be told it stands at another site). False when it is reported.
func (v *haView) vipOfTheCarriers() bool {
	var addrs []netip.Addr
	for _, n := range v.carriers {
		for i, s := range n.cfg.HA.UnicastPeers {
			if a, err := netip.ParseAddr(s); err == nil && !n.bad[finding.Path("ha.unicastPeers").Index(i).String()] {
				addrs = append(addrs, a.Unmap())
			}
		}
		if vrrpWireGuard(n) != nil {
			return true // VRRP on the overlay: the interface check in ha.go
		}
		for _, s := range v.stated[n] {
			addrs = append(addrs, s.addr)
		}
	}
	if len(addrs) == 0 {
		return true
	}
	vip, net := v.vip.Addr(), v.vip.Masked()
	ref := v.carriers[0]
	if !slices.ContainsFunc(addrs, func(a netip.Addr) bool { return a.Is4() == vip.Is4() }) {
		v.vipReported = true
		v.c.errorf(ref, "ha.virtualIP", []Place{ref.at("ha.unicastPeers")},
			"%s is %s, but every address the set shows the controllers sharing it at is %s (%s): keepalived's instance is of one family, so its adverts never carry it; give the virtual IP a free %s address of their network",
			v.vip, family(vip), family(addrs[0]), addrList(distinctAddrs(addrs)), family(addrs[0]))
		return false
	}
	if slices.ContainsFunc(addrs, net.Contains) || len(v.carriers) < 2 {
		return true
	}
	// Only where the set shows some node on the virtual IP's network: on
	// no network it states, vipOnAStatedNetwork says so.
	var there *stating
	for _, ss := range v.under {
		for _, s := range ss {
			if !net.Contains(s.addr) {
				continue
			}
			if there == nil || s.n.order < there.n.order {
				there = &s
			}
		}
	}
	if there == nil {
		return true
	}
	v.vipReported = true
	v.c.errorf(ref, "ha.virtualIP", []Place{there.by.in.n.at(there.by.path().Field("endpoint").String())},
		"%s is on the network of %s (%s), but every controller sharing it is shown outside %s (%s): keepalived adds it on their own network, where no router sends its packets; give every controller's ha.virtualIP a free address of their network",
		v.vip, there.n.File, there, net, addrList(distinctAddrs(addrs)))
	return false
}

// vipOnVRRPInterfaces: with a controller's host facts, its VRRP interface
// is known (ha.interface, or the one the agent chooses as plan does), and
// so whether the virtual IP is of its family and on one of its networks.
// It says whether it reported any, and whether it could judge every
// controller (each has facts, and a VRRP interface in them).
func (v *haView) vipOnVRRPInterfaces() (reported, all bool) {
	vip := v.vip.Addr()
	all = true
	for _, n := range v.carriers {
		if n.Facts == nil || n.bad["ha.interface"] || vrrpWireGuard(n) != nil {
			all = false
			continue
		}
		vr, err := render.ChooseVRRP(n.cfg, n.Facts)
		if err != nil || vr.Interface == "" {
			all = false
			continue // validate --facts reports it, in plan's words
		}
		link := n.Facts.Interface(vr.Interface)
		if link == nil {
			if ls := n.Facts.InterfacesWithMAC(vr.Interface); len(ls) == 1 {
				link = ls[0]
			}
		}
		if link == nil {
			all = false
			continue
		}
		why := "named by ha.interface"
		if vr.Why != "" {
			why = vr.Why
		}
		var same []netip.Prefix
		for _, p := range link.Addresses {
			if p.Addr().Unmap() == vip {
				continue
			}
			if p.Masked().Contains(vip) {
				same = nil
				break
			}
			if p.Addr().Is4() == vip.Is4() {
				same = append(same, p)
			}
		}
		switch {
		case slices.ContainsFunc(link.Addresses, func(p netip.Prefix) bool { return p.Addr().Unmap() != vip && p.Masked().Contains(vip) }):
		case len(same) == 0:
			reported = true
			v.c.errorf(n, "ha.virtualIP", []Place{n.at("ha.interface")},
				"%s is %s, but the VRRP interface %s (%s) has no %s address on this host: keepalived's instance there is of the other family; give the virtual IP a free address of %s's network, or run VRRP on an interface of its family",
				v.vip, family(vip), shown.Text(link.Name), why, family(vip), shown.Text(link.Name))
		default:
			reported = true
			v.c.errorf(n, "ha.virtualIP", []Place{n.at("ha.interface")},
				"%s is outside every network of the VRRP interface %s on this host (%s; %s): keepalived adds it there, where no router sends its packets; give the virtual IP a free address of that network",
				v.vip, shown.Text(link.Name), prefixes(same), why)
		}
	}
	return reported, all
}

// vipInAllowedIPs: the virtual IP of an underlay VRRP group is reached over
// the underlay, as any client reaches it; an allowedIPs that holds it makes
// wg-quick route it into one peer's tunnel, whichever controller holds it.
// While a controller that is neither the entry's node nor its peer holds
// it, the packets reach a peer that does not, and the cluster endpoint is
// lost on this node: an error. Where every controller sharing it is one
// of the two, it works after any failover (the peer holds it, or the
// local address wins over the tunnel's route), until a third controller
// shares it: a warning.
// Not where VRRP runs on the overlay: a hub's allowedIPs then hold the
// overlay's network, the virtual IP in it, on purpose.
func (v *haView) vipInAllowedIPs() {
	vip := v.vip.Addr()
	overlay := false
	v.c.ifaces(func(f *iface) {
		overlay = overlay || anyIn(v.vip.Masked(), f.addrs) || slices.ContainsFunc(f.addrs, func(p netip.Prefix) bool { return p.Contains(vip) })
	})
	for _, n := range v.carriers {
		overlay = overlay || vrrpWireGuard(n) != nil
	}
	if overlay {
		return
	}
	ref := v.carriers[0]
	v.c.entries(func(e *entry) {
		for k, p := range e.allowed {
			path := e.path().Field("allowedIPs").Index(k).String()
			if p.Bits() == 0 || !p.Contains(vip) || e.in.n.bad[path] {
				continue
			}
			peer, to := "its peer", (*node)(nil)
			if e.target != nil {
				peer, to = e.target.String(), e.target.n
			}
			other := slices.IndexFunc(v.carriers, func(c *node) bool { return c != e.in.n && c != to })
			if other < 0 {
				v.c.warnf(e.in.n, path, []Place{ref.at("ha.virtualIP")},
					"%s holds the virtual IP %s: wg-quick routes it into the tunnel to %s; that works only while the virtual IP moves between this node and that peer alone (the local address wins here), and fails once a third controller shares it, whose packets would reach a peer that does not hold it; the virtual IP is reached over the underlay and belongs in no allowedIPs: drop it",
					p, vip, peer)
				continue
			}
			v.c.errorf(e.in.n, path, []Place{ref.at("ha.virtualIP"), v.carriers[other].at("ha.virtualIP")},
				"%s holds the virtual IP %s, which keepalived moves between the controllers on the underlay: wg-quick routes it into the tunnel to %s, so while %s holds it this node's packets for it reach a peer that does not, and the cluster endpoint is lost here after a failover; the virtual IP belongs in no allowedIPs: drop it",
				p, vip, peer, v.carriers[other].File)
		}
	})
}

// distinctAddrs is as without repeats, in order.
func distinctAddrs(as []netip.Addr) []netip.Addr {
	var out []netip.Addr
	for _, a := range as {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}
