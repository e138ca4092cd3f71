package lab

import (
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/cluster/clustergen"
	"github.com/corium/corium-agent/internal/testutil/agentbin"
)

// The differential (docs/lab.md, "The cluster check against the lab"):
// for each generated set, validate --cluster --facts DIR, with the facts
// the lab's nodes have, reports no error exactly when the lab's cluster
// works; and where a mistake breaks it, an error names the node and the
// field at fault.

var (
	soak     = flag.Int("lab.soak", 0, "run the differential on this many more generated sets (from -lab.soak-from); each disagreement is written as a kept case under testdata/differential")
	soakFrom = flag.Uint64("lab.soak-from", 1000, "the first seed -lab.soak tries")
	keep     = flag.Bool("lab.keep", false, "write every set the differential runs as a kept case under testdata/differential, agreeing or not")
)

// liveSets is how many seeded sets make test runs live.
const liveSets = 12

// maxNodes keeps the live sets small, so a set's lab comes up in seconds.
const maxNodes = 6

// keptDir holds the kept cases: each set's documents, its nodes' facts
// and the lab's truth about it.
const keptDir = "testdata/differential"

// labFamilies are the mistakes whose effect is in the network the lab
// builds, so the lab's verdict is the truth about them. The others are
// judged by internal/cluster's own tests, not here (docs/lab.md says why
// of each): a dropped keepalive (a NAT's mapping outlives the lab), the
// unicast peers (no keepalived), the cluster name, the pod range, a second
// founder (no k0s, no etcd here), and the families the check reports as
// warnings by design.
var labFamilies = []string{
	"address-taken",
	"allowed-ips-miss",
	"endpoint-is-vip",
	"endpoint-of-another-node",
	"keys-swapped",
	"listen-port-changed",
	"mtu-over-route",
	"nat-address-wrong",
	"nat-private-from-outside",
	"one-node-open",
	"preshared-one-side",
	"reverse-missing",
	"vip-in-allowed-ips",
	"vip-other-family",
	"vip-other-network",
}

// diffCase is one set of the differential and what was done to it.
type diffCase struct {
	seed    uint64
	set     *clustergen.Set
	what    string              // valid, harmless: ..., or the mistake
	mistake *clustergen.Mistake // nil but for a mistake
}

func (c diffCase) String() string { return fmt.Sprintf("seed %d (%s)", c.seed, c.what) }

// caseOf is seed's case: its generated set as it is, with a harmless
// change, or with one mistake of labFamilies (an error by the check's
// rules) that applies to it; false for a set larger than maxNodes.
func caseOf(seed uint64) (diffCase, bool) {
	g := clustergen.Generate(seed)
	if len(g.Nodes) > maxNodes {
		return diffCase{}, false
	}
	r := rand.New(rand.NewPCG(seed, 40))
	c := diffCase{seed: seed, set: g, what: "valid"}
	switch r.IntN(6) {
	case 0:
		return c, true
	case 1:
		kinds := slices.Sorted(maps.Keys(clustergen.Harmless))
		kind := kinds[r.IntN(len(kinds))]
		var what string
		c.set, what = clustergen.Change(g, kind, r)
		c.what = "harmless " + kind + ": " + what
		return c, true
	}
	fams := slices.Clone(labFamilies)
	r.Shuffle(len(fams), func(i, j int) { fams[i], fams[j] = fams[j], fams[i] })
	for _, f := range fams {
		m, mistake, ok := clustergen.Mutate(g, f, r)
		if ok && mistake.Severity == "error" {
			c.set, c.mistake = m, &mistake
			c.what = "mistake " + f + ": " + mistake.What
			return c, true
		}
	}
	return c, true
}

// liveCases are the first liveSets seeds' cases.
func liveCases() []diffCase {
	return casesFrom(0, liveSets)
}

func casesFrom(seed uint64, n int) []diffCase {
	var out []diffCase
	for ; len(out) < n; seed++ {
		if c, ok := caseOf(seed); ok {
			out = append(out, c)
		}
	}
	return out
}

// checkErrors runs validate --cluster --facts DIR/facts on the documents
// of DIR, with --topology DIR/cluster.topology where the set has one, and
// returns its errors, as it prints them.
func checkErrors(t testing.TB, dir string) []string {
	t.Helper()
	return checkErrorsWith(t, dir, true)
}

