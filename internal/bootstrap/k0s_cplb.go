package bootstrap

import (
	"net/netip"

	"github.com/corium/corium-agent/internal/schema"
)

// k0sCPLB is k0s's control-plane load balancing: one keepalived VRRP
// instance holding the virtual IP. The userspace reverse proxy balances; no
// keepalived virtual servers, which k0s refuses with an external address
// and with controller+worker.
func k0sCPLB(cfg *schema.Config, in K0sInputs) map[string]any {
	vrrp := map[string]any{
		"virtualIPs": []any{cfg.HA.VirtualIP},
		"authPass":   in.AuthPass.Reveal(),
	}
	if cfg.HA.Interface != "" {
		vrrp["interface"] = cfg.HA.Interface
	}
	if cfg.HA.VirtualRouterID != nil {
		vrrp["virtualRouterID"] = *cfg.HA.VirtualRouterID
	}
	if len(cfg.HA.UnicastPeers) > 0 {
		if in.UnicastSource != "" {
			vrrp["unicastSourceIP"] = in.UnicastSource
		}
		// One list serves every controller: each drops itself from it.
		peers := make([]any, 0, len(cfg.HA.UnicastPeers))
		for _, p := range cfg.HA.UnicastPeers {
			if p != in.UnicastSource {
				peers = append(peers, p)
			}
		}
		vrrp["unicastPeers"] = peers
	}
	return map[string]any{
		"enabled": true,
		"type":    "Keepalived",
		"keepalived": map[string]any{
			"vrrpInstances": []any{vrrp},
		},
	}
}

// VRRPUnicastSource is the address keepalived sends unicast adverts from:
// this node's address on the VRRP interface, in the peers' family. The
// peers list one address per controller, so the source must be the one the
// others list, which is not the node address when the VIP lives on the
// underlay and the node address on the overlay. "" when it is not known
// here (offline without facts): keepalived then uses the interface's
// primary address.
func VRRPUnicastSource(cfg *schema.Config, facts *Facts, d Decision) string {
	if !cfg.HA.On() || len(cfg.HA.UnicastPeers) == 0 {
		return ""
	}
	peer, err := netip.ParseAddr(cfg.HA.UnicastPeers[0])
	if err != nil {
		return ""
	}
	iface := cfg.HA.Interface
	for _, wg := range cfg.WireGuard {
		if wg.Name != iface {
			continue
		}
		for _, a := range wg.Address {
			if p, err := netip.ParsePrefix(a); err == nil && p.Addr().Is4() == peer.Is4() {
				return p.Addr().String()
			}
		}
		return ""
	}
	if facts == nil {
		return ""
	}
	if iface == "" {
		// k0s puts the VIP on the default route's interface.
		if facts.DefaultRoute == nil {
			return ""
		}
		iface = facts.DefaultRoute.Interface
	}
	if f := facts.Interface(iface); f != nil {
		for _, p := range f.Addresses {
			if a := p.Addr().Unmap(); a.Is4() == peer.Is4() && !a.IsLinkLocalUnicast() && a != haVirtualIP(cfg) {
				return a.String()
			}
		}
	}
	return ""
}
