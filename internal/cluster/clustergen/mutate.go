package clustergen

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"slices"
)

// Mistake is what Mutate did, and where the cluster check must say so: a
// finding of Severity at File's Path.
type Mistake struct {
	Family   string
	What     string
	File     string
	Path     string
	Severity string // error, or warning where a rule is one by design
	// Names is a file the finding's message must name besides, where the
	// finding is made at the other end of the mistake (a pair reported
	// from the file that still lists the other).
	Names string
}

func (m Mistake) String() string {
	return fmt.Sprintf("%s (%s): want %s at %s %s", m.Family, m.What, m.Severity, m.File, m.Path)
}

// mutation applies one mistake of a family to s, or says it does not apply
// to this set (no HA, no listening worker, ...).
type mutation func(s *Set, r *rand.Rand) (Mistake, bool)

// Families are the families of mistakes Mutate knows, by name: those
// validate --cluster has always caught, and those it missed.
var Families = map[string]mutation{
	"endpoint-of-another-node":  endpointOfAnotherNode,
	"listen-port-changed":       listenPortChanged,
	"mtu-over-route":            mtuOverRoute,
	"vip-other-family":          vipOtherFamily,
	"vip-other-network":         vipOtherNetwork,
	"vip-in-allowed-ips":        vipInAllowedIPs,
	"one-node-open":             oneNodeOpen,
	"kine-datasource-elsewhere": kineElsewhere,
	"credential-not-delivered":  credentialNotDelivered,
	"cluster-name":              clusterName,
	"address-taken":             addressTaken,
	"allowed-ips-miss":          allowedIPsMiss,
	"keepalive-dropped":         keepaliveDropped,
	"second-founder":            secondFounder,
	"keys-swapped":              keysSwapped,
	"reverse-missing":           reverseMissing,
	"pod-range-routed":          podRangeRouted,
	"pod-cidr":                  podCIDR,
	"preshared-one-side":        presharedOneSide,
	"unicast-peer-missing":      unicastPeerMissing,
	"endpoint-is-vip":           endpointIsVIP,
	"nat-private-from-outside":  natPrivateFromOutside,
	"nat-address-wrong":         natAddressWrong,
}

