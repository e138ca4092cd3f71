package nft

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// peerLog is a TCP listener that records where each connection came from.
type peerLog struct {
	mu   sync.Mutex
	from []string
}

func (p *peerLog) sources() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.from...)
}

// after waits a while for the connection after the first n and returns its
// source, "" when none came.
func (p *peerLog) after(n int) string {
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if s := p.sources(); len(s) > n {
			return s[n]
		}
	}
	return ""
}

// listenLogged accepts on every address of the namespace, records each
// connection's source address, and echoes until the test ends.
func listenLogged(t *testing.T, ns *netns.Netns, port int) *peerLog {
	t.Helper()
	log := &peerLog{}
	serveEcho(t, ns, port, func(c net.Conn) {
		host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
		log.mu.Lock()
		log.from = append(log.from, net.ParseIP(host).String())
		log.mu.Unlock()
	})
	return log
}

// masqLab is two nodes joined by an underlay veth and a real userspace
// WireGuard overlay whose allowedIPs hold only the node addresses (both
// families), and a pod of node B behind kube-router's bridge, with an
// address in B's pod range and B as its gateway. A listens on 6443 and
// 10250, standing in for the API and the kubelet.
type masqLab struct {
	a, b, pod *netns.Netns
	wgA, wgB  *wgNode
	api, kub  *peerLog
}

