package lab

import (
	"fmt"
	"net/netip"
	"slices"
	"sync"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/netns"
)

// The virtual IP, where a scenario sets Scenario.VIP: every controller's
// document enables ha with it (and makes it cluster.endpoint), k0s's
// control-plane load balancer runs in userspace (the agent sets no
// virtualServers), and the lab stands in for keepalived by putting the
// address on the first controller's eth0, unless a test runs keepalived
// in its place (Lab.Replace[keepalivedService], keepalived_test.go).

// vipAuthPass is the documents' VRRP password (nothing checks it unless
// keepalived runs, whose tests draw their own).
const vipAuthPass = "labvrrp1"

// keepalivedService names keepalived in Lab.Replace: its Starter runs on
// every controller with ha, in place of the lab's putting the address on
// the first, and the holder is then whichever controller has it.
const keepalivedService = "keepalived"

// cplbProxy is k0s's userspace load balancer (the last of Services), to
// which k0s redirects the virtual IP's API port.
var cplbProxy = Services[len(Services)-1]

// endpointPorts are what the guard admits to the cluster endpoint on a
// controller (docs/firewall.md): the API, konnectivity, the join API and
// the load balancer's proxy.
var endpointPorts = []int{6443, 8132, 9443, 6444}

// haDoc adds ha and the endpoint to a controller's document, the endpoint
// to any other's.
func haDoc(s *Scenario, n *Node, d *Doc) {
	if !s.VIP.IsValid() {
		return
	}
	if d.Extra == nil {
		d.Extra = map[string]any{}
	}
	d.Extra["cluster"] = map[string]any{"endpoint": s.VIP.Addr().String()}
	if n.ha {
		d.Extra["ha"] = map[string]any{"enabled": true, "virtualIP": s.VIP.String(), "authPass": vipAuthPass}
	}
}

// holder is the controller the virtual IP is on: with keepalived, the
// one that holds it; else where vipAt last put it, or at first the first
// with ha, or the last (Scenario.vipOnLast).
func (l *Lab) holder() *LabNode {
	if l.vipHolder != nil && l.Replace[keepalivedService] == nil {
		return l.vipHolder
	}
	var h *LabNode
	for _, ln := range l.Nodes {
		if !ln.ha {
			continue
		}
		if l.Replace[keepalivedService] != nil {
			if ln.holdsVIP(l.S.VIP) {
				return ln
			}
			continue
		}
		if !l.S.vipOnLast {
			return ln
		}
		h = ln
	}
	return h
}

// startVIP does what keepalived and k0s do on the controllers: the address
// on the holder, and on every controller the redirect of the virtual IP's
// API port to the proxy, as k0s adds it with iptables
// (cplb_linux.go:438-447: -t nat -A PREROUTING -p tcp -d VIP --dport 6443
// -j REDIRECT --to-port 6444), here in nftables' words.
func (l *Lab) startVIP(t testing.TB) {
	t.Helper()
	if !l.S.VIP.IsValid() {
		return
	}
	if start := l.Replace[keepalivedService]; start != nil {
		for _, ln := range l.Nodes {
			if ln.ha {
				start(t, ln, Service{Name: keepalivedService})
			}
		}
	} else {
		add := []string{"ip", "addr", "add", l.S.VIP.String(), "dev", "eth0"}
		if l.S.VIP.Addr().Is6() {
			add = append(add, "nodad")
		}
		l.holder().NS.Run(t, add...)
	}
	ip := "ip"
	if l.S.VIP.Addr().Is6() {
		ip = "ip6"
	}
	rule := fmt.Sprintf("table inet labcplb {\n chain pre { type nat hook prerouting priority dstnat;\n  %s daddr %s tcp dport 6443 redirect to :6444\n }\n}\n", ip, l.S.VIP.Addr())
	for _, ln := range l.Nodes {
		if ln.ha {
			runStdin(t, rule, "ip", "netns", "exec", ln.NS.Name, "nft", "-f", "-")
		}
	}
}

