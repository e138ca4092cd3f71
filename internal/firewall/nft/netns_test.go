package nft

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/nftables"
	"github.com/google/nftables/expr"
	"github.com/google/nftables/userdata"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// listen accepts TCP connections on every address of the namespace, v4 and
// v6, and echoes what they send, until the test ends.
func listen(t *testing.T, ns *netns.Netns, port int) { serveEcho(t, ns, port, nil) }

// serveEcho is listen, calling seen (when not nil) with each connection
// before echoing on it.
func serveEcho(t *testing.T, ns *netns.Netns, port int, seen func(net.Conn)) {
	t.Helper()
	var l net.Listener
	if err := ns.Do(func() (err error) {
		l, err = net.Listen("tcp", fmt.Sprintf("[::]:%d", port))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			if seen != nil {
				seen(c)
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
}

// dial opens a real TCP connection from the namespace (from the given source
// address when it is not ""). A dropped SYN shows as a timeout.
func dial(ns *netns.Netns, from, to string) error {
	return ns.Do(func() error {
		d := net.Dialer{Timeout: 1500 * time.Millisecond}
		if from != "" {
			d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
		}
		c, err := d.Dial("tcp", to)
		if err != nil {
			return err
		}
		return c.Close()
	})
}

// forgedDrops sums the counters of the forged-source drop rules.
func forgedDrops(t *testing.T, conn *nftables.Conn) uint64 {
	return droppedBy(t, conn, commentForged, "")
}

// guardedDrops sums the counters of the guarded-port drop rules that look up
// set (one set per protocol).
func guardedDrops(t *testing.T, conn *nftables.Conn, set string) uint64 {
	return droppedBy(t, conn, commentGuarded, set)
}

// droppedBy sums the packet counters of the input chain's rules carrying
// comment; with a set, only of those that look it up.
func droppedBy(t *testing.T, conn *nftables.Conn, comment, set string) uint64 {
	t.Helper()
	return counted(t, conn, chainName, comment, set)
}

// counted sums the packet counters of the chain's rules carrying comment
// (every rule for ""); with a set, only of those that look it up.
func counted(t *testing.T, conn *nftables.Conn, chain, comment, set string) uint64 {
	t.Helper()
	rules, err := conn.GetRules(table(), &nftables.Chain{Name: chain, Table: table()})
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, r := range rules {
		if c, _ := userdata.GetString(r.UserData, userdata.TypeComment); comment != "" && c != comment {
			continue
		}
		usesSet := set == ""
		for _, e := range r.Exprs {
			if l, ok := e.(*expr.Lookup); ok && l.SetName == set {
				usesSet = true
			}
		}
		for _, e := range r.Exprs {
			if ctr, ok := e.(*expr.Counter); ok && usesSet {
				n += ctr.Packets
			}
		}
	}
	return n
}

// lab is the server namespace with its three links and a client on each: a
// public veth (the default route, as on a node), a link named like the
// config's wireguard interface, and kube-router's bridge with a pod on it.
type lab struct {
	srv, pub, ovl, pod *netns.Netns
}

const (
	guardedPort = 10250
	publicPort  = 6443
	otherPort   = 2222 // not a k0s port: the guard must leave it alone
	srvPub4     = "192.0.2.1"
	srvPub6     = "2001:db8:1::1"
	srvOvl4     = "198.51.100.1"
	srvOvl6     = "2001:db8:2::1"
)

// newBaseLab is the server with its public link (the default route, as on a
// node) and its overlay-named link, each with a client, and listeners on a
// guarded, a public and an unguarded port: the lab before any CNI.
func newBaseLab(t *testing.T) *lab {
	l := &lab{
		srv: netns.New(t, "fw-srv"),
		pub: netns.New(t, "fw-pub"),
		ovl: netns.New(t, "fw-ovl"),
	}
	// The kernel's own reverse-path filter would drop the forged packets
	// before the guard sees them; turn it off so the guard is what is tested.
	for _, dev := range []string{"all", "default"} {
		l.srv.Run(t, "sysctl", "-qw", "net.ipv4.conf."+dev+".rp_filter=0")
	}
	netns.Veth(t, l.srv, "eth0", srvPub4+"/24 "+srvPub6+"/64", l.pub, "eth0", "192.0.2.2/24 2001:db8:1::2/64")
	netns.Veth(t, l.srv, "wg0", srvOvl4+"/24 "+srvOvl6+"/64", l.ovl, "eth0", "198.51.100.2/24 2001:db8:2::2/64")
	for _, dev := range []string{"eth0", "wg0"} {
		l.srv.Run(t, "sysctl", "-qw", "net.ipv4.conf."+dev+".rp_filter=0")
	}
	l.srv.Run(t, "ip", "route", "add", "default", "via", "192.0.2.2")
	l.srv.Run(t, "ip", "-6", "route", "add", "default", "via", "2001:db8:1::2")
	listen(t, l.srv, guardedPort)
	listen(t, l.srv, publicPort)
	listen(t, l.srv, otherPort)
	return l
}

// newLab is the base lab with a pod of this node on kube-router's bridge,
// and one of the node's own pod addresses on the public client, forged.
func newLab(t *testing.T) *lab {
	l := newBaseLab(t)
	l.pod = netns.New(t, "fw-pod")
	kubeBridge(t, l.srv, l.pod, "10.244.0.1/24 fd00:10:244::1/64", "10.244.0.5/24 fd00:10:244::5/64")
	l.pod.Run(t, "ip", "route", "add", "default", "via", "10.244.0.1")
	l.pod.Run(t, "ip", "-6", "route", "add", "default", "via", "fd00:10:244::1")
	l.pub.Run(t, "ip", "addr", "add", "10.244.0.99/32", "dev", "eth0")
	l.pub.Run(t, "ip", "addr", "add", "fd00:10:244::99/128", "dev", "eth0", "nodad")
	return l
}

func hostPort(addr string, port int) string { return net.JoinHostPort(addr, fmt.Sprint(port)) }

func (l *lab) expect(t *testing.T, reachable bool, ns *netns.Netns, from, to string, port int) {
	t.Helper()
	err := dial(ns, from, hostPort(to, port))
	switch {
	case reachable && err != nil:
		t.Errorf("%s (from %q) -> %s: %v; want reachable", ns.Name, from, hostPort(to, port), err)
	case !reachable && err == nil:
		t.Errorf("%s (from %q) -> %s connected; want it dropped", ns.Name, from, hostPort(to, port))
	case !reachable && !isTimeout(err):
		t.Errorf("%s (from %q) -> %s: %v; want a timeout (a dropped SYN)", ns.Name, from, hostPort(to, port), err)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// expectDropped dials and wants the SYN dropped: a timeout, not a refusal.
func expectDropped(t *testing.T, ns *netns.Netns, to string, port int) {
	t.Helper()
	err := dial(ns, "", hostPort(to, port))
	switch {
	case err == nil:
		t.Errorf("%s -> %s connected; want it dropped", ns.Name, hostPort(to, port))
	case !isTimeout(err):
		t.Errorf("%s -> %s: %v; want a timeout (a dropped SYN)", ns.Name, hostPort(to, port), err)
	}
}

var counterValues = regexp.MustCompile(`counter packets \d+ bytes \d+`)

const foreignRules = `table inet foreign {
	set blocked { type ipv4_addr; elements = { 203.0.113.7 } }
	chain input {
		type filter hook input priority 10; policy accept;
		ip saddr @blocked drop
		tcp dport 9 reject
	}
}
table ip nat {
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		oifname "eth0" ip saddr 10.244.0.0/16 masquerade
	}
}
`

func TestGuardWithPackets(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl")
	ctx := context.Background()
	l := newLab(t)
	conn := l.srv.Nftables(t)

	// A foreign ruleset the guard must never touch.
	l.srv.Run(t, "sh", "-c", "nft -f - <<'EOF'\n"+foreignRules+"EOF")
	foreign := func() string {
		return l.srv.Run(t, "nft", "list", "table", "inet", "foreign") + l.srv.Run(t, "nft", "list", "table", "ip", "nat")
	}
	before := foreign()

	g := labGuard(t, func(*schema.Config) {})

	t.Run("open before the guard", func(t *testing.T) {
		mustState(t, conn, g, Missing)
		l.expect(t, true, l.pub, "", srvPub4, guardedPort)
		l.expect(t, true, l.pub, "", srvPub6, guardedPort)
	})

	// Connections open before the guard loads keep working: only new ones
	// are dropped. The IPv4 one is tracked (the foreign nat table turned
	// conntrack on for IPv4); nothing tracks IPv6 before the guard loads.
	var open []net.Conn
	for _, addr := range []string{srvPub4, srvPub6} {
		if err := l.pub.Do(func() error {
			c, err := net.Dial("tcp", hostPort(addr, guardedPort))
			open = append(open, c)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		defer open[len(open)-1].Close()
	}

	if err := Apply(ctx, conn, g); err != nil {
		t.Fatal(err)
	}
	// Counter values aside (a stray packet may land between the two), the
	// second apply must rebuild the very same table.
	listOwn := func() string {
		return counterValues.ReplaceAllString(l.srv.Run(t, "nft", "list", "table", "inet", "corium"), "counter")
	}
	first := listOwn()
	if err := Apply(ctx, conn, g); err != nil {
		t.Fatal(err)
	}
	if again := listOwn(); again != first {
		t.Fatalf("a second apply changed the table:\n%s\nthen\n%s", first, again)
	}
	rules, err := conn.GetRules(table(), &nftables.Chain{Name: chainName, Table: table()})
	if err != nil || len(rules) != kubeRouterRules {
		t.Fatalf("after two applies: %d rules, %v; want one copy of each of %d", len(rules), err, kubeRouterRules)
	}
	mustState(t, conn, g, Current)
	if after := foreign(); after != before {
		t.Fatalf("apply changed the foreign tables:\n%s\nthen\n%s", before, after)
	}

	t.Run("guarded port", func(t *testing.T) {
		l.expect(t, false, l.pub, "", srvPub4, guardedPort)
		l.expect(t, false, l.pub, "", srvPub6, guardedPort)
		l.expect(t, true, l.ovl, "", srvOvl4, guardedPort)
		l.expect(t, true, l.ovl, "", srvOvl6, guardedPort)
		l.expect(t, true, l.pod, "", srvPub4, guardedPort) // a pod reaches its node's own address
		l.expect(t, true, l.srv, "", "127.0.0.1", guardedPort)
		l.expect(t, true, l.srv, "", "::1", guardedPort)
		l.expect(t, true, l.srv, "", srvPub4, guardedPort)
	})
	t.Run("established connections survive", func(t *testing.T) {
		for _, c := range open {
			_ = c.SetDeadline(time.Now().Add(2 * time.Second))
			if _, err := c.Write([]byte("ping")); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 4)
			if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "ping" {
				t.Errorf("echo over %s, opened before the guard: %q, %v", c.RemoteAddr(), buf, err)
			}
		}
	})
	t.Run("other ports untouched", func(t *testing.T) {
		l.expect(t, true, l.pub, "", srvPub4, otherPort)
		l.expect(t, true, l.pub, "", srvPub6, otherPort)
	})
	t.Run("public port", func(t *testing.T) {
		l.expect(t, true, l.pub, "", srvPub4, publicPort)
		l.expect(t, true, l.pub, "", srvPub6, publicPort)
		l.expect(t, true, l.ovl, "", srvOvl4, publicPort)
		l.expect(t, true, l.ovl, "", srvOvl6, publicPort)
	})
	t.Run("forged pod source on the public link", func(t *testing.T) {
		if n := forgedDrops(t, conn); n != 0 {
			t.Fatalf("forged-source counter is %d before any forged packet", n)
		}
		l.expect(t, false, l.pub, "10.244.0.99", srvPub4, guardedPort)
		if n := forgedDrops(t, conn); n == 0 {
			t.Fatal("the forged pod source was not dropped by the forged-source rule (counter 0)")
		}
	})

	t.Run("stale after an edit behind the agent's back", func(t *testing.T) {
		l.srv.Run(t, "nft", "insert", "rule", "inet", "corium", "input", "tcp", "dport", "10250", "accept")
		mustState(t, conn, g, Stale)
		l.expect(t, true, l.pub, "", srvPub4, guardedPort) // the edit really opened it
		if err := Apply(ctx, conn, g); err != nil {
			t.Fatal(err)
		}
		mustState(t, conn, g, Current)
		l.expect(t, false, l.pub, "", srvPub4, guardedPort)

		l.srv.Run(t, "nft", "delete", "element", "inet", "corium", "tcp_ports", "{ 10250 }")
		mustState(t, conn, g, Stale)
		if err := Apply(ctx, conn, g); err != nil {
			t.Fatal(err)
		}
		mustState(t, conn, g, Current)

		// A chain of its own added to the table, even an empty one, is stale.
		l.srv.Run(t, "nft", "add", "chain", "inet", "corium", "extra")
		r := mustState(t, conn, g, Stale)
		if !strings.Contains(r.Reason, "it holds 6 chains and sets, want 5") { // with the masquerade's chain
			t.Errorf("stale reason = %q", r.Reason)
		}
		if err := Apply(ctx, conn, g); err != nil {
			t.Fatal(err)
		}
		mustState(t, conn, g, Current)

		other := g
		other.Ports = other.Ports[:len(other.Ports)-1]
		mustState(t, conn, other, Stale)
		mustState(t, conn, firewall.Guard{}, Stale)
	})
	if after := foreign(); after != before {
		t.Fatalf("re-apply changed the foreign tables:\n%s\nthen\n%s", before, after)
	}

	t.Run("remove reopens", func(t *testing.T) {
		if err := Remove(ctx, conn); err != nil {
			t.Fatal(err)
		}
		if err := Remove(ctx, conn); err != nil {
			t.Fatalf("removing a missing table: %v", err)
		}
		mustState(t, conn, g, Missing)
		mustState(t, conn, firewall.Guard{}, Off)
		l.expect(t, true, l.pub, "", srvPub4, guardedPort)
		l.expect(t, true, l.pub, "", srvPub6, guardedPort)
	})
	if after := foreign(); after != before {
		t.Fatalf("remove changed the foreign tables:\n%s\nthen\n%s", before, after)
	}
}

// TestGuardIPv6PodNetwork is the pod half again with an IPv6 pod network.
func TestGuardIPv6PodNetwork(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl")
	l := newLab(t)
	conn := l.srv.Nftables(t)
	g := labGuard(t, func(cfg *schema.Config) { cfg.Network.PodCIDR = "fd00:10:244::/56" })
	if err := Apply(context.Background(), conn, g); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = Remove(context.Background(), conn) })
	mustState(t, conn, g, Current)

	l.expect(t, true, l.pod, "", srvPub6, guardedPort)
	l.expect(t, false, l.pod, "", srvPub4, guardedPort) // a v4 source is not in a v6 pod network
	l.expect(t, false, l.pub, "", srvPub6, guardedPort)
	l.expect(t, false, l.pub, "fd00:10:244::99", srvPub6, guardedPort)
	if n := forgedDrops(t, conn); n == 0 {
		t.Fatal("the forged IPv6 pod source was not dropped by the forged-source rule (counter 0)")
	}
}

// TestGuardUDP sends real datagrams to calico's VXLAN port: dropped from the
// public link, delivered over the overlay-named one.
func TestGuardUDP(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl")
	l := newLab(t)
	conn := l.srv.Nftables(t)
	g := labGuard(t, func(cfg *schema.Config) { cfg.Network.CNI = "calico" })
	var pc net.PacketConn
	if err := l.srv.Do(func() (err error) { pc, err = net.ListenPacket("udp", "[::]:4789"); return err }); err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	got := make(chan string, 16)
	go func() {
		buf := make([]byte, 64)
		for {
			n, _, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			got <- string(buf[:n])
		}
	}()
	send := func(ns *netns.Netns, to, msg string) {
		t.Helper()
		if err := ns.Do(func() error {
			c, err := net.Dial("udp", hostPort(to, 4789))
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
	received := func(msg string) bool {
		for {
			select {
			case m := <-got:
				if m == msg {
					return true
				}
			case <-time.After(700 * time.Millisecond):
				return false
			}
		}
	}

	if err := Apply(context.Background(), conn, g); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = Remove(context.Background(), conn) })

	send(l.pub, srvPub4, "public-v4")
	send(l.pub, srvPub6, "public-v6")
	if received("public-v4") || received("public-v6") {
		t.Error("a datagram to the guarded udp port arrived from the public link")
	}
	if n := guardedDrops(t, conn, setUDP); n < 2 {
		t.Errorf("guarded udp drop counter = %d, want at least 2", n)
	}
	send(l.ovl, srvOvl4, "overlay-v4")
	if !received("overlay-v4") {
		t.Error("a datagram over the overlay-named link did not arrive")
	}
	send(l.ovl, srvOvl6, "overlay-v6")
	if !received("overlay-v6") {
		t.Error("an IPv6 datagram over the overlay-named link did not arrive")
	}
}

// labGuard renders the overlay config with only wg0, the link the lab's
// overlay client is on, after change.
func labGuard(t *testing.T, change func(*schema.Config)) firewall.Guard {
	t.Helper()
	cfg := overlayConfig()
	cfg.WireGuard = cfg.WireGuard[:1]
	change(cfg)
	g, err := renderGuard(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
