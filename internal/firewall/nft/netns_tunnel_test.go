package nft

import (
	"bytes"
	"context"
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestGuardDropsTunnelsOffTheOverlay sends kube-router's encapsulation, made
// by hand with raw sockets, to the node's overlay address: IPv4 in IPv4
// (protocol 4), IPv6 in IPv6 (next header 41) and IPv4 in IPv6 (next header
// 4), each carrying a SYN from another node's pod to the kubelet. From the
// underlay each is dropped and counted; over the overlay each reaches the
// node (a raw socket there sees it, as the tunnel driver would). The
// kernel here has no ipip or ip6tnl to decapsulate them, which the guard
// does not need: it drops the outer packet before any driver sees it.
func TestGuardDropsTunnelsOffTheOverlay(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl")
	l := newBaseLab(t)
	l.pub.Run(t, "ip", "route", "add", srvOvl4+"/32", "via", srvPub4)
	l.pub.Run(t, "ip", "-6", "route", "add", srvOvl6+"/128", "via", srvPub6)
	conn := l.srv.Nftables(t)
	t.Cleanup(func() { _ = Remove(context.Background(), conn) })
	mustApply(t, conn, cniGuard(t, schema.CNIKubeRouter, podCIDR4))

	for _, tc := range []struct {
		what  string
		proto int
		outer string
		inner []byte
	}{
		{"IPv4 in IPv4", unix.IPPROTO_IPIP, srvOvl4, synV4("10.244.9.5", srvOvl4, "ipip")},
		{"IPv6 in IPv6", unix.IPPROTO_IPV6, srvOvl6, synV6("fd00:10:244:9::5", srvOvl6, "ip6ip6")},
		{"IPv4 in IPv6", unix.IPPROTO_IPIP, srvOvl6, synV4("10.244.9.5", srvOvl4, "ip4in6")},
	} {
		t.Run(tc.what, func(t *testing.T) {
			to := netip.MustParseAddr(tc.outer)
			rx := rawSocket(t, l.srv, to, tc.proto)
			before := droppedBy(t, conn, commentTunnel, "")
			rawSend(t, l.pub, to, tc.proto, tc.inner)
			if rawReceived(t, rx, tc.inner) {
				t.Errorf("%s from the underlay reached the node", tc.what)
			}
			if after := droppedBy(t, conn, commentTunnel, ""); after != before+1 {
				t.Errorf("tunnel counter went from %d to %d for %s from the underlay, want one more", before, after, tc.what)
			}
			rawSend(t, l.ovl, to, tc.proto, tc.inner)
			if !rawReceived(t, rx, tc.inner) {
				t.Errorf("%s over the overlay did not reach the node; the check above proves nothing", tc.what)
			}
		})
	}
}

// rawSocket opens a raw socket in the namespace for the protocol (IPv4) or
// next header (IPv6) of the family of to, receiving for a while only.
func rawSocket(t *testing.T, ns *netns.Netns, to netip.Addr, proto int) int {
	t.Helper()
	var fd int
	if err := ns.Do(func() (err error) {
		fd, err = unix.Socket(family(to), unix.SOCK_RAW, proto)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	tv := unix.NsecToTimeval((700 * time.Millisecond).Nanoseconds())
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		t.Fatal(err)
	}
	return fd
}

// rawReceived reads the socket until the timeout, looking for payload.
func rawReceived(t *testing.T, fd int, payload []byte) bool {
	t.Helper()
	buf := make([]byte, 2048)
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err != nil {
			return false
		}
		if bytes.Contains(buf[:n], payload) {
			return true
		}
	}
}

// rawSend sends payload from the namespace in one packet whose header the
// kernel writes, with the given protocol (next header).
func rawSend(t *testing.T, ns *netns.Netns, to netip.Addr, proto int, payload []byte) {
	t.Helper()
	if err := ns.Do(func() error {
		fd, err := unix.Socket(family(to), unix.SOCK_RAW, proto)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		if to.Is6() {
			return unix.Sendto(fd, payload, 0, &unix.SockaddrInet6{Addr: to.As16()})
		}
		return unix.Sendto(fd, payload, 0, &unix.SockaddrInet4{Addr: to.As4()})
	}); err != nil {
		t.Fatal(err)
	}
}

func family(a netip.Addr) int {
	if a.Is6() {
		return unix.AF_INET6
	}
	return unix.AF_INET
}

// synV4 is an IPv4 packet holding a TCP SYN to the kubelet, with a marker
// after the TCP header so the test can tell it apart.
func synV4(src, dst, marker string) []byte {
	seg := tcpSYN(guardedPort, marker)
	h := make([]byte, 20)
	h[0], h[8], h[9] = 0x45, 64, unix.IPPROTO_TCP
	binary.BigEndian.PutUint16(h[2:], uint16(len(h)+len(seg)))
	s, d := netip.MustParseAddr(src).As4(), netip.MustParseAddr(dst).As4()
	copy(h[12:], s[:])
	copy(h[16:], d[:])
	return append(h, seg...)
}

// synV6 is synV4 in IPv6.
func synV6(src, dst, marker string) []byte {
	seg := tcpSYN(guardedPort, marker)
	h := make([]byte, 40)
	h[0], h[6], h[7] = 0x60, unix.IPPROTO_TCP, 64
	binary.BigEndian.PutUint16(h[4:], uint16(len(seg)))
	s, d := netip.MustParseAddr(src).As16(), netip.MustParseAddr(dst).As16()
	copy(h[8:], s[:])
	copy(h[24:], d[:])
	return append(h, seg...)
}

func tcpSYN(port int, marker string) []byte {
	seg := make([]byte, 20)
	binary.BigEndian.PutUint16(seg[0:], 40000)
	binary.BigEndian.PutUint16(seg[2:], uint16(port))
	seg[12], seg[13] = 5<<4, 0x02
	binary.BigEndian.PutUint16(seg[14:], 64240)
	return append(seg, "corium-test-"+marker...)
}
