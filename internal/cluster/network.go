package cluster

import (
	"fmt"

	"github.com/corium/corium-agent/internal/schema"
)

// networkFacts: the cluster's network as k0s will run it (each document's
// effective ClusterConfig, its own k0s.patch included) is one network. A
// worker renders no k0s.yaml and derives its guard and CNI from its own
// document, so a controller's patch of calico's VXLAN port or kube-router's
// encapsulation that the worker lacks leaves the worker guarding, and
// tunnelling on, what the cluster does not run. The block's own fields
// (network.cni, the ranges) are compared by settings.
func (c *check) networkFacts() {
	var ref *node
	var want string
	for _, n := range c.set {
		got, ok := encapsulation(n)
		switch {
		case !ok:
			continue
		case ref == nil:
			ref, want = n, got
			continue
		case got == want:
			continue
		}
		path := schema.PatchPath(n.cfg.K0s.Patch, "spec.network")
		c.errorf(n, path, []Place{ref.at(schema.PatchPath(ref.cfg.K0s.Patch, "spec.network"))},
			"runs pods between nodes with %s, but %s has %s; the CNI's tunnels and the guard of every node follow its own document's k0s.patch: give every document the same patch of spec.network", got, ref.File, want)
	}
}

// encapsulation is how the node's effective network carries pods between
// nodes, in words; false for a node without a kubelet or a readable one.
func encapsulation(n *node) (string, bool) {
	if !n.eff.Role.HasKubelet() {
		return "", false
	}
	net, problems := schema.EffectiveNetwork(n.cfg)
	if len(problems) > 0 {
		return "", false
	}
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
