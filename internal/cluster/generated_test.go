package cluster_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/cluster/clustergen"
)

// seeds is how many generated sets the differential runs.
const seeds = 50

// readDocs are the generated documents read so far, by their text (which
// names the node, and so its file).
var readDocs = map[string]cluster.Node{}

// checkGenerated reads a generated set's documents as validate does, each
// with its host facts, and checks the set; a document invalid on its own
// fails the test (the generator makes valid documents, and the mistakes
// are between them).
func checkGenerated(t *testing.T, s *clustergen.Set) cluster.Findings {
	t.Helper()
	var nodes []cluster.Node
	for _, g := range s.Nodes {
		doc := g.Document()
		n, ok := readDocs[doc]
		if !ok {
			// A mutation changes one or two documents of a set: the
			// others are read once.
			n = read(t, g.File(), []byte(doc))
			readDocs[doc] = n
		}
		if len(n.Findings) > 0 {
			t.Fatalf("%s: %s is not valid on its own: %v\n%s", s, g.File(), n.Findings, g.Document())
		}
		n.Facts = g.Facts()
		nodes = append(nodes, n)
	}
	return cluster.Check(nodes, generatedTopology(t, s))
}

// Every generated set is one cluster: no finding at all.
func TestGeneratedSetsAreOneCluster(t *testing.T) {
	for seed := range uint64(seeds) {
		s := clustergen.Generate(seed)
		if fs := checkGenerated(t, s); len(fs) > 0 {
			t.Errorf("%s:\n%s", s, lines(fs))
		}
	}
}

func describe(fs cluster.Findings) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %s: %s\n", f.File, f.Severity, f.Path, f.Message)
	}
	return b.String()
}

// Each family's mistake, applied to each generated set it fits, gets a
// finding of its severity at the node and field at fault (an error, but
// for the families that are warnings by design), and the set is no longer
// valid; each harmless change adds no error, and but for the peer outside
// the set (a warning: a peer outside, or a wrong key) no finding at all.
func TestGeneratedMistakesAreFound(t *testing.T) {
	applied := map[string]int{}
	for seed := range uint64(seeds) {
		s := clustergen.Generate(seed)
		for k, family := range clustergen.FamilyNames() {
			r := rand.New(rand.NewPCG(seed, uint64(k)))
			m, mistake, ok := clustergen.Mutate(s, family, r)
			if !ok {
				continue
			}
			applied[family]++
			fs := checkGenerated(t, m)
			if !foundAt(fs, mistake) {
				t.Errorf("%s: %s: not found; the findings:\n%s", s, mistake, describe(fs))
			}
		}
		for k, kind := range slices.Sorted(maps.Keys(clustergen.Harmless)) {
			r := rand.New(rand.NewPCG(seed, uint64(100+k)))
			m, what := clustergen.Change(s, kind, r)
			fs := checkGenerated(t, m)
			if kind != "unused-peer" && len(fs) > 0 || len(fs.Errors()) > 0 {
				t.Errorf("%s: %s, harmless, but:\n%s", s, what, describe(fs))
			}
		}
	}
	for _, family := range clustergen.FamilyNames() {
		if applied[family] < 5 {
			t.Errorf("%s applied to %d sets of %d: too few to judge", family, applied[family], seeds)
		}
	}
}

// foundAt says whether a finding of the mistake's severity is at its file
// and field (and names the file it must name).
func foundAt(fs cluster.Findings, m clustergen.Mistake) bool {
	for _, f := range fs {
		if f.File == m.File && f.Path == m.Path && f.Severity.String() == m.Severity && strings.Contains(f.Message, m.Names) {
			return true
		}
	}
	return false
}
