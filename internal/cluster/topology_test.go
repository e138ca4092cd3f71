package cluster_test

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/cluster"
)

// natTopology puts a1 and a2 at site A and w1 at site B, with a2 behind a
// 1:1 NAT: 192.0.2.12 at its site, 198.51.100.12 from elsewhere.
const natTopology = `sites:
  - name: a
    nodes: [a1, a2]
  - name: b
    nodes: [w1]
nat:
  - node: a2
    private: 192.0.2.12
    public: 198.51.100.12
`

func topology(t *testing.T, text string) *cluster.Topology {
	t.Helper()
	topo, fs := cluster.ParseTopology("cluster.topology", []byte(text))
	if len(fs) > 0 {
		t.Fatalf("the topology has problems of its own:\n%s", printed(fs))
	}
	return topo
}

// A node behind a 1:1 NAT, dialled at its private address from its own
// site and at its public one from elsewhere, is the design the topology
// states: no finding at all, so it passes --strict. Without the topology
// the set cannot tell it from a stale endpoint, and warns as before.
func TestTopologyNATDesignPasses(t *testing.T) {
	design := edit{"w1.yaml", "endpoint: 192.0.2.12:51820", "endpoint: 198.51.100.12:51820"}
	nodes := readSetOf(t, threeNodeSet, false, design)
	if fs := checkNodes(t, nodes, cluster.WithTopology(topology(t, natTopology))); len(fs) > 0 {
		t.Errorf("the 1:1 NAT design the topology states draws findings:\n%s", printed(fs))
	}
	expect(t, checkNodes(t, nodes), want{a2File, "wireguard[0]", warnSev, "is dialled at 2 endpoints"})
}

// With the topology, an endpoint that is not what the dialler's site
// reaches the node at fails at the dialler's endpoint, naming both
// addresses the topology gives.
func TestTopologyWrongAddressFails(t *testing.T) {
	topo := topology(t, natTopology)
	for _, tc := range []struct {
		name  string
		edits []edit
		want  want
	}{
		{"the private address from another site", nil, // as w1.yaml has it
			want{w1File, "wireguard[0].peers[1].endpoint", errorSev, "dials a2 (a2-user-data.yaml wireguard[0]) at its private address 192.0.2.12 from site b, but only its own site a reaches that address (cluster.topology nat[0]): from elsewhere it is reached at its public address 198.51.100.12; dial 198.51.100.12:51820"}},
		{"neither address",
			[]edit{{"w1.yaml", "endpoint: 192.0.2.12:51820", "endpoint: 198.51.100.99:51820"}},
			want{w1File, "wireguard[0].peers[1].endpoint", errorSev, "at 198.51.100.99, which is neither its private address 192.0.2.12 (reached from its site a) nor its public address 198.51.100.12"}},
		{"a listenPort every dialler disagrees with, behind a NAT that keeps ports",
			[]edit{{"a2.yaml", "listenPort: 51820", "listenPort: 51821"}},
			want{a2File, "wireguard[0].listenPort", errorSev, "is 51821, but every peer that dials a2 (a2-user-data.yaml wireguard[0]) dials port 51820 (a1.yaml, w1-cmdline.txt), and the topology places it behind a 1:1 NAT"}},
		{"the public address from its own site",
			[]edit{{"a1.yaml", "endpoint: 192.0.2.12:51820", "endpoint: 198.51.100.12:51820"}},
			want{"a1.yaml", "wireguard[0].peers[0].endpoint", warnSev, "at its public address 198.51.100.12 from its own site a: the packets go out to its 1:1 NAT and must turn back there"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := checkNodes(t, readSetOf(t, threeNodeSet, false, tc.edits...), cluster.WithTopology(topo))
			expect(t, fs, tc.want)
			for _, f := range fs {
				if strings.Contains(f.Message, "is dialled at") {
					t.Errorf("the topology judges each endpoint; the endpoints are not compared again: %s", f.Message)
				}
			}
		})
	}
}

// The topology file is read strictly: each problem at its field path and
// position, and the topology is then not used.
func TestTopologyParseProblems(t *testing.T) {
	for _, tc := range []struct {
		name, text, path, says string
		line, col              int
	}{
		{"an unknown key", "sites: []\nnats: []\n", "nats", "unknown key; known keys here: nat, sites", 2, 1},
		{"an unknown key in an entry", "nat:\n  - node: a2\n    private: 10.0.0.1\n    public: 192.0.2.1\n    port: 1\n", "nat[0].port", "unknown key; known keys here: node, private, public", 5, 5},
		{"no IP", "nat:\n  - node: a2\n    private: 10.0.0.1:51820\n    public: 192.0.2.1\n", "nat[0].private", "must be an IP address, without a port or a prefix length", 3, 14},
		{"a missing field", "nat:\n  - node: a2\n    private: 10.0.0.1\n", "nat[0]", "lacks public", 2, 5},
		{"one address twice", "nat:\n  - node: a2\n    private: 10.0.0.1\n    public: 10.0.0.1\n", "nat[0].public", "is the private address too", 4, 13},
		{"a node at two sites", "sites:\n  - name: a\n    nodes: [a1, a2]\n  - name: b\n    nodes: [a2]\n", "sites[1].nodes[0]", "a2 is also in sites[0].nodes[1]: a node is at one site", 5, 13},
		{"a site twice", "sites:\n  - name: a\n    nodes: [a1]\n  - name: a\n    nodes: [a2]\n", "sites[1].name", "a is also the name of sites[0].name", 4, 11},
		{"a list as a mapping", "sites: {a: [a1]}\n", "sites", "must be a list", 1, 8},
		{"nothing", "\n", "", "holds no topology", 0, 0},
		{"no YAML", "sites: [a\n", "", "yaml syntax", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			topo, fs := cluster.ParseTopology("x.topology", []byte(tc.text))
			if topo != nil || len(fs) != 1 {
				t.Fatalf("want one finding and no topology, got %v:\n%s", topo, printed(fs))
			}
			f := fs[0]
			if f.File != "x.topology" || f.Path != tc.path || !strings.Contains(f.Message, tc.says) || tc.line > 0 && (f.Line != tc.line || f.Col != tc.col) {
				t.Errorf("got %s", printed(fs))
			}
		})
	}
}

// Names the set does not have, and a node behind a NAT at no site, are
// errors in the topology file: a typo would leave the node unjudged.
func TestTopologyNamesNodesOfTheSet(t *testing.T) {
	topo := topology(t, "sites:\n  - name: a\n    nodes: [a1, a3]\nnat:\n  - node: w1\n    private: 10.0.0.1\n    public: 192.0.2.1\n")
	fs := checkNodes(t, readSetOf(t, threeNodeSet, false), cluster.WithTopology(topo))
	expect(t, fs, want{"cluster.topology", "sites[0].nodes[1]", errorSev, "a3 is no node of the set"})
	expect(t, fs, want{"cluster.topology", "nat[0].node", errorSev, "w1 is at no site"})
	if fs[0].File != "cluster.topology" || fs[0].Line != 3 {
		t.Errorf("the topology's own problems come first, at their lines:\n%s", printed(fs))
	}
}
