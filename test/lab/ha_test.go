package lab

import (
	"fmt"
	"net/netip"
	"slices"
	"sync"
	"testing"
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
// one that holds it; else the first with ha, or the last
// (Scenario.vipOnLast).
func (l *Lab) holder() *LabNode {
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

// checkVIP connects every node but the holder to the virtual IP's API
// port, across the underlay as the design sends it: the holder's proxy
// must answer.
func (l *Lab) checkVIP(t testing.TB, v *Verdict) {
	t.Helper()
	if !l.S.VIP.IsValid() {
		return
	}
	h := l.holder()
	ap := netip.AddrPortFrom(l.S.VIP.Addr(), 6443)
	var wg sync.WaitGroup
	for _, ln := range l.Nodes {
		if ln == h {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			v.count()
			got, err := dialFrom(ln.NS, ap, pairTimeout)
			switch {
			case err != nil:
				v.fail("%s -> the virtual IP (%s): does not connect: %v", ln.Name, ap, err)
			case l.Replace[cplbProxy.Name] == nil && got != h.Name:
				v.fail("%s -> the virtual IP (%s): answered by %q, not its holder %s", ln.Name, ap, got, h.Name)
			}
		}()
	}
	wg.Wait()
}

// vipMayAnswer is whether port may answer at the virtual IP on its holder.
func vipMayAnswer(port int) bool { return slices.Contains(endpointPorts, port) }
