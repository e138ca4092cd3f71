package nft

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/google/nftables"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// forgedSources are pod addresses a sender on the underlay makes up: from a
// /24 no node has (the node's route back to it is the default route, out
// of the very link it came in on), from another node's /24 (routed through
// kube-router's tunnel to that node) and from this node's own /24.
var forgedSources = []struct{ what, v4, v6 string }{
	{"an unassigned pod range", "10.244.77.7", "fd00:10:244:77::7"},
	{"another node's pod range", "10.244.9.7", "fd00:10:244:9::7"},
	{"this node's pod range", "10.244.0.99", "fd00:10:244::99"},
}

// newForgedLab is the lab with kube-router's pod network in place (this
// node's bridge, the tunnel to the peer node) and every forged source on
// the public client.
func newForgedLab(t *testing.T) *lab {
	l := newLab(t)
	remote4, remote6 := netns.New(t, "fw-krrem4"), netns.New(t, "fw-krrem6")
	kubeRouterTunnel(t, l.srv, remote4, "198.51.100.2", "10.244.9.5/24", "10.244.9.0/24")
	kubeRouterTunnel(t, l.srv, remote6, "2001:db8:2::2", "fd00:10:244:9::5/64", "fd00:10:244:9::/64")
	for _, f := range forgedSources {
		if f.v4 != "10.244.0.99" { // newLab forged the node's own already
			addAddrs(t, l.pub, "eth0", f.v4+"/32 "+f.v6+"/128")
		}
	}
	return l
}

// TestGuardDropsForgedPodSources sends from every forged source, over the
// underlay, to a guarded port: TCP to the kubelet under kube-router's guard,
// UDP to calico's VXLAN port under calico's, IPv4 and IPv6. Each packet is
// dropped, and counted by the forged-source rules.
func TestGuardDropsForgedPodSources(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl", "bridge")
	t.Parallel() // the drops wait out their timeouts; the lab is its own
	l := newForgedLab(t)
	conn := l.srv.Nftables(t)
	t.Cleanup(func() { _ = Remove(context.Background(), conn) })
	udp := udpSink(t, l.srv, 4789)

	for _, fam := range []struct {
		name, podCIDR, to string
		from              func(i int) string
	}{
		{"IPv4", podCIDR4, srvPub4, func(i int) string { return forgedSources[i].v4 }},
		{"IPv6", podCIDR6, srvPub6, func(i int) string { return forgedSources[i].v6 }},
	} {
		t.Run(fam.name+" tcp", func(t *testing.T) {
			mustApply(t, conn, cniGuard(t, schema.CNIKubeRouter, fam.podCIDR))
			for i, f := range forgedSources {
				before := forgedDrops(t, conn)
				l.expect(t, false, l.pub, fam.from(i), fam.to, guardedPort)
				if after := forgedDrops(t, conn); after == before {
					t.Errorf("a SYN from %s (%s) was not counted by the forged-source rules", f.what, fam.from(i))
				}
			}
		})
		t.Run(fam.name+" udp", func(t *testing.T) {
			mustApply(t, conn, cniGuard(t, schema.CNICalico, fam.podCIDR))
			for i, f := range forgedSources {
				before := forgedDrops(t, conn)
				msg := fmt.Sprintf("forged %s %d", fam.name, i)
				sendUDP(t, l.pub, fam.from(i), hostPort(fam.to, 4789), msg)
				if udp.received(msg) {
					t.Errorf("a datagram from %s (%s) reached the VXLAN port", f.what, fam.from(i))
				}
				if after := forgedDrops(t, conn); after != before+1 {
					t.Errorf("forged-source counter went from %d to %d for a datagram from %s (%s), want one more", before, after, f.what, fam.from(i))
				}
			}
		})
	}
}

// TestGuardUDPIgnoresConntrack: the node sends from calico's VXLAN port to
// a sender on the underlay first, so that sender's reply is "established"
// for conntrack; it is dropped all the same, as a fresh one would be.
func TestGuardUDPIgnoresConntrack(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl")
	l := newBaseLab(t)
	conn := l.srv.Nftables(t)
	t.Cleanup(func() { _ = Remove(context.Background(), conn) })
	mustApply(t, conn, cniGuard(t, schema.CNICalico, podCIDR4))
	udp := udpSink(t, l.srv, 4789)
	var peer net.PacketConn
	if err := l.pub.Do(func() (err error) { peer, err = net.ListenPacket("udp", "192.0.2.2:40000"); return err }); err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	if _, err := udp.conn.WriteTo([]byte("out"), &net.UDPAddr{IP: net.ParseIP("192.0.2.2"), Port: 40000}); err != nil {
		t.Fatal(err)
	}
	_ = peer.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, _, err := peer.ReadFrom(make([]byte, 16)); err != nil {
		t.Fatalf("the node's datagram to the underlay did not arrive: %v", err)
	}
	before := guardedDrops(t, conn, setUDP)
	if _, err := peer.WriteTo([]byte("tracked reply"), &net.UDPAddr{IP: net.ParseIP(srvPub4), Port: 4789}); err != nil {
		t.Fatal(err)
	}
	if udp.received("tracked reply") {
		t.Error("a datagram conntrack counts as established reached the VXLAN port from the underlay")
	}
	if after := guardedDrops(t, conn, setUDP); after != before+1 {
		t.Errorf("guarded udp counter went from %d to %d, want one more", before, after)
	}
}

func mustApply(t *testing.T, conn *nftables.Conn, g firewall.Guard) {
	t.Helper()
	if err := Apply(context.Background(), conn, g); err != nil {
		t.Fatal(err)
	}
}

// sink is a UDP listener in a namespace and what it has received.
type sink struct {
	conn net.PacketConn
	got  chan string
}

func udpSink(t *testing.T, ns *netns.Netns, port int) *sink {
	t.Helper()
	s := &sink{got: make(chan string, 64)}
	if err := ns.Do(func() (err error) { s.conn, err = net.ListenPacket("udp", fmt.Sprintf("[::]:%d", port)); return err }); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.conn.Close() })
	go func() {
		buf := make([]byte, 256)
		for {
			n, _, err := s.conn.ReadFrom(buf)
			if err != nil {
				return
			}
			s.got <- string(buf[:n])
		}
	}()
	return s
}

// received waits a while for msg; a dropped datagram shows as its absence.
func (s *sink) received(msg string) bool {
	for {
		select {
		case m := <-s.got:
			if m == msg {
				return true
			}
		case <-time.After(700 * time.Millisecond):
			return false
		}
	}
}

// sendUDP sends one datagram from the namespace, from the given address.
func sendUDP(t *testing.T, ns *netns.Netns, from, to, msg string) {
	t.Helper()
	if err := ns.Do(func() error {
		c, err := net.DialUDP("udp", &net.UDPAddr{IP: net.ParseIP(from)}, net.UDPAddrFromAddrPort(netip.MustParseAddrPort(to)))
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.Write([]byte(msg))
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
