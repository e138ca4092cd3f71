package cluster

import (
	"net/netip"
	"testing"
)

// A route is followed peer by peer: through two hubs it arrives, and it
// stops where a hub holds the address in no entry, or sends it back.
func TestStopFollowsTheRoute(t *testing.T) {
	a := netip.MustParseAddr("10.0.0.4")
	all := netip.MustParsePrefix("10.0.0.0/24")
	spoke, hub1, hub2, far := &iface{}, &iface{}, &iface{}, &iface{}
	link := func(from, to *iface, allowed netip.Prefix) *entry {
		e := &entry{in: from, target: to, allowed: []netip.Prefix{allowed}}
		from.peers = append(from.peers, e)
		return e
	}
	first := link(spoke, hub1, all)
	link(hub1, hub2, all)
	link(hub2, far, netip.PrefixFrom(a, 32))
	if end, _ := stop(first, a, far); end != nil {
		t.Errorf("the route through two hubs stops at %p", end)
	}
	if end, loops := stop(first, netip.MustParseAddr("10.0.0.9"), far); end != hub2 || loops {
		t.Errorf("an address the last hub holds in no entry: stop = %p, %v; want hub2", end, loops)
	}
	link(hub2, hub1, netip.MustParsePrefix("10.0.0.8/29"))
	if end, loops := stop(first, netip.MustParseAddr("10.0.0.9"), far); end != hub1 || !loops {
		t.Errorf("a route that comes back: stop = %p, %v; want hub1, looping", end, loops)
	}
}

// An address repeated in an entry's allowedIPs counts once.
func TestDistinctDropsHeldPrefixes(t *testing.T) {
	var ps []netip.Prefix
	for _, s := range []string{"10.0.0.4/32", "10.0.0.0/24", "10.0.1.0/24", "10.0.0.0/24", "10.0.1.7/32", "fd00::/64", "10.0.2.1/32"} {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	got := distinct(ps)
	want := []string{"10.0.0.0/24", "10.0.1.0/24", "10.0.2.1/32", "fd00::/64"}
	if len(got) != len(want) {
		t.Fatalf("distinct = %v, want %v", got, want)
	}
	for i, p := range got {
		if p.String() != want[i] {
			t.Errorf("distinct = %v, want %v", got, want)
		}
	}
}
