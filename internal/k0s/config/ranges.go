package config

// PodCIDRs are the pod ranges k0s hands the cluster, the primary family's
// first: spec.network.podCIDR alone in a single-stack cluster; with dual
// stack, dualStack.IPv6podCIDR beside it, in the order of BuildPodCIDR
// (k0s v1.36.3+k0s.0 pkg/apis/k0s/v1beta1/network.go:292-309). What
// follows the pod network (the guard's trusted sources, the pod
// masquerade, the cluster check) follows every range listed here.
// externalAddress is spec.api.externalAddress, which may decide the
// primary family (NodeFamilies).
func (n Network) PodCIDRs(externalAddress string) []string {
	return n.ranges(externalAddress, n.PodCIDR, n.IPv6PodCIDR)
}

// ServiceCIDRs are the service ranges, as PodCIDRs are the pod ranges
// (BuildServiceCIDR, network.go:273-290).
func (n Network) ServiceCIDRs(externalAddress string) []string {
	return n.ranges(externalAddress, n.ServiceCIDR, n.IPv6ServiceCIDR)
}

// ranges orders a range and its dual-stack IPv6 counterpart by the primary
// family. k0s requires the first to be IPv4 in dual stack (network.go:
// 162-169), so the IPv6 one leads exactly when IPv6 is primary.
func (n Network) ranges(externalAddress, first, ipv6 string) []string {
	if !n.DualStack {
		return []string{first}
	}
	if n.NodeFamilies(externalAddress)[0] == FamilyIPv6 {
		return []string{ipv6, first}
	}
	return []string{first, ipv6}
}
