package cluster

// presharedKeys: a preshared key is mixed into the handshake on both ends,
// so a pair has one on both sides or on neither, and the same one. Keys are
// compared, never shown.
func (c *check) presharedKeys() {
	c.entries(func(e *entry) {
		t := e.target
		r := e.reverse()
		if t == nil || r == nil || e.in.n.order > t.n.order {
			return // once per pair, from the earlier file
		}
		has := func(x *entry) bool { return x.p.PresharedKey != nil || x.p.PresharedKeyFrom != nil }
		switch {
		case has(e) && !has(r):
			c.errorf(e.in.n, e.path().Field("presharedKey").String(), []Place{t.n.at(r.path().String())},
				"is set here, but %s has no preshared key for %s: the handshake fails on both ends; give both the same key, or neither", t.n.File, e.in)
		case !has(e) && has(r):
			c.errorf(t.n, r.path().Field("presharedKey").String(), []Place{e.in.n.at(e.path().String())},
				"is set here, but %s has no preshared key for %s: the handshake fails on both ends; give both the same key, or neither", e.in.n.File, t)
		case e.p.PresharedKey != nil && r.p.PresharedKey != nil && e.p.PresharedKey.Reveal() != r.p.PresharedKey.Reveal():
			c.errorf(t.n, r.path().Field("presharedKey").String(), []Place{e.in.n.at(e.path().Field("presharedKey").String())},
				"differs from the one %s holds for %s: the handshake fails on both ends; give both the same key", e.in.n.File, t)
		}
	})
}
