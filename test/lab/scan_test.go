package lab

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/netns"
)

// probeTimeout is how long a probe from the open network waits: the
// namespaces share one host, so an answer takes well under a millisecond,
// and a guarded port never answers.
const probeTimeout = 700 * time.Millisecond

// listening is every TCP port something listens on in the node's
// namespace, as ss lists it there.
func listening(t testing.TB, ln *LabNode) []int {
	t.Helper()
	out := ln.NS.Run(t, "ss", "-Htln")
	var ports []int
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		local := f[3]
		port, err := strconv.Atoi(local[strings.LastIndex(local, ":")+1:])
		if err != nil {
			t.Fatalf("%s: ss: %q", ln.Name, line)
		}
		if !slices.Contains(ports, port) {
			ports = append(ports, port)
		}
	}
	slices.Sort(ports)
	return ports
}

// mayAnswer is whether the node's port may answer the open network: one of
// its publicPorts, or with clusterPorts open one of its role's ports (in a
// generated set, only when no node of the set guards: one node left open
// among guarded ones is a hole in the set's guard).
func mayAnswer(n *Node, port int) bool {
	if slices.Contains(n.Doc.Firewall.PublicPorts, port) {
		return true
	}
	if n.Doc.Firewall.ClusterPorts != "open" || n.gen != nil && n.gen.setGuards {
		return false
	}
	for _, svc := range Services {
		if svc.On(n) && svc.Port == port {
			return true
		}
	}
	return false
}

// scanner is a place on the open network and the addresses of each node
// it reaches.
type scanner struct {
	name    string
	ns      *netns.Netns
	targets func(ln *LabNode) []netip.Addr
}

func (l *Lab) scanners() []scanner {
	f := l.S.Underlay
	holder := l.holder()
	out := []scanner{{"the underlay", l.u.attacker, func(ln *LabNode) []netip.Addr {
		switch {
		case ln.Site == OneToOne:
			return []netip.Addr{ln.publicAddr()}
		case ln.Site == Masquerade:
			return nil // nothing on the underlay reaches it
		case ln == holder && l.S.VIP.IsValid():
			return []netip.Addr{ln.underlayAddr(f), l.S.VIP.Addr()}
		}
		return []netip.Addr{ln.underlayAddr(f)}
	}}}
	if l.u.router != nil {
		out = append(out, scanner{"the router", l.u.router, func(ln *LabNode) []netip.Addr {
			if ln.Site == Open {
				return []netip.Addr{ln.underlayAddr(f)}
			}
			return []netip.Addr{ln.underlayAddr(IPv4)}
		}})
	}
	return out
}

// scan probes, from every place on the open network, every TCP port that
// listens in every node's namespace, at each address of the node that place
// reaches, all at once. Only what may answer does; a public port that
// listens on every address must.
func (l *Lab) scan(t testing.TB, v *Verdict) {
	t.Helper()
	var wg sync.WaitGroup
	for _, ln := range l.Nodes {
		ports := listening(t, ln)
		if len(ports) == 0 {
			v.fail("%s: nothing listens in its namespace", ln.Name)
		}
		for _, sc := range l.scanners() {
			for _, addr := range sc.targets(ln) {
				for _, port := range ports {
					ap := netip.AddrPortFrom(addr, uint16(port))
					wg.Add(1)
					go func() {
						defer wg.Done()
						v.count()
						_, err := dialFrom(sc.ns, ap, probeTimeout)
						answered := err == nil
						switch {
						case answered && !mayAnswer(ln.Node, port) && !(addr == l.S.VIP.Addr() && vipMayAnswer(port)):
							v.fail("%s: %d/tcp answers from %s (%s)", ln.Name, port, sc.name, ap)
						case !answered && slices.Contains(ln.Doc.Firewall.PublicPorts, port) && sc.name == "the underlay":
							v.fail("%s: public port %d/tcp does not answer from %s (%s): %v", ln.Name, port, sc.name, ap, err)
						}
					}()
				}
			}
		}
	}
	wg.Wait()
}
