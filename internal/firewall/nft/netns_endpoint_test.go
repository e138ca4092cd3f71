package nft

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/nftables"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// endpointLab is three nodes on one underlay LAN (veths on a bridge in a
// switch namespace) joined by a real userspace WireGuard overlay: ctl1, the
// guarded controller, holding the control plane's virtual IP on its eth0
// as keepalived would; ctl2, a second controller; wrk, a worker. ctl1
// listens on every port a controller role can have.
type endpointLab struct {
	ctl1, ctl2, wrk *netns.Netns
	wg1, wg2, wg3   *wgNode
}

const (
	epLAN1, epLAN2, epLAN3 = "192.0.2.1", "192.0.2.2", "192.0.2.3"
	epLAN1v6, epLAN2v6     = "2001:db8:1::1", "2001:db8:1::2"
	epVIP4, epVIP6         = "192.0.2.100", "2001:db8:1::100"
	epOverlay1             = "10.10.0.1"
)

func newEndpointLab(t *testing.T) *endpointLab {
	t.Helper()
	l := &endpointLab{
		ctl1: netns.New(t, "fw-ctl1"),
		ctl2: netns.New(t, "fw-ctl2"),
		wrk:  netns.New(t, "fw-wrk"),
	}
	sw := netns.New(t, "fw-sw")
	sw.Run(t, "ip", "link", "add", "br0", "type", "bridge")
	sw.Run(t, "ip", "link", "set", "br0", "up")
	for i, n := range []struct {
		ns    *netns.Netns
		addrs string
	}{
		{l.ctl1, epLAN1 + "/24 " + epLAN1v6 + "/64"},
		{l.ctl2, epLAN2 + "/24 " + epLAN2v6 + "/64"},
		{l.wrk, epLAN3 + "/24 2001:db8:1::3/64"},
	} {
		port := fmt.Sprintf("p%d", i+1)
		netns.Veth(t, sw, port, "", n.ns, "eth0", n.addrs)
		sw.Run(t, "ip", "link", "set", port, "master", "br0")
	}
	// The virtual IP, as keepalived adds it: a second address on eth0.
	addAddrs(t, l.ctl1, "eth0", epVIP4+"/24 "+epVIP6+"/64")

	l.wg1 = newWGNode(t, l.ctl1, "cep1", epOverlay1+"/24", epLAN1, 51820)
	l.wg2 = newWGNode(t, l.ctl2, "cep2", "10.10.0.2/24", epLAN2, 0)
	l.wg3 = newWGNode(t, l.wrk, "cep3", "10.10.0.3/24", epLAN3, 0)
	l.wg1.up(t, wgPeerOf{node: l.wg2, allowedIPs: []string{"10.10.0.2/32"}}, wgPeerOf{node: l.wg3, allowedIPs: []string{"10.10.0.3/32"}})
	for _, n := range []*wgNode{l.wg2, l.wg3} {
		n.up(t, wgPeerOf{node: l.wg1, allowedIPs: []string{epOverlay1 + "/32"}, keepalive: true})
		if out, err := n.ns.Try("ping", "-c", "1", "-W", "5", epOverlay1); err != nil {
			t.Fatalf("ping across the overlay from %s: %v\n%s", n.ns.Name, err, out)
		}
	}
	for _, p := range []int{6443, 8132, 9443, 10250, 2380} {
		listen(t, l.ctl1, p)
	}
	return l
}

// epNode is a node of the lab as its document describes it.
type epNode struct {
	role     schema.Role
	wg       *wgNode
	peers    []*wgNode
	joins    bool
	endpoint string
	public   []int
}

// yaml is the node's document: its overlay as the lab runs it, guarded.
func (n epNode) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "role: %s\ncluster:\n  endpoint: %q\n", n.role, n.endpoint)
	if n.joins {
		token := fixture.JoinToken("")
		if n.role.IsController() {
			token = fixture.ControllerJoinToken("") // the kind k0s wants of a joining controller
		}
		b.WriteString("join:\n  token: " + token + "\n")
	}
	fmt.Fprintf(&b, "wireguard:\n  - name: %s\n    address: %s\n    nodeAddress: true\n    privateKey: %s\n", n.wg.name, n.wg.addr, n.wg.key)
	if n.wg.port != 0 {
		fmt.Fprintf(&b, "    listenPort: %d\n", n.wg.port)
	}
	b.WriteString("    peers:\n")
	for _, p := range n.peers {
		fmt.Fprintf(&b, "      - publicKey: %s\n", p.key.PublicKey())
		if p.port != 0 {
			fmt.Fprintf(&b, "        endpoint: %s\n", hostPort(p.underIP, p.port))
		}
		addr, _, _ := strings.Cut(p.addr, "/")
		fmt.Fprintf(&b, "        allowedIPs: [%s/32]\n", addr)
	}
	b.WriteString("firewall:\n  clusterPorts: overlay\n")
	if len(n.public) > 0 {
		fmt.Fprintf(&b, "  publicPorts: %s\n", strings.Join(strings.Fields(fmt.Sprint(n.public)), ", "))
	}
	return b.String()
}

