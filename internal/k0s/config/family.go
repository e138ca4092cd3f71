package config

import (
	"net"
	"net/netip"
)

// The address families as k0s names them (k0s v1.36.3+k0s.0
// pkg/apis/k0s/v1beta1/network.go:63-69, PrimaryAddressFamilyType).
const (
	FamilyIPv4 = "IPv4"
	FamilyIPv6 = "IPv6"
)

// NodeFamilies are the address families the node registers addresses of,
// the primary first: one in a single-stack cluster, both in a dual-stack one.
// externalAddress is spec.api.externalAddress (cluster.endpoint).
//
// Single stack: the service range's family. kube-apiserver refuses to start
// when its advertise address, which k0s sets to spec.api.address
// (pkg/component/controller/apiserver.go:95), is not of the family of the
// service range (Kubernetes v1.36.3 cmd/kube-apiserver/app/options/
// validation.go, validatePublicIPServiceClusterIPRangeIPFamilies: "service IP
// family %q must match public address family %q").
//
// Dual stack: k0s's primary family first, the order it gives the service
// and pod ranges (network.go:273-309, BuildServiceCIDR puts the primary
// family's range first, and that is the range kube-apiserver holds the
// advertise address to) and the kubelet's --node-ip
// (pkg/component/worker/kubelet.go:117-137). The primary family is
// spec.network.primaryAddressFamily, else the family of the external
// address when it is an IP literal, else the API address's
// (pkg/apis/k0s/v1beta1/clusterconfig_types.go:562-580, ClusterSpec.
// PrimaryAddressFamily). The API address is the node address the agent
// picks from these families, so without the first two it is IPv4, k0s's
// own default, and k0s then reads IPv4 back from the address.
func (n Network) NodeFamilies(externalAddress string) []string {
	if !n.DualStack {
		if p, err := netip.ParsePrefix(n.ServiceCIDR); err == nil && p.Addr().Is6() && !p.Addr().Is4In6() {
			return []string{FamilyIPv6}
		}
		return []string{FamilyIPv4}
	}
	primary := n.PrimaryAddressFamily
	if primary == "" {
		primary = FamilyIPv4
		if a, err := netip.ParseAddr(externalHost(externalAddress)); err == nil && a.Is6() && !a.Is4In6() {
			primary = FamilyIPv6
		}
	}
	if primary == FamilyIPv6 {
		return []string{FamilyIPv6, FamilyIPv4}
	}
	return []string{FamilyIPv4, FamilyIPv6}
}

// FamilyOf is an address's family as k0s names it.
func FamilyOf(a netip.Addr) string {
	if a.Is6() && !a.Is4In6() {
		return FamilyIPv6
	}
	return FamilyIPv4
}

// externalHost is the host of an external address that may carry a port
// (pkg/apis/k0s/v1beta1/api.go:96-104, APISpec.ExternalHost).
func externalHost(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
		return host
	}
	return addr
}
