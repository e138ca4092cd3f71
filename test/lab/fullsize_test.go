package lab

import (
	"flag"
	"fmt"
	"net/netip"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/vishvananda/netlink"

	"github.com/corium/corium-agent/internal/testutil/netns"
)

// The full-size check: a cluster whose pairs connect may still lose every
// packet of its interface's size (a TCP handshake is small; an etcd
// snapshot or an image pull is not). For every pair that must talk, both
// ways, the sender pings the other's node address with a packet of its
// wg0's MTU, fragmenting forbidden (ping -M do). A path MTU announced on
// the way (an ICMP "fragmentation needed" or "packet too big", which the
// kernel reports as "Frag needed and DF set (mtu = N)", "Packet too big:
// mtu=N" or, once cached, "message too long, mtu=N") is the sender's to
// follow: the ping is retried at the announced size. What fails is a
// packet of the interface's size lost in silence, which no sender learns
// from: what WireGuard sends over an underlay that drops fragments
// (fragments_test.go) when the mtu is larger than the route carries.

var noFullSize = flag.Bool("lab.no-fullsize", false,
	"negative control: the verdict has no full-size check; kept cases are not written")

// fullSizeTimeout is how long one ping waits for its answer.
const fullSizeTimeout = 3 * time.Second

// announcedRE reads a path MTU the kernel reports for a ping.
var announcedRE = regexp.MustCompile(`mtu ?= ?(\d+)`)

// fullSize pings dst from ns with a packet of ifname's MTU (read by h,
// ns's netlink handle), fragmenting forbidden, and follows a smaller path
// MTU announced on the way. It returns the size it ended at, and "" when
// a ping of that size is answered, or what went wrong.
func fullSize(ns *netns.Netns, h *netlink.Handle, ifname string, dst netip.Addr) (int, string) {
	link, err := h.LinkByName(ifname)
	if err != nil {
		return 0, fmt.Sprintf("no %s: %v", ifname, err)
	}
	mtu := link.Attrs().MTU
	hdr := 28 // IPv4 and ICMP
	if dst.Is6() {
		hdr = 48 // IPv6 and ICMPv6
	}
	followed := ""
	for size := mtu; ; {
		out, err := ns.Try("ping", "-n", "-c", "1", "-W", strconv.Itoa(int(fullSizeTimeout/time.Second)),
			"-M", "do", "-s", strconv.Itoa(size-hdr), dst.String())
		if err == nil {
			return size, ""
		}
		if m := announcedRE.FindStringSubmatch(out); m != nil {
			if n, _ := strconv.Atoi(m[1]); n >= hdr && n < size {
				followed += fmt.Sprintf(", then %d as announced", n)
				size = n
				continue
			}
		}
		what := fmt.Sprintf("a packet of %d bytes (%s's mtu %d%s) is lost", size, ifname, mtu, followed)
		if _, err := ns.Try("ping", "-n", "-c", "1", "-W", strconv.Itoa(int(fullSizeTimeout/time.Second)), dst.String()); err != nil {
			return size, what + ", and a small one too"
		}
		return size, what + ", a small one is answered"
	}
}

// checkFullSize runs the full-size check on every pair of nodes that must
// talk, both ways, all at once.
func (l *Lab) checkFullSize(t testing.TB, v *Verdict) {
	t.Helper()
	if *noFullSize {
		return
	}
	type way struct{ from, to *LabNode }
	seen := map[way]bool{}
	var ways []way
	for _, p := range l.pairs() {
		for _, w := range []way{{p.from, p.to}, {p.to, p.from}} {
			if !seen[w] {
				seen[w] = true
				ways = append(ways, w)
			}
		}
	}
	var wg sync.WaitGroup
	for _, w := range ways {
		h := w.from.NS.Netlink(t)
		dst := w.to.NodeAddress(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			v.count()
			if _, p := fullSize(w.from.NS, h, "wg0", dst); p != "" {
				v.fail("%s -> %s full size (%s): %s", w.from.Name, w.to.Name, dst, p)
			}
		}()
	}
	wg.Wait()
}

// TestAnnouncedMTU holds the full-size check to what it must tell apart,
// on a path with a narrower link past a router (a 1500 link, then 1400):
// where the router announces the narrower link's MTU (an ICMP
// "fragmentation needed" or "packet too big"), the sender follows it and
// the check passes; where the router drops what it cannot forward in
// silence, the check reports the packet of the interface's size lost.
func TestAnnouncedMTU(t *testing.T) {
	requireLab(t)
	for _, fam := range []struct {
		name, a, gwA, b, gwB string
	}{
		{"ipv4", "10.92.1.2/24", "10.92.1.1/24", "10.92.2.2/24", "10.92.2.1/24"},
		{"ipv6", "fd92:1::2/64", "fd92:1::1/64", "fd92:2::2/64", "fd92:2::1/64"},
	} {
		t.Run(fam.name, func(t *testing.T) {
			t.Parallel()
			rt, a, b := newNamespace(t, "lrt"), newNamespace(t, "lma"), newNamespace(t, "lmb")
			netns.Veth(t, a, "eth0", fam.a, rt, "ra", fam.gwA)
			netns.Veth(t, rt, "rb", fam.gwB, b, "eth0", fam.b)
			rt.Run(t, "ip", "link", "set", "rb", "mtu", "1400")
			b.Run(t, "ip", "link", "set", "eth0", "mtu", "1400")
			rt.Run(t, "sysctl", "-qw", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1")
			defaultVia(t, a.Run, netip.MustParsePrefix(fam.gwA).Addr())
			defaultVia(t, b.Run, netip.MustParsePrefix(fam.gwB).Addr())
			h := a.Netlink(t)
			dst := netip.MustParsePrefix(fam.b).Addr()
			// The router's announcements dropped first (before the sender
			// can have learned the path's MTU): a packet of eth0's size is
			// lost in silence.
			runStdin(t, "table inet labpmtu {\n chain out { type filter hook output priority filter;\n"+
				"  icmp type destination-unreachable drop\n  icmpv6 type packet-too-big drop\n }\n}\n",
				"ip", "netns", "exec", rt.Name, "nft", "-f", "-")
			_, p := fullSize(a, h, "eth0", dst)
			if p == "" {
				t.Fatal("the router drops in silence what it cannot forward, but the check passes")
			}
			t.Logf("silent: the check says: %s", p)
			rt.Run(t, "nft", "delete", "table", "inet", "labpmtu")
			size, p := fullSize(a, h, "eth0", dst)
			if p != "" || size != 1400 {
				t.Fatalf("the router announces mtu 1400, but the check ends at %d and says: %q", size, p)
			}
			t.Logf("announced: a 1500 link, then 1400: the check follows the announced mtu and passes at 1400")
		})
	}
}
