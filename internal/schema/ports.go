package schema

import "sort"

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
