package schema

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/k0s/config"
)

// firewall: overlay mode needs an overlay the node's peers use, and public
// ports must be ports the role has.
func (v *crossCheck) firewall() {
	f := v.cfg.Firewall
	if f.ClusterPorts == ClusterPortsOverlay {
		switch {
		case len(v.cfg.WireGuard) == 0:
			v.errorf("firewall.clusterPorts", "overlay needs at least one wireguard interface: the role's k0s ports accept traffic only from wireguard interfaces and loopback")
		case !v.hasNodeAddress():
			v.errorf("firewall.clusterPorts", "overlay needs a wireguard interface marked nodeAddress: otherwise the node's own etcd and kubelet ports are closed to the address its peers use")
		}
	}
	if len(f.PublicPorts) > 0 && v.eff.Firewall.ClusterPorts == ClusterPortsOpen {
		v.warnf("firewall.publicPorts", "does nothing while firewall.clusterPorts is open (every cluster port is reachable)")
	}
	ports := v.k0s.Ports.Role
	have := map[int]bool{}
	var names []string
	for _, p := range ports {
		if !have[p.Number] {
			names = append(names, fmt.Sprint(p.Number))
		}
		have[p.Number] = true
	}
	seen := map[int]int{}
	for i, p := range f.PublicPorts {
		path := finding.Path("firewall.publicPorts").Index(i).String()
		if first, dup := seen[p]; dup {
			v.errorf(path, "duplicates firewall.publicPorts[%d] (%d)", first, p)
			continue
		}
		seen[p] = i
		if validRole(v.cfg.Role) && p >= 1 && p <= 65535 && !have[p] {
			v.errorf(path, "%d is not one of the %s role's k0s ports (%s)", p, v.cfg.Role, strings.Join(names, ", "))
		}
		if f.ClusterPorts == ClusterPortsOverlay && isTunnelPort(v.k0s.Ports.Tunnel, p) {
			v.errorf(path, "%d carries %s's pod tunnel, whose packets come out on an interface where the guard trusts pod sources: made public, it lets anyone forge pod traffic to the guarded ports; keep it guarded", p, v.eff.Network.CNI)
		}
	}
	if f.ClusterPorts == ClusterPortsOverlay && validRole(v.cfg.Role) && v.eff.Role.IsController() {
		v.apiPortsTogether(seen)
	}
	// The proxy to the API is public with the API (the guard keeps them
	// together).
	if _, apiPublic := seen[v.k0s.Network.APIPort]; apiPublic && v.k0s.Network.ProxyPort > 0 && have[v.k0s.Network.ProxyPort] {
		if _, listed := seen[v.k0s.Network.ProxyPort]; !listed {
			seen[v.k0s.Network.ProxyPort] = seen[v.k0s.Network.APIPort]
		}
	}
	if f.ClusterPorts == ClusterPortsOverlay && v.eff.Network.CNI == CNICustom && validRole(v.cfg.Role) {
		v.customCNIGuard(have, seen)
	}
	if f.ClusterPorts == ClusterPortsOverlay && validRole(v.cfg.Role) && v.cfg.Role.IsController() {
		v.endpointGuard(seen)
	}
	if f.ClusterPorts == ClusterPortsOverlay && validRole(v.cfg.Role) && len(have) > 0 && coversAll(have, seen) {
		// A guard that polices nothing would load and read as "on" while every
		// port stays open; the firewall refuses to render it, so refuse it here,
		// before the node boots.
		v.errorf("firewall.publicPorts", "exempts every k0s port of the %s role (%s), so the guard would police nothing: set firewall.clusterPorts to open instead", v.cfg.Role, strings.Join(names, ", "))
	}
}

func coversAll(rolePorts map[int]bool, public map[int]int) bool {
	for p := range rolePorts {
		if _, ok := public[p]; !ok {
			return false
		}
	}
	return true
}

func (v *crossCheck) hasNodeAddress() bool {
	for _, wg := range v.cfg.WireGuard {
		if wg.NodeAddress {
			return true
		}
	}
	return false
}

func validRole(r Role) bool {
	switch r {
	case RoleSingle, RoleController, RoleControllerWorker, RoleWorker:
		return true
	}
	return false
}

func isTunnelPort(tunnels []k0s.Port, n int) bool {
	for _, t := range tunnels {
		if t.Number == n {
			return true
		}
	}
	return false
}

