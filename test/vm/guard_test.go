package vm

import (
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/test/vm/wire"
)

// closedPort is a port nothing listens on and the guard does not police:
// over the underlay it is refused, proving the underlay delivers and that
// a guarded port's silence is the guard's doing.
const closedPort = 9

// dial opens a TCP connection from the machine (from the local address
// from, if set) and says how it went.
func (m *Machine) dial(t *testing.T, addr, from string, timeout time.Duration) string {
	t.Helper()
	resp, err := m.call(wire.Request{Op: wire.OpDial, Addr: addr, From: from}, timeout)
	if err != nil || resp.Err != "" {
		t.Fatalf("%s: dialling %s: %v %s", m.Name, addr, err, resp.Err)
	}
	return resp.Dial
}

// listen keeps listeners on the ports until the machine stops.
func (m *Machine) listen(t *testing.T, ports ...int) {
	t.Helper()
	if resp, err := m.call(wire.Request{Op: wire.OpListen, Ports: ports}, 10*time.Second); err != nil || resp.Err != "" {
		t.Fatalf("%s: listening on %v: %v %s", m.Name, ports, err, resp.Err)
	}
}

// guardCounters is the packets each of the guard's counted rules dropped,
// by rule comment, from nft's own listing of table inet corium.
func (m *Machine) guardCounters(t *testing.T) map[string]uint64 {
	t.Helper()
	var doc struct {
		Nftables []struct {
			Rule *struct {
				Comment string            `json:"comment"`
				Expr    []json.RawMessage `json:"expr"`
			} `json:"rule"`
		} `json:"nftables"`
	}
	out := m.MustExec("nft", "-j", "list", "table", "inet", "corium")
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%s: nft -j list table inet corium: %v", m.Name, err)
	}
	counts := map[string]uint64{}
	for _, o := range doc.Nftables {
		if o.Rule == nil {
			continue
		}
		for _, e := range o.Rule.Expr {
			var c struct {
				Counter *struct{ Packets uint64 } `json:"counter"`
			}
			if json.Unmarshal(e, &c) == nil && c.Counter != nil {
				counts[o.Rule.Comment] += c.Counter.Packets
			}
		}
	}
	return counts
}

// underlayLink is the name of the machine's NIC on the test's network.
func (m *Machine) underlayLink(t *testing.T, addr string) string {
	t.Helper()
	for _, l := range strings.Split(m.MustExec("ip", "-br", "-4", "addr"), "\n") {
		if f := strings.Fields(l); len(f) >= 3 && strings.HasPrefix(f[2], addr+"/") {
			return f[0]
		}
	}
	t.Fatalf("%s: no link holds %s", m.Name, addr)
	return ""
}

// guardCase is a guarded machine seen from another: its addresses and the
// ports its role guards and leaves public.
type guardCase struct {
	to                *Machine
	overlay, underlay string
	guarded, public   []int
}

// checkGuard tests the guard of g.to from the machine from, with packets:
// each guarded port answers over the overlay and gets no answer over the
// underlay, counted by the guard; a SYN from a forged pod source on the
// underlay is dropped and counted as such; the public ports answer over the
// underlay; and a closed port there is refused, so the underlay itself
// works. quick checks one guarded port only (after a reboot).
func checkGuard(t *testing.T, from *Machine, g guardCase, fromUnderlay string, quick bool) {
	t.Helper()
	g.to.listen(t, append(append([]int{}, g.guarded...), g.public...)...)
	guarded := g.guarded
	if quick {
		guarded = guarded[len(guarded)-1:]
	}
	before := g.to.guardCounters(t)
	var seen []string
	expect := func(what, addr, src, want string) {
		got := from.dial(t, addr, src, 3*time.Second)
		if got != want {
			t.Errorf("%s -> %s %s: %s, want %s", from.Name, g.to.Name, what, got, want)
		}
		seen = append(seen, fmt.Sprintf("%s %s: %s", what, addr, got))
	}
	for _, p := range guarded {
		port := strconv.Itoa(p)
		expect("guarded port over the overlay", net.JoinHostPort(g.overlay, port), "", wire.Connected)
		expect("guarded port over the underlay", net.JoinHostPort(g.underlay, port), "", wire.NoAnswer)
	}
	for _, p := range g.public {
		expect("public port over the underlay", net.JoinHostPort(g.underlay, strconv.Itoa(p)), "", wire.Connected)
	}
	expect("closed unguarded port over the underlay", net.JoinHostPort(g.underlay, strconv.Itoa(closedPort)), "", wire.Refused)
	if !quick {
		// The forged source is a real address on the sender's NIC for the
		// length of one dial: its packets are real packets on the wire.
		nic := from.underlayLink(t, fromUnderlay)
		from.MustExec("ip", "addr", "add", forgedSource+"/32", "dev", nic)
		expect("guarded port from a forged pod source", net.JoinHostPort(g.underlay, strconv.Itoa(g.guarded[len(g.guarded)-1])), forgedSource, wire.NoAnswer)
		from.MustExec("ip", "addr", "del", forgedSource+"/32", "dev", nic)
	}
	after := g.to.guardCounters(t)
	guardedDrops := after["guarded cluster port"] - before["guarded cluster port"]
	forgedDrops := after["forged pod source"] - before["forged pod source"]
	if guardedDrops < uint64(len(guarded)) {
		t.Errorf("%s: the guarded-port counter rose by %d for %d dropped connections", g.to.Name, guardedDrops, len(guarded))
	}
	if !quick && forgedDrops == 0 {
		t.Errorf("%s: the forged-source counter did not rise for a SYN from %s", g.to.Name, forgedSource)
	}
	t.Logf("guard of %s, from %s:\n  %s\n  counters: guarded cluster port +%d packets, forged pod source +%d packets",
		g.to.Name, from.Name, strings.Join(seen, "\n  "), guardedDrops, forgedDrops)
}
