package firewall

import (
	"errors"

	"github.com/corium/corium-agent/internal/k0s/config"
	"github.com/corium/corium-agent/internal/schema"
)

// masquerades says whether the node's pods need the masquerade: their
// packets to another node's own address go out of the overlay with the pod's
// source, and WireGuard on the other end accepts a packet only from a source
// in the sending peer's allowedIPs, which hold node addresses.
//
// kube-router encapsulates pod-to-pod traffic between nodes (overlay-type
// full), but a pod's packet to a node address (the API at a controller's
// overlay address once kube-proxy has translated the kubernetes service; a
// kubelet for metrics-server) is routed straight out of wg0, and kube-router
// does not masquerade it: its pod egress rule leaves out destinations in the
// kube-router-node-ips set, the nodes' addresses (kube-router v2.10.0
// pkg/controllers/routing/pod_egress.go:14-17,
// network_routes_controller.go:881-895). kube-proxy does not either: k0s
// hands it the cluster CIDR (k0s v1.36.3+k0s.0
// pkg/component/controller/kubeproxy.go:286), and it masquerades service
// traffic only from outside that range. So the receiving node's WireGuard
// drops it.
//
// calico is covered by its own natOutgoing: k0s leaves the IPv4 pool's to
// calico-node, whose default pool is created with it on
// (CALICO_IPV4POOL_NAT_OUTGOING defaults to true in configureIPPools,
// projectcalico/calico node/pkg/lifecycle/startup/startup.go), and sets the
// IPv6 pool's, whose default is false, to true (k0s
// static/manifests/calico/DaemonSet/calico-node.yaml:253-254); Felix then
// masquerades a pool's traffic to every destination outside the IP pools
// (natOutgoingExclusions IPPoolsOnly, the default: k0s
// static/manifests/calico/CustomResourceDefinition/
// felixconfigurations.crd.projectcalico.org.yaml:1023-1029), node
// addresses included. A custom CNI is
// its own business.
//
// Only the node address on an overlay makes pods' node-bound traffic use
// it, and only a role with a kubelet has pods; the masquerade is needed
// whether or not the guard is on.
func masquerades(cfg *schema.Config) bool {
	if cniOf(cfg) != schema.CNIKubeRouter || !cfg.Role.HasKubelet() {
		return false
	}
	for _, wg := range cfg.WireGuard {
		if wg.NodeAddress {
			return true
		}
	}
	return false
}

// renderMasqueradeOnly is the table of a node whose guard is off but whose
// pods need the masquerade on every WireGuard interface.
func renderMasqueradeOnly(cfg *schema.Config, net config.Network) (Guard, error) {
	g := Guard{Masquerade: true, CNI: string(schema.CNIKubeRouter)}
	for _, wg := range cfg.WireGuard {
		g.Interfaces = append(g.Interfaces, wg.Name)
	}
	var err error
	if g.PodCIDR, g.IPv6PodCIDR, err = podNetwork(net); err != nil {
		return Guard{}, err
	}
	return g, g.Check()
}

// checkMasqueradeOnly refuses a masquerade-only guard (the guard off) that
// lists what only a guard has, or lacks what the masquerade needs.
func (g Guard) checkMasqueradeOnly() error {
	if len(g.Ports)+len(g.PublicPorts)+len(g.PodInterfaces)+len(g.Tunnels) > 0 || g.Endpoint != nil {
		return errors.New("guard is off but lists ports, pod interfaces, tunnels or an endpoint")
	}
	if len(g.Interfaces) == 0 {
		return errors.New("interfaces: empty; the masquerade needs the wireguard interfaces it works on")
	}
	if err := checkNames("interfaces", g.Interfaces, false); err != nil {
		return err
	}
	return g.checkPodNetworks()
}