func newMasqLab(t *testing.T) *masqLab {
	t.Helper()
	l := &masqLab{a: netns.New(t, "fw-ma"), b: netns.New(t, "fw-mb"), pod: netns.New(t, "fw-mpod")}
	netns.Veth(t, l.a, "eth0", "192.0.2.1/24", l.b, "eth0", "192.0.2.2/24")
	l.wgA = newWGNode(t, l.a, "cma", "10.10.0.1/24 fd10::1/64", "192.0.2.1", 51820)
	l.wgB = newWGNode(t, l.b, "cmb", "10.10.0.2/24 fd10::2/64", "192.0.2.2", 0)
	l.wgA.up(t, wgPeerOf{node: l.wgB, allowedIPs: []string{"10.10.0.2/32", "fd10::2/128"}})
	l.wgB.up(t, wgPeerOf{node: l.wgA, allowedIPs: []string{"10.10.0.1/32", "fd10::1/128"}, keepalive: true})
	if out, err := l.b.Try("ping", "-c", "1", "-W", "5", "10.10.0.1"); err != nil {
		t.Fatalf("ping across the overlay: %v\n%s", err, out)
	}
	kubeBridge(t, l.b, l.pod, "10.244.1.1/24 fd00:10:244::1:1/112", "10.244.1.5/24 fd00:10:244::1:5/112")
	l.pod.Run(t, "ip", "route", "add", "default", "via", "10.244.1.1")
	l.pod.Run(t, "ip", "-6", "route", "add", "default", "via", "fd00:10:244::1:1")
	l.b.Run(t, "sysctl", "-qw", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1")
	l.api, l.kub = listenLogged(t, l.a, 6443), listenLogged(t, l.a, 10250)
	return l
}

// masqFamily is one pod network and the addresses of one family.
type masqFamily struct {
	name, podCIDR, serviceCIDR string
	aAddr, bAddr               string // the node addresses on the overlay
	aLAN                       string
	patch                      string // k0s.patch, "" for none
}

var masqFamilies = []masqFamily{
	{"IPv4", "10.244.0.0/16", "10.96.0.0/12", "10.10.0.1", "10.10.0.2", "192.0.2.1", ""},
	{"IPv6", "fd00:10:244::/104", "fd00:96::/108", "fd10::1", "fd10::2", "", ""},
}

// masqConfig is a node's document in the family: kube-router, the node
// address on the overlay (listed first, in the pod network's family).
func masqConfig(t *testing.T, role schema.Role, fam masqFamily, n, peer *wgNode, clusterPorts string) *schema.Config {
	t.Helper()
	addrs := strings.Fields(n.addr)
	if strings.Contains(fam.podCIDR, ":") {
		addrs[0], addrs[1] = addrs[1], addrs[0]
	}
	peerAddrs := strings.Fields(peer.addr)
	var allowed []string
	for _, a := range peerAddrs {
		ip, _, _ := strings.Cut(a, "/")
		if strings.Contains(ip, ":") {
			allowed = append(allowed, ip+"/128")
		} else {
			allowed = append(allowed, ip+"/32")
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "role: %s\n", role)
	if role == schema.RoleWorker {
		b.WriteString("join:\n  token: " + fixture.JoinToken("") + "\n")
	}
	fmt.Fprintf(&b, "network:\n  cni: kuberouter\n  podCIDR: %s\n  serviceCIDR: %s\n", fam.podCIDR, fam.serviceCIDR)
	fmt.Fprintf(&b, "wireguard:\n  - name: %s\n    address: [%s]\n    nodeAddress: true\n    privateKey: %s\n", n.name, strings.Join(addrs, ", "), n.key)
	if n.port != 0 {
		fmt.Fprintf(&b, "    listenPort: %d\n", n.port)
	}
	fmt.Fprintf(&b, "    peers:\n      - publicKey: %s\n        allowedIPs: [%s]\n", peer.key.PublicKey(), strings.Join(allowed, ", "))
	if peer.port != 0 {
		fmt.Fprintf(&b, "        endpoint: %s\n", hostPort(peer.underIP, peer.port))
	}
	fmt.Fprintf(&b, "firewall:\n  clusterPorts: %s\n", clusterPorts)
	if fam.patch != "" {
		fmt.Fprintf(&b, "k0s:\n  patch: %s\n", fam.patch)
	}
	cfg, _, err := schema.Load([]byte(b.String()))
	if err != nil {
		t.Fatalf("the agent refuses the document: %v\n%s", err, b.String())
	}
	return cfg
}

func renderFile(t *testing.T, cfg *schema.Config) firewall.Guard {
	t.Helper()
	g, err := renderGuard(cfg)
	if err != nil {
		t.Fatal(err)
	}
	back, err := firewall.ParseFile(g.File()) // as corium-firewall reads it every boot
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// TestMasqueradeLetsPodsReachAnotherNode: a pod on B connects to A's
// overlay address, where A's listeners stand in for the API (reached
// there after kube-proxy translates the kubernetes service) and the kubelet
// (metrics-server). kube-router sends that packet straight out of B's
// WireGuard interface with the pod's source, which A's WireGuard drops, as
// it is in none of B's allowedIPs. With B's table masquerading it, the
// connection arrives from B's node address, and A's guard, on, admits it
// because it comes in on the overlay; with B's guard off (clusterPorts
// open) the table holds the masquerade alone and reads as that. Controls:
// the nat chain deleted, and no table at all, and the pod is cut off again,
// without A's guard seeing a packet.
func TestMasqueradeLetsPodsReachAnotherNode(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "wg", "wireguard-go", "ping", "sysctl")
	l := newMasqLab(t)
	connA, connB := l.a.Nftables(t), l.b.Nftables(t)
	t.Cleanup(func() {
		_ = Remove(context.Background(), connA)
		_ = Remove(context.Background(), connB)
	})
	for _, fam := range masqFamilies {
		t.Run(fam.name, func(t *testing.T) {
			guardA := renderFile(t, masqConfig(t, schema.RoleControllerWorker, fam, l.wgA, l.wgB, "overlay"))
			if !guardA.On {
				t.Fatalf("A's guard is off: %+v", guardA)
			}
			mustApply(t, connA, guardA)
			if fam.aLAN != "" { // A's guard is in force: its underlay is closed
				expectDropped(t, l.b, fam.aLAN, 6443)
			}
			reach := func(t *testing.T, want bool, what string) {
				t.Helper()
				for _, p := range []struct {
					port int
					log  *peerLog
				}{{6443, l.api}, {10250, l.kub}} {
					drops := guardedDrops(t, connA, setTCP)
					seen := len(p.log.sources())
					err := dial(l.pod, "", hostPort(fam.aAddr, p.port))
					switch {
					case want && err != nil:
						t.Errorf("%s: pod -> %s: %v; want reachable", what, hostPort(fam.aAddr, p.port), err)
					case want && p.log.after(seen) != fam.bAddr:
						t.Errorf("%s: A saw the pod's connection to %d from %q, want B's node address %s", what, p.port, p.log.after(seen), fam.bAddr)
					case !want && err == nil:
						t.Errorf("%s: pod -> %s connected; want it lost", what, hostPort(fam.aAddr, p.port))
					case !want && !isTimeout(err):
						t.Errorf("%s: pod -> %s: %v; want a timeout", what, hostPort(fam.aAddr, p.port), err)
					case !want && len(p.log.sources()) != seen:
						t.Errorf("%s: A accepted a connection to %d it should never have seen", what, p.port)
					}
					if after := guardedDrops(t, connA, setTCP); after != drops {
						t.Errorf("%s: A's guard dropped %d packets of the pod's connection to %d; it comes over the overlay", what, after-drops, p.port)
					}
				}
			}

			open := renderFile(t, masqConfig(t, schema.RoleWorker, fam, l.wgB, l.wgA, "open"))
			if open.On || !open.Masquerade {
				t.Fatalf("B with clusterPorts open: %+v; want the masquerade alone", open)
			}
			mustApply(t, connB, open)
			r := mustState(t, connB, open, Current)
			if !strings.Contains(r.Reason, "pod masquerade only") || !strings.Contains(r.Reason, "the guard is off") {
				t.Errorf("B's table with the masquerade alone reads %q", r.Reason)
			}
			before := counted(t, connB, natChainName, "", "") // alone, it carries the marker
			reach(t, true, "B's guard off, masquerading")
			if after := counted(t, connB, natChainName, "", ""); after == before {
				t.Error("B's masquerade rule counted none of the pod's packets")
			}

			guarded := renderFile(t, masqConfig(t, schema.RoleWorker, fam, l.wgB, l.wgA, "overlay"))
			if !guarded.On || !guarded.Masquerade {
				t.Fatalf("B with clusterPorts overlay: %+v; want the guard and the masquerade", guarded)
			}
			mustApply(t, connB, guarded)
			reach(t, true, "B's guard on, masquerading")

			l.b.Run(t, "nft", "flush", "chain", "inet", "corium", natChainName)
			l.b.Run(t, "nft", "delete", "chain", "inet", "corium", natChainName)
			mustState(t, connB, guarded, Stale)
			reach(t, false, "B's nat chain deleted")

			if err := Remove(context.Background(), connB); err != nil {
				t.Fatal(err)
			}
			r = mustState(t, connB, open, Missing)
			if !strings.Contains(r.Reason, "pods' packets to other nodes' addresses") || strings.Contains(r.Reason, "cluster ports are open") {
				t.Errorf("B's missing masquerade reads %q", r.Reason)
			}
			reach(t, false, "no table on B")
		})
	}
}
