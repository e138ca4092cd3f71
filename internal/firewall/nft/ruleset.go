package nft

import (
	"errors"
	"net/netip"

	"github.com/google/nftables"
	"github.com/google/nftables/binaryutil"
	"github.com/google/nftables/expr"
	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/firewall"
)

// The names the guard owns. Nothing outside this table is ever touched.
const (
	TableName = "corium"
	chainName = "input"
	setIfaces = "overlay_ifaces"
	setTCP    = "tcp_ports"
	setUDP    = "udp_ports"
	// setEndpoint holds the ports admitted to the cluster endpoint.
	setEndpoint = "endpoint_ports"
	// markerPrefix starts the comment of the first rule; the rest is the hash
	// of the rendered rule set, so State can tell which render is loaded.
	// A table with the masquerade alone says so in its own marker, so that
	// `nft list` never shows a guard where there is none.
	markerPrefix           = "corium-guard sha256="
	markerPrefixMasquerade = "corium-masquerade sha256="
)

// Comments on the rules, visible in `nft list table inet corium`.
const (
	commentForged   = "forged pod source"
	commentGuarded  = "guarded cluster port"
	commentPod      = "pod network on a CNI interface"
	commentTunnel   = "pod tunnel off the overlay"
	commentEndpoint = "cluster endpoint"
)

func table() *nftables.Table {
	return &nftables.Table{Name: TableName, Family: nftables.TableFamilyINet}
}

// ruleset is the guard as nftables objects: built purely from a Guard, handed
// to the kernel by Apply and compared with what the kernel holds by State.
type ruleset struct {
	table  *nftables.Table
	chains []chainDef // the guard's input chain, the masquerade's, in order
	sets   []setDef
	hash   string
}

// chainDef is one chain and its rules, in order.
type chainDef struct {
	chain *nftables.Chain
	rules []rule
}

// rule is one rule of a chain and its comment.
type rule struct {
	exprs   []expr.Any
	comment string
}

type setDef struct {
	set   *nftables.Set
	elems []nftables.SetElement
}

// buildRuleset builds the table of a guard that has one (On or Masquerade).
// The first rule of the first chain carries the marker.
func buildRuleset(g firewall.Guard) (*ruleset, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	if !g.On && !g.Masquerade {
		return nil, errors.New("the guard is off and masquerades nothing, so it has no table")
	}
	pods := g.PodNetworks()
	t := table()
	rs := &ruleset{table: t}
	// Host byte order is how nft itself declares an ifname key; without it
	// `nft list` prints the names as empty strings.
	ifaces := &nftables.Set{Table: t, Name: setIfaces, KeyType: nftables.TypeIFName, KeyByteOrder: binaryutil.NativeEndian}
	var ifaceElems []nftables.SetElement
	for _, name := range g.Interfaces {
		ifaceElems = append(ifaceElems, nftables.SetElement{Key: ifname(name)})
	}
	rs.sets = []setDef{{ifaces, ifaceElems}}
	if g.On {
		rs.addGuard(g, pods)
	}
	if g.Masquerade {
		var rules []rule
		for _, pod := range pods {
			rules = append(rules, rule{masqueradeRule(pod), commentMasquerade})
		}
		rs.chains = append(rs.chains, chainDef{natChain(t), rules})
	}
	rs.hash = rs.describeHash()
	prefix := markerPrefix
	if !g.On {
		prefix = markerPrefixMasquerade
	}
	rs.chains[0].rules[0].comment = prefix + rs.hash
	return rs, nil
}

