package schema

import "net/netip"

// EndpointKind says where packets to cluster.endpoint arrive.
type EndpointKind int

const (
	// EndpointNone: no endpoint is set.
	EndpointNone EndpointKind = iota
	// EndpointOverlay: an IP inside a wireguard address prefix of the
	// document, reached over the overlay.
	EndpointOverlay
	// EndpointUnderlay: an IP outside every one of them (an underlay
	// virtual IP, a load balancer's, the node's own LAN address).
	EndpointUnderlay
	// EndpointName: a DNS name, whose address is not known offline.
	EndpointName
)

// ClusterEndpoint classifies cluster.endpoint, with its address when it is
// an IP.
func ClusterEndpoint(cfg *Config) (EndpointKind, netip.Addr) {
	e := cfg.Cluster.Endpoint
	if e == "" {
		return EndpointNone, netip.Addr{}
	}
	addr, err := netip.ParseAddr(e)
	if err != nil || addr.Zone() != "" {
		return EndpointName, netip.Addr{}
	}
	addr = addr.Unmap()
	for _, wg := range cfg.WireGuard {
		for _, a := range wg.Address {
			if p, err := netip.ParsePrefix(a); err == nil && p.Masked().Contains(addr) {
				return EndpointOverlay, addr
			}
		}
	}
	return EndpointUnderlay, addr
}