// checkErrorsWith is checkErrors, the topology left out unless
// withTopology.
func checkErrorsWith(t testing.TB, dir string, withTopology bool) []string {
	t.Helper()
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(docs) == 0 {
		t.Fatalf("%s: no document", dir)
	}
	slices.Sort(docs)
	args := []string{"validate", "--cluster", "--facts", filepath.Join(dir, "facts")}
	if topo := filepath.Join(dir, clustergen.TopologyName); withTopology && fileExists(topo) {
		args = append(args, "--topology", topo)
	}
	args = append(args, docs...)
	out, err := exec.Command(agentbin.Path(t), args...).CombinedOutput()
	var errs []string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimPrefix(line, dir+string(filepath.Separator))
		file, rest, ok := strings.Cut(line, ":")
		if !ok || !strings.HasSuffix(file, ".yaml") || strings.HasPrefix(rest, " valid") || strings.Contains(line, ": warning: ") {
			continue
		}
		errs = append(errs, line)
	}
	if (err != nil) != (len(errs) > 0) {
		t.Fatalf("validate --cluster: exit %v, but %d errors read from:\n%s", err, len(errs), out)
	}
	return errs
}

// disagreement is what is wrong of the check's errors against the lab's
// problems for the case, "" when they agree: no error exactly when the
// cluster works, and for a mistake that breaks it, an error at the node
// and the field at fault.
func disagreement(c diffCase, errs, problems []string) string {
	switch {
	case len(errs) == 0 && len(problems) > 0:
		return fmt.Sprintf("%s: validate --cluster reports no error, but the lab's cluster does not work:\n  %s", c, strings.Join(problems, "\n  "))
	case len(errs) > 0 && len(problems) == 0:
		return fmt.Sprintf("%s: the lab's cluster works, but validate --cluster reports:\n  %s", c, strings.Join(errs, "\n  "))
	case len(errs) > 0 && c.mistake != nil && !namesFault(errs, *c.mistake):
		at := c.mistake.File + " " + c.mistake.Path
		if c.mistake.Names != "" {
			at += " naming " + c.mistake.Names
		}
		return fmt.Sprintf("%s: validate --cluster has no error at %s, only:\n  %s", c, at, strings.Join(errs, "\n  "))
	}
	return ""
}

// namesFault says whether an error is at the mistake's file and field (and
// names the other file it must).
func namesFault(errs []string, m clustergen.Mistake) bool {
	for _, e := range errs {
		if strings.HasPrefix(e, m.File+":") && strings.Contains(e, ": "+m.Path+": ") && strings.Contains(e, m.Names) {
			return true
		}
	}
	return false
}

// runCase builds the case's lab, finds its truth, runs the check on the
// documents and the facts the nodes gathered, and returns the
// disagreement ("" when none); with write, or when they disagree, it
// keeps the case.
func runCase(t *testing.T, c diffCase, write bool) string {
	t.Helper()
	gl := upGen(t, c.set)
	problems := gl.run(t)
	errs := checkErrors(t, gl.setDir)
	t.Logf("%s: %s; the lab: %d problems; validate --cluster: %d errors", c, c.set, len(problems), len(errs))
	d := disagreement(c, errs, problems)
	if weakened() {
		t.Logf("a negative control's flag weakens the lab: the case is not kept")
		return d
	}
	if write || d != "" {
		writeKept(t, c, gl.setDir, problems)
	}
	return d
}

func TestDifferential(t *testing.T) {
	for _, c := range liveCases() {
		t.Run(fmt.Sprintf("seed-%d", c.seed), func(t *testing.T) {
			t.Parallel()
			if d := runCase(t, c, *keep); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestDifferentialSoak runs -lab.soak more sets, four at a time as the
// lab's phase runs, and says how many, which seeds and how long.
func TestDifferentialSoak(t *testing.T) {
	if *soak == 0 {
		t.Skip("no -lab.soak N")
	}
	start := time.Now()
	cases := casesFrom(*soakFrom, *soak)
	var mu sync.Mutex
	var agreed, disagreed []uint64
	t.Run("sets", func(t *testing.T) {
		for _, c := range cases {
			t.Run(fmt.Sprintf("seed-%d", c.seed), func(t *testing.T) {
				t.Parallel()
				d := runCase(t, c, *keep)
				mu.Lock()
				defer mu.Unlock()
				if d != "" {
					disagreed = append(disagreed, c.seed)
					t.Error(d)
					return
				}
				agreed = append(agreed, c.seed)
			})
		}
	})
	t.Logf("the soak: %d sets (seeds %d to %d, at most %d nodes each) in %v: %d agree, %d disagree %v",
		len(cases), cases[0].seed, cases[len(cases)-1].seed, maxNodes, time.Since(start).Round(time.Second), len(agreed), len(disagreed), disagreed)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
