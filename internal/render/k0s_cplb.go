package render

import (
	"errors"
	"fmt"
	"net/netip"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// k0sCPLB is k0s's control-plane load balancing: one keepalived VRRP
// instance holding the virtual IP, with k0s's userspace reverse proxy
// balancing the API behind it; no keepalived virtual servers, which would
// balance at the kernel's IPVS instead and bring nothing the proxy lacks.
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

// checkCPLB refuses, before anything is written, what k0s would refuse at
// `k0s install` or what would leave keepalived unable to start: a resolved
// password over 8 characters or holding a control character (the inline
// one is checked by validation, by the same rules), and unicast peers
// without this node's own address to send from (cplb.go:194-196:
// "UnicastPeers require a valid UnicastSourceIP"). It returns the unicast
// source address, "" without unicast peers.
func checkCPLB(cfg *schema.Config, authPass secret.Value, facts *hostfacts.Facts) (string, error) {
	if !cfg.HA.On() {
		return "", nil
	}
	if from := cfg.HA.AuthPassFrom; from != nil {
		pass := authPass.Reveal()
		if n := len(pass); n > schema.MaxAuthPassBytes {
			return "", fmt.Errorf("ha.authPassFrom: the password read from %s is %d bytes; keepalived takes at most %d (k0s refuses a longer one at install)",
				from.Where(), n, schema.MaxAuthPassBytes)
		}
		if !schema.NoControlChars(pass) {
			return "", fmt.Errorf("ha.authPassFrom: the password read from %s holds a control character (a line break, a tab); %s, so put the password on one line of printable characters",
				from.Where(), schema.NoControlCharsWhy)
		}
	}
	if cfg.HA.Interface == "" && facts != nil && facts.DefaultRoute == nil {
		// k0s puts the VIP on the default route's interface and fails at
		// install without one (cplb.go:146-150).
		return "", errors.New("ha.interface: unset, and the host has no default route for k0s to put the virtual IP on; name the VRRP interface")
	}
	if schema.IsHostLinkMAC(cfg.HA.Interface) && facts != nil {
		if _, why := vrrpInterfaceByMAC(cfg.HA.Interface, facts); why != "" {
			return "", fmt.Errorf("ha.interface: is a MAC address, which k0s looks up among the host's interfaces at install, and %s", why)
		}
	}
	if len(cfg.HA.UnicastPeers) == 0 {
		return "", nil
	}
	src, why := unicastSource(cfg, facts)
	if !src.IsValid() {
		return "", fmt.Errorf("ha.interface: keepalived sends unicast adverts to ha.unicastPeers from this node's own address on the VRRP interface, and %s", why)
	}
	return src.String(), nil
}

// VRRPUnicastSource is the address keepalived sends unicast adverts from:
// this node's address on the VRRP interface, in the peers' family, or "" when
// it cannot be known here (see checkCPLB, which refuses that).
func VRRPUnicastSource(cfg *schema.Config, facts *hostfacts.Facts) string {
	if !cfg.HA.On() || len(cfg.HA.UnicastPeers) == 0 {
		return ""
	}
	if a, _ := unicastSource(cfg, facts); a.IsValid() {
		return a.String()
	}
	return ""
}

// unicastSource finds this node's address on the VRRP interface in the
// peers' family. The peers list one address per controller, so the source
// must be the one the others list, which is not the node address when the
// VIP lives on the underlay and the node address on the overlay. why says
// what was missing.
func unicastSource(cfg *schema.Config, facts *hostfacts.Facts) (addr netip.Addr, why string) {
	peer, err := netip.ParseAddr(cfg.HA.UnicastPeers[0])
	if err != nil {
		return netip.Addr{}, "ha.unicastPeers[0] is not an IP address"
	}
	fam := "IPv4"
	if !peer.Is4() {
		fam = "IPv6"
	}
	iface := cfg.HA.Interface
	for _, wg := range cfg.WireGuard {
		if wg.Name != iface {
			continue
		}
		for _, a := range wg.Address {
			if p, err := netip.ParsePrefix(a); err == nil && p.Addr().Is4() == peer.Is4() {
				return p.Addr(), ""
			}
		}
		return netip.Addr{}, fmt.Sprintf("wireguard interface %s has no %s address (the peers' family)", iface, fam)
	}
	if facts == nil {
		return netip.Addr{}, "the host's addresses are not known here; pass --facts FILE with the VRRP interface's addresses"
	}
	if iface == "" {
		if facts.DefaultRoute == nil {
			return netip.Addr{}, "ha.interface is unset and the host has no default route to take it from"
		}
		iface = facts.DefaultRoute.Interface
	}
	if schema.IsHostLinkMAC(iface) {
		name, why := vrrpInterfaceByMAC(iface, facts)
		if why != "" {
			return netip.Addr{}, why
		}
		iface = name
	}
	f := facts.Interface(iface)
	if f == nil {
		return netip.Addr{}, fmt.Sprintf("%s is not up on this host", iface)
	}
	for _, p := range f.Addresses {
		if a := p.Addr().Unmap(); a.Is4() == peer.Is4() && !a.IsLinkLocalUnicast() && a != haVirtualIP(cfg) {
			return a, ""
		}
	}
	return netip.Addr{}, fmt.Sprintf("%s has no %s address of its own (the peers' family, the virtual IP aside)", iface, fam)
}
