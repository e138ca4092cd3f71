package firewall

import (
	"errors"
	"fmt"
	"net/netip"

	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/k0s/config"
	"github.com/corium/corium-agent/internal/schema"
)

// Guard is what the firewall enforces, derived from the config and nothing
// else: the guard of the cluster ports (On) and the pod masquerade, either
// or both in one table. The zero Guard is "off": no table.
type Guard struct {
	// On is true for clusterPorts: overlay.
	On bool `json:"on"`
	// Ports are the guarded ports: the role's set minus PublicPorts.
	Ports []Port `json:"ports,omitempty"`
	// Interfaces are the overlay: with the guard on, lo and the WireGuard
	// interfaces, which may reach the guarded ports; with only the
	// masquerade, the WireGuard interfaces it masquerades on.
	Interfaces []string `json:"interfaces,omitempty"`
	// PublicPorts are the role's ports the operator left reachable from anywhere.
	PublicPorts []Port `json:"publicPorts,omitempty"`
	// PodCIDR is the pod network: with the guard on, accepted only on
	// PodInterfaces; the masquerade rewrites its packets' source.
	PodCIDR string `json:"podCIDR,omitempty"`
	// IPv6PodCIDR is a dual-stack cluster's IPv6 pod range
	// (spec.network.dualStack.IPv6podCIDR; PodCIDR is then the IPv4 one),
	// trusted and masqueraded as PodCIDR is; "" in a single-stack cluster.
	IPv6PodCIDR string `json:"ipv6PodCIDR,omitempty"`
	// CNI is network.cni, which PodInterfaces and Tunnels follow.
	CNI string `json:"cni,omitempty"`
	// PodInterfaces are the links the CNI delivers pods' packets on, by
	// name; a name ending in "*" is a prefix. Empty for a custom CNI.
	PodInterfaces []string `json:"podInterfaces,omitempty"`
	// Tunnels are the encapsulations the CNI carries between nodes (see
	// TunnelMatches), dropped unless they arrive on Interfaces: what they
	// carry comes out on a PodInterface, where pod sources are trusted.
	Tunnels []string `json:"tunnels,omitempty"`
	// Endpoint is cluster.endpoint on a controller when it is an IP off the
	// overlay: the ports clients reach the cluster on there are accepted
	// addressed to it, from any link (see endpoint.go).
	Endpoint *Endpoint `json:"endpoint,omitempty"`
	// Masquerade gives pods' packets leaving through a WireGuard interface
	// to an address outside PodCIDR the node's own source, which the peer's
	// allowedIPs hold (see masquerade.go). It is independent of On: with
	// the guard off, the table holds the masquerade alone.
	Masquerade bool `json:"masquerade,omitempty"`
	// FileVersion is the version of an older file the guard was read from,
	// 0 when it was rendered or read from a current file (see Outdated).
	FileVersion int `json:"-"`
}

// Port is a transport port as the guard's file spells it.
type Port struct {
	Number int    `json:"port"`
	Proto  string `json:"proto"` // "tcp" or "udp"
}

func (p Port) String() string { return fmt.Sprintf("%d/%s", p.Number, p.Proto) }

