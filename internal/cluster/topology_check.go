package cluster

import (
	"fmt"
	"net/netip"

	"github.com/corium/corium-agent/internal/finding"
)

// Option changes what Check knows of the set.
type Option func(*check)

// WithTopology checks the set with its topology (topology.go): a node
// behind a 1:1 NAT dialled at its private address from its own site and at
// its public one from elsewhere is then the design stated, not two
// endpoints of which one is wrong, and an endpoint that is neither is an
// error at the dialler. Nil is no topology.
func WithTopology(t *Topology) Option {
	return func(c *check) { c.topo = t }
}

// placed is a node's part in the topology: its site, and its NAT entry.
type placed struct {
	site   string
	nat    *NAT
	natPos string // nat[i]
}

// place finds each node the topology names: every one is a node of the
// set (a typo would leave a node unjudged), and a node behind a NAT is at
// a site. It runs before the checks that ask whether a node is behind a
// 1:1 NAT (natted).
func (c *check) place() {
	t := c.topo
	if t == nil {
		return
	}
	byName := map[string]*node{}
	for _, n := range c.set {
		for _, name := range FactsNames(n.Node) {
			if _, taken := byName[name]; !taken {
				byName[name] = n
			}
		}
	}
	c.placed = map[*node]*placed{}
	place := func(name string) *placed {
		n := byName[name]
		if n == nil {
			return nil
		}
		if c.placed[n] == nil {
			c.placed[n] = &placed{}
		}
		return c.placed[n]
	}
	unknown := func(path, name string) {
		if c.partial {
			return // it may be the node of a file left out
		}
		c.topoError(path, nil, "%s is no node of the set (a node.name, or a file's name less its extension): the topology says nothing of the node meant; name it as the set does", name)
	}
	for i, s := range t.Sites {
		for j, name := range s.Nodes {
			path := finding.Path("sites").Index(i).Field("nodes").Index(j).String()
			if p := place(name); p != nil {
				p.site = s.Name
			} else {
				unknown(path, name)
			}
		}
	}
	for i := range t.NAT {
		x := &t.NAT[i]
		path := finding.Path("nat").Index(i).String()
		p := place(x.Node)
		switch {
		case p == nil:
			unknown(path+".node", x.Node)
		case p.site == "":
			c.topoError(path+".node", nil, "%s is at no site: its private address is reached from its own site only, so name its site under sites", x.Node)
		default:
			p.nat, p.natPos = x, path
		}
	}
}

// topology: each entry that dials a node behind a 1:1 NAT dials the
// address the topology says it is reached at from the dialler's site.
func (c *check) topology() {
	if c.topo != nil {
		c.entries(c.natEndpoint)
	}
}

// natEndpoint: an entry dialling a node behind a 1:1 NAT dials its private
// address from the node's own site, its public one from elsewhere. An
// entry already found to dial another node (endpoint_owner.go) or the
// virtual IP is reported there.
func (c *check) natEndpoint(e *entry) {
	t := e.target
	if t == nil || e.elsewhere != nil || e.atVIP {
		return
	}
	ap, ok := e.dialsIP()
	if !ok {
		return
	}
	to := c.placed[t.n]
	if to == nil || to.nat == nil {
		return
	}
	x := to.nat
	from := c.placed[e.in.n]
	same := from != nil && from.site != "" && from.site == to.site
	where := "from another site"
	switch {
	case same:
		where = "from its own site " + to.site
	case from != nil && from.site != "":
		where = "from site " + from.site
	case from == nil || from.site == "":
		where = "from a node at no site of the topology"
	}
	want := x.Public
	if same {
		want = x.Private
	}
	path := e.path().Field("endpoint").String()
	related := []Place{c.topo.at(to.natPos)}
	dial := netip.AddrPortFrom(want, ap.Port())
	switch a := ap.Addr(); {
	case a == want:
	case a == x.Public && same:
		c.warnf(e.in.n, path, related,
			"dials %s at its public address %s %s: the packets go out to its 1:1 NAT and must turn back there (a hairpin, which many NATs do not do), while its site reaches its private address %s (%s %s); dial %s",
			t, a, where, x.Private, c.topo.File, to.natPos, dial)
	case a == x.Private:
		c.errorf(e.in.n, path, related,
			"dials %s at its private address %s %s, but only its own site %s reaches that address (%s %s): from elsewhere it is reached at its public address %s; dial %s",
			t, a, where, to.site, c.topo.File, to.natPos, x.Public, dial)
	default:
		c.errorf(e.in.n, path, related,
			"dials %s at %s, which is neither its private address %s (reached from its site %s) nor its public address %s (reached from elsewhere), as %s %s states them: the handshakes go nowhere it answers; dial %s",
			t, a, x.Private, to.site, x.Public, c.topo.File, to.natPos, dial)
	}
}

// natted says whether the topology places t's node behind a 1:1 NAT, so
// that each endpoint it is dialled at is judged against the topology
// (natEndpoint), not against the other endpoints.
func (c *check) natted(t *iface) bool {
	p := c.placed[t.n]
	return p != nil && p.nat != nil
}

// topoError is a finding in the topology file, before every node's.
func (c *check) topoError(path string, related []Place, format string, args ...any) {
	at := c.topo.at(path)
	if related == nil {
		related = []Place{}
	}
	c.findings = append(c.findings, Finding{
		File:    at.File,
		Finding: finding.Finding{Path: path, Line: at.Line, Col: at.Col, Severity: finding.Error, Message: fmt.Sprintf(format, args...)},
		Related: related,
		order:   -1,
	})
}
