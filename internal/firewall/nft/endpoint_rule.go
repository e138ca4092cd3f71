package nft

import (
	"net/netip"

	"github.com/google/nftables/expr"
	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/firewall"
)

// endpointRule accepts TCP to the endpoint's address on its ports, counted:
// `ip daddr ADDR tcp dport @endpoint_ports counter accept`.
func endpointRule(e *firewall.Endpoint) []expr.Any {
	addr := netip.MustParseAddr(e.Address)
	return concat(addrMatch(netip.PrefixFrom(addr, addr.BitLen()), dstAddr, expr.CmpOpEq),
		dport(unix.IPPROTO_TCP, setEndpoint), []expr.Any{&expr.Counter{}}, accept())
}