// checkVIP connects every node but the holder to each of the virtual IP's
// ports (endpointPorts), across the underlay as the design sends it: the
// holder must answer. Then, where the lab stands in for keepalived and the
// test does not say otherwise (Lab.noFailover), the address moves to each
// other controller with ha in turn, as keepalived moves it on a failover,
// and every node must reach it there too: a node that reaches it only
// while one controller holds it (an allowedIPs that routes it into that
// controller's tunnel) loses the cluster endpoint on the first failover.
// The address goes back to its first holder after. Where the first holder
// already fails, the failover is not tried: the cluster is broken.
func (l *Lab) checkVIP(t testing.TB, v *Verdict) {
	t.Helper()
	if !l.S.VIP.IsValid() {
		return
	}
	first := l.holder()
	if !l.checkVIPAt(first, "", v) || l.noFailover || l.Replace[keepalivedService] != nil {
		return
	}
	defer l.vipAt(t, first)
	for _, ln := range l.Nodes {
		if ln.ha && ln != first {
			l.vipAt(t, ln)
			l.checkVIPAt(ln, " while "+ln.Name+" holds it", v)
		}
	}
}

// checkVIPAt connects every node but h, the holder, to the virtual IP's
// ports, and says whether all reached h (while names the holder in a
// problem after a failover).
func (l *Lab) checkVIPAt(h *LabNode, while string, v *Verdict) bool {
	var wg sync.WaitGroup
	ok := true
	fail := func(format string, args ...any) {
		v.fail(format, args...)
		v.mu.Lock()
		ok = false
		v.mu.Unlock()
	}
	for _, ln := range l.Nodes {
		if ln == h {
			continue
		}
		for _, port := range endpointPorts {
			ap := netip.AddrPortFrom(l.S.VIP.Addr(), uint16(port))
			wg.Add(1)
			go func() {
				defer wg.Done()
				v.count()
				got, err := dialFrom(ln.NS, ap, pairTimeout)
				switch {
				case err != nil:
					fail("%s -> the virtual IP (%s)%s: does not connect: %v", ln.Name, ap, while, err)
				case l.Replace[vipService(port).Name] == nil && got != h.Name:
					fail("%s -> the virtual IP (%s)%s: answered by %q, not its holder %s", ln.Name, ap, while, got, h.Name)
				}
			}()
		}
	}
	wg.Wait()
	return ok
}

// vipService is the service that answers port at the virtual IP on its
// holder: k0s's proxy for the API port (startVIP's redirect) and its own,
// the controller's service on the port for the others.
func vipService(port int) Service {
	if port == 6443 || port == cplbProxy.Port {
		return cplbProxy
	}
	for _, svc := range Services {
		if svc.Port == port && svc.On(&Node{Role: "controller"}) {
			return svc
		}
	}
	panic(fmt.Sprintf("lab: no controller's service on %d", port))
}

// vipAt puts the virtual IP on to's eth0 and off every other controller's,
// as keepalived moves it on a failover, and flushes every namespace's
// neighbour entry for it: keepalived's gratuitous ARP (or unsolicited
// neighbour advertisement) would have told them where it went, which the
// lab's stand-in does not send.
func (l *Lab) vipAt(t testing.TB, to *LabNode) {
	t.Helper()
	vip := l.S.VIP
	for _, ln := range l.Nodes {
		if ln.ha && ln != to && ln.holdsVIP(vip) {
			ln.NS.Run(t, "ip", "addr", "del", vip.String(), "dev", "eth0")
		}
	}
	if !to.holdsVIP(vip) {
		add := []string{"ip", "addr", "add", vip.String(), "dev", "eth0"}
		if vip.Addr().Is6() {
			add = append(add, "nodad")
		}
		to.NS.Run(t, add...)
	}
	l.vipHolder = to
	nss := []*netns.Netns{l.u.attacker, l.u.router}
	for _, ln := range l.Nodes {
		nss = append(nss, ln.NS)
	}
	for _, ns := range nss {
		if ns != nil {
			ns.Run(t, "ip", "neigh", "flush", "to", vip.Addr().String())
		}
	}
}

// vipMayAnswer is whether port may answer at the virtual IP on its holder.
func vipMayAnswer(port int) bool { return slices.Contains(endpointPorts, port) }

// threeVIPControllers is three controllers sharing a virtual IP on the
// underlay and a worker, the set the virtual IP's own tests build.
func threeVIPControllers() *Scenario {
	return &Scenario{VIP: netip.MustParsePrefix("192.0.2.200/24"), Nodes: []*Node{
		{Name: "c1", Role: "controller+worker"},
		{Name: "c2", Role: "controller+worker"},
		{Name: "c3", Role: "controller+worker"},
		{Name: "w1", Role: "worker"},
	}}
}
