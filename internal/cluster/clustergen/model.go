package clustergen

import (
	"fmt"
	"math/rand/v2"
	"net/netip"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"
)

// Set is one cluster: its nodes in file order.
type Set struct {
	Seed  uint64
	Nodes []*Node
	// Topology is full, hub or partial; Guarded, HA and Kine say which
	// variants the set has.
	Topology          string
	Guarded, HA, Kine bool
	// IPv6: the underlay is IPv6 only (the overlay stays IPv4).
	IPv6 bool
	// VIP is the controllers' virtual IP with HA.
	VIP netip.Prefix
	// Sites: the workers behind a 1:1 NAT dial each other at their
	// private addresses, and the set has a topology (sites.go).
	Sites bool
}

// Node is one node of a set.
type Node struct {
	Name string
	Role string // controller, controller+worker or worker
	// Join is where its join token comes from; "" for the first
	// controller, which starts the cluster.
	Join string
	// Underlay is the address the node's host has on eth0; Dialled is
	// whether peers dial it there (it listens), else it is behind NAT and
	// dials out only.
	Underlay netip.Prefix
	// Host is the address its host has, where a 1:1 NAT maps Underlay to
	// it; invalid when the host has Underlay itself.
	Host       netip.Prefix
	Dialled    bool
	ListenPort int
	Overlay    netip.Addr
	Private    wgtypes.Key
	// KeyFrom is inline, file or credential: where its private key is.
	KeyFrom    string
	Credential string // the key's credential name with KeyFrom credential
	MTU        int    // 0: unset
	Peers      []*Peer
	// ClusterPorts is open or overlay.
	ClusterPorts string
	// DataSource is where a kine controller reads its datasource from, as
	// the document's flow mapping ({credential: corium.kine}).
	DataSource string
	// VIP is the node's ha.virtualIP and Endpoint its cluster.endpoint,
	// as written; ClusterName its cluster.name.
	VIP          string
	Endpoint     string
	ClusterName  string
	PodCIDR      string // "": the default
	UnicastPeers []string
	// RouteMTU is its host's route MTU to every peer.
	RouteMTU int
}

// Peer is one peer entry.
type Peer struct {
	Name       string // the node it stands for, or "" for one outside the set
	PublicKey  string
	Endpoint   string
	AllowedIPs []string
	Keepalive  int
	// PresharedFrom is the entry's presharedKeyFrom, as a flow mapping.
	PresharedFrom string
}

// File is the node's document's file name.
func (n *Node) File() string { return n.Name + ".yaml" }

// IsController says whether the node runs a controller.
func (n *Node) IsController() bool { return n.Role != "worker" }

// key derives a private key from the seed's stream.
func key(r *rand.Rand) wgtypes.Key {
	var b [32]byte
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	b[0] &= 248
	b[31] = (b[31] & 127) | 64
	k, err := wgtypes.NewKey(b[:])
	if err != nil {
		panic(err)
	}
	return k
}

// node finds a node of the set by name.
func (s *Set) node(name string) *Node {
	for _, n := range s.Nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// peer is n's entry for the node named name, and its index; nil when none.
func (n *Node) peer(name string) (*Peer, int) {
	for j, p := range n.Peers {
		if p.Name == name {
			return p, j
		}
	}
	return nil, -1
}

// own is the address on the node's host.
func (n *Node) own() netip.Prefix {
	if n.Host.IsValid() {
		return n.Host
	}
	return n.Underlay
}

// endpoint is where peers dial n.
func (n *Node) endpoint() string {
	return netip.AddrPortFrom(n.Underlay.Addr(), uint16(n.ListenPort)).String()
}

func host(a netip.Addr) string {
	if a.Is4() {
		return a.String() + "/32"
	}
	return a.String() + "/128"
}

// Clone is a deep copy, for a mutation that leaves the original as it was.
func (s *Set) Clone() *Set {
	c := *s
	c.Nodes = make([]*Node, len(s.Nodes))
	for i, n := range s.Nodes {
		m := *n
		m.UnicastPeers = append([]string(nil), n.UnicastPeers...)
		m.Peers = make([]*Peer, len(n.Peers))
		for j, p := range n.Peers {
			q := *p
			q.AllowedIPs = append([]string(nil), p.AllowedIPs...)
			m.Peers[j] = &q
		}
		c.Nodes[i] = &m
	}
	return &c
}

func (s *Set) String() string {
	return fmt.Sprintf("seed %d: %d nodes, %s, guarded %t, ha %t, kine %t, ipv6 %t, sites %t", s.Seed, len(s.Nodes), s.Topology, s.Guarded, s.HA, s.Kine, s.IPv6, s.Sites)
}
