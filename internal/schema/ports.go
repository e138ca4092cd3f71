package schema

import "sort"

// Port is one transport port of the role's k0s port set.
type Port struct {
	Number int    `json:"number"`
	Proto  string `json:"proto"` // "tcp" or "udp"
}

// RolePorts is the set of ports k0s opens for the node's role, in a fixed
// order (tcp before udp, then by number). The operator never types these: the
// firewall guards them and firewall.publicPorts may only name ports of this set.
//
// Unset storage and CNI read as their documented defaults, so validation (which
// runs before ApplyDefaults) and the firewall (after it) see the same set.
func RolePorts(cfg *Config) []Port {
	var ports []Port
	add := func(proto string, numbers ...int) {
		for _, n := range numbers {
			ports = append(ports, Port{Number: n, Proto: proto})
		}
	}
	if cfg.Role.IsController() {
		add("tcp", 6443, 8132, 9443) // API server, konnectivity, join API
		storage := cfg.Storage.Type
		if storage == "" && cfg.Role != RoleSingle {
			storage = StorageEtcd
		}
		if storage == StorageEtcd {
			add("tcp", 2380) // etcd peers
		}
	}
	// The CNI's agents run as pods next to a kubelet; a controller without one
	// runs none of them.
	if cfg.Role.HasKubelet() {
		add("tcp", 10250)
		switch cfg.Network.CNI {
		case CNIKubeRouter, "":
			add("tcp", 179) // BGP
		case CNICalico:
			add("tcp", 179)  // BGP
			add("udp", 4789) // VXLAN
		}
	}
	sort.Slice(ports, func(i, j int) bool {
		if ports[i].Proto != ports[j].Proto {
			return ports[i].Proto < ports[j].Proto
		}
		return ports[i].Number < ports[j].Number
	})
	return ports
}