// addGuard adds the guard's sets and its input chain. pods are the pod
// ranges, one of each family in a dual-stack cluster: each is trusted on
// the pod interfaces and forged anywhere else, in its own family's rules.
func (rs *ruleset) addGuard(g firewall.Guard, pods []netip.Prefix) {
	t := rs.table
	tcp := &nftables.Set{Table: t, Name: setTCP, KeyType: nftables.TypeInetService}
	udp := &nftables.Set{Table: t, Name: setUDP, KeyType: nftables.TypeInetService}
	rs.sets = append(rs.sets, setDef{tcp, portElems(g.Ports, "tcp")}, setDef{udp, portElems(g.Ports, "udp")})

	rules := []rule{{concat([]expr.Any{
		&expr.Meta{Key: expr.MetaKeyIIFNAME, Register: 1},
		&expr.Lookup{SourceRegister: 1, SetName: setIfaces},
		&expr.Verdict{Kind: expr.VerdictAccept},
	}), ""}} // the marker, set by buildRuleset
	// What a tunnel carries comes out on a pod interface, where pod sources
	// are trusted: a tunnel packet is trusted only where the tunnel runs,
	// over the overlay. Conntrack plays no part: a blind sender on the
	// underlay could hit a tuple the real tunnel made "established".
	for _, name := range g.Tunnels {
		for _, m := range firewall.TunnelMatches[name] {
			rules = append(rules, rule{concat(nfproto(m.Family), l4proto(m.Proto), countedDrop()), commentTunnel})
		}
	}
	// A pod address is only believed on the links the CNI delivers pods on;
	// anywhere else it is forged, whatever route leads back to it.
	for _, pod := range pods {
		for _, name := range g.PodInterfaces {
			rules = append(rules, rule{concat(podSource(pod), iifname(name), accept()), commentPod})
		}
	}
	for _, pod := range pods {
		rules = append(rules,
			rule{concat(podSource(pod), dport(unix.IPPROTO_TCP, setTCP), tcpSyn(), countedDrop()), commentForged},
			rule{concat(podSource(pod), dport(unix.IPPROTO_UDP, setUDP), countedDrop()), commentForged},
		)
	}
	// After the forged sources: a pod address is no more believed on the
	// underlay for being sent to the endpoint.
	if e := g.Endpoint; e != nil {
		set := &nftables.Set{Table: t, Name: setEndpoint, KeyType: nftables.TypeInetService}
		rs.sets = append(rs.sets, setDef{set, portElems(e.Ports, "tcp")})
		rules = append(rules, rule{endpointRule(e), commentEndpoint}, rule{endpointRedirectedRule(), commentEndpoint})
	}
	rules = append(rules,
		rule{concat(dport(unix.IPPROTO_TCP, setTCP), tcpSyn(), countedDrop()), commentGuarded},
		// UDP has no handshake, so conntrack plays no part: a datagram on a
		// tuple conntrack has seen is as easy to forge as a new one, one
		// another table marks notrack is dropped like any other, and
		// calico's VXLAN, the one guarded UDP port, only ever runs over the
		// overlay.
		rule{concat(dport(unix.IPPROTO_UDP, setUDP), countedDrop()), commentGuarded},
	)
	rs.chains = append(rs.chains, chainDef{inputChain(t), rules})
}

func inputChain(t *nftables.Table) *nftables.Chain {
	return &nftables.Chain{
		Name:     chainName,
		Table:    t,
		Type:     nftables.ChainTypeFilter,
		Hooknum:  nftables.ChainHookInput,
		Priority: nftables.ChainPriorityFilter,
		Policy:   policyRef(nftables.ChainPolicyAccept),
	}
}

func portElems(ports []firewall.Port, proto string) []nftables.SetElement {
	var elems []nftables.SetElement
	for _, p := range ports {
		if p.Proto == proto {
			elems = append(elems, nftables.SetElement{Key: binaryutil.BigEndian.PutUint16(uint16(p.Number))})
		}
	}
	return elems
}

// ifname is an interface name as the kernel compares it: IFNAMSIZ bytes,
// zero padded.
func ifname(name string) []byte {
	b := make([]byte, 16)
	copy(b, name)
	return b
}

func policyRef(p nftables.ChainPolicy) *nftables.ChainPolicy { return &p }
