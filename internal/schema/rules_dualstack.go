package schema

import (
	"net/netip"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/k0s/config"
)

// dualStackOverlay: with dual stack and the node address on the overlay,
// the kubelet registers the node's address of each family from the
// interface marked nodeAddress (its first address of the primary family,
// then its first of the other), kube-router tunnels each family's pods
// between the nodes' addresses of that family, and the guard and the pod
// masquerade follow both pod ranges. An overlay carrying one family only
// leaves the other family's pods with no node address to be carried
// between, so the interface must hold an address of each family. at is
// the patch's path to spec.network.dualStack.enabled.
func (v *crossCheck) dualStackOverlay(at string) {
	fams := v.k0s.Network.NodeFamilies(v.eff.Cluster.Endpoint)
	for i, wg := range v.cfg.WireGuard {
		if !wg.NodeAddress {
			continue
		}
		have := map[string]bool{}
		for _, a := range wg.Address {
			if p, err := netip.ParsePrefix(a); err == nil {
				have[config.FamilyOf(p.Addr())] = true
			}
		}
		if len(have) == 0 {
			return // the address's own rules report it
		}
		for _, f := range fams {
			if have[f] {
				continue
			}
			v.errorf(at, "turns on dual stack, but %s (%s, which holds the node address) has no %s address: the overlay carries one family only, so the kubelet has no %s node address to register and the %s pods none to be carried between; add an %s address to %s, with the peers' allowedIPs holding it, or use one address family",
				finding.Path("wireguard").Index(i).Field("address"), wg.Name, f, f, f, f, finding.Path("wireguard").Index(i).Field("address"))
			v.patchRefused[at] = true
		}
		return
	}
}
