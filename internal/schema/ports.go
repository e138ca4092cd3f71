package schema

import (
	"net/netip"
	"sort"
)

// Port is one k0s port of a role.
type Port struct {
	Number int
	Proto  string // "tcp" or "udp"
}

// RolePorts is the set of k0s ports the node's role listens on, the set that
// firewall.clusterPorts guards and firewall.publicPorts picks from. Unset
// fields count at their defaults.
//
// Controllers: the API (6443), konnectivity (8132), k0s join API (9443) and,
// with etcd, etcd peers (2380). Roles with a kubelet: 10250, plus the CNI's
// own: kube-router's BGP (179/tcp), calico's BGP and VXLAN (179/tcp,
// 4789/udp); a custom CNI brings its own rules.
func RolePorts(cfg *Config) []Port {
	eff := withDefaults(cfg)
	var ports []Port
	if eff.Role.IsController() {
		ports = append(ports, Port{6443, "tcp"}, Port{8132, "tcp"}, Port{9443, "tcp"})
		if eff.Storage.Type == StorageEtcd {
			ports = append(ports, Port{2380, "tcp"})
		}
	}
	if eff.Role.HasKubelet() {
		ports = append(ports, Port{10250, "tcp"})
		switch eff.Network.CNI {
		case CNIKubeRouter:
			ports = append(ports, Port{179, "tcp"})
		case CNICalico:
			ports = append(ports, Port{179, "tcp"}, Port{4789, "udp"})
		}
	}
	sort.Slice(ports, func(i, j int) bool {
		if ports[i].Number != ports[j].Number {
			return ports[i].Number < ports[j].Number
		}
		return ports[i].Proto < ports[j].Proto
	})
	return ports
}

// EndpointPorts are the k0s ports clients reach the cluster on through
// cluster.endpoint, which the agent makes k0s's api.externalAddress (k0s
// v1.36.3+k0s.0):
//   - 6443, the API: a worker's join token, and so its kubelet's kubeconfig,
//     points at APIAddressURL (pkg/token/kubeconfig.go:81,
//     pkg/component/worker/utils.go:55-63), the externalAddress with the
//     API port (pkg/apis/k0s/v1beta1/api.go:116-137); kube-proxy too
//     (pkg/component/controller/kubeproxy.go:221);
//   - 8132, konnectivity: the agents dial ExternalHost() unless
//     spec.konnectivity.externalAddress is set (cmd/controller/controller.go:587,
//     pkg/component/controller/konnectivityagent.go:110-123);
//   - 9443, the join API: a controller's join token points at
//     K0sControlPlaneAPIAddress (pkg/token/kubeconfig.go:79,
//     pkg/apis/k0s/v1beta1/api.go:121-124).
var EndpointPorts = []Port{{6443, "tcp"}, {8132, "tcp"}, {9443, "tcp"}}

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