// Render derives the guard from a validated config with defaults applied,
// and from eff, the cluster's network as k0s will run it, which the caller
// computed once for the document (schema.Document.K0s, schema.Effective):
// a k0s.patch that moves a port, or the CNI's encapsulation, moves the
// guard with it.
func Render(cfg *schema.Config, eff k0s.Effective) (Guard, error) {
	net := eff.Network
	if len(eff.Problems) > 0 {
		p := eff.Problems[0]
		return Guard{}, fmt.Errorf("%s: %s", schema.PatchPath(cfg.K0s.Patch, p.Path), p.Message)
	}
	masquerade := masquerades(cfg)
	if cfg.Firewall.ClusterPorts != schema.ClusterPortsOverlay {
		if !masquerade {
			return Guard{}, nil
		}
		return renderMasqueradeOnly(cfg, net)
	}
	if len(cfg.WireGuard) == 0 {
		return Guard{}, errors.New("firewall.clusterPorts: overlay needs at least one wireguard interface; add one or set clusterPorts: open")
	}
	g := Guard{On: true, Interfaces: []string{"lo"}, Masquerade: masquerade}
	for _, wg := range cfg.WireGuard {
		g.Interfaces = append(g.Interfaces, wg.Name)
	}
	ports := eff.Ports
	public := map[int]bool{}
	for _, p := range cfg.Firewall.PublicPorts {
		public[p] = true
	}
	// The load balancer's proxy reaches the API servers as the API's port
	// does, and k0s redirects the virtual IP's API port to it: it is
	// guarded or public with the API.
	for _, p := range ports.API[min(1, len(ports.API)):] {
		public[p.Number] = public[ports.API[0].Number]
	}
	for _, rp := range ports.Role {
		p := Port{Number: rp.Number, Proto: rp.Proto}
		if public[p.Number] {
			g.PublicPorts = append(g.PublicPorts, p)
		} else {
			g.Ports = append(g.Ports, p)
		}
	}
	if len(g.Ports) == 0 {
		// A table that loads and polices nothing reads as "on" while every
		// port is open; refuse it rather than report a guard that isn't.
		return Guard{}, errors.New("firewall.publicPorts: exempts every port of the role, so the guard would police nothing; set clusterPorts: open instead")
	}
	var err error
	if g.PodCIDR, g.IPv6PodCIDR, err = podNetwork(net); err != nil {
		return Guard{}, err
	}
	cni := cniOf(cfg)
	cn, ok := cniNetworkOf(cni, net)
	if !ok {
		return Guard{}, fmt.Errorf("network.cni: %q is not kuberouter, calico or custom", cni)
	}
	g.CNI = string(cni)
	g.PodInterfaces, g.Tunnels = cn.podInterfaces, cn.tunnels
	for _, t := range ports.Tunnel {
		if public[t.Number] {
			return Guard{}, fmt.Errorf("firewall.publicPorts: %d/%s carries %s's pod tunnel, whose packets come out on an interface the guard trusts for pod sources; keep it guarded", t.Number, t.Proto, cni)
		}
	}
	if g.Endpoint, err = renderEndpoint(cfg, g, ports.Endpoint); err != nil {
		return Guard{}, err
	}
	return g, g.Check()
}

// podNetwork is the pod ranges k0s runs, as the table matches them: the
// one of spec.network.podCIDR, and in a dual-stack cluster the IPv6 one
// beside it ("" otherwise). Validation refuses what does not parse; this
// refuses it again for a caller that skipped it.
func podNetwork(net config.Network) (pod, ipv6Pod string, err error) {
	prefix, err := netip.ParsePrefix(net.PodCIDR)
	if err != nil {
		return "", "", fmt.Errorf("network.podCIDR: not a CIDR: %w", err)
	}
	if !net.DualStack {
		return prefix.Masked().String(), "", nil
	}
	v6, err := netip.ParsePrefix(net.IPv6PodCIDR)
	if err != nil {
		return "", "", fmt.Errorf("k0s.patch: spec.network.dualStack.IPv6podCIDR: not a CIDR: %w", err)
	}
	return prefix.Masked().String(), v6.Masked().String(), nil
}

// PodNetworks are the pod ranges the table matches: PodCIDR, and
// IPv6PodCIDR in a dual-stack cluster. Check has refused a guard whose
// ranges do not parse, or whose second is not IPv6 beside an IPv4 first.
func (g Guard) PodNetworks() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{g.PodCIDR, g.IPv6PodCIDR} {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
		}
	}
	return out
}

func cniOf(cfg *schema.Config) schema.CNI {
	if cfg.Network.CNI == "" {
		return schema.DefaultCNI
	}
	return cfg.Network.CNI
}

// Holds says what the table is for: "the guard", "the pod masquerade", both,
// or "" when there is no table.
func (g Guard) Holds() string {
	switch {
	case g.On && g.Masquerade:
		return "the guard and the pod masquerade"
	case g.On:
		return "the guard"
	case g.Masquerade:
		return "the pod masquerade"
	}
	return ""
}

// Outdated says what a guard read from an older file leaves out and what to
// run; "" for a current guard.
func (g Guard) Outdated() string {
	if g.FileVersion == 0 || !g.On {
		return ""
	}
	return fmt.Sprintf("%s is version %d, rendered by an older agent: it does not name the CNI's pod interfaces, so pod sources are accepted on no interface but lo and the overlay, and pods reach none of the guarded ports (the API through the kubernetes service, the kubelet from metrics-server); run corium-agent apply --again to render the guard again", FilePath, g.FileVersion)
}
