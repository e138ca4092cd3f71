package vm

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// applyAgain writes doc to the machine and runs the agent's own again run
// command on it, `corium-agent apply --again --config FILE`, in a unit that
// imports the corium.* credentials as the agent's own unit does.
func applyAgain(t *testing.T, m *Machine, doc string) time.Duration {
	t.Helper()
	if _, err := m.ExecIn(time.Minute, []byte(doc), "sh", "-c", "umask 077 && cat >/root/again.yaml"); err != nil {
		t.Fatalf("%s: writing the document for apply --again: %v", m.Name, err)
	}
	start := time.Now()
	out, err := m.ExecIn(4*time.Minute, nil, "systemd-run", "--quiet", "--wait", "--pipe", "--collect",
		"-p", "ImportCredential=corium.*", "corium-agent", "apply", "--again", "--config", "/root/again.yaml")
	took := time.Since(start)
	if err != nil {
		t.Fatalf("%s: corium-agent apply --again: %v\n%s", m.Name, err, m.Secrets.Redact(t, out))
	}
	return took
}

// writeSecretFile puts value at path (0600) through guestd's standard input.
func writeSecretFile(t *testing.T, m *Machine, path, value string) {
	t.Helper()
	if _, err := m.ExecIn(time.Minute, []byte(value), "sh", "-c", "umask 077 && cat >"+path); err != nil {
		t.Fatalf("%s: writing %s: %v", m.Name, path, err)
	}
}

