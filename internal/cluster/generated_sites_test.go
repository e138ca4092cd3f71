package cluster_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/cluster/clustergen"
)

// generatedTopology is a generated set's topology, as validate --cluster
// --topology reads it; none for a set without sites.
func generatedTopology(t *testing.T, s *clustergen.Set) cluster.Option {
	t.Helper()
	if !s.Sites {
		return cluster.WithTopology(nil)
	}
	topo, fs := cluster.ParseTopology(clustergen.TopologyName, []byte(s.TopologyFile()))
	if len(fs) > 0 {
		t.Fatalf("%s: the generated topology has problems:\n%s\n%s", s, printed(fs), s.TopologyFile())
	}
	return cluster.WithTopology(topo)
}

// Sets with sites are generated, with workers behind a 1:1 NAT that their
// own site dials at their private addresses and every other node at their
// public ones: the design the topology states, which without it draws the
// warning that one node is dialled at two endpoints.
func TestGeneratedSetsHaveSites(t *testing.T) {
	designs := 0
	for seed := range uint64(seeds) {
		s := clustergen.Generate(seed)
		if !s.Sites {
			continue
		}
		var nodes []cluster.Node
		for _, g := range s.Nodes {
			n := read(t, g.File(), []byte(g.Document()))
			n.Facts = g.Facts()
			nodes = append(nodes, n)
		}
		if len(cluster.Check(nodes).Warnings()) > 0 {
			designs++ // found one without the topology; checkGenerated finds none with it
		}
	}
	if designs < 3 {
		t.Errorf("%d of %d generated sets dial a node behind a 1:1 NAT at both its addresses: too few to judge", designs, seeds)
	}
}

// keptTopology is a kept case's topology, none when it has no file of it.
func keptTopology(t *testing.T, dir string) cluster.Option {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, clustergen.TopologyName))
	if os.IsNotExist(err) {
		return cluster.WithTopology(nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	topo, fs := cluster.ParseTopology(clustergen.TopologyName, data)
	if len(fs) > 0 {
		t.Fatalf("%s: the topology has problems:\n%s", dir, printed(fs))
	}
	return cluster.WithTopology(topo)
}
