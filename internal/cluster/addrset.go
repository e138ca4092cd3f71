package cluster

import (
	"net/netip"
	"slices"
)

// groups are what a node address carries between nodes: the pods' traffic
// (the CNI between kubelets), etcd's (between controllers). Two nodes must
// reach each other when they share a group.
type groups uint8

const (
	groupPods groups = 1 << iota
	groupEtcd
	groupsAll = groupPods | groupEtcd
)

// addrSet is a sorted set of node addresses with their groups, that counts
// the members of some groups inside a prefix by two binary searches, so
// reachability is counted per peer entry, never per pair of nodes.
type addrSet struct {
	addrs []netip.Addr
	// cum[g][i] counts the addresses of addrs[:i] in a group of g.
	cum [groupsAll + 1][]int
}

// newAddrSet sorts and dedupes addrs; groupOf names each one's groups.
func newAddrSet(addrs []netip.Addr, groupOf func(netip.Addr) groups) *addrSet {
	slices.SortFunc(addrs, netip.Addr.Compare)
	s := &addrSet{addrs: slices.Compact(addrs)}
	for g := range s.cum {
		s.cum[g] = make([]int, len(s.addrs)+1)
	}
	for i, a := range s.addrs {
		in := groupOf(a)
		for g := range s.cum {
			s.cum[g][i+1] = s.cum[g][i]
			if in&groups(g) != 0 {
				s.cum[g][i+1]++
			}
		}
	}
	return s
}

// count is how many addresses of p are in a group of g.
func (s *addrSet) count(p netip.Prefix, g groups) int {
	i, _ := slices.BinarySearchFunc(s.addrs, p.Addr(), netip.Addr.Compare)
	j := i
	if last, ok := lastAddr(p); ok {
		j, _ = slices.BinarySearchFunc(s.addrs, last, netip.Addr.Compare)
		if j < len(s.addrs) && s.addrs[j] == last {
			j++
		}
	}
	return s.cum[g][max(j, i)] - s.cum[g][i]
}

// has says whether a is in the set.
func (s *addrSet) has(a netip.Addr) bool {
	_, found := slices.BinarySearchFunc(s.addrs, a, netip.Addr.Compare)
	return found
}

// lastAddr is the highest address of a masked prefix.
func lastAddr(p netip.Prefix) (netip.Addr, bool) {
	if !p.IsValid() {
		return netip.Addr{}, false
	}
	b := p.Masked().Addr().AsSlice()
	for bit := p.Bits(); bit < len(b)*8; bit++ {
		b[bit/8] |= 0x80 >> (bit % 8)
	}
	a, ok := netip.AddrFromSlice(b)
	return a, ok
}