// apiPortsTogether refuses the load balancer's proxy made public without
// the API, or the other way round: both reach the same API servers, and the
// guard keeps them together (the proxy follows the API's port).
func (v *crossCheck) apiPortsTogether(public map[int]int) {
	if v.k0s.Network.ProxyPort == 0 {
		return
	}
	api, proxy := v.k0s.Network.APIPort, v.k0s.Network.ProxyPort
	if i, ok := public[proxy]; ok {
		if _, apiPublic := public[api]; !apiPublic {
			v.errorf(finding.Path("firewall.publicPorts").Index(i).String(), "%d is k0s's control-plane load balancer proxy to the API, which follows the API's port %d: list %d to make the API public, and the proxy goes with it", proxy, api, api)
		}
	}
}

// customCNIGuard warns what the guard takes from pods with a CNI whose
// interfaces it cannot know: it trusts pod sources on none of them.
func (v *crossCheck) customCNIGuard(have map[int]bool, public map[int]int) {
	var guarded []string
	for _, p := range v.k0s.Ports.Role {
		if _, ok := public[p.Number]; !ok {
			guarded = append(guarded, fmt.Sprint(p.Number))
		}
	}
	if len(guarded) == 0 {
		return // refused above: the guard would police nothing
	}
	var lost []string
	_, apiPublic := public[v.k0s.Network.APIPort]
	if v.eff.Role.IsController() && !apiPublic {
		lost = append(lost, fmt.Sprintf("the API (%d) through the kubernetes service", v.k0s.Network.APIPort))
	}
	if _, kubeletPublic := public[config.KubeletPort]; v.eff.Role.HasKubelet() && have[config.KubeletPort] && !kubeletPublic {
		lost = append(lost, fmt.Sprintf("the kubelet (%d) from metrics-server", config.KubeletPort))
	}
	example := ""
	if len(lost) > 0 {
		example = ", e.g. " + strings.Join(lost, " or ")
	}
	v.warnf("network.cni", "is custom, whose interfaces the guard cannot know: with firewall.clusterPorts overlay it accepts pod sources only on lo and the wireguard interfaces, so pods on this node, and other nodes' pods that come in on the CNI's own devices, do not reach the guarded ports (%s)%s; list the ports pods need in firewall.publicPorts, or use kuberouter or calico, whose interfaces the guard knows", strings.Join(guarded, ", "), example)
}

// endpointClients names who reaches each of the endpoint's ports through
// cluster.endpoint.
func endpointClients(net config.Network) map[int]string {
	return map[int]string{net.APIPort: "kubelets", net.KonnectivityPort: "konnectivity agents", net.JoinAPIPort: "joining controllers", net.ProxyPort: "clients of the load balancer"}
}

// endpointGuard says what the guard does with a controller's
// cluster.endpoint: k0s makes it api.externalAddress, which kubelets,
// konnectivity agents and joining controllers dial (see EndpointPorts). On
// the overlay nothing changes; an IP off it is admitted on those ports, a
// name cannot be.
func (v *crossCheck) endpointGuard(public map[int]int) {
	kind, addr := ClusterEndpoint(v.cfg)
	if kind != EndpointUnderlay && kind != EndpointName {
		return
	}
	var ports, clients []string
	names := endpointClients(v.k0s.Network)
	for _, p := range v.k0s.Ports.Endpoint {
		if _, ok := public[p.Number]; !ok {
			ports = append(ports, fmt.Sprint(p.Number))
			clients = append(clients, names[p.Number])
		}
	}
	if len(ports) == 0 {
		return // all public: reachable at any address already
	}
	if kind == EndpointUnderlay {
		if v.endpointIsOwnVIP(addr) || v.endpointIsSharedVIP(addr) {
			// The documented HA design: the VIP the controllers hold on
			// their LAN, dialled like any client from another site.
			return
		}
		v.warnf("cluster.endpoint", "%s is not on the overlay: the guard admits %s addressed to it from any link (%s reach the cluster there); the node's other addresses stay overlay-only",
			addr, andList(ports), andList(clients))
		return
	}
	v.errorf("cluster.endpoint", "%s is a name, whose address the guard cannot know: with firewall.clusterPorts overlay, %s that reach the cluster there are dropped unless they come over the overlay; add %s to firewall.publicPorts, or give the endpoint as an IP",
		v.cfg.Cluster.Endpoint, andList(clients), andList(ports))
}

// endpointIsOwnVIP reports whether addr is the address of this controller's
// own enabled ha.virtualIP: docs/cluster.md's HA design puts the endpoint
// there, on the controllers' LAN, and the guard admitting the endpoint's
// ports to it is what that design needs, so it is not worth a warning.
func (v *crossCheck) endpointIsOwnVIP(addr netip.Addr) bool {
	if !v.cfg.HA.On() {
		return false
	}
	vip, err := netip.ParsePrefix(v.cfg.HA.VirtualIP)
	return err == nil && vip.Addr().Unmap() == addr
}

// andList joins "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
