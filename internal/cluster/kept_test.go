package cluster_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/cluster/clustergen"
	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/hostfacts"
)

var writeKept = flag.Bool("write-kept", false, "write a kept case of each mistake family that has none in testdata/kept, from the generator")

const keptDir = "testdata/kept"

// keptCase is one directory of testdata/kept: a set's documents, each
// node's host facts in facts/ (or none for any node, when the set alone
// must show the mistake), the mistake made in case.txt (its first
// line "want SEVERITY FILE PATH", then what was done) and the findings the
// set gets in findings.txt.
type keptCase struct {
	dir   string
	want  clustergen.Mistake
	nodes []cluster.Node
	// topo is the set's topology, in TOPOLOGY (clustergen.TopologyName)
	// where the set has sites.
	topo cluster.Option
}

func readKept(t *testing.T, dir string) keptCase {
	t.Helper()
	k := keptCase{dir: dir}
	head, _, _ := strings.Cut(string(readFile(t, filepath.Join(dir, "case.txt"))), "\n")
	if _, err := fmt.Sscanf(head, "want %s %s %s", &k.want.Severity, &k.want.File, &k.want.Path); err != nil {
		t.Fatalf("%s/case.txt: %q: %v", dir, head, err)
	}
	facts := map[string]*hostfacts.Facts{}
	jsons, _ := filepath.Glob(filepath.Join(dir, "facts", "*.json"))
	for _, j := range jsons {
		f, err := hostfacts.Parse(readFile(t, j))
		if err != nil {
			t.Fatalf("%s: %v", j, err)
		}
		facts[strings.TrimSuffix(filepath.Base(j), ".json")] = f
	}
	docs, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	slices.Sort(docs)
	for _, d := range docs {
		n := read(t, filepath.Base(d), readFile(t, d))
		n.Facts, _ = cluster.FactsFor(n, facts)
		if n.Facts == nil && len(facts) > 0 {
			t.Fatalf("%s has no facts in %s/facts", d, dir)
		}
		k.nodes = append(k.nodes, n)
	}
	k.topo = keptTopology(t, dir)
	return k
}

// printed is the findings as validate --cluster prints them.
func printed(fs cluster.Findings) string {
	var b strings.Builder
	for _, f := range fs {
		sev := ""
		if f.Severity == finding.Warning {
			sev = "warning: "
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s%s: %s\n", f.File, f.Line, f.Col, sev, f.Path, f.Message)
	}
	return b.String()
}

// Each kept case gets the finding its mistake calls for, at the node and
// field at fault, and the findings recorded with it (-update rewrites
// those; the wanted one is held apart, so an update cannot bless a miss).
func TestKeptCases(t *testing.T) {
	if *writeKept {
		writeKeptCases(t)
	}
	dirs, _ := filepath.Glob(filepath.Join(keptDir, "*"))
	if len(dirs) == 0 {
		t.Fatal("no kept case")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			k := readKept(t, dir)
			fs := cluster.Check(k.nodes, k.topo)
			if !foundAt(fs, k.want) {
				t.Errorf("want %s at %s %s; got:\n%s", k.want.Severity, k.want.File, k.want.Path, printed(fs))
			}
			golden := filepath.Join(dir, "findings.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(printed(fs)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got, want := printed(fs), string(readFile(t, golden)); got != want {
				t.Errorf("findings differ from %s (go test -update rewrites it):\n got:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

// setOnly are the families the set shows without any host facts, whose
// kept cases are written twice: with each node's facts, and without
// (NAME-set-only).
var setOnly = []string{"endpoint-of-another-node", "vip-other-network", "vip-other-family", "vip-in-allowed-ips", "one-node-open"}

// writeKeptCases writes, for each family without a kept case, the first
// small generated set it applies to, mutated; for a family of setOnly,
// also the first such set whose mistake is found without facts.
func writeKeptCases(t *testing.T) {
	for fi, family := range clustergen.FamilyNames() {
		writeKeptCase(t, family, fi, true, false)
		if slices.Contains(setOnly, family) {
			writeKeptCase(t, family, fi, false, false)
		}
		if slices.Contains(ipv6Too, family) {
			writeKeptCase(t, family, fi, true, true)
		}
	}
}

// ipv6Too are the families whose finding depends on the underlay's family,
// written once more on an IPv6 underlay (NAME-ipv6).
var ipv6Too = []string{"mtu-over-route", "vip-other-family"}

func writeKeptCase(t *testing.T, family string, fi int, withFacts, ipv6 bool) {
	dir := filepath.Join(keptDir, family)
	if !withFacts {
		dir += "-set-only"
	}
	if ipv6 {
		dir += "-ipv6"
	}
	if _, err := os.Stat(dir); err == nil {
		return
	}
	for seed := range uint64(1000) {
		s := clustergen.Generate(seed)
		if len(s.Nodes) > 6 || s.IPv6 != ipv6 {
			continue
		}
		m, mistake, ok := clustergen.Mutate(s, family, rand.New(rand.NewPCG(seed, uint64(fi))))
		if !ok {
			continue
		}
		if !withFacts {
			var nodes []cluster.Node
			for _, g := range m.Nodes {
				nodes = append(nodes, read(t, g.File(), []byte(g.Document())))
			}
			if !foundAt(cluster.Check(nodes), mistake) {
				continue
			}
		}
		for name, data := range m.Files() {
			if !withFacts && strings.HasPrefix(name, "facts/") {
				continue
			}
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		facts := "each node's host facts in facts/"
		if !withFacts {
			facts = "no host facts"
		}
		c := fmt.Sprintf("want %s %s %s\n%s: %s, with %s, from clustergen seed %d (%s)\n", mistake.Severity, mistake.File, mistake.Path, family, mistake.What, facts, seed, s)
		if err := os.WriteFile(filepath.Join(dir, "case.txt"), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "findings.txt"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("no generated set fits a kept case of %s (facts %t)", family, withFacts)
}
