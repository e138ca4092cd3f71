package lab

import (
	"net"
	"net/netip"
	"testing"
	"time"
)

// primeTimeout is how long priming waits for one pair's handshake.
const primeTimeout = 2 * time.Second

// prime opens each tunnel of the lab one at a time, from the side that can
// dial, before the checks load them all at once. When two peers initiate
// at the same moment (every pair's check connects both ways at once), each
// consumes the other's initiation, which discards its own, and both wait
// out WireGuard's 5 s retry, again and again while the two stay in step: a
// real cluster converges on the retry's jitter, a check with a timeout may
// not. A tunnel that does not open here is left to the checks to find.
func (l *Lab) prime(t testing.TB) {
	t.Helper()
	if l.primed {
		return
	}
	for i, a := range l.Nodes {
		for _, b := range l.Nodes[i+1:] {
			switch {
			case hasPeer(a, b) && a.Doc.Peer(b.Node).Endpoint != "":
				a.primeTo(t, b)
			case hasPeer(b, a) && b.Doc.Peer(a.Node).Endpoint != "":
				b.primeTo(t, a)
			}
		}
	}
}

func hasPeer(a, b *LabNode) bool {
	for _, p := range a.Doc.Wireguard[0].Peers {
		if p.PublicKey == b.pubKey {
			return true
		}
	}
	return false
}

// primeTo opens ln's tunnel to b (shakesHands).
func (ln *LabNode) primeTo(t testing.TB, b *LabNode) {
	t.Helper()
	ln.shakesHands(b, primeTimeout)
}

// send sends one datagram from ln to b's overlay address (the discard
// port; what matters is that WireGuard must open the tunnel to carry it).
func (ln *LabNode) send(b *LabNode) {
	dst := netip.AddrPortFrom(b.OverlayAddr(), 9)
	_ = ln.NS.Do(func() error {
		c, err := net.Dial("udp", dst.String())
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.Write([]byte("lab"))
		return err
	})
}
