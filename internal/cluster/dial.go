package cluster

import (
	"fmt"
	"net"
	"strconv"
)

// dial: WireGuard sends the first handshake only to an endpoint it knows,
// so of each pair one end must have the other's endpoint, at a port the
// other listens on.
func (c *check) dial() {
	c.entries(func(e *entry) {
		t := e.target
		if t == nil {
			return
		}
		c.endpointPort(e)
		r := e.reverse()
		if r == nil || e.in.n.order > t.n.order || canDial(e) || canDial(r) {
			return // reported once per pair, from the earlier file
		}
		c.errorf(e.in.n, e.path().String(), []Place{t.n.at(r.path().String())},
			"neither end can open the tunnel with %s: %s, and %s; give one end the other's endpoint, and the other a listenPort",
			t, why(e), why(r))
	})
}

// canDial says whether e's interface can send the first handshake to the
// interface e was meant for (an entry with a wrong key is reported as such;
// here it still says where it would dial).
func canDial(e *entry) bool {
	t := e.intends()
	return e.p.Endpoint != "" && t != nil && t.wg.ListenPort != nil
}

func why(e *entry) string {
	if e.p.Endpoint == "" {
		return fmt.Sprintf("%s has no endpoint for %s", e.in, e.intends())
	}
	return fmt.Sprintf("%s sets no listenPort for %s to dial", e.intends(), e.in)
}

// endpointPort: an endpoint's port is where the peer listens, unless a port
// forward stands between them, so a difference is a warning.
// Where the host facts show the endpoint is the peer's own address, no port
// forward can stand between them, and a difference is an error. An entry
// that dials another node's address (endpoint_owner.go), or a listenPort
// every dialer disagrees with (listenport.go), is reported there.
func (c *check) endpointPort(e *entry) {
	if e.p.Endpoint == "" || e.in.n.bad[e.path().Field("endpoint").String()] || e.elsewhere != nil || c.portReported[e.target] {
		return
	}
	_, port, err := net.SplitHostPort(e.p.Endpoint)
	if err != nil {
		return
	}
	t := e.target
	lp := t.wg.ListenPort
	if lp != nil && strconv.Itoa(*lp) == port {
		return // placed only for a finding: a place parses the file again (Node.Forget)
	}
	related := []Place{t.n.at(t.path().Field("listenPort").String())}
	switch {
	case lp == nil:
		c.warnf(e.in.n, e.path().Field("endpoint").String(), related, "dials port %s, but %s sets no listenPort, so it listens on a port chosen at random: set listenPort there", port, t)
	default:
		if ap, ok := e.dialsIP(); ok && ownAddrPort(t, ap) {
			c.errorf(e.in.n, e.path().Field("endpoint").String(), related, "dials port %s, but %s listens on %d, and the address is its host's own, so no port forward stands between them: use %d", port, t, *lp, *lp)
			return
		}
		c.warnf(e.in.n, e.path().Field("endpoint").String(), related, "dials port %s, but %s listens on %d: unless a port forward stands between them, use %d", port, t, *lp, *lp)
	}
}
