package nft

import (
	"net/netip"

	"github.com/google/nftables/binaryutil"
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

// ipsDstNAT is conntrack's IPS_DST_NAT status bit: a NAT on this node
// rewrote the connection's destination.
const ipsDstNAT = 1 << 5

// endpointRedirectedRule accepts TCP on the endpoint's ports whose
// destination a NAT on this node rewrote, counted:
// `ct status & dnat != 0 tcp dport @endpoint_ports counter accept`.
// k0s's control-plane load balancer redirects the virtual IP's API port to
// its proxy (k0s v1.36.3+k0s.0 pkg/component/controller/cplb/cplb_linux.go:
// 438-447, -j REDIRECT --to-port 6444), and REDIRECT also rewrites the
// destination to the incoming interface's primary address: what reaches
// the input hook is addressed to the node, not to the virtual IP, and
// endpointRule alone drops it. (Matching conntrack's original destination
// would be narrower, but the nftables library cannot read such a rule
// back, and the guard is verified by reading it back.) No NAT on a node
// sends a connection to an endpoint port but k0s's redirect and what its
// operator adds.
func endpointRedirectedRule() []expr.Any {
	return concat(
		[]expr.Any{
			&expr.Ct{Register: 1, Key: expr.CtKeySTATUS},
			&expr.Bitwise{SourceRegister: 1, DestRegister: 1, Len: 4,
				Mask: binaryutil.NativeEndian.PutUint32(ipsDstNAT), Xor: make([]byte, 4)},
			&expr.Cmp{Op: expr.CmpOpNeq, Register: 1, Data: make([]byte, 4)},
		},
		dport(unix.IPPROTO_TCP, setEndpoint), []expr.Any{&expr.Counter{}}, accept())
}
