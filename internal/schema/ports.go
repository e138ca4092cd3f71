package schema

import (
	"net/netip"
	"sort"

	"github.com/corium/corium-agent/internal/k0s/config"
)

// Port is one k0s port of a role.
type Port struct {
	Number int
	Proto  string // "tcp" or "udp"
}

// RolePorts is the set of ports that k0s and the components it runs listen
// on at every address of the node in this role, as the effective
// ClusterConfig sets them (EffectiveNetwork): the set firewall.clusterPorts
// guards and firewall.publicPorts picks from.
//
// Controllers: the API (6443), konnectivity (8132), k0s's join API (9443),
// with etcd its peers (2380), and with the control-plane load balancer its
// proxy to the API (6444). Roles with a kubelet: the kubelet (10250),
// kube-proxy's metrics and health (10249, 10256) unless disabled or bound to
// loopback (k0s v1.36.3+k0s.0 pkg/apis/k0s/v1beta1/kubeproxy.go:98-104),
// plus the CNI's own: kube-router's BGP (179/tcp), metrics (8080/tcp;
// kuberouter.go:84-91) and, with fou, its UDP tunnel (5555/udp); calico's
// BGP (179/tcp) and, in vxlan mode, VXLAN (4789/udp). A custom CNI brings
// its own rules. The numbers are the defaults; a k0s.patch that moves one
// moves the port here.
func RolePorts(cfg *Config) []Port {
	net, _ := EffectiveNetwork(cfg)
	return PortsOf(cfg, net).Role
}

// Ports are a role's ports by what they are for, from one effective
// network.
type Ports struct {
	// Role is RolePorts.
	Role []Port
	// Tunnel are the UDP ports that carry the CNI's pod tunnels between
	// nodes: what arrives there comes out on an interface the guard trusts
	// for pod sources, so they are never made public. Calico's VXLAN in
	// vxlan mode (spec.network.calico.vxlanPort), kube-router's fou with its
	// overlay on (--overlay-encap-port).
	Tunnel []Port
	// Endpoint are the ports clients reach the cluster on through
	// cluster.endpoint (see endpointPorts); a controller's only.
	Endpoint []Port
	// API are the API's port and, where the load balancer's proxy runs, the
	// proxy's, which reaches the same API servers and so is guarded or
	// public together with it; a controller's only.
	API []Port
}

// PortsOf sorts a role's ports by what they are for, from the network
// EffectiveNetwork read for it.
func PortsOf(cfg *Config, net config.Network) Ports {
	eff := withDefaults(cfg)
	p := Ports{Role: rolePorts(eff, net), Tunnel: tunnelPorts(eff, net)}
	if eff.Role.IsController() {
		p.Endpoint = endpointPorts(net)
		p.API = []Port{{net.APIPort, "tcp"}}
		if net.ProxyPort > 0 {
			p.API = append(p.API, Port{net.ProxyPort, "tcp"})
		}
	}
	return p
}

func rolePorts(eff *Config, net config.Network) []Port {
	var ports []Port
	add := func(n int, proto string) {
		if n > 0 {
			ports = append(ports, Port{n, proto})
		}
	}
	if eff.Role.IsController() {
		add(net.APIPort, "tcp")
		add(net.KonnectivityPort, "tcp")
		add(net.JoinAPIPort, "tcp")
		add(net.ProxyPort, "tcp")
		if eff.Storage.Type == StorageEtcd {
			add(config.EtcdPeerPort, "tcp")
		}
	}
	if eff.Role.HasKubelet() {
		add(config.KubeletPort, "tcp")
		if kp := net.KubeProxy; kp != nil {
			add(kp.MetricsPort, "tcp")
			add(kp.HealthzPort, "tcp")
		}
		switch eff.Network.CNI {
		case CNIKubeRouter:
			add(net.KubeRouter.BGPPort, "tcp")
			add(net.KubeRouter.MetricsPort, "tcp")
		case CNICalico:
			add(config.BGPPort, "tcp")
		}
		for _, p := range tunnelPorts(eff, net) {
			add(p.Number, p.Proto)
		}
	}
	sort.Slice(ports, func(i, j int) bool {
		if ports[i].Number != ports[j].Number {
			return ports[i].Number < ports[j].Number
		}
		return ports[i].Proto < ports[j].Proto
	})
	return dedupPorts(ports)
}

