package cluster

import (
	"net/netip"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"
)

// Of two interfaces that share a key pair or an overlay address, the one
// at fault is the one whose value differs from what the other nodes
// expect of it: their peer entries name each interface by its addresses
// and its key, so the interface the entries list with the shared value is
// its owner, and the other took it. Where the entries do not tell, the
// later one in file order is named, as before.

// blameKey is, of later and earlier with one key pair k, the interface at
// fault and the other.
func (c *check) blameKey(later, earlier *iface, k wgtypes.Key) (*iface, *iface) {
	expects := func(x *iface) int {
		n := 0
		c.entries(func(e *entry) {
			if e.in.n != x.n && e.keyOK && e.key == k && holdsAnyOf(e, x.n) {
				n++
			}
		})
		return n
	}
	if expects(later) > expects(earlier) {
		return earlier, later
	}
	return later, earlier
}

// blameAddr is, of later and earlier with one overlay address a, the
// interface at fault and the other.
func (c *check) blameAddr(later, earlier *iface, a netip.Addr) (*iface, *iface) {
	expects := func(x *iface) int {
		if !x.known {
			return 0
		}
		n := 0
		c.entries(func(e *entry) {
			if e.in.n != x.n && e.keyOK && e.key == x.key && e.holds(a) {
				n++
			}
		})
		return n
	}
	if expects(later) > expects(earlier) {
		return earlier, later
	}
	return later, earlier
}

// addrIndex is the index of a among f's addresses.
func addrIndex(f *iface, a netip.Addr) int {
	for k, p := range f.addrs {
		if p.Addr() == a {
			return k
		}
	}
	return 0
}
