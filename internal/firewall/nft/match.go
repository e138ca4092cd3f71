package nft

import (
	"net/netip"
	"strings"

	"github.com/google/nftables/expr"
	"golang.org/x/sys/unix"
)

func podSource(pod netip.Prefix) []expr.Any { return addrMatch(pod, srcAddr, expr.CmpOpEq) }

// addrField is which address of the network header a match reads.
type addrField bool

const (
	srcAddr addrField = false
	dstAddr addrField = true
)

// addrMatch matches the packet's source or destination address against p
// (op Eq: inside it, Neq: outside it), for packets of p's family only.
func addrMatch(p netip.Prefix, field addrField, op expr.CmpOp) []expr.Any {
	proto := byte(unix.NFPROTO_IPV4)
	if p.Addr().Is6() {
		proto = unix.NFPROTO_IPV6
	}
	return concat(nfproto(proto), addrCompare(p, field, op))
}

// addrCompare is addrMatch without the family check, for a rule that made
// it already.
func addrCompare(p netip.Prefix, field addrField, op expr.CmpOp) []expr.Any {
	offset := uint32(12) // ip saddr
	if p.Addr().Is6() {
		offset = 8 // ip6 saddr
	}
	addr := p.Addr().AsSlice()
	n := uint32(len(addr))
	if field == dstAddr {
		offset += n // ip daddr follows ip saddr, ip6 daddr ip6 saddr
	}
	out := []expr.Any{&expr.Payload{DestRegister: 1, Base: expr.PayloadBaseNetworkHeader, Offset: offset, Len: n}}
	if p.Bits() < len(addr)*8 {
		out = append(out, &expr.Bitwise{
			SourceRegister: 1, DestRegister: 1, Len: n,
			Mask: prefixMask(p.Bits(), len(addr)), Xor: make([]byte, n),
		})
	}
	return append(out, &expr.Cmp{Op: op, Register: 1, Data: addr})
}

func prefixMask(bits, size int) []byte {
	m := make([]byte, size)
	for i := range m {
		switch {
		case bits >= 8:
			m[i] = 0xff
			bits -= 8
		case bits > 0:
			m[i] = byte(0xff << (8 - bits))
			bits = 0
		}
	}
	return m
}

func dport(proto byte, set string) []expr.Any {
	return []expr.Any{
		&expr.Meta{Key: expr.MetaKeyL4PROTO, Register: 1},
		&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: []byte{proto}},
		&expr.Payload{DestRegister: 1, Base: expr.PayloadBaseTransportHeader, Offset: 2, Len: 2},
		&expr.Lookup{SourceRegister: 1, SetName: set},
	}
}

// tcpSyn matches a connection's opening segment (SYN without ACK), and
// conntrack plays no part. Every later segment carries ACK, so a flow
// already open keeps going, even one nothing tracked before the guard
// loaded; a connection the guard let in had its SYN accepted before any
// drop (on the overlay by the iifname rule, or by a pod or endpoint rule).
// Asking conntrack for "new" as well would only let SYNs through: one
// another table marks notrack (calico's DoNotTrack policies, an operator's
// raw-priority rules) is "untracked", and one on a tuple conntrack already
// holds is not "new".
func tcpSyn() []expr.Any {
	return []expr.Any{
		&expr.Payload{DestRegister: 1, Base: expr.PayloadBaseTransportHeader, Offset: 13, Len: 1},
		&expr.Bitwise{SourceRegister: 1, DestRegister: 1, Len: 1, Mask: []byte{0x12}, Xor: []byte{0}},
		&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: []byte{0x02}},
	}
}

func countedDrop() []expr.Any {
	return []expr.Any{&expr.Counter{}, &expr.Verdict{Kind: expr.VerdictDrop}}
}

func concat(parts ...[]expr.Any) []expr.Any {
	var out []expr.Any
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// oifnameIn matches the output interface's name against a set of names.
func oifnameIn(set string) []expr.Any {
	return []expr.Any{
		&expr.Meta{Key: expr.MetaKeyOIFNAME, Register: 1},
		&expr.Lookup{SourceRegister: 1, SetName: set},
	}
}

// iifname matches the input interface's name. A name ending in "*" is a
// prefix: the comparison covers only its bytes, which is how nft compiles
// iifname "cali*" and how `nft list` prints it back.
func iifname(name string) []expr.Any {
	data := ifname(name)
	if prefix, ok := strings.CutSuffix(name, "*"); ok {
		data = []byte(prefix)
	}
	return []expr.Any{
		&expr.Meta{Key: expr.MetaKeyIIFNAME, Register: 1},
		&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: data},
	}
}

func nfproto(family byte) []expr.Any {
	return []expr.Any{
		&expr.Meta{Key: expr.MetaKeyNFPROTO, Register: 1},
		&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: []byte{family}},
	}
}

// l4proto is the packet's protocol: IPv4's, or IPv6's last next header
// after the extension headers.
func l4proto(proto byte) []expr.Any {
	return []expr.Any{
		&expr.Meta{Key: expr.MetaKeyL4PROTO, Register: 1},
		&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: []byte{proto}},
	}
}

func accept() []expr.Any { return []expr.Any{&expr.Verdict{Kind: expr.VerdictAccept}} }
