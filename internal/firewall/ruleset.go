package firewall

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/google/nftables"
	"github.com/google/nftables/binaryutil"
	"github.com/google/nftables/expr"
	"golang.org/x/sys/unix"
)

// The names the guard owns. Nothing outside this table is ever touched.
const (
	TableName = "corium"
	chainName = "input"
	setIfaces = "overlay_ifaces"
	setTCP    = "tcp_ports"
	setUDP    = "udp_ports"
	// markerPrefix starts the comment of the first rule; the rest is the hash
	// of the rendered rule set, so State can tell which render is loaded.
	markerPrefix = "corium-guard sha256="
)

// Comments on the rules, visible in `nft list table inet corium`.
const (
	commentForged  = "forged pod source"
	commentGuarded = "guarded cluster port"
	commentPod     = "pod network over its own link"
)

func table() *nftables.Table {
	return &nftables.Table{Name: TableName, Family: nftables.TableFamilyINet}
}

// ruleset is the guard as nftables objects: built purely from a Guard, handed
// to the kernel by Apply and compared with what the kernel holds by State.
type ruleset struct {
	table *nftables.Table
	chain *nftables.Chain
	sets  []setDef
	rules []rule // the chain's rules, in order
	hash  string
}

// rule is one rule of the chain and its comment.
type rule struct {
	exprs   []expr.Any
	comment string
}

type setDef struct {
	set   *nftables.Set
	elems []nftables.SetElement
}

func buildRuleset(g Guard) (*ruleset, error) {
	if err := g.check(); err != nil {
		return nil, err
	}
	t := table()
	rs := &ruleset{
		table: t,
		chain: &nftables.Chain{
			Name:     chainName,
			Table:    t,
			Type:     nftables.ChainTypeFilter,
			Hooknum:  nftables.ChainHookInput,
			Priority: nftables.ChainPriorityFilter,
			Policy:   policyRef(nftables.ChainPolicyAccept),
		},
	}
	// Host byte order is how nft itself declares an ifname key; without it
	// `nft list` prints the names as empty strings.
	ifaces := &nftables.Set{Table: t, Name: setIfaces, KeyType: nftables.TypeIFName, KeyByteOrder: binaryutil.NativeEndian}
	tcp := &nftables.Set{Table: t, Name: setTCP, KeyType: nftables.TypeInetService}
	udp := &nftables.Set{Table: t, Name: setUDP, KeyType: nftables.TypeInetService}
	var ifaceElems, tcpElems, udpElems []nftables.SetElement
	for _, name := range g.Interfaces {
		ifaceElems = append(ifaceElems, nftables.SetElement{Key: ifname(name)})
	}
	for _, p := range g.Ports {
		key := binaryutil.BigEndian.PutUint16(uint16(p.Number))
		if p.Proto == "tcp" {
			tcpElems = append(tcpElems, nftables.SetElement{Key: key})
		} else {
			udpElems = append(udpElems, nftables.SetElement{Key: key})
		}
	}
	rs.sets = []setDef{{ifaces, ifaceElems}, {tcp, tcpElems}, {udp, udpElems}}

	pod, err := netip.ParsePrefix(g.PodCIDR)
	if err != nil {
		return nil, fmt.Errorf("podCIDR: %w", err)
	}
	pod = pod.Masked()
	fromPod := podSource(pod)
	rs.rules = []rule{
		{concat([]expr.Any{
			&expr.Meta{Key: expr.MetaKeyIIFNAME, Register: 1},
			&expr.Lookup{SourceRegister: 1, SetName: setIfaces},
			&expr.Verdict{Kind: expr.VerdictAccept},
		}), ""}, // the marker, set below
		// fib saddr . iif oif != 0: a route back to the source leaves by the
		// link it came in on; a pod address arriving elsewhere is forged.
		{concat(fromPod, []expr.Any{
			&expr.Fib{Register: 1, FlagSADDR: true, FlagIIF: true, ResultOIF: true},
			&expr.Cmp{Op: expr.CmpOpNeq, Register: 1, Data: []byte{0, 0, 0, 0}},
			&expr.Verdict{Kind: expr.VerdictAccept},
		}), commentPod},
		{concat(fromPod, dport(unix.IPPROTO_TCP, setTCP), tcpSyn(), ctNew(), countedDrop()), commentForged},
		{concat(fromPod, dport(unix.IPPROTO_UDP, setUDP), ctNew(), countedDrop()), commentForged},
		{concat(dport(unix.IPPROTO_TCP, setTCP), tcpSyn(), ctNew(), countedDrop()), commentGuarded},
		{concat(dport(unix.IPPROTO_UDP, setUDP), ctNew(), countedDrop()), commentGuarded},
	}
	rs.hash = rs.describeHash()
	rs.rules[0].comment = markerPrefix + rs.hash
	return rs, nil
}