// load validates the document as the agent does and renders its guard.
func (n epNode) load(t *testing.T) (firewall.Guard, schema.Findings) {
	t.Helper()
	cfg, fs, err := schema.Load([]byte(n.yaml()))
	if err != nil {
		t.Fatalf("the agent refuses %s's document: %v\n%s", n.role, err, n.yaml())
	}
	g, err := renderGuard(cfg)
	if err != nil {
		t.Fatalf("rendering %s's guard: %v", n.role, err)
	}
	return g, fs
}

// TestGuardAdmitsTheClusterEndpoint programs, from their rendered guards,
// the guard of a controller (in each controller role), of a second
// controller and of a worker, for each kind of cluster.endpoint the agent
// accepts with clusterPorts overlay, and checks with packets that the second
// controller reaches 6443, 8132 and 9443 and the worker 6443 and 8132 at
// the endpoint, along the path the endpoint implies: through the WireGuard
// tunnel for an overlay address, over the underlay to the virtual IP on the
// guarded node's eth0 otherwise. Controls: off the overlay, the guarded
// node's own underlay address stays dropped, and counted, on 6443, and so
// do the virtual IP's ports other than the endpoint's (the kubelet, etcd).
func TestGuardAdmitsTheClusterEndpoint(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "wg", "wireguard-go", "ping")
	l := newEndpointLab(t)
	conns := map[*netns.Netns]*nftables.Conn{l.ctl1: l.ctl1.Nftables(t), l.ctl2: l.ctl2.Nftables(t), l.wrk: l.wrk.Nftables(t)}
	t.Cleanup(func() {
		for _, c := range conns {
			_ = Remove(context.Background(), c)
		}
	})

	for _, kind := range []struct {
		name, endpoint, dialAt, ownUnderlay string
		public                              []int
		warns                               bool // validation says what the guard admits
	}{
		{"overlay address", epOverlay1, epOverlay1, epLAN1, nil, false},
		{"underlay virtual IP", epVIP4, epVIP4, epLAN1, nil, true},
		{"underlay IPv6 virtual IP", epVIP6, epVIP6, epLAN1v6, nil, true},
		{"name with the endpoint's ports public", "api.k8s.example.net", epVIP4, "", []int{6443, 8132, 9443}, false},
	} {
		for _, role := range []schema.Role{schema.RoleSingle, schema.RoleController, schema.RoleControllerWorker} {
			t.Run(kind.name+"/"+string(role), func(t *testing.T) {
				nodes := map[*netns.Netns]epNode{
					l.ctl1: {role: role, wg: l.wg1, peers: []*wgNode{l.wg2, l.wg3}, endpoint: kind.endpoint, public: kind.public},
					l.ctl2: {role: schema.RoleController, wg: l.wg2, peers: []*wgNode{l.wg1}, joins: true, endpoint: kind.endpoint, public: kind.public},
					l.wrk:  {role: schema.RoleWorker, wg: l.wg3, peers: []*wgNode{l.wg1}, joins: true, endpoint: kind.endpoint},
				}
				var guarded firewall.Guard
				for ns, n := range nodes {
					g, fs := n.load(t)
					if ns == l.ctl1 {
						guarded = g
						if warned := hasFinding(fs, "cluster.endpoint"); warned != kind.warns {
							t.Errorf("a warning on cluster.endpoint = %v, want %v: %v", warned, kind.warns, fs)
						}
					}
					// Through the file, as corium-firewall applies it.
					back, err := firewall.ParseFile(g.File())
					if err != nil {
						t.Fatal(err)
					}
					mustApply(t, conns[ns], back)
				}
				conn := conns[l.ctl1]
				endpointBefore := droppedBy(t, conn, commentEndpoint, "")
				for _, c := range []struct {
					ns    *netns.Netns
					ports []int
				}{{l.ctl2, []int{6443, 8132, 9443}}, {l.wrk, []int{6443, 8132}}} {
					for _, p := range c.ports {
						if err := dial(c.ns, "", hostPort(kind.dialAt, p)); err != nil {
							t.Errorf("%s -> %s: %v; want reachable", c.ns.Name, hostPort(kind.dialAt, p), err)
						}
					}
				}
				if kind.warns {
					if got := droppedBy(t, conn, commentEndpoint, "") - endpointBefore; got < 5 {
						t.Errorf("the endpoint rule counted %d packets for the five connections, want at least 5", got)
					}
				}
				if kind.ownUnderlay != "" {
					before := guardedDrops(t, conn, setTCP)
					expectDropped(t, l.ctl2, kind.ownUnderlay, 6443)
					if after := guardedDrops(t, conn, setTCP); after == before {
						t.Errorf("%s:6443, the node's own underlay address, was not counted by the guarded-port rules", kind.ownUnderlay)
					}
				}
				for _, p := range []int{10250, 2380} {
					if kind.dialAt == epOverlay1 || !slices.Contains(guarded.Ports, firewall.Port{Number: p, Proto: "tcp"}) {
						continue // over the overlay, or not a port of this role
					}
					before := guardedDrops(t, conn, setTCP)
					expectDropped(t, l.ctl2, kind.dialAt, p)
					if after := guardedDrops(t, conn, setTCP); after == before {
						t.Errorf("%s, not an endpoint port, was not counted by the guarded-port rules", hostPort(kind.dialAt, p))
					}
				}
			})
		}
	}
}

func hasFinding(fs schema.Findings, path string) bool {
	for _, f := range fs {
		if f.Path == path {
			return true
		}
	}
	return false
}
