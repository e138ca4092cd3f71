package lab

import (
	"fmt"
	"net/netip"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// Site is where a node sits on the underlay.
type Site int

const (
	// Open: on the shared underlay bridge, dialled at its own address.
	Open Site = iota
	// Masquerade: behind the router, which masquerades it; nobody can
	// dial it, it dials out (no listenPort, a keepalive to each peer).
	Masquerade
	// OneToOne: behind the router, which maps a public address of its own
	// to the node's private one both ways; dialled at the private address
	// from its own site and at the public one from the underlay.
	OneToOne
)

// Family is an address family of the underlay or the overlay.
type Family int

const (
	IPv4 Family = iota
	IPv6
)

// Node is one node of a scenario, as the test describes it; Build turns
// it into the document the agent is given.
type Node struct {
	Name string
	Role string // single, controller, controller+worker, worker
	Site Site
	// Hub: the spokes (every other node, when a scenario has a hub) peer
	// with it alone and reach each other through it.
	Hub bool
	// ClusterPorts is the document's firewall.clusterPorts ("overlay"
	// when empty); PublicPorts its firewall.publicPorts.
	ClusterPorts string
	PublicPorts  []int
	// NoNodeAddress leaves nodeAddress off the wireguard interface.
	NoNodeAddress bool
	// NoSysctls leaves the image's sysctls off the node's namespace.
	NoSysctls bool
	// NoGuard leaves the rendered guard unloaded.
	NoGuard bool
	// Files are written under the node's root (path: content, mode 0600)
	// before each apply: what a SecretSource of its document reads there.
	Files map[string]string

	ha bool // a controller of a scenario with a VIP
	// gen places a node of a generated set (gen_lab_test.go) on its
	// site's link instead of the scenario's.
	gen     *genPlace
	kine    bool // a controller whose storage is kine, not etcd
	index   int  // 1-based, the last byte of the node's addresses
	key     string
	pubKey  string
	Doc     *Doc
	overlay []netip.Prefix
}

// Scenario is a set of nodes and the families of the two networks.
type Scenario struct {
	Nodes    []*Node
	Underlay Family
	Overlay  Family
	// VIP, when set, is the controllers' virtual IP on the underlay
	// (ha_test.go).
	VIP netip.Prefix
	// outside are the public keys of peers a generated set lists that are
	// no node of it (clustergen's unused peer): nothing shakes hands with
	// them.
	outside map[string]bool
	// vipOnLast puts the virtual IP on the last controller with ha, not
	// the first: the state after keepalived moved it, where a set that
	// works only while the first holds it fails.
	vipOnLast bool
}

// Node returns the scenario's node by name.
func (s *Scenario) Node(name string) *Node {
	for _, n := range s.Nodes {
		if n.Name == name {
			return n
		}
	}
	panic("lab: no node " + name)
}

// The lab's addresses, all from ranges reserved for documentation (RFC
// 5737, RFC 3849) on the underlay and private ranges on the overlay, clear
// of k0s's default pod (10.244.0.0/16) and service (10.96.0.0/12) ranges.
const (
	listenPort = 51820
	keepalive  = 5
)

var (
	routerOpen4   = netip.MustParseAddr("192.0.2.1")
	routerLAN4    = netip.MustParseAddr("198.51.100.1")
	attacker4     = netip.MustParseAddr("192.0.2.250")
	attacker6     = netip.MustParseAddr("2001:db8::250")
	openPrefixLen = 24
)

// underlayAddr is the node's address on its own link: the shared bridge
// for an open node, the router's LAN behind it.
func (n *Node) underlayAddr(f Family) netip.Addr {
	switch {
	case n.gen != nil:
		return n.gen.own.Addr()
	case n.Site != Open:
		return netip.AddrFrom4([4]byte{198, 51, 100, byte(10 + n.index)})
	case f == IPv6:
		return netip.MustParseAddr(fmt.Sprintf("2001:db8::%d", 10+n.index))
	default:
		return netip.AddrFrom4([4]byte{192, 0, 2, byte(10 + n.index)})
	}
}

// publicAddr is the router's address mapped to a 1:1-NAT node.
func (n *Node) publicAddr() netip.Addr {
	if n.gen != nil {
		return n.gen.public
	}
	return netip.AddrFrom4([4]byte{192, 0, 2, byte(100 + n.index)})
}

// overlayPrefix is the node's wireguard address with the overlay's prefix.
func overlayPrefix(f Family, index int) netip.Prefix {
	if f == IPv6 {
		return netip.PrefixFrom(netip.MustParseAddr(fmt.Sprintf("fd10::%d", index)), 64)
	}
	return netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 10, 0, byte(index)}), 24)
}

