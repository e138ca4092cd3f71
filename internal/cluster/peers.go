package cluster

import (
	"net/netip"
	"sort"
	"strings"
)

// match finds what each peer entry stands for. WireGuard knows a peer by
// its key; an operator writes the peer's addresses beside it. When both name
// an interface of the set they must name the same one; when the key names
// none, the addresses say which node was meant, and the key is checked
// against that node's when it is known.
func (c *check) match() {
	x := c.addressIndex()
	c.addrs = &x
	c.entries(func(e *entry) {
		if t := c.swapped[e]; t != nil {
			e.target = t // its key is swapped with another entry's (swap.go)
			return
		}
		if !e.keyOK {
			return // not a key, or a secret: reported already
		}
		for _, o := range c.owners[e.key] {
			if o.n == e.in.n {
				return // another interface of the same file: its own check
			}
			if e.byKey == nil {
				e.byKey = o
			}
		}
		e.byAddr = c.addrs.single(e)
		switch {
		case e.byKey != nil:
			e.target = e.byKey
			if e.byAddr != nil && e.byAddr != e.byKey {
				e.mismatched = true
				c.errorf(e.in.n, e.path().Field("publicKey").String(), []Place{e.byKey.n.at(e.byKey.path().String()), e.byAddr.n.at(e.byAddr.path().String())},
					"is the key of %s, but allowedIPs hold the address of %s: the key and the addresses name two different interfaces (keys swapped between entries?)", e.byKey, e.byAddr)
			}
		case e.byAddr != nil && e.byAddr.known:
			e.mismatched = true
			c.errorf(e.in.n, e.path().Field("publicKey").String(), []Place{e.byAddr.n.at(e.byAddr.path().String())},
				"is not the public key of %s, whose address allowedIPs hold: that interface answers only its own key; give its public key (wg pubkey)", e.byAddr)
		case e.byAddr != nil:
			e.target = e.byAddr
		case !c.partial:
			c.warnf(e.in.n, e.path().Field("publicKey").String(), nil,
				"no interface of the set has this key, and allowedIPs hold no address of the set: a peer outside the set, or a wrong key")
		}
	})
	c.ifaces(func(f *iface) {
		if f.wg.PrivateKey == nil && f.wg.PublicKey == "" {
			c.warnf(f.n, f.path().String(), nil, "states no publicKey and its private key is not inline, so the keys its peers list for it cannot be checked: add publicKey, the wg pubkey of its private key")
		}
	})
}

// addressIndex finds interfaces of the set by address.
type addressIndex struct {
	byAddr map[netip.Addr]*iface
	sorted []netip.Addr
}

func (c *check) addressIndex() addressIndex {
	x := addressIndex{byAddr: map[netip.Addr]*iface{}}
	c.ifaces(func(f *iface) {
		for _, p := range f.addrs {
			if _, dup := x.byAddr[p.Addr()]; !dup {
				x.byAddr[p.Addr()] = f
				x.sorted = append(x.sorted, p.Addr())
			}
		}
	})
	sort.Slice(x.sorted, func(i, j int) bool { return x.sorted[i].Less(x.sorted[j]) })
	return x
}

// single is the one interface of another file whose address e's allowedIPs
// hold; nil when they hold none, or several (a route through a hub).
func (x addressIndex) single(e *entry) *iface {
	var found *iface
	for _, p := range e.allowed {
		for _, a := range x.within(p) {
			if f := x.byAddr[a]; f.n != e.in.n {
				if found != nil && found != f {
					return nil
				}
				found = f
			}
		}
	}
	return found
}

// within are the indexed addresses p holds: one run of the sorted list.
func (x addressIndex) within(p netip.Prefix) []netip.Addr {
	i := sort.Search(len(x.sorted), func(i int) bool { return !x.sorted[i].Less(p.Addr()) })
	j := i
	for j < len(x.sorted) && p.Contains(x.sorted[j]) {
		j++
	}
	return x.sorted[i:j]
}

// intends is the interface an entry was meant for, by key or by address.
func (e *entry) intends() *iface {
	switch {
	case e.target != nil:
		return e.target
	case e.byKey != nil:
		return e.byKey
	}
	return e.byAddr
}

// reverse is target's entry for e's interface, nil when it has none: the
// first of target's entries that intends it.
func (e *entry) reverse() *entry {
	if e.target == nil {
		return nil
	}
	return e.target.entryFor(e.in)
}

// pairs: WireGuard answers only peers it knows, so a pair lists each other;
// and the two ends of one overlay share its network.
func (c *check) pairs() {
	c.entries(func(e *entry) {
		t := e.target
		if t == nil {
			return
		}
		r := e.reverse()
		if r == nil {
			c.errorf(e.in.n, e.path().Field("publicKey").String(), []Place{t.n.at(t.path().Field("peers").String())},
				"stands for %s, but %s has no peer for %s: it refuses this node's handshakes; add one there", t, t.n.File, e.in)
			c.fix(c.peerFix(t, e.in, e))
			return
		}
		if e.in.n.order < t.n.order && !shareNetwork(e.in.addrs, t.addrs) {
			c.warnf(t.n, t.path().Field("address").String(), []Place{e.in.n.at(e.in.path().Field("address").String())},
				"%s is on another network than its peer %s (%s): the nodes of one overlay belong on its network",
				prefixes(t.addrs), e.in, prefixes(e.in.addrs))
		}
	})
}

// shareNetwork says whether two interfaces' addresses are on one network in
// a family both have: one's network holds the other's address. Addresses
// without a network (/32, /128) route through allowedIPs alone and say
// nothing; an interface with no address that parses is its file's problem.
func shareNetwork(a, b []netip.Prefix) bool {
	common := false
	for _, pa := range a {
		for _, pb := range b {
			if pa.Addr().Is4() != pb.Addr().Is4() {
				continue
			}
			common = true
			if pa.IsSingleIP() && pb.IsSingleIP() || pa.Contains(pb.Addr()) || pb.Contains(pa.Addr()) {
				return true
			}
		}
	}
	return !common && (len(a) == 0 || len(b) == 0)
}

func prefixes(ps []netip.Prefix) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
}
