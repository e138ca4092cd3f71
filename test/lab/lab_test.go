package lab

import (
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// Lab is a scenario brought up: the underlay, and each node provisioned by
// the agent with its overlay up, its guard loaded and its services
// listening.
type Lab struct {
	S *Scenario
	// Replace runs a real process in place of a stand-in, by service name
	// (Services); set it before Up.
	Replace map[string]Starter
	Nodes   []*LabNode
	u       *underlay
	dir     string
	// primed: every tunnel has been opened (coldDials), prime has
	// nothing to do.
	primed bool
	// vipHolder is where vipAt last put the virtual IP (nil: where
	// startVIP put it).
	vipHolder *LabNode
	// noFailover: checkVIP tests the virtual IP at its holder alone, not
	// moved to each controller in turn (keepalived moves it itself).
	noFailover bool
}

// requireLab skips (or, in CI, fails) when the lab cannot run here.
func requireLab(t testing.TB) {
	t.Helper()
	host.RequireRoot(t, "ip", "nft", "wg", "wg-quick", "wireguard-go", "ss", "nsenter", "unshare", "sysctl", "bash")
}

// Up builds the scenario's documents (Build) unless a test built and
// changed them already, then brings the lab up.
func Up(t testing.TB, s *Scenario) *Lab {
	t.Helper()
	l := &Lab{}
	l.Up(t, s)
	return l
}

// Up is the package's Up for a Lab a test has set up (Replace).
func (l *Lab) Up(t testing.TB, s *Scenario) {
	t.Helper()
	requireLab(t)
	if len(s.Nodes) > 0 && s.Nodes[0].Doc == nil {
		Build(t, s)
	}
	start := time.Now()
	l.S, l.dir = s, t.TempDir()
	l.u = newUnderlay(t, s)
	l.addNodes(t, s.Nodes)
	l.startVIP(t)
	t.Logf("the lab is up: %d nodes in %v", len(l.Nodes), time.Since(start).Round(time.Millisecond))
}

// addNodes brings up the nodes given: every namespace first, then each
// overlay, so that a tunnel's first handshake finds its peer up.
func (l *Lab) addNodes(t testing.TB, nodes []*Node) {
	t.Helper()
	var added []*LabNode
	for _, n := range nodes {
		ln := newLabNode(t, l.u, n, l.S, l.dir)
		added = append(added, ln)
		l.Nodes = append(l.Nodes, ln)
	}
	for _, ln := range added {
		ln.provision(t, l.S)
	}
	for _, ln := range added {
		l.startServices(t, ln)
	}
}

// Again is day two: the scenario's documents rebuilt (Build) after the test
// changed the set, apply --again on every node already up and the new
// nodes brought up as on their first boot.
func (l *Lab) Again(t testing.TB) {
	t.Helper()
	Build(t, l.S)
	added := l.notUp()
	for _, ln := range l.Nodes {
		ln.again(t, l.S)
	}
	l.addNodes(t, added)
}

// notUp is the scenario's nodes the lab has not brought up yet.
func (l *Lab) notUp() []*Node {
	up := map[*Node]bool{}
	for _, ln := range l.Nodes {
		up[ln.Node] = true
	}
	var out []*Node
	for _, n := range l.S.Nodes {
		if !up[n] {
			out = append(out, n)
		}
	}
	return out
}

// Node is the lab's node by name.
func (l *Lab) Node(name string) *LabNode {
	for _, ln := range l.Nodes {
		if ln.Name == name {
			return ln
		}
	}
	panic("lab: no node " + name)
}

// AddHost plugs a namespace of its own into the underlay with the addresses
// given (CIDR, space separated), for what a scenario runs beside its nodes
// (a database the controllers use, say); it is deleted, and what runs in
// it killed, when the test ends.
func (l *Lab) AddHost(t testing.TB, name, addrs string) *netns.Netns {
	t.Helper()
	ns := newNamespace(t, "l"+name)
	plug(t, l.u.sw, "br0", "p-"+name, ns, addrs)
	return ns
}