// OverlayAddr is the node's address on the overlay.
func (n *Node) OverlayAddr() netip.Addr { return n.overlay[0].Addr() }

func (n *Node) controller() bool { return n.Role != "worker" }
func (n *Node) kubelet() bool    { return n.Role != "controller" }

// endpointFor is where from dials n, or nothing when from cannot.
func (n *Node) endpointFor(from *Node, f Family) (netip.AddrPort, bool) {
	switch {
	case n.Site == Masquerade:
		return netip.AddrPort{}, false
	case n.Site == OneToOne && from.Site == Open:
		return netip.AddrPortFrom(n.publicAddr(), listenPort), true
	}
	return netip.AddrPortFrom(n.underlayAddr(f), listenPort), true
}

// Build gives each node its index, keys and overlay address, and writes
// its document: a full mesh, or a hub and its spokes when one node is a
// hub. Calling it again (day two, a node added) keeps the keys and
// addresses already drawn.
func Build(t testing.TB, s *Scenario) {
	t.Helper()
	var hub *Node
	for i, n := range s.Nodes {
		if n.index == 0 {
			n.index = i + 1
			k := fixture.GenKey(t)
			n.key, n.pubKey = k.String(), k.PublicKey().String()
			n.overlay = []netip.Prefix{overlayPrefix(s.Overlay, n.index)}
		}
		if n.Hub {
			hub = n
		}
		n.ha = s.VIP.IsValid() && n.controller()
	}
	firstController := true
	for _, n := range s.Nodes {
		d := &Doc{Role: n.Role, Node: DocNode{Name: n.Name}}
		if s.Overlay == IPv6 {
			// A single-stack IPv6 cluster: the node address registered is
			// the overlay's, so the cluster's ranges are IPv6 too (the
			// pod range at most 16 bits wider than k0s's /117 per node,
			// the service range a /108).
			d.Network = &DocNetwork{PodCIDR: "fd00:244::/104", ServiceCIDR: "fd00:96::/108"}
		}
		switch {
		case n.Role == "worker":
			d.Join = &DocJoin{Token: fixture.JoinToken("")}
		case firstController:
			firstController = false
		default:
			d.Join = &DocJoin{Token: fixture.ControllerJoinToken("")}
		}
		wg := DocWireguard{
			Name:        "wg0",
			Address:     prefixStrings(n.overlay),
			NodeAddress: !n.NoNodeAddress,
			PrivateKey:  n.key,
		}
		if n.Site != Masquerade {
			wg.ListenPort = listenPort
		}
		for _, p := range s.Nodes {
			if p == n || (hub != nil && n != hub && p != hub) {
				continue
			}
			peer := DocPeer{PublicKey: p.pubKey, AllowedIPs: hostPrefixes(p.overlay)}
			if hub != nil && p == hub {
				// A spoke reaches the whole overlay through its hub.
				peer.AllowedIPs = prefixStrings(masked(n.overlay))
			}
			if ep, ok := p.endpointFor(n, s.Underlay); ok {
				peer.Endpoint = ep.String()
			} else if _, back := n.endpointFor(p, s.Underlay); !back {
				continue // neither can dial the other
			}
			if n.Site == Masquerade {
				peer.PersistentKeepalive = keepalive
			}
			wg.Peers = append(wg.Peers, peer)
		}
		d.Wireguard = []DocWireguard{wg}
		d.Firewall = DocFirewall{ClusterPorts: n.ClusterPorts, PublicPorts: n.PublicPorts}
		if d.Firewall.ClusterPorts == "" {
			d.Firewall.ClusterPorts = "overlay"
		}
		haDoc(s, n, d)
		n.Doc = d
	}
}

func prefixStrings(ps []netip.Prefix) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

func hostPrefixes(ps []netip.Prefix) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = netip.PrefixFrom(p.Addr(), p.Addr().BitLen()).String()
	}
	return out
}

func masked(ps []netip.Prefix) []netip.Prefix {
	out := make([]netip.Prefix, len(ps))
	for i, p := range ps {
		out[i] = p.Masked()
	}
	return out
}
