package lab

import (
	"fmt"
	"net/netip"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/netns"
)

// The underlay is one bridge (br0) in a switch namespace of its own; each
// open node, the attacker and the router plug into it with a veth pair.
// Nodes behind the router plug into a second bridge (lan0) in the router's
// namespace, which routes and NATs between the two. Both bridges drop IP
// fragments (fragments_test.go).

// newNamespace is a namespace whose processes (wireguard-go, a mount
// namespace's holder) are killed when the test ends, before the namespace
// itself is deleted.
func newNamespace(t testing.TB, prefix string) *netns.Netns {
	t.Helper()
	ns := netns.New(t, prefix)
	t.Cleanup(func() { killAll(ns) })
	return ns
}

// killAll ends every process left in the namespace: all of them were
// started by the lab in it.
func killAll(ns *netns.Netns) {
	b, err := exec.Command("ip", "netns", "pids", ns.Name).Output()
	if err != nil {
		return
	}
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// newBridge makes a bridge named name, up, in ns (with the address addr
// when not empty).
func newBridge(t testing.TB, ns *netns.Netns, name string, addr string) {
	t.Helper()
	ns.Run(t, "ip", "link", "add", name, "type", "bridge")
	if addr != "" {
		ns.Run(t, "ip", "addr", "add", addr, "dev", name)
	}
	ns.Run(t, "ip", "link", "set", name, "up")
}

// plug joins ns to the bridge br in brNS, as eth0 with the addresses
// given (CIDR, space separated); port is the bridge side's name.
func plug(t testing.TB, brNS *netns.Netns, br, port string, ns *netns.Netns, addrs string) {
	t.Helper()
	netns.Veth(t, brNS, port, "", ns, "eth0", addrs)
	brNS.Run(t, "ip", "link", "set", port, "master", br)
}

// underlay is the lab's shared network: the switch, the attacker and, when
// some node is behind NAT, the router.
type underlay struct {
	sw, attacker, router *netns.Netns
}

func newUnderlay(t testing.TB, s *Scenario) *underlay {
	t.Helper()
	u := &underlay{sw: newNamespace(t, "lsw")}
	newBridge(t, u.sw, "br0", "")
	dropFragments(t, u.sw)
	u.attacker = newNamespace(t, "latk")
	plug(t, u.sw, "br0", "p-atk", u.attacker, hostOnOpen(s.Underlay, attacker4, attacker6))
	var behind []*Node
	for _, n := range s.Nodes {
		if n.Site != Open {
			behind = append(behind, n)
		}
	}
	if len(behind) == 0 {
		return u
	}
	if s.Underlay != IPv4 {
		t.Fatal("lab: nodes behind NAT need an IPv4 underlay")
	}
	u.router = newNamespace(t, "lrt")
	addrs := []string{prefixOnOpen(routerOpen4)}
	for _, n := range behind {
		if n.Site == OneToOne {
			addrs = append(addrs, prefixOnOpen(n.publicAddr()))
		}
	}
	plug(t, u.sw, "br0", "p-rt", u.router, strings.Join(addrs, " "))
	newBridge(t, u.router, "lan0", prefixOnOpen(routerLAN4))
	u.router.Run(t, "sysctl", "-qw", "net.ipv4.ip_forward=1")
	runStdin(t, natRules(behind), "ip", "netns", "exec", u.router.Name, "nft", "-f", "-")
	dropFragments(t, u.router)
	return u
}

// natRules is the router's NAT: a public address mapped both ways to each
// 1:1 node, and every other node of the LAN masqueraded behind the
// router's own address.
func natRules(behind []*Node) string {
	var b strings.Builder
	b.WriteString("table ip labnat {\n chain pre { type nat hook prerouting priority dstnat;\n")
	for _, n := range behind {
		if n.Site == OneToOne {
			fmt.Fprintf(&b, "  iifname \"eth0\" ip daddr %s dnat to %s\n", n.publicAddr(), n.underlayAddr(IPv4))
		}
	}
	b.WriteString(" }\n chain post { type nat hook postrouting priority srcnat;\n")
	for _, n := range behind {
		if n.Site == OneToOne {
			fmt.Fprintf(&b, "  oifname \"eth0\" ip saddr %s snat to %s\n", n.underlayAddr(IPv4), n.publicAddr())
		}
	}
	b.WriteString("  oifname \"eth0\" ip saddr 198.51.100.0/24 masquerade\n }\n}\n")
	return b.String()
}

func prefixOnOpen(a netip.Addr) string {
	if a.Is6() {
		return netip.PrefixFrom(a, 64).String()
	}
	return netip.PrefixFrom(a, openPrefixLen).String()
}

func hostOnOpen(f Family, v4, v6 netip.Addr) string {
	if f == IPv6 {
		return prefixOnOpen(v6)
	}
	return prefixOnOpen(v4)
}

// plugNode puts the node's namespace on its link: the switch when it is
// open, the router's LAN with a default route through the router when not.
func (u *underlay) plugNode(t testing.TB, n *Node, ns *netns.Netns, f Family) {
	t.Helper()
	port := "p-" + n.Name
	if n.gen != nil {
		u.plugGen(t, n, ns)
		return
	}
	if n.Site == Open {
		plug(t, u.sw, "br0", port, ns, prefixOnOpen(n.underlayAddr(f)))
		return
	}
	plug(t, u.router, "lan0", port, ns, prefixOnOpen(n.underlayAddr(IPv4)))
	ns.Run(t, "ip", "route", "add", "default", "via", routerLAN4.String())
}

// runStdin runs a host command with stdin and fails the test with its
// output on error.
func runStdin(t testing.TB, stdin string, args ...string) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin = strings.NewReader(stdin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
