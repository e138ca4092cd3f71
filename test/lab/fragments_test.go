package lab

import (
	"flag"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/netns"
)

// The lab's underlay drops IP fragments, as many real paths do (a cloud's
// NAT, a firewall that will not reassemble): a WireGuard packet larger
// than the route's MTU, which the sender's kernel splits, never arrives.
// So an overlay mtu above what the underlay carries (mtu-over-route) loses
// every full-size packet, as it does on such a path, and the full-size
// check (fullsize_test.go) finds it.
//
// The drop is a bridge table of the namespace holding the underlay's
// bridges, at the bridge's prerouting hook, priority -300: before
// br_netfilter hands the frame to the IP hooks, where conntrack (which the
// router's NAT turns on) reassembles fragments at priority -400, so that a
// rule of the forward hook only ever sees the whole packet
// (TestFragmentsDropped shows both).

var passFragments = flag.Bool("lab.pass-fragments", false,
	"negative control: the underlay passes fragments (no labfrag table); kept cases are not written")

// fragDrop is the underlay's drop of fragments: IPv4 with more fragments
// or an offset, IPv6 with a fragment header.
const fragDrop = `table bridge labfrag {
 chain pre {
  type filter hook prerouting priority -300; policy accept;
  ip frag-off & 0x3fff != 0 counter drop
  ether type ip6 exthdr frag exists counter drop
 }
}
`

// dropFragments loads fragDrop in ns, whose bridges are the underlay's,
// unless -lab.pass-fragments.
func dropFragments(t testing.TB, ns *netns.Netns) {
	t.Helper()
	if *passFragments {
		return
	}
	runStdin(t, fragDrop, "ip", "netns", "exec", ns.Name, "nft", "-f", "-")
}

// weakened says whether a negative control's flag has taken something
// from the lab, whose truth then is not kept.
func weakened() bool { return *passFragments || *noFullSize }

var packetsRE = regexp.MustCompile(`packets (\d+)`)

// counted is the sum of the counters of an nft table's rules that match
// all the words given.
func counted(t testing.TB, ns *netns.Netns, table string, words ...string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(ns.Run(t, "nft", "list", "table", table), "\n") {
		all := true
		for _, w := range words {
			all = all && strings.Contains(line, w)
		}
		if m := packetsRE.FindStringSubmatch(line); all && m != nil {
			c, _ := strconv.Atoi(m[1])
			n += c
		}
	}
	return n
}

// TestFragmentsDropped holds the underlay's drop to what it must do, on a
// router as the generated lab's (two bridges, routed, with a masquerade):
// a ping larger than the link's MTU, split by the sender, is lost and the
// bridge table counts its fragments, while a small one passes; and a rule
// of the router's forward hook counts no fragment, as conntrack hands it
// the packet reassembled, so a drop there would drop nothing.
func TestFragmentsDropped(t *testing.T) {
	requireLab(t)
	if *passFragments {
		t.Skip("-lab.pass-fragments")
	}
	for _, fam := range []struct {
		name, a, gwA, b, gwB, ip string
	}{
		{"ipv4", "10.91.1.2/24", "10.91.1.1/24", "10.91.2.2/24", "10.91.2.1/24", "ip"},
		{"ipv6", "fd91:1::2/64", "fd91:1::1/64", "fd91:2::2/64", "fd91:2::1/64", "ip6"},
	} {
		t.Run(fam.name, func(t *testing.T) {
			t.Parallel()
			rt, a, b := newNamespace(t, "lrt"), newNamespace(t, "lfa"), newNamespace(t, "lfb")
			for br, gw := range map[string]string{"sa": fam.gwA, "sb": fam.gwB} {
				newBridge(t, rt, br, "")
				args := []string{"ip", "addr", "add", gw, "dev", br}
				if fam.ip == "ip6" {
					args = append(args, "nodad")
				}
				rt.Run(t, args...)
			}
			plug(t, rt, "sa", "p-a", a, fam.a)
			plug(t, rt, "sb", "p-b", b, fam.b)
			gwA := netip.MustParsePrefix(fam.gwA).Addr()
			gwB := netip.MustParsePrefix(fam.gwB).Addr()
			defaultVia(t, a.Run, gwA)
			defaultVia(t, b.Run, gwB)
			rt.Run(t, "sysctl", "-qw", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1")
			runStdin(t, "table inet labnat {\n chain post { type nat hook postrouting priority srcnat;\n  "+
				fam.ip+" saddr "+netip.MustParsePrefix(fam.a).Masked().String()+" oifname != \"sa\" masquerade\n }\n}\n"+
				"table inet labfwd {\n chain forward { type filter hook forward priority filter;\n"+
				"  ip frag-off & 0x3fff != 0 counter\n  exthdr frag exists counter\n  meta l4proto { icmp, ipv6-icmp } counter\n }\n}\n",
				"ip", "netns", "exec", rt.Name, "nft", "-f", "-")
			dropFragments(t, rt)
			dst := netip.MustParsePrefix(fam.b).Addr().String()
			if out, err := a.Try("ping", "-c", "1", "-W", "3", dst); err != nil {
				t.Fatalf("a small ping is lost: %v\n%s", err, out)
			}
			if out, err := a.Try("ping", "-c", "2", "-W", "2", "-M", "dont", "-s", "3000", dst); err == nil {
				t.Fatalf("a ping of 3000 bytes, split by the sender, arrives through the drop:\n%s", out)
			}
			if n := counted(t, rt, "bridge labfrag", "frag"); n < 2 {
				t.Errorf("the bridge table counts %d fragments, want each of the two pings' (at least 2)", n)
			}
			// Without the drop the fragments pass, reassembled by conntrack
			// before the forward hook: its fragment rules count nothing.
			rt.Run(t, "nft", "delete", "table", "bridge", "labfrag")
			if out, err := a.Try("ping", "-c", "1", "-W", "3", "-M", "dont", "-s", "3000", dst); err != nil {
				t.Fatalf("without the drop, a ping of 3000 bytes is lost: %v\n%s", err, out)
			}
			if n := counted(t, rt, "inet labfwd", "frag"); n != 0 {
				t.Errorf("the forward hook saw %d fragments; conntrack should have reassembled them", n)
			}
			if n := counted(t, rt, "inet labfwd", "l4proto"); n == 0 {
				t.Error("the forward hook saw no ping at all")
			}
			t.Logf("%s: the bridge drop took the fragments; the forward hook saw the pings only whole", fam.name)
		})
	}
}