// FamilyNames are Families' names, sorted.
func FamilyNames() []string {
	var out []string
	for k := range Families {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Mutate returns a copy of s with one mistake of family, chosen with r;
// false when the family does not apply to s.
func Mutate(s *Set, family string, r *rand.Rand) (*Set, Mistake, bool) {
	c := s.Clone()
	m, ok := Families[family](c, r)
	m.Family = family
	return c, m, ok
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func entryPath(j int, field string) string {
	return fmt.Sprintf("wireguard[0].peers[%d].%s", j, field)
}

// dialling are the entries of the set with an endpoint, as (node, index).
type at struct {
	n *Node
	j int
}

func (s *Set) dialling() []at {
	var out []at
	for _, n := range s.Nodes {
		for j, p := range n.Peers {
			if p.Endpoint != "" && p.Name != "" {
				out = append(out, at{n, j})
			}
		}
	}
	return out
}

// endpointOfAnotherNode: an entry dials its peer at a third node's
// address (copied from the wrong line of an inventory).
func endpointOfAnotherNode(s *Set, r *rand.Rand) (Mistake, bool) {
	es := s.dialling()
	if len(es) == 0 {
		return Mistake{}, false
	}
	e := pick(r, es)
	p := e.n.Peers[e.j]
	var others []*Node
	for _, o := range s.Nodes {
		if o.Dialled && o != e.n && o.Name != p.Name {
			others = append(others, o)
		}
	}
	if len(others) == 0 {
		return Mistake{}, false
	}
	o := pick(r, others)
	p.Endpoint = o.endpoint()
	return Mistake{What: fmt.Sprintf("%s dials %s at %s's address", e.n.Name, p.Name, o.Name), File: e.n.File(), Path: entryPath(e.j, "endpoint"), Severity: "error"}, true
}

// listenPortChanged: a node's listenPort changes, and every peer still
// dials the old one.
func listenPortChanged(s *Set, r *rand.Rand) (Mistake, bool) {
	ts := where(s.Nodes, func(n *Node) bool { return n.Dialled && s.dialledBy(n) > 0 })
	if len(ts) == 0 {
		return Mistake{}, false
	}
	t := pick(r, ts)
	// Behind a 1:1 NAT a port forward could explain it: a warning; not
	// where the set's topology says the NAT keeps ports (sites.go).
	sev := "error"
	if t.Host.IsValid() && !s.Sites {
		sev = "warning"
	}
	t.ListenPort = wgPort + 1
	return Mistake{What: t.Name + " listens on another port", File: t.File(), Path: "wireguard[0].listenPort", Severity: sev}, true
}

func (s *Set) dialledBy(t *Node) int {
	k := 0
	for _, n := range s.Nodes {
		if p, _ := n.peer(t.Name); p != nil && p.Endpoint != "" {
			k++
		}
	}
	return k
}

// mtuOverRoute: a node states an mtu its underlay cannot carry through
// WireGuard (1500 less 60 at most over IPv4, less 80 over IPv6).
func mtuOverRoute(s *Set, r *rand.Rand) (Mistake, bool) {
	n := pick(r, s.Nodes)
	n.MTU = routeMTU - overheadOf(s) + 20
	return Mistake{What: fmt.Sprintf("%s states mtu %d over a %d underlay", n.Name, n.MTU, routeMTU), File: n.File(), Path: "wireguard[0].mtu", Severity: "error"}, true
}

// overheadOf is what WireGuard takes of the set's underlay MTU.
func overheadOf(s *Set) int {
	if s.IPv6 {
		return 80
	}
	return 60
}

func (s *Set) carriers() []*Node {
	return where(s.Nodes, func(n *Node) bool { return n.VIP != "" })
}

// where are the nodes of ns that keep takes, in order.
func where(ns []*Node, keep func(*Node) bool) []*Node {
	var out []*Node
	for _, n := range ns {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

// setVIP gives every controller with ha the virtual IP v, and makes it
// their cluster.endpoint too, as an operator editing all of them does.
func (s *Set) setVIP(v netip.Prefix) {
	for _, n := range s.carriers() {
		n.VIP, n.Endpoint = v.String(), v.Addr().String()
	}
}

// vipOtherFamily: the virtual IP is of the other family than the
// controllers' network and unicast peers.
func vipOtherFamily(s *Set, _ *rand.Rand) (Mistake, bool) {
	cs := s.carriers()
	if len(cs) == 0 {
		return Mistake{}, false
	}
	v, what := netip.MustParsePrefix("2001:db8:a::100/64"), "the virtual IP is IPv6"
	if s.IPv6 {
		v, what = vip, "the virtual IP is IPv4"
	}
	s.setVIP(v)
	return Mistake{What: what, File: cs[0].File(), Path: "ha.virtualIP", Severity: "error"}, true
}

// vipOtherNetwork: the virtual IP is on site B's network, where workers
// are, while the controllers are at site A.
func vipOtherNetwork(s *Set, _ *rand.Rand) (Mistake, bool) {
	cs := s.carriers()
	if len(cs) == 0 {
		return Mistake{}, false
	}
	v := netip.PrefixFrom(addrIn(siteB, 100), 24)
	if s.IPv6 {
		v = v6Prefix(v)
	}
	s.setVIP(v)
	return Mistake{What: "the virtual IP is on site B's network", File: cs[0].File(), Path: "ha.virtualIP", Severity: "error"}, true
}

// vipInAllowedIPs: a node routes the virtual IP into its tunnel to the
// first controller.
func vipInAllowedIPs(s *Set, r *rand.Rand) (Mistake, bool) {
	cs := s.carriers()
	if len(cs) == 0 {
		return Mistake{}, false
	}
	var ns []*Node
	for _, n := range s.Nodes {
		if p, _ := n.peer(cs[0].Name); p != nil {
			ns = append(ns, n)
		}
	}
	n := pick(r, ns)
	p, j := n.peer(cs[0].Name)
	p.AllowedIPs = append(p.AllowedIPs, host(s.VIP.Addr()))
	// Where every controller sharing the virtual IP is n or cs[0], it works
	// after any failover, until a third shares it: a warning.
	sev := "warning"
	if slices.ContainsFunc(cs, func(c *Node) bool { return c != n && c != cs[0] }) {
		sev = "error"
	}
	return Mistake{What: n.Name + " routes the virtual IP to " + cs[0].Name, File: n.File(), Path: fmt.Sprintf("wireguard[0].peers[%d].allowedIPs[%d]", j, len(p.AllowedIPs)-1), Severity: sev}, true
}

// oneNodeOpen: one node of a guarded set is left open.
func oneNodeOpen(s *Set, r *rand.Rand) (Mistake, bool) {
	if !s.Guarded {
		return Mistake{}, false
	}
	n := pick(r, s.Nodes)
	n.ClusterPorts = "open"
	return Mistake{What: n.Name + " is left open", File: n.File(), Path: "firewall.clusterPorts", Severity: "error"}, true
}

// kineElsewhere: one kine controller reads its datasource from a file, the
// others from their credential.
func kineElsewhere(s *Set, r *rand.Rand) (Mistake, bool) {
	if !s.Kine {
		return Mistake{}, false
	}
	n := pick(r, where(s.Nodes[1:], func(n *Node) bool { return n.DataSource != "" }))
	n.DataSource = "{file: /etc/corium/kine-datasource}"
	return Mistake{What: n.Name + " reads kine's datasource from a file", File: n.File(), Path: "storage.dataSourceFrom", Severity: "warning"}, true
}

// credentialNotDelivered: a node's sealed key is named by its delivery
// name, which the unit never imports.
func credentialNotDelivered(s *Set, r *rand.Rand) (Mistake, bool) {
	ns := where(s.Nodes, func(n *Node) bool { return n.KeyFrom == "credential" })
	if len(ns) == 0 {
		return Mistake{}, false
	}
	n := pick(r, ns)
	n.Credential = "corium-sealed.wg0"
	return Mistake{What: n.Name + " names its sealed key by its delivery name", File: n.File(), Path: "wireguard[0].privateKeyFrom.credential", Severity: "warning"}, true
}

// clusterName: a later node has another cluster.name.
func clusterName(s *Set, r *rand.Rand) (Mistake, bool) {
	n := pick(r, s.Nodes[1:])
	n.ClusterName = "gen2"
	return Mistake{What: n.Name + " has another cluster.name", File: n.File(), Path: "cluster.name", Severity: "error"}, true
}

// addressTaken: a later node is given an earlier one's overlay address.
func addressTaken(s *Set, r *rand.Rand) (Mistake, bool) {
	i := 1 + r.IntN(len(s.Nodes)-1)
	n, o := s.Nodes[i], s.Nodes[r.IntN(i)]
	n.Overlay = o.Overlay
	// Its own document no longer routes that address to a peer (it would
	// be refused on its own): the mistake is between the documents.
	own := host(o.Overlay)
	var kept []*Peer
	for _, p := range n.Peers {
		p.AllowedIPs = slices.DeleteFunc(p.AllowedIPs, func(a string) bool { return a == own })
		if len(p.AllowedIPs) > 0 {
			kept = append(kept, p)
		}
	}
	n.Peers = kept
	return Mistake{What: n.Name + " has " + o.Name + "'s overlay address", File: n.File(), Path: "wireguard[0].address[0]", Severity: "error"}, true
}

// allowedIPsMiss: an entry holds a wrong address for its peer.
func allowedIPsMiss(s *Set, r *rand.Rand) (Mistake, bool) {
	// An entry for its peer alone: one that routes others through a hub
	// too then names one of those, which reads as a key for another node.
	var es []at
	for _, n := range s.Nodes {
		for j, p := range n.Peers {
			if len(p.AllowedIPs) == 1 {
				es = append(es, at{n, j})
			}
		}
	}
	e := pick(r, es)
	n, j := e.n, e.j
	n.Peers[j].AllowedIPs[0] = "10.50.0.250/32"
	return Mistake{What: n.Name + "'s entry for " + n.Peers[j].Name + " holds a wrong address", File: n.File(), Path: entryPath(j, "allowedIPs"), Severity: "error"}, true
}

// keepaliveDropped: a node behind NAT, which nobody can dial, drops a
// keepalive.
func keepaliveDropped(s *Set, r *rand.Rand) (Mistake, bool) {
	ns := where(s.Nodes, func(n *Node) bool { return !n.Dialled })
	if len(ns) == 0 {
		return Mistake{}, false
	}
	n := pick(r, ns)
	j := r.IntN(len(n.Peers))
	n.Peers[j].Keepalive = 0
	return Mistake{What: n.Name + " behind NAT drops a keepalive", File: n.File(), Path: entryPath(j, "persistentKeepalive"), Severity: "error"}, true
}

// secondFounder: a second controller loses its join token.
func secondFounder(s *Set, r *rand.Rand) (Mistake, bool) {
	cs := where(s.Nodes[1:], (*Node).IsController)
	if len(cs) == 0 {
		return Mistake{}, false
	}
	n := pick(r, cs)
	n.Join = ""
	return Mistake{What: n.Name + " has no join token", File: n.File(), Path: "join", Severity: "error"}, true
}

// directPairs are the entries of pairs that list each other with one
// address each, as (node, index).
func (s *Set) directPairs() []at {
	var out []at
	for _, n := range s.Nodes {
		for j, p := range n.Peers {
			if o := s.node(p.Name); o != nil && len(p.AllowedIPs) == 1 {
				if q, _ := o.peer(n.Name); q != nil && len(q.AllowedIPs) == 1 {
					out = append(out, at{n, j})
				}
			}
		}
	}
	return out
}

// keysSwapped: a node's two entries have each other's keys.
func keysSwapped(s *Set, r *rand.Rand) (Mistake, bool) {
	// Two entries for one peer each, so that each one's address says
	// which node it was meant for.
	var es [][2]at
	for _, n := range s.Nodes {
		for j, p := range n.Peers {
			for k := j + 1; k < len(n.Peers); k++ {
				if len(p.AllowedIPs) == 1 && len(n.Peers[k].AllowedIPs) == 1 {
					es = append(es, [2]at{{n, j}, {n, k}})
				}
			}
		}
	}
	if len(es) == 0 {
		return Mistake{}, false
	}
	e := pick(r, es)
	n, j, k := e[0].n, e[0].j, e[1].j
	n.Peers[j].PublicKey, n.Peers[k].PublicKey = n.Peers[k].PublicKey, n.Peers[j].PublicKey
	return Mistake{What: n.Name + " swaps the keys of two entries", File: n.File(), Path: entryPath(j, "publicKey"), Severity: "error"}, true
}

// reverseMissing: of a pair, one node drops its entry for the other, which
// still lists it: the finding is at the entry left, naming the node that
// dropped it.
func reverseMissing(s *Set, r *rand.Rand) (Mistake, bool) {
	ps := s.directPairs()
	if len(ps) == 0 {
		return Mistake{}, false
	}
	e := pick(r, ps)
	o := s.node(e.n.Peers[e.j].Name)
	_, k := o.peer(e.n.Name)
	o.Peers = slices.Delete(o.Peers, k, k+1)
	return Mistake{What: o.Name + " drops its entry for " + e.n.Name, File: e.n.File(), Path: entryPath(e.j, "publicKey"), Severity: "error", Names: o.File()}, true
}

// podRangeRouted: an entry routes the pod range to its peer.
func podRangeRouted(s *Set, r *rand.Rand) (Mistake, bool) {
	n := pick(r, s.Nodes)
	j := r.IntN(len(n.Peers))
	n.Peers[j].AllowedIPs = append(n.Peers[j].AllowedIPs, "10.244.0.0/16")
	return Mistake{What: n.Name + " routes the pod range to " + n.Peers[j].Name, File: n.File(), Path: fmt.Sprintf("wireguard[0].peers[%d].allowedIPs[%d]", j, len(n.Peers[j].AllowedIPs)-1), Severity: "error"}, true
}

// podCIDR: a later node has another pod range.
func podCIDR(s *Set, r *rand.Rand) (Mistake, bool) {
	n := pick(r, s.Nodes[1:])
	n.PodCIDR = "10.245.0.0/16"
	return Mistake{What: n.Name + " has another pod range", File: n.File(), Path: "network.podCIDR", Severity: "error"}, true
}

// presharedOneSide: one end of a pair adds a preshared key the other lacks.
func presharedOneSide(s *Set, r *rand.Rand) (Mistake, bool) {
	ps := s.directPairs()
	if len(ps) == 0 {
		return Mistake{}, false
	}
	e := pick(r, ps)
	e.n.Peers[e.j].PresharedFrom = "{file: /etc/corium/psk}"
	o := s.node(e.n.Peers[e.j].Name)
	return Mistake{What: e.n.Name + " sets a preshared key for " + o.Name + ", which has none", File: e.n.File(), Path: entryPath(e.j, "presharedKey"), Severity: "error", Names: o.File()}, true
}

// unicastPeerMissing: a controller's unicast list lacks another's address.
func unicastPeerMissing(s *Set, r *rand.Rand) (Mistake, bool) {
	cs := s.carriers()
	if len(cs) < 2 {
		return Mistake{}, false
	}
	n := pick(r, cs)
	var others []string
	for _, u := range n.UnicastPeers {
		if u != n.Underlay.Addr().String() {
			others = append(others, u)
		}
	}
	drop := pick(r, others)
	n.UnicastPeers = slices.DeleteFunc(n.UnicastPeers, func(u string) bool { return u == drop })
	return Mistake{What: n.Name + "'s unicast list lacks " + drop, File: n.File(), Path: "ha.unicastPeers", Severity: "error"}, true
}

// endpointIsVIP: a node dials the first controller at the virtual IP.
func endpointIsVIP(s *Set, r *rand.Rand) (Mistake, bool) {
	cs := s.carriers()
	if len(cs) == 0 {
		return Mistake{}, false
	}
	var es []at
	for _, e := range s.dialling() {
		if e.n.Peers[e.j].Name == cs[0].Name {
			es = append(es, e)
		}
	}
	if len(es) == 0 {
		return Mistake{}, false
	}
	e := pick(r, es)
	e.n.Peers[e.j].Endpoint = netip.AddrPortFrom(s.VIP.Addr(), wgPort).String()
	return Mistake{What: e.n.Name + " dials " + cs[0].Name + " at the virtual IP", File: e.n.File(), Path: entryPath(e.j, "endpoint"), Severity: "error"}, true
}
