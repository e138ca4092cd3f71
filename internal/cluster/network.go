package cluster

import (
	"fmt"

	"github.com/corium/corium-agent/internal/k0s/config"
	"github.com/corium/corium-agent/internal/schema"
)

// netFact is a fact of the cluster's network that the CNI and kube-proxy
// run cluster-wide and every node's guard follows from its own document.
type netFact struct {
	// value is the fact in words; false when it does not apply.
	value func(n *node, net config.Network) (string, bool)
	// says is the message, given the node's value, the other file and its.
	says string
}

var netFacts = []netFact{
	{encapsulation, "runs pods between nodes with %s, but %s has %s"},
	{cniPorts, "has %s, but %s has %s"},
	{kubeProxyPorts, "has %s, but %s has %s"},
	{nodeLocalLB, "has %s, but %s has %s"},
}

// networkFacts: the cluster's network as k0s will run it (each document's
// effective ClusterConfig, its own k0s.patch included) is one network. The
// controllers deploy the CNI and kube-proxy from their ClusterConfig, a
// controller without a kubelet too; a worker renders no k0s.yaml and
// derives its guard and CNI from its own document. So a controller's patch
// of calico's VXLAN port, kube-router's encapsulation or BGP port, or
// kube-proxy's ports that another document lacks leaves that node guarding,
// and tunnelling on, what the cluster does not run. The block's own fields
// (network.cni, the ranges) are compared by settings, and a patch that sets
// them otherwise is refused in its file.
func (c *check) networkFacts() {
	c.netReported = map[*node]bool{}
	nets := make([]*config.Network, len(c.set))
	for i, n := range c.set {
		if len(n.k0s.Problems) == 0 {
			nets[i] = &n.k0s.Network
		}
	}
	// A node that runs another CNI than most is named at network.cni
	// (settings): what its CNI runs follows from it.
	_, cni, _ := c.reference(func(n *node) (string, bool) { return string(n.eff.Network.CNI), true })
	index := map[*node]int{}
	for i, n := range c.set {
		index[n] = i
	}
	for _, f := range netFacts {
		value := func(n *node) (string, bool) {
			if i := index[n]; nets[i] != nil && string(n.eff.Network.CNI) == cni {
				return f.value(n, *nets[i])
			}
			return "", false
		}
		ref, want, holders := c.reference(value)
		for _, n := range c.set {
			got, ok := value(n)
			if !ok || got == want {
				continue
			}
			c.netReported[n] = true
			path := schema.PatchPath(n.cfg.K0s.Patch, "spec.network")
			c.errorf(n, path, []Place{ref.at(schema.PatchPath(ref.cfg.K0s.Patch, "spec.network"))},
				f.says+"%s; the controllers deploy the CNI and kube-proxy from their own documents' k0s.patch, and every node's guard and tunnels follow its own: give every document the same patch of spec.network", got, ref.File, want, alsoHeld(holders))
		}
	}
}

// encapsulation is how the node's effective network carries pods between
// nodes, in words; false for a CNI the agent does not run.
func encapsulation(n *node, net config.Network) (string, bool) {
	switch n.eff.Network.CNI {
	case schema.CNICalico:
		if net.Calico.Mode == "vxlan" {
			return fmt.Sprintf("calico's vxlan on %d/udp", net.Calico.VXLANPort), true
		}
		return "calico's " + net.Calico.Mode, true
	case schema.CNIKubeRouter:
		switch {
		case !net.KubeRouter.Overlay:
			return "kube-router without its overlay", true
		case net.KubeRouter.Encap == "fou":
			return fmt.Sprintf("kube-router's fou on %d/udp", net.KubeRouter.EncapPort), true
		}
		return "kube-router's " + net.KubeRouter.Encap, true
	}
	return "", false
}

// cniPorts are the CNI's own ports beside its tunnel: kube-router's BGP,
// metrics and health (calico's BGP port is fixed).
func cniPorts(n *node, net config.Network) (string, bool) {
	if n.eff.Network.CNI != schema.CNIKubeRouter {
		return "", false
	}
	on := func(p int) string {
		if p == 0 {
			return "off"
		}
		return fmt.Sprintf("on %d/tcp", p)
	}
	return fmt.Sprintf("kube-router's BGP on %d/tcp, metrics %s and health %s", net.KubeRouter.BGPPort, on(net.KubeRouter.MetricsPort), on(net.KubeRouter.HealthPort)), true
}

// nodeLocalLB is whether the workers run k0s's node-local load balancing,
// which the controllers turn on for all of them: it puts the konnectivity
// agent in the host network, with its health port on every address, which a
// worker's guard holds only when its own document turns it on too.
func nodeLocalLB(_ *node, net config.Network) (string, bool) {
	if net.NLLB {
		return "node-local load balancing on (the konnectivity agent's health on 8093/tcp)", true
	}
	return "node-local load balancing off", true
}

func kubeProxyPorts(_ *node, net config.Network) (string, bool) {
	kp := net.KubeProxy
	if kp == nil {
		return "kube-proxy disabled", true
	}
	port := func(p int) string {
		if p == 0 {
			return "on loopback"
		}
		return fmt.Sprintf("on %d/tcp", p)
	}
	return fmt.Sprintf("kube-proxy's metrics %s and health %s", port(kp.MetricsPort), port(kp.HealthzPort)), true
}