func podSource(pod netip.Prefix) []expr.Any {
	proto, offset := byte(unix.NFPROTO_IPV4), uint32(12) // ip saddr
	if pod.Addr().Is6() {
		proto, offset = unix.NFPROTO_IPV6, 8 // ip6 saddr
	}
	addr := pod.Addr().AsSlice()
	n := uint32(len(addr))
	out := []expr.Any{
		&expr.Meta{Key: expr.MetaKeyNFPROTO, Register: 1},
		&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: []byte{proto}},
		&expr.Payload{DestRegister: 1, Base: expr.PayloadBaseNetworkHeader, Offset: offset, Len: n},
	}
	if pod.Bits() < len(addr)*8 {
		out = append(out, &expr.Bitwise{
			SourceRegister: 1, DestRegister: 1, Len: n,
			Mask: prefixMask(pod.Bits(), len(addr)), Xor: make([]byte, n),
		})
	}
	return append(out, &expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: addr})
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

// tcpSyn matches a connection's opening segment (SYN without ACK). Conntrack
// alone is not enough: where nothing tracked a flow before the guard loaded,
// its next segment is picked up mid-stream as "new", and an open connection
// would be cut.
func tcpSyn() []expr.Any {
	return []expr.Any{
		&expr.Payload{DestRegister: 1, Base: expr.PayloadBaseTransportHeader, Offset: 13, Len: 1},
		&expr.Bitwise{SourceRegister: 1, DestRegister: 1, Len: 1, Mask: []byte{0x12}, Xor: []byte{0}},
		&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: []byte{0x02}},
	}
}

// ctNew matches only the first packet of a connection: a flow the guard let
// in (or that was open before it loaded) keeps going.
func ctNew() []expr.Any {
	return []expr.Any{
		&expr.Ct{Register: 1, Key: expr.CtKeySTATE},
		&expr.Bitwise{
			SourceRegister: 1, DestRegister: 1, Len: 4,
			Mask: binaryutil.NativeEndian.PutUint32(expr.CtStateBitNEW),
			Xor:  binaryutil.NativeEndian.PutUint32(0),
		},
		&expr.Cmp{Op: expr.CmpOpNeq, Register: 1, Data: []byte{0, 0, 0, 0}},
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

func ifname(name string) []byte {
	b := make([]byte, 16) // IFNAMSIZ, zero padded as the kernel compares it
	copy(b, name)
	return b
}

func policyRef(p nftables.ChainPolicy) *nftables.ChainPolicy { return &p }

// describeHash hashes the rendered rule set: the chain, the sets with their
// elements and every rule, in the normalised text form State compares. It is
// taken before the marker is set, so the marker does not hash itself.
func (rs *ruleset) describeHash() string {
	sum := sha256.Sum256([]byte(rs.describe()))
	return hex.EncodeToString(sum[:])
}

func (rs *ruleset) describe() string {
	var b strings.Builder
	fmt.Fprintln(&b, describeChain(rs.chain))
	for _, s := range rs.sets {
		fmt.Fprintln(&b, describeSet(s.set, s.elems))
	}
	for _, r := range rs.rules {
		fmt.Fprintf(&b, "%s comment %q\n", describeRule(r.exprs), r.comment)
	}
	return b.String()
}

func describeChain(c *nftables.Chain) string {
	var hook, prio, policy string
	if c.Hooknum != nil {
		hook = fmt.Sprint(*c.Hooknum)
	}
	if c.Priority != nil {
		prio = fmt.Sprint(*c.Priority)
	}
	if c.Policy != nil {
		policy = fmt.Sprint(*c.Policy)
	}
	return fmt.Sprintf("chain %s type %s hook %s priority %s policy %s", c.Name, c.Type, hook, prio, policy)
}

func describeSet(s *nftables.Set, elems []nftables.SetElement) string {
	keys := make([]string, 0, len(elems))
	for _, e := range elems {
		keys = append(keys, hex.EncodeToString(e.Key))
	}
	slices.Sort(keys) // the kernel lists elements in its own order
	return fmt.Sprintf("set %s type %s flags interval=%t constant=%t elements %s",
		s.Name, s.KeyType.Name, s.Interval, s.Constant, strings.Join(keys, ","))
}

// describeRule prints a rule's expressions with what the kernel adds or
// renumbers (counter values, set ids) left out, so a rule read back from the
// kernel prints exactly like the one that was rendered.
func describeRule(exprs []expr.Any) string {
	parts := make([]string, 0, len(exprs))
	for _, e := range exprs {
		switch v := e.(type) {
		case *expr.Counter:
			parts = append(parts, "counter")
		case *expr.Lookup:
			c := *v
			c.SetID = 0
			parts = append(parts, fmt.Sprintf("%T%+v", &c, c))
		default:
			parts = append(parts, fmt.Sprintf("%T%+v", e, e))
		}
	}
	return "rule " + strings.Join(parts, " ")
}
