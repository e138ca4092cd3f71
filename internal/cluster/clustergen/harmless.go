package clustergen

import (
	"fmt"
	"math/rand/v2"
)

// change is one change that must add no error.
type change func(s *Set, r *rand.Rand) string

// Harmless are the changes that leave a set one cluster, by name: the
// order of peers, a keepalive more, a peer outside the set (its own key
// and an address no node has) that one node lists and nothing uses, and
// every node's mtu the most its underlay carries.
var Harmless = map[string]change{
	"reordered-peers": reorderPeers,
	"extra-keepalive": extraKeepalive,
	"unused-peer":     unusedPeer,
	"mtu-at-limit":    mtuAtLimit,
}

// Change returns a copy of s with the harmless change kind, and says what
// it did.
func Change(s *Set, kind string, r *rand.Rand) (*Set, string) {
	c := s.Clone()
	return c, Harmless[kind](c, r)
}

func reorderPeers(s *Set, r *rand.Rand) string {
	n := pick(r, s.Nodes)
	r.Shuffle(len(n.Peers), func(i, j int) { n.Peers[i], n.Peers[j] = n.Peers[j], n.Peers[i] })
	return n.Name + "'s peers reordered"
}

func extraKeepalive(s *Set, r *rand.Rand) string {
	n := pick(r, s.Nodes)
	j := r.IntN(len(n.Peers))
	n.Peers[j].Keepalive = 15 + r.IntN(20)
	return fmt.Sprintf("%s's entry for %s keeps alive every %ds", n.Name, n.Peers[j].Name, n.Peers[j].Keepalive)
}

func unusedPeer(s *Set, r *rand.Rand) string {
	n := pick(r, s.Nodes)
	k := key(r)
	n.Peers = append(n.Peers, &Peer{PublicKey: k.PublicKey().String(), AllowedIPs: []string{"10.50.0.240/32"}})
	return n.Name + " lists an unused peer outside the set"
}

func mtuAtLimit(s *Set, _ *rand.Rand) string {
	for _, n := range s.Nodes {
		n.MTU = routeMTU - overheadOf(s)
	}
	return fmt.Sprintf("every node states mtu %d", routeMTU-overheadOf(s))
}
