package schema

import (
	"fmt"
	"strings"
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
	ports := RolePorts(v.cfg)
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
		path := fmt.Sprintf("firewall.publicPorts[%d]", i)
		if first, dup := seen[p]; dup {
			v.errorf(path, "duplicates firewall.publicPorts[%d] (%d)", first, p)
			continue
		}
		seen[p] = i
		if validRole(v.cfg.Role) && p >= 1 && p <= 65535 && !have[p] {
			v.errorf(path, "%d is not one of the %s role's k0s ports (%s)", p, v.cfg.Role, strings.Join(names, ", "))
		}
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
