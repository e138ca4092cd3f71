package cluster

import (
	"fmt"
	"strings"
)

// swaps: two entries of one interface, each holding the key of the node
// whose addresses the other's allowedIPs hold, had their keys swapped
// (pasted into the wrong lines). That one mistake is the finding, first,
// with the two keys to put back as its fix; each entry then stands for the
// node its addresses name, so that no other check reports what follows
// from it, nor prints a fix that makes it worse (the addresses of the
// key's node added to an entry that routes others: a route through a hub
// names several nodes, so its addresses alone never name one).
func (c *check) swaps() {
	c.ifaces(func(f *iface) {
		var odd []*entry // entries whose allowedIPs miss their key's node
		for _, e := range f.peers {
			if o := c.keyOwner(e); o != nil && !holdsAnyOf(e, o.n) {
				odd = append(odd, e)
			}
		}
		for i, a := range odd {
			for _, b := range odd[i+1:] {
				x, y := c.keyOwner(a), c.keyOwner(b)
				if x == y || c.swapped[a] != nil || c.swapped[b] != nil || !holdsAnyOf(a, y.n) || !holdsAnyOf(b, x.n) {
					continue
				}
				if c.swapped == nil {
					c.swapped = map[*entry]*iface{}
				}
				c.swapped[a], c.swapped[b] = y, x
				c.errorf(f.n, a.path().Field("publicKey").String(),
					[]Place{f.n.at(b.path().Field("publicKey").String()), x.n.at(x.path().String()), y.n.at(y.path().String())},
					"is the key of %s, but allowedIPs hold the address of %s, and %s the other way round (the key of %s, the address of %s): the two keys are swapped, so each node's handshakes and traffic go to the other, which answers only its own key; swap them back",
					x, y, b.path(), y.n.File, x.n.File)
				c.findings[len(c.findings)-1].cause = true
				if showsKey(x) && showsKey(y) {
					c.fix(swapFix(f, a, y, b, x))
				}
			}
		}
	})
}

// keyOwner is the interface of another file whose key e holds, nil when
// none, or when its own file has it (its own check).
func (c *check) keyOwner(e *entry) *iface {
	if !e.keyOK {
		return nil
	}
	var out *iface
	for _, o := range c.owners[e.key] {
		if o.n == e.in.n {
			return nil
		}
		if out == nil {
			out = o
		}
	}
	return out
}

// swapFix is each entry's key put back: a gets y's, b gets x's.
func swapFix(f *iface, a *entry, y *iface, b *entry, x *iface) string {
	var s strings.Builder
	for _, p := range []struct {
		e *entry
		t *iface
	}{{a, y}, {b, x}} {
		fmt.Fprintf(&s, "# %s of %s, for %s:\npublicKey: %s\n", p.e.path(), f.n.at("").File, p.t, p.t.key)
	}
	return s.String()
}
