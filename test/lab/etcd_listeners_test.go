package lab

import (
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// etcd's listeners as k0s's flags open them (etcd.go:173, 176): the peer
// URL at spec.storage.etcd.peerAddress, the client URL on loopback. k0s
// passes no --listen-metrics-urls, so etcd opens nothing else.
var etcdClientListener = netip.MustParseAddrPort("127.0.0.1:2379")

// listeners is each TCP socket the member's etcd process listens on, as ss
// lists it with its process in the node's namespace.
func (p *etcdProc) listeners(t testing.TB) []netip.AddrPort {
	t.Helper()
	out := p.ln.NS.Run(t, "ss", "-Htlnp")
	var ls []netip.AddrPort
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || !strings.Contains(line, "pid="+strconv.Itoa(p.pid)+",") {
			continue
		}
		local := f[3]
		if strings.HasPrefix(local, "*:") {
			local = "[::]" + local[1:] // a socket on every address of both families
		}
		a, err := netip.ParseAddrPort(local)
		if err != nil {
			t.Fatalf("%s: ss: %q: %v", p.ln.Name, line, err)
		}
		ls = append(ls, a)
	}
	return ls
}

// checkListeners adds to the verdict each socket etcd listens on that k0s's
// flags do not open, either of those it does not open, and each the
// underlay reaches: the open network's scan for etcd, which listens on
// addresses the lab's scan of the node's own addresses never sends to. A
// listener on a node address is probed there; one on another address (the
// overlay's peer address) by sending to it through the node, as any
// neighbour on its link can; one on loopback is out of reach while the
// node keeps route_localnet off (the kernel drops a packet for 127.0.0.0/8
// that arrives from outside), which is checked instead.
func (ec *etcdCluster) checkListeners(t testing.TB, l *Lab, v *Verdict) {
	t.Helper()
	for _, p := range ec.members {
		peer := netip.AddrPortFrom(p.ln.etcdPeerAddress(t), 2380)
		ls := p.listeners(t)
		for _, want := range []netip.AddrPort{peer, etcdClientListener} {
			v.count()
			if !slices.Contains(ls, want) {
				v.fail("%s: etcd does not listen on %s", p.ln.Name, want)
			}
		}
		for _, a := range ls {
			v.count()
			if a != peer && a != etcdClientListener {
				v.fail("%s: etcd listens on %s, which k0s's flags do not open", p.ln.Name, a)
			}
			if a.Addr().IsLoopback() {
				if on := p.ln.routeLocalnet(t); on != "" {
					v.fail("%s: etcd's %s is on loopback, but %s lets the underlay send to it", p.ln.Name, a, on)
				}
				continue
			}
			if to, ok := l.underlayReachesListener(t, p.ln, a); ok {
				what := "listener"
				if a == peer {
					what = "peer port"
				}
				v.fail("%s: the underlay reaches etcd's %s at %s", p.ln.Name, what, to)
			}
		}
	}
}

// underlayReachesListener is whether the attacker on the underlay connects
// to a socket listening at a on the node, and where it sent: to the node's
// underlay address for a socket on every address or on that one, else to
// the socket's own address through the node.
func (l *Lab) underlayReachesListener(t testing.TB, ln *LabNode, a netip.AddrPort) (string, bool) {
	t.Helper()
	under := ln.underlayAddr(l.S.Underlay)
	if a.Addr().IsUnspecified() || a.Addr() == under {
		to := netip.AddrPortFrom(under, a.Port())
		_, err := dialFrom(l.u.attacker, to, probeTimeout)
		return to.String(), err == nil
	}
	return a.String(), l.underlayReaches(t, ln, a.Addr().String(), int(a.Port()))
}

// routeLocalnet names the node's route_localnet settings that are on, if
// any: with one on, the kernel routes a packet for 127.0.0.0/8 that
// arrives on that interface to the node's loopback sockets.
func (ln *LabNode) routeLocalnet(t testing.TB) string {
	t.Helper()
	var on []string
	for _, k := range []string{"net.ipv4.conf.all.route_localnet", "net.ipv4.conf.eth0.route_localnet"} {
		if strings.TrimSpace(ln.NS.Run(t, "sysctl", "-n", k)) != "0" {
			on = append(on, k)
		}
	}
	return strings.Join(on, ", ")
}

// checkOverlay adds to the verdict each member whose peer URL is not at
// its node's overlay address: the address the agent chose for the node
// (nodeAddress on the wireguard interface) is where etcd peers, as k0s
// formats it into a URL (storage.go:201-207, brackets around IPv6).
func (ec *etcdCluster) checkOverlay(v *Verdict) {
	for _, p := range ec.members {
		v.count()
		want := (&url.URL{Scheme: "https", Host: net.JoinHostPort(p.ln.OverlayAddr().String(), "2380")}).String()
		if p.peerURL != want {
			v.fail("%s: etcd peers at %s, not at its overlay address (%s)", p.ln.Name, p.peerURL, want)
		}
	}
}