// TestVMAgain changes the documents of a running pair while c1 pings w1
// over the overlay 20 times a second, and re-applies each change with the
// agent's own command for it (`apply --again`). Each change states the
// loss the design expects on the c1-w1 tunnel (docs/overlay.md: a change
// wg syncconf carries is a reload of the same device, which keeps its
// sessions; the MTU needs a restart, which takes the device and k0s down
// and up); after each, the kernel's device equals the new file on both
// machines (`wg showconf` against `wg-quick strip`) and, for a reload,
// wg0 is the same device and k0s the same invocation.
//
// The pair boots with w1's join token on c1's own secret server, which the
// test starts only after w1's agent has failed to reach it (bootLate,
// assertLateSecret): the agent's jittered backoff fetches it within waitFor.
//
// The negative controls: the MTU change restarts, and the ping and the
// device's index see it; and a peer added by hand, behind the agent's back,
// is named by the device-against-file comparison.
func TestVMAgain(t *testing.T) {
	requireVM(t)
	srv := newSecretServer(t)
	url := secretURL(underlayC1, w1TokenPath)
	n := newTwoNodes(t, lateServer(t, srv, url))
	n.secrets.Add(srv.bearer)
	c1, w1 := n.c1, n.w1
	bootLate(t, n, srv, url)
	t.Run("a secret server that comes up late", func(t *testing.T) { assertLateSecret(t, n, url) })
	pingOverlay(t, c1, overlayW1)
	if t.Failed() {
		t.FailNow()
	}
	psk1, psk2, third := fixture.GenKey(t), fixture.GenKey(t), fixture.GenKey(t)
	n.secrets.Add(psk1.String(), psk2.String(), third.String())
	// w1's second underlay address, for the endpoint change.
	const w1Moved = "192.0.2.12"
	w1.MustExec("ip", "addr", "add", w1Moved+"/24", "dev", w1.underlayLink(t, underlayW1))

	doc := initialAgainDocs()
	doc.w1Join = lateJoin("", url, w1WaitFor)
	type step struct {
		name     string
		change   func(*againDocs)
		before   func(t *testing.T) // on the machines, before the documents are applied
		both     bool               // w1's document changes too
		wantLoss int                // -1: some loss expected (a restart)
		carrier  string             // when set, the action c1's apply --again must take for wg0
		// moves is w1's new address when c1's endpoint for w1 changes to
		// it: no echo is in flight over the apply, and w1 counts what
		// reaches that address. WireGuard roams a peer's endpoint to the
		// source of its last authenticated packet (the kernel's
		// wg_socket_set_peer_endpoint_from_skb): an echo reply w1 sent from
		// its old address just before c1's syncconf, arriving just after,
		// moves c1's endpoint back, and w1 then answers from where it is
		// asked. That is WireGuard's design, not the agent's change, and
		// it made the device differ from the file in one run of ten; the
		// other reloads measure loss with the ping running over the apply.
		moves string
		why   string
	}
	// A reload may lose the one echo that meets the kernel between the
	// removal and the re-insertion of w1's allowed IPs: every [Peer] of a
	// syncconf carries WGPEER_F_REPLACE_ALLOWEDIPS, and kernel 6.12 has no
	// way to change one allowed IP alone. The measured run lost one, on
	// adding a peer with a reload (docs/vm-test.md), which is why adding and
	// removing whole peers is now a wireguard-peers action that sets no other
	// peer, and must lose none; the first step, the same document again
	// (nothing reloaded), is the baseline under the same load.
	const reloadLoss = 1
	steps := []step{
		{name: "control: the same document again", change: func(*againDocs) {}, wantLoss: reloadLoss, why: "nothing: the file is unchanged, neither reloaded nor restarted"},
		{name: "add a peer", change: func(d *againDocs) { d.extraPeer = third }, wantLoss: 0, carrier: "wireguard-peers", why: "wireguard-peers: wg addconf of the new peer's section alone, w1's peer is not set again"},
		{name: "change w1's endpoint", change: func(d *againDocs) { d.w1Endpoint = w1Moved + ":51820" }, wantLoss: 0, moves: w1Moved,
			why: "reload: syncconf sets the endpoint; the next packet goes to the new address, where w1 listens too (no echo in flight over the apply)"},
		{name: "change c1's listen port", change: func(d *againDocs) { d.c1Port = 51821 }, both: true, wantLoss: reloadLoss,
			why: "reload on both: c1's socket moves to the new port; w1 roams to it on c1's next packet before its own file says so"},
		{name: "set a preshared key on both sides", change: func(d *againDocs) { d.psk = true }, both: true, wantLoss: reloadLoss,
			before: func(t *testing.T) {
				writeSecretFile(t, c1, pskFile, psk1.String())
				writeSecretFile(t, w1, pskFile, psk1.String())
			},
			why: "reload on both: the key enters the next handshake; the running session's keys stay"},
		{name: "rotate the preshared key on both sides", change: func(*againDocs) {}, both: true, wantLoss: reloadLoss,
			before: func(t *testing.T) {
				writeSecretFile(t, c1, pskFile, psk2.String())
				writeSecretFile(t, w1, pskFile, psk2.String())
			},
			why: "reload on both: as setting it; a handshake between the two applies would fail until the second"},
		{name: "remove the peer", change: func(d *againDocs) { d.extraPeer = [32]byte{} }, wantLoss: 0, carrier: "wireguard-peers", why: "wireguard-peers: wg set peer remove, w1's peer is not set again"},
		{name: "negative control: change c1's MTU", change: func(d *againDocs) { d.c1MTU = 1380 }, wantLoss: -1,
			why: "restart: syncconf cannot set an MTU; wg0 is a new device, k0s restarts through Requires="},
	}
	var table []string
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.change(&doc)
			if s.before != nil {
				s.before(t)
			}
			k0s := c1.Show("k0scontroller.service", "InvocationID")["InvocationID"]
			index := c1.MustExec("cat", "/sys/class/net/wg0/ifindex")
			p := startPing(t, c1, overlayW1)
			time.Sleep(3 * time.Second)
			from := time.Since(p.started)
			var sent int
			var lostSeqs []int
			var arrivals func() []int
			if s.moves != "" {
				// The echoes stop before the change and start again after it.
				sent, lostSeqs = p.stop(t)
				arrivals = countArrivals(t, w1, 51820, s.moves, underlayW1)
			}
			took := applyAgain(t, c1, doc.c1Doc(n.keys))
			if s.both {
				took += applyAgain(t, w1, doc.w1Doc(n.keys))
			}
			if s.moves != "" {
				p = startPing(t, c1, overlayW1)
			}
			time.Sleep(3 * time.Second)
			more, moreLost := p.stop(t)
			sent += more
			lostSeqs = append(lostSeqs, moreLost...)
			lost := len(lostSeqs)
			if arrivals != nil {
				// The old address is the counter's control: it must see
				// none of c1's packets once the endpoint has moved.
				got := arrivals()
				t.Logf("%s: after the apply, %d packets reached w1 at %s:51820 and %d at its old %s:51820", s.name, got[0], s.moves, got[1], underlayW1)
				if got[0] == 0 || got[1] != 0 {
					t.Errorf("%s: c1's packets reached w1's new address %d times and its old one %d times after c1's apply --again; want some and none: the endpoint was not set", s.name, got[0], got[1])
				}
			}
			// Where the applies ran, as echo numbers (one each 50 ms).
			window := fmt.Sprintf("echoes %d-%d", from/(50*time.Millisecond), (from+took)/(50*time.Millisecond))
			restarted := c1.MustExec("cat", "/sys/class/net/wg0/ifindex") != index
			k0sAfter := c1.Show("k0scontroller.service", "InvocationID", "ActiveState")
			row := []string{s.name, map[bool]string{true: "new device", false: "same device"}[restarted], strconv.Itoa(sent), strconv.Itoa(lost), took.Round(100 * time.Millisecond).String(), s.why}
			table = append(table, "| "+strings.Join(row, " | ")+" |")
			t.Logf("AGAIN %s: %d sent, %d lost %v over the change (apply --again took %v, %s); wg0 %s; expected: %s",
				s.name, sent, lost, lostSeqs, took.Round(100*time.Millisecond), window, row[1], s.why)
			switch {
			case s.wantLoss >= 0 && lost > s.wantLoss:
				t.Errorf("%s: %d of %d pings lost, want at most %d (%s)", s.name, lost, sent, s.wantLoss, s.why)
			case s.wantLoss < 0 && lost == 0:
				t.Errorf("%s: no ping lost over a restart: the ping does not see an outage, so its zeros above prove nothing", s.name)
			}
			if got := wg0Carrier(t, c1); s.carrier != "" && got != s.carrier {
				t.Errorf("%s: c1's apply --again carried wg0's change by %q, want %s", s.name, got, s.carrier)
			}
			if restarted != (s.wantLoss < 0) {
				t.Errorf("%s: wg0 restarted = %t, want %t", s.name, restarted, s.wantLoss < 0)
			}
			if k0sAfter["ActiveState"] != "active" || (k0sAfter["InvocationID"] == k0s) != (s.wantLoss >= 0) {
				t.Errorf("%s: k0scontroller.service %v (before: invocation %s); want active, restarted only with wg0", s.name, k0sAfter, k0s)
			}
			for _, m := range []*Machine{c1, w1} {
				if d := deviceVsFile(t, m); len(d) != 0 {
					t.Errorf("%s: wg0 on the kernel differs from /etc/wireguard/wg0.conf:\n%s", m.Name, strings.Join(d, "\n"))
				}
			}
			if s.both {
				assertHandshake(t, w1)
			}
		})
	}
	t.Run("negative control: a peer behind the agent's back", func(t *testing.T) {
		c1.MustExec("wg", "set", "wg0", "peer", third.PublicKey().String(), "allowed-ips", "10.77.0.9/32")
		d := strings.Join(deviceVsFile(t, c1), "\n")
		if !strings.Contains(d, third.PublicKey().String()+" is on the device, not in the file") {
			t.Errorf("c1: a peer set by hand is not named by the comparison: %q", d)
		}
		c1.MustExec("wg", "set", "wg0", "peer", third.PublicKey().String(), "remove")
	})
	t.Logf("apply --again on the c1-w1 tunnel, ping every 50 ms from c1:\n| change | wg0 | pings | lost | apply --again | expected |\n|---|---|---|---|---|---|\n%s", strings.Join(table, "\n"))
	n.poweroff()
}
