package hostfacts

import (
	"net/netip"
	"slices"

	"github.com/corium/corium-agent/internal/schema"
)

// PeerEndpoints are the addresses of wg's peer endpoints that are IP
// literals, in peer order; host names are left out.
func PeerEndpoints(wg schema.WireGuard) []netip.Addr {
	var out []netip.Addr
	for _, p := range wg.Peers {
		if ap, err := netip.ParseAddrPort(p.Endpoint); err == nil {
			out = append(out, ap.Addr().Unmap())
		}
	}
	return out
}

// RouteTargets are the addresses Gather looks routes up to: the peer
// endpoints (EndpointAddrs), and the ha.unicastPeers addresses, whose routes
// decide the VRRP interface when ha.interface is unset.
func RouteTargets(cfg *schema.Config) []netip.Addr {
	out := EndpointAddrs(cfg)
	if !cfg.HA.On() {
		return out
	}
	for _, p := range cfg.HA.UnicastPeers {
		if a, err := netip.ParseAddr(p); err == nil && !slices.Contains(out, a.Unmap()) {
			out = append(out, a.Unmap())
		}
	}
	return out
}

// EndpointAddrs are the distinct peer endpoint addresses of every interface
// cfg names.
func EndpointAddrs(cfg *schema.Config) []netip.Addr {
	var out []netip.Addr
	for _, wg := range cfg.WireGuard {
		for _, a := range PeerEndpoints(wg) {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}
