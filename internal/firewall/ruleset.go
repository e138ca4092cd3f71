package firewall

import (
	"fmt"
	"net/netip"

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
	commentPod     = "pod network on a CNI interface"
	commentTunnel  = "pod tunnel off the overlay"
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
	fromPod := podSource(pod.Masked())
	rs.rules = []rule{{concat([]expr.Any{
		&expr.Meta{Key: expr.MetaKeyIIFNAME, Register: 1},
		&expr.Lookup{SourceRegister: 1, SetName: setIfaces},
		&expr.Verdict{Kind: expr.VerdictAccept},
	}), ""}} // the marker, set below
	// What a tunnel carries comes out on a pod interface, where pod sources
	// are trusted: a tunnel packet is trusted only where the tunnel runs,
	// over the overlay. Conntrack plays no part: a blind sender on the
	// underlay could hit a tuple the real tunnel made "established".
	for _, name := range g.Tunnels {
		for _, m := range tunnelMatches[name] {
			rs.rules = append(rs.rules, rule{concat(nfproto(m.family), l4proto(m.proto), countedDrop()), commentTunnel})
		}
	}
	// A pod address is only believed on the links the CNI delivers pods on;
	// anywhere else it is forged, whatever route leads back to it.
	for _, name := range g.PodInterfaces {
		rs.rules = append(rs.rules, rule{concat(fromPod, iifname(name), accept()), commentPod})
	}
	rs.rules = append(rs.rules,
		rule{concat(fromPod, dport(unix.IPPROTO_TCP, setTCP), tcpSyn(), ctNew(), countedDrop()), commentForged},
		rule{concat(fromPod, dport(unix.IPPROTO_UDP, setUDP), countedDrop()), commentForged},
		rule{concat(dport(unix.IPPROTO_TCP, setTCP), tcpSyn(), ctNew(), countedDrop()), commentGuarded},
		// UDP has no handshake: a datagram on a tuple conntrack has seen is
		// as easy to forge as a new one, and calico's VXLAN, the one guarded
		// UDP port, only ever runs over the overlay.
		rule{concat(dport(unix.IPPROTO_UDP, setUDP), countedDrop()), commentGuarded},
	)
	rs.hash = rs.describeHash()
	rs.rules[0].comment = markerPrefix + rs.hash
	return rs, nil
}

// ifname is an interface name as the kernel compares it: IFNAMSIZ bytes,
// zero padded.
func ifname(name string) []byte {
	b := make([]byte, 16)
	copy(b, name)
	return b
}

func policyRef(p nftables.ChainPolicy) *nftables.ChainPolicy { return &p }
