package lab

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/wgquick"
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
					// Even without a handshake: a node with a keepalive sent
					// its first initiation as wg-quick brought wg0 up, while
					// the nodes it dials were still coming up, and the dial
					// would wait for that initiation's retry (seed 1237's
					// dial-only workers: 4.5 s for each of their dials).
					if err := from.forget(to); err != nil {
						v.fail("%s: cannot reset its entry for %s: %v", from.Name, to.Name, err)
						continue
					}
					start := time.Now()
					if !from.shakesHands(to, coldTimeout) {
						v.fail("%s: its tunnel to %s does not open from its side (endpoint %s)", from.Name, to.Name, from.Doc.Peer(to.Node).Endpoint)
					} else if took := time.Since(start); took > time.Second {
						t.Logf("cold dial %s -> %s took %v (an initiation lost, WireGuard's retry)", from.Name, to.Name, took.Round(time.Millisecond))
					}
				}
			}()
		}
	}
	wg.Wait()
}

// forget removes ln's entry for b and puts that entry alone back from ln's
// wg-quick file: no session, no handshake, the endpoint as written. Only
// that entry, with `wg addconf` as the agent adds a peer: `wg syncconf`
// would set the whole device again, and wireguard-go closes and reopens
// its UDP socket whenever listen_port is set (device/uapi.go, BindUpdate),
// so each other pair dialling this node at that moment lost the
// handshake packet in flight and waited out the 5 s retry, and one that
// lost two did not open (seed 1248, in two soaks).
func (ln *LabNode) forget(b *LabNode) error {
	data, err := os.ReadFile(ln.wgConf())
	if err != nil {
		return err
	}
	f, err := wgquick.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %w", ln.wgConf(), err)
	}
	i := slices.IndexFunc(f.Peers, func(p wgquick.Peer) bool { return p.PublicKey.String() == b.pubKey })
	if i < 0 {
		return fmt.Errorf("%s has no [Peer] for %s", ln.wgConf(), b.Name)
	}
	peer := filepath.Join(ln.dir, "forget-"+b.Name+".conf")
	if err := os.WriteFile(peer, wgquick.MarshalPeers(f.Peers[i:i+1], ""), 0o600); err != nil {
		return err
	}
	defer os.Remove(peer)
	out, err := ln.Exec("bash", "-c", `wg set wg0 peer "$1" remove && exec wg addconf wg0 "$2"`, "-", b.pubKey, peer)
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
