package k0s

import (
	"sort"

	"github.com/corium/corium-agent/internal/k0s/config"
)

// Port is one k0s port of a role.
type Port struct {
	Number int
	Proto  string // "tcp" or "udp"
}

// Ports are a role's ports by what they are for, from the effective
// network (Effective.Ports).
type Ports struct {
	// Role is the set of ports that k0s and the components it runs listen
	// on at every address of the node in this role, as the effective
	// ClusterConfig sets them: the ports of the followed listeners of the
	// table (Listeners) that run in the role. The set firewall.clusterPorts
	// guards and firewall.publicPorts picks from. A custom CNI brings its
	// own rules.
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

// portsOf sorts a role's ports by what they are for, from the effective
// network.
func portsOf(in Input, net config.Network) Ports {
	p := Ports{Role: rolePorts(in, net), Tunnel: tunnelPorts(in, net)}
	if in.Controller {
		p.Endpoint = endpointPorts(net)
		p.API = []Port{{net.APIPort, "tcp"}}
		if net.ProxyPort > 0 {
			p.API = append(p.API, Port{net.ProxyPort, "tcp"})
		}
	}
	return p
}

// rolePorts are the ports of the followed listeners of the table that run
// in the role, as the effective configuration sets them: a new listener is
// a new row of the table, not a change here.
func rolePorts(in Input, net config.Network) []Port {
	e := Effective{Input: in, Network: net}
	var ports []Port
	for _, l := range table {
		if n := l.PortIn(e); n > 0 {
			ports = append(ports, Port{n, l.Proto})
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

func tunnelPorts(in Input, net config.Network) []Port {
	if !in.Kubelet {
		return nil
	}
	switch {
	case in.Provider == config.ProviderCalico && net.Calico.Mode == "vxlan":
		return []Port{{net.Calico.VXLANPort, "udp"}}
	case in.Provider == config.ProviderKubeRouter && net.KubeRouter.Overlay && net.KubeRouter.Encap == "fou":
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
