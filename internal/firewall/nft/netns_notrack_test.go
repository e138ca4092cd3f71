package nft

import (
	"context"
	"regexp"
	"strconv"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// operatorNotrack is a table of the operator's own, as calico's DoNotTrack
// policies or a hand-written raw rule set make one: at raw priority, before
// conntrack, it marks traffic to the guarded kubelet and VXLAN ports, and to
// an unguarded one, notrack. Its second chain runs after conntrack and just
// before the guard's, and counts what reaches the guard untracked.
const operatorNotrack = `table inet operator {
	counter untracked_syn {}
	counter untracked_udp {}
	chain raw {
		type filter hook prerouting priority raw; policy accept;
		tcp dport { 10250, 2222 } notrack
		udp dport 4789 notrack
	}
	chain seen {
		type filter hook input priority filter - 10; policy accept;
		ct state untracked tcp dport 10250 tcp flags syn / syn,ack counter name untracked_syn
		ct state untracked udp dport 4789 counter name untracked_udp
	}
}
`

// TestGuardDropsUntracked: with another table marking the traffic notrack,
// a SYN to a guarded TCP port and a datagram to a guarded UDP port from the
// underlay reach the guard "untracked", not "new". They are dropped all the
// same, and counted, from the node's own addresses and from a forged pod
// source; over the overlay both ports are still reached.
func TestGuardDropsUntracked(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl")
	t.Parallel() // the drops wait out their timeouts; the lab is its own
	l := newBaseLab(t)
	addAddrs(t, l.pub, "eth0", "10.244.0.99/32")
	conn := l.srv.Nftables(t)
	t.Cleanup(func() { _ = Remove(context.Background(), conn) })
	udp := udpSink(t, l.srv, 4789)
	l.srv.Run(t, "sh", "-c", "nft -f - <<'EOF'\n"+operatorNotrack+"EOF")
	g := cniGuard(t, schema.CNICalico, podCIDR4)
	mustApply(t, conn, g)
	mustState(t, conn, g, Current) // what `firewall show` reports

	untracked := func(name string) uint64 {
		t.Helper()
		return operatorCount(t, l.srv, name)
	}

	// The control: the notrack rule is in force (what the guard sees is
	// untracked), and the underlay delivers untracked SYNs to a port the
	// guard leaves alone.
	before := untracked("untracked_syn")
	l.expect(t, true, l.ovl, "", srvOvl4, guardedPort)
	if untracked("untracked_syn") == before {
		t.Fatal("the overlay's SYN was not untracked: the operator's notrack rule is not in force, so this test proves nothing")
	}
	l.expect(t, true, l.pub, "", srvPub4, otherPort)

	for _, to := range []string{srvPub4, srvPub6} {
		syn, drops := untracked("untracked_syn"), guardedDrops(t, conn, setTCP)
		l.expect(t, false, l.pub, "", to, guardedPort)
		if untracked("untracked_syn") == syn {
			t.Errorf("the SYN to %s was not untracked", hostPort(to, guardedPort))
		}
		if guardedDrops(t, conn, setTCP) == drops {
			t.Errorf("an untracked SYN to %s was not counted by the guarded-port rule", hostPort(to, guardedPort))
		}

		msg := "untracked to " + to
		dgram, drops := untracked("untracked_udp"), guardedDrops(t, conn, setUDP)
		sendUDP(t, l.pub, "", hostPort(to, 4789), msg)
		if udp.received(msg) {
			t.Errorf("an untracked datagram reached %s from the underlay", hostPort(to, 4789))
		}
		if untracked("untracked_udp") != dgram+1 {
			t.Errorf("the datagram to %s was not untracked", hostPort(to, 4789))
		}
		if after := guardedDrops(t, conn, setUDP); after != drops+1 {
			t.Errorf("guarded udp counter went from %d to %d for an untracked datagram to %s, want one more", drops, after, hostPort(to, 4789))
		}
	}

	forged, syn := forgedDrops(t, conn), untracked("untracked_syn")
	l.expect(t, false, l.pub, "10.244.0.99", srvPub4, guardedPort)
	if untracked("untracked_syn") == syn {
		t.Error("the forged pod source's SYN was not untracked")
	}
	if forgedDrops(t, conn) == forged {
		t.Error("an untracked SYN from a forged pod source was not counted by the forged-source rules")
	}
	forged, dgram := forgedDrops(t, conn), untracked("untracked_udp")
	sendUDP(t, l.pub, "10.244.0.99", hostPort(srvPub4, 4789), "forged untracked")
	if udp.received("forged untracked") {
		t.Error("an untracked datagram from a forged pod source reached the VXLAN port")
	}
	if untracked("untracked_udp") != dgram+1 || forgedDrops(t, conn) != forged+1 {
		t.Error("an untracked datagram from a forged pod source was not counted by the forged-source rules")
	}

	sendUDP(t, l.ovl, "", hostPort(srvOvl4, 4789), "overlay untracked")
	if !udp.received("overlay untracked") {
		t.Error("an untracked datagram over the overlay did not arrive")
	}
}

var counterPackets = regexp.MustCompile(`packets (\d+)`)

// operatorCount reads one of the operator table's named counters.
func operatorCount(t *testing.T, ns *netns.Netns, name string) uint64 {
	t.Helper()
	out := ns.Run(t, "nft", "list", "counter", "inet", "operator", name)
	m := counterPackets.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no packet count in nft's listing of counter %s:\n%s", name, out)
	}
	n, err := strconv.ParseUint(m[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