func dedupPorts(sorted []Port) []Port {
	out := sorted[:0]
	for i, p := range sorted {
		if i == 0 || p != sorted[i-1] {
			out = append(out, p)
		}
	}
	return out
}

func tunnelPorts(eff *Config, net config.Network) []Port {
	if !eff.Role.HasKubelet() {
		return nil
	}
	switch {
	case eff.Network.CNI == CNICalico && net.Calico.Mode == "vxlan":
		return []Port{{net.Calico.VXLANPort, "udp"}}
	case eff.Network.CNI == CNIKubeRouter && net.KubeRouter.Overlay && net.KubeRouter.Encap == "fou":
		return []Port{{net.KubeRouter.EncapPort, "udp"}}
	}
	return nil
}

// endpointPorts are the ports clients reach the cluster on through
// cluster.endpoint, which the agent makes k0s's api.externalAddress (k0s
// v1.36.3+k0s.0), as the effective ClusterConfig sets them:
//   - the API (6443): a worker's join token, and so its kubelet's
//     kubeconfig, points at APIAddressURL (pkg/token/kubeconfig.go:81,
//     pkg/component/worker/utils.go:55-63), the externalAddress with the
//     API port (pkg/apis/k0s/v1beta1/api.go:116-137); kube-proxy too
//     (pkg/component/controller/kubeproxy.go:221);
//   - konnectivity (8132): the agents dial ExternalHost() unless
//     spec.konnectivity.externalAddress is set (cmd/controller/controller.go:587,
//     pkg/component/controller/konnectivityagent.go:110-123);
//   - the join API (9443): a controller's join token points at
//     K0sControlPlaneAPIAddress (pkg/token/kubeconfig.go:79,
//     pkg/apis/k0s/v1beta1/api.go:121-124);
//   - the load balancer's proxy (6444) where it runs: k0s redirects the
//     virtual IP's API port to it (see config.Network.ProxyPort), so it
//     is reached wherever the API is.
//
// Only a controller has them.
func endpointPorts(net config.Network) []Port {
	ports := []Port{{net.APIPort, "tcp"}, {net.KonnectivityPort, "tcp"}, {net.JoinAPIPort, "tcp"}}
	if net.ProxyPort > 0 {
		ports = append(ports, Port{net.ProxyPort, "tcp"})
	}
	return ports
}

// EndpointKind says where packets to cluster.endpoint arrive.
type EndpointKind int

const (
	// EndpointNone: no endpoint is set.
	EndpointNone EndpointKind = iota
	// EndpointOverlay: an IP inside a wireguard address prefix of the
	// document, reached over the overlay.
	EndpointOverlay
	// EndpointUnderlay: an IP outside every one of them (an underlay
	// virtual IP, a load balancer's, the node's own LAN address).
	EndpointUnderlay
	// EndpointName: a DNS name, whose address is not known offline.
	EndpointName
)

// ClusterEndpoint classifies cluster.endpoint, with its address when it is
// an IP.
func ClusterEndpoint(cfg *Config) (EndpointKind, netip.Addr) {
	e := cfg.Cluster.Endpoint
	if e == "" {
		return EndpointNone, netip.Addr{}
	}
	addr, err := netip.ParseAddr(e)
	if err != nil || addr.Zone() != "" {
		return EndpointName, netip.Addr{}
	}
	addr = addr.Unmap()
	for _, wg := range cfg.WireGuard {
		for _, a := range wg.Address {
			if p, err := netip.ParsePrefix(a); err == nil && p.Masked().Contains(addr) {
				return EndpointOverlay, addr
			}
		}
	}
	return EndpointUnderlay, addr
}
