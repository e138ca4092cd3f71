package lab

import (
	"net"
	"net/netip"
	"strings"
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

// primeTo sends one datagram from ln to b's overlay address (the discard
// port; what matters is that WireGuard must open the tunnel to carry it)
// and waits until ln has shaken hands with b.
func (ln *LabNode) primeTo(t testing.TB, b *LabNode) {
	t.Helper()
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
	deadline := time.Now().Add(primeTimeout)
	for time.Now().Before(deadline) {
		out, _ := ln.Exec("wg", "show", "wg0", "latest-handshakes")
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == b.pubKey && f[1] != "0" {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}
