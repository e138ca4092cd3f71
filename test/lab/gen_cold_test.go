package lab

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// coldTimeout is how long a dialer's first handshake may take: the first
// initiation of a peer up and reachable is answered at once, but on a
// loaded machine one may be lost, and WireGuard sends the next after 5 s
// (REKEY_TIMEOUT) and up to a third of a second of jitter.
const coldTimeout = 6500 * time.Millisecond

// coldDials holds every tunnel a document dials to a node of the set to
// opening from its dialer alone, as at a cold start, when nothing comes
// the other way first (a worker's first connection to the API, before any
// controller knows it). The checks that follow connect both ways at once,
// and a tunnel's other end, dialling back, would mend a dialer's wrong
// endpoint by WireGuard's roaming; here each dialer first forgets its
// peer's session and learned endpoint (the entry removed and put back
// from its wg-quick file), then sends to the peer's overlay address and
// must shake hands with it.
//
// The pairs run at once, each pair's two directions one after the other:
// two ends initiating at the same moment would each drop their own
// handshake for the other's (prime_test.go).
func (l *Lab) coldDials(t testing.TB, v *Verdict) {
	t.Helper()
	var wg sync.WaitGroup
	for i, a := range l.Nodes {
		for _, b := range l.Nodes[i+1:] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, d := range [][2]*LabNode{{a, b}, {b, a}} {
					from, to := d[0], d[1]
					if !hasPeer(from, to) || from.Doc.Peer(to.Node).Endpoint == "" {
						continue
					}
					v.count()
					if from.hasShaken(to) { // else there is nothing to forget
						if err := from.forget(to); err != nil {
							v.fail("%s: cannot reset its entry for %s: %v", from.Name, to.Name, err)
							continue
						}
					}
					if !from.shakesHands(to, coldTimeout) {
						v.fail("%s: its tunnel to %s does not open from its side (endpoint %s)", from.Name, to.Name, from.Doc.Peer(to.Node).Endpoint)
					}
				}
			}()
		}
	}
	wg.Wait()
}

// forget removes ln's entry for b and puts it back from ln's wg-quick file:
// no session, no handshake, the endpoint as written.
func (ln *LabNode) forget(b *LabNode) error {
	out, err := ln.Exec("bash", "-c", `wg set wg0 peer "$1" remove && exec wg syncconf wg0 <(exec wg-quick strip "$2")`, "-", b.pubKey, ln.wgConf())
	if err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	return nil
}

// shakesHands sends one datagram from ln to b's overlay address and waits
// until ln has shaken hands with b.
func (ln *LabNode) shakesHands(b *LabNode, timeout time.Duration) bool {
	ln.send(b)
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if ln.hasShaken(b) {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// hasShaken says whether ln's wg0 has a handshake with b, asked of
// wireguard-go's control socket in the node's /run/wireguard (its
// cross-platform interface, which wg show reads too) without starting a
// process, so that many pairs can wait at once.
func (ln *LabNode) hasShaken(b *LabNode) bool {
	key, err := base64.StdEncoding.DecodeString(b.pubKey)
	if err != nil {
		return false
	}
	c, err := net.DialTimeout("unix", fmt.Sprintf("/proc/%d/root/run/wireguard/wg0.sock", ln.holder), time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("get=1\n\n")); err != nil {
		return false
	}
	sc := bufio.NewScanner(c)
	mine := false
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		switch k {
		case "":
			return false // the answer's end
		case "public_key":
			mine = v == hex.EncodeToString(key)
		case "last_handshake_time_sec":
			if mine && v != "0" {
				return true
			}
		}
	}
	return false
}
