package schema

import (
	"net/netip"

	"github.com/corium/corium-agent/internal/finding"
)

// overlayPrefixes: the pod and service ranges and every interface's prefix
// must be disjoint, or routing sends traffic to the wrong place.
func (v *crossCheck) overlayPrefixes() {
	type item struct{ path, note string }
	var spans []span
	var items []item
	add := func(path, value, written string, owner int) {
		p, err := netip.ParsePrefix(value)
		if err != nil {
			return
		}
		s := span{prefix: p.Masked(), owner: owner}
		note := ""
		if written == "" {
			note = ", the default"
		} else {
			s.line, s.col = v.doc.Position(path)
		}
		spans = append(spans, s)
		items = append(items, item{path, note})
	}
	add("network.podCIDR", v.eff.Network.PodCIDR, v.cfg.Network.PodCIDR, -1)
	add("network.serviceCIDR", v.eff.Network.ServiceCIDR, v.cfg.Network.ServiceCIDR, -2)
	if net := v.k0s.Network; net.DualStack {
		// The IPv6 ranges come only from k0s.patch, where the finding
		// points when an interface's address falls inside one.
		add(PatchPath(v.cfg.K0s.Patch, "spec.network.dualStack.IPv6podCIDR"), net.IPv6PodCIDR, net.IPv6PodCIDR, -3)
		add(PatchPath(v.cfg.K0s.Patch, "spec.network.dualStack.IPv6serviceCIDR"), net.IPv6ServiceCIDR, net.IPv6ServiceCIDR, -4)
	}
	for i, wg := range v.cfg.WireGuard {
		for j, a := range wg.Address {
			path := finding.Path("wireguard").Index(i).Field("address").Index(j).String()
			add(path, a, a, i)
		}
	}
	for i, first := range clashes(spans) {
		v.errorf(items[i].path, "overlaps %s (%s%s)", items[first].path, spans[first].prefix, items[first].note)
	}
}
