package schema

import (
	"net/netip"

	"github.com/corium/corium-agent/internal/finding"
)

// Per-node pod ranges k0s asks kube-controller-manager for: /24 per node for
// IPv4, /117 for IPv6 (k0s v1.36.3+k0s.0 docs/single-stack-ipv6.md, "By
// default, k0s uses a /117 node CIDR mask size for IPv6 ... a /24 for
// IPv4"). kube-controller-manager refuses a cluster range more than 16 bits
// wider than the per-node one (Kubernetes pkg/controller/nodeipam/ipam/
// cidrset, clusterSubnetMaxDiff), and then never allocates a node's range.
const (
	nodeMaskIPv4   = 24
	nodeMaskIPv6   = 117
	maxNodeMaskGap = 16
	// serviceBitsIPv6 is the one IPv6 service prefix length that works: k0s
	// refuses a longer one (k0s v1.36.3+k0s.0 pkg/apis/k0s/v1beta1/
	// network.go:119-125), kube-apiserver a shorter one (at most 20 bits of
	// service addresses, cmd/kube-apiserver/app/options/validation.go).
	serviceBitsIPv6 = 108
)

// addressFamilies: the pod and service ranges share one family, as k0s
// requires, they fit what Kubernetes allocates from them, and the node
// address the document fixes is in that family.
func (v *crossCheck) addressFamilies() {
	pod, err1 := netip.ParsePrefix(v.eff.Network.PodCIDR)
	svc, err2 := netip.ParsePrefix(v.eff.Network.ServiceCIDR)
	if err1 != nil || err2 != nil {
		return // the field rules report them
	}
	// k0s v1.36.3+k0s.0 pkg/apis/k0s/v1beta1/network.go:113-117.
	if pod.Addr().Is4() != svc.Addr().Is4() {
		v.errorf("network.serviceCIDR", "is %s and network.podCIDR %s: k0s needs both in one family", family(svc.Addr()), family(pod.Addr()))
		return
	}
	if svc.Addr().Is6() && svc.Bits() != serviceBitsIPv6 {
		v.errorf("network.serviceCIDR", "is an IPv6 /%d: k0s refuses a range longer than /%d and kube-apiserver one shorter, so it must be a /%d", svc.Bits(), serviceBitsIPv6, serviceBitsIPv6)
	}
	if !v.patchSetsNodeMask() {
		mask := nodeMaskIPv4
		if pod.Addr().Is6() {
			mask = nodeMaskIPv6
		}
		switch {
		case pod.Bits() > mask:
			v.errorf("network.podCIDR", "is smaller than the /%d k0s gives each node; use /%d or shorter", mask, mask)
		case mask-pod.Bits() > maxNodeMaskGap:
			v.errorf("network.podCIDR", "is wider than kube-controller-manager splits into /%d node ranges (at most %d bits apart); use /%d or longer, or set spec.controllerManager.extraArgs.node-cidr-mask-size through k0s.patch",
				mask, maxNodeMaskGap, mask-maxNodeMaskGap)
		}
	}
	// The node address is of the primary family: the ranges' one in a
	// single-stack cluster, k0s's primary family in a dual-stack one
	// (config.Network.NodeFamilies).
	primary := v.k0s.Network.NodeFamilies(v.eff.Cluster.Endpoint)[0]
	for i, wg := range v.cfg.WireGuard {
		if !wg.NodeAddress || len(wg.Address) == 0 {
			continue
		}
		a, err := netip.ParsePrefix(wg.Address[0])
		if err != nil || family(a.Addr()) == primary {
			continue
		}
		at := finding.Path("wireguard").Index(i).Field("address").Index(0).String()
		if v.k0s.Network.DualStack {
			v.errorf(at, "is %s, the node address, but the cluster runs dual stack with %s the primary family (spec.network.primaryAddressFamily, else cluster.endpoint's family, else IPv4): k0s advertises the API and lists the kubelet's addresses in that family first; list an %s address first",
				family(a.Addr()), primary, primary)
			continue
		}
		v.errorf(at, "is %s, the node address, but network.podCIDR and serviceCIDR are %s: the kubelet would register an address the cluster's network is not in; list an %s address first",
			family(a.Addr()), family(pod.Addr()), family(pod.Addr()))
	}
}

// patchSetsNodeMask says k0s.patch chooses the per-node range itself.
func (v *crossCheck) patchSetsNodeMask() bool {
	args := nestedMap(v.cfg.K0s.Patch, "spec", "controllerManager", "extraArgs")
	for _, k := range []string{"node-cidr-mask-size", "node-cidr-mask-size-ipv4", "node-cidr-mask-size-ipv6"} {
		if _, ok := args[k]; ok {
			return true
		}
	}
	return false
}

func nestedMap(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil
		}
		m = next
	}
	return m
}

func family(a netip.Addr) string {
	if a.Is4() || a.Is4In6() {
		return "IPv4"
	}
	return "IPv6"
}
