package cluster

// keepalives: a peer that cannot dial an interface reaches it only through
// the address its handshakes come from, and behind a NAT or a stateful
// firewall that mapping expires after a minute or two of silence; after
// that nothing the peer sends gets through until the interface sends
// again. WireGuard sends nothing unasked, so an interface nobody dials keeps
// each tunnel open with persistentKeepalive. Without a listenPort nobody
// can dial it (it listens on a random port): an error. With one, a peer of
// the set that has no endpoint for it waits to be dialled: a warning, since
// a node outside any NAT keeps the address the peer learnt.
func (c *check) keepalives() {
	c.entries(func(e *entry) {
		if e.p.Endpoint == "" || e.p.PersistentKeepalive != nil && *e.p.PersistentKeepalive > 0 {
			return // it does not dial, or keeps the tunnel open
		}
		peer := "its peer"
		if t := e.intends(); t != nil {
			peer = t.String()
		}
		path := e.path().Field("persistentKeepalive").String()
		if e.in.wg.ListenPort == nil {
			c.errorf(e.in.n, path, nil,
				"is not set, and nothing can dial %s, which sets no listenPort: %s reaches it only through the mapping a NAT or firewall in front of it keeps of its last packet, which lapses after a minute or two of silence, and then not until it sends again; set persistentKeepalive: 25",
				e.in, peer)
			return
		}
		if r := e.reverse(); r != nil && r.p.Endpoint == "" {
			c.warnf(e.in.n, path, []Place{r.in.n.at(r.path().String())},
				"is not set, and %s has no endpoint for %s: it reaches this node only at the address its handshakes come from, which a NAT or firewall in front of this node forgets after a minute or two of silence; set persistentKeepalive: 25, or give %s this node's endpoint",
				peer, e.in, r.in.n.File)
		}
	})
}
