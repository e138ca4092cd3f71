package config

import (
	"net/netip"

	"github.com/corium/corium-agent/internal/finding"
)

// Encapsulation overheads the CNI adds to a pod's packet between nodes:
// its MTU over the overlay is the overlay's less this, so that a pod
// packet, once wrapped by the CNI and then by WireGuard, still fits.
const (
	ipipOverhead4 = 20
	// kube-router makes its IPv6 tunnels as ip6tnl links without the
	// "ignore encapsulation limit" flag (kube-router v2.10.0
	// pkg/tunnels/linux_tunnels.go:297 createIPIPTunnel, netlink.Ip6tnl
	// with no EncapLimit or Flags), so the kernel adds the 8-byte tunnel
	// encapsulation limit option to the 40-byte IPv6 header.
	ipipOverhead6  = 48
	vxlanOverhead4 = 50
	vxlanOverhead6 = 70
)

// EncapOverhead is what the provider's encapsulation between nodes takes
// off the overlay's MTU (kube-router's IP-in-IP, calico's VXLAN), with the
// encapsulation's name; ok is false for a provider whose encapsulation the
// agent does not set (custom). ipv6 is whether pods' packets travel in
// IPv6 tunnels: the CNI takes one MTU for both families, so it must fit
// the larger overhead.
func EncapOverhead(provider string, ipv6 bool) (overhead int, encap string, ok bool) {
	switch provider {
	case ProviderKubeRouter:
		if ipv6 {
			return ipipOverhead6, "IPv6-in-IPv6 (ip6tnl)", true
		}
		return ipipOverhead4, "IP-in-IP", true
	case ProviderCalico:
		if ipv6 {
			return vxlanOverhead6, "VXLAN over IPv6", true
		}
		return vxlanOverhead4, "VXLAN", true
	}
	return 0, "", false
}

// IPv6Pods says the cluster gives pods IPv6 addresses (an IPv6 pod range,
// or dual stack). Their packets to other nodes travel in the CNI's IPv6
// tunnels whatever the node address's family.
func (n Network) IPv6Pods() bool {
	return n.DualStack || isIPv6Prefix(n.PodCIDR)
}

// CNIMTU is the CNI's MTU a ClusterConfig sets: Path is the dotted field
// (spec.network.calico.mtu, spec.network.kuberouter.mtu), MTU its value.
type CNIMTU struct {
	Path string
	MTU  int
}

// SetCNIMTU reads the MTU doc sets for provider's pods over the overlay,
// when it sets one k0s passes on: calico's mtu (pkg/apis/k0s/v1beta1/
// calico.go:31-33), and kube-router's unless autoMTU is true, which makes
// k0s ignore it (kuberouter.go:13-18, IsAutoMTU at 61-63; over the overlay
// the agent renders autoMTU false, so doc, which may not hold the node's
// part, leaves it unset). ok is false when it sets none, 0 (k0s's own
// default then), or a value that is not a number (which k0s refuses).
func SetCNIMTU(doc map[string]any, provider string) (CNIMTU, bool) {
	r := &reader{doc: doc}
	var path finding.Path
	switch provider {
	case ProviderCalico:
		path = networkPath.Field("calico").Field("mtu")
	case ProviderKubeRouter:
		kr := networkPath.Field("kuberouter")
		if auto, set := r.get(kr.Field("autoMTU")); set && auto != false {
			return CNIMTU{}, false
		}
		path = kr.Field("mtu")
	default:
		return CNIMTU{}, false
	}
	v, set := r.get(path)
	if !set {
		return CNIMTU{}, false
	}
	n, isInt := integer(v)
	if !isInt || n <= 0 {
		return CNIMTU{}, false
	}
	return CNIMTU{Path: path.String(), MTU: int(n)}, true
}

func isIPv6Prefix(s string) bool {
	p, err := netip.ParsePrefix(s)
	return err == nil && p.Addr().Is6() && !p.Addr().Is4In6()
}
