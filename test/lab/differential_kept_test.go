package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/cluster/clustergen"
)

// A kept case is a directory of testdata/differential: the set's documents
// (NAME.yaml) and the facts its nodes gathered in the lab (facts/NAME.json),
// as validate --cluster --facts reads them; case.txt (the seed and what was
// done; for a mistake, "want FILE PATH [NAMES]", the node and field the
// check must name); and truth.txt, the lab's truth ("works", or "broken"
// and the verdict's problems, one a line). It replays without a lab.

// writeKept writes the case's set and the lab's truth as a kept case.
func writeKept(t testing.TB, c diffCase, setDir string, problems []string) {
	t.Helper()
	dir := filepath.Join(keptDir, fmt.Sprintf("seed-%d", c.seed))
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, os.DirFS(setDir)); err != nil {
		t.Fatal(err)
	}
	head := fmt.Sprintf("seed %d: %s\nset: %s\n", c.seed, c.what, c.set)
	if m := c.mistake; m != nil {
		head += strings.TrimSpace(fmt.Sprintf("want %s %s %s", m.File, m.Path, m.Names)) + "\n"
	}
	truth := "works\n"
	if len(problems) > 0 {
		truth = "broken\n" + strings.Join(problems, "\n") + "\n"
	}
	for name, data := range map[string]string{"case.txt": head, "truth.txt": truth} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("kept as %s", dir)
}

// readKept reads a kept case back: the case as run, and the lab's problems.
func readKept(t testing.TB, dir string) (diffCase, []string) {
	t.Helper()
	head, err := os.ReadFile(filepath.Join(dir, "case.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var c diffCase
	lines := strings.Split(strings.TrimSpace(string(head)), "\n")
	if _, err := fmt.Sscanf(lines[0], "seed %d:", &c.seed); err != nil {
		t.Fatalf("%s/case.txt: %q: %v", dir, lines[0], err)
	}
	_, c.what, _ = strings.Cut(lines[0], ": ")
	for _, l := range lines[1:] {
		if want, ok := strings.CutPrefix(l, "want "); ok {
			f := strings.Fields(want)
			m := clustergen.Mistake{File: f[0], Path: f[1]}
			if len(f) > 2 {
				m.Names = f[2]
			}
			c.mistake = &m
		}
	}
	truth, err := os.ReadFile(filepath.Join(dir, "truth.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tl := strings.Split(strings.TrimSpace(string(truth)), "\n")
	switch tl[0] {
	case "works":
		return c, nil
	case "broken":
		if len(tl) < 2 {
			t.Fatalf("%s/truth.txt: broken, but no problem", dir)
		}
		return c, tl[1:]
	}
	t.Fatalf("%s/truth.txt: %q is neither works nor broken", dir, tl[0])
	return c, nil
}

func keptDirs(t testing.TB) []string {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(keptDir, "seed-*"))
	if len(dirs) == 0 {
		t.Fatalf("no kept case in %s", keptDir)
	}
	return dirs
}

// Every kept case agrees with its recorded truth, without a lab: the
// check is run on the documents and facts kept.
func TestDifferentialKept(t *testing.T) {
	t.Parallel()
	for _, dir := range keptDirs(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			c, problems := readKept(t, dir)
			if d := disagreement(c, checkErrors(t, dir), problems); d != "" {
				t.Error(d)
			}
		})
	}
}

// The negative control: a check blind to one family of mistakes (its
// errors at the mistake's field dropped, as a check that never looked
// would print) disagrees with the lab on every kept case of that family
// that breaks the cluster, and the disagreement names the seed and the
// mutation.
func TestDifferentialBlindCheckDisagrees(t *testing.T) {
	t.Parallel()
	n := 0
	for _, dir := range keptDirs(t) {
		c, problems := readKept(t, dir)
		if c.mistake == nil || len(problems) == 0 {
			continue
		}
		n++
		var blind []string
		for _, e := range checkErrors(t, dir) {
			if !strings.Contains(e, ": "+c.mistake.Path+": ") {
				blind = append(blind, e)
			}
		}
		d := disagreement(c, blind, problems)
		if d == "" || !strings.Contains(d, fmt.Sprintf("seed %d ", c.seed)) || !strings.Contains(d, c.what) {
			t.Errorf("%s: a check blind to %s agrees with the lab, or does not say which case: %q", dir, c.what, d)
			continue
		}
		t.Logf("%s: blind, the differential says: %s", filepath.Base(dir), strings.SplitN(d, "\n", 2)[0])
	}
	if n == 0 {
		t.Fatal("no kept case of a mistake that breaks the cluster")
	}
}

// The negative control of the topology: on every kept case of a set with
// sites whose mistake breaks the cluster at a node behind a 1:1 NAT, the
// check run without the set's topology (as it was before the differential
// passed it) disagrees with the lab: with no sites known, a node dialled at
// its private address from another site, or at an address that is none of
// its own, is only a warning.
func TestDifferentialWithoutTopologyDisagrees(t *testing.T) {
	t.Parallel()
	n := 0
	for _, dir := range keptDirs(t) {
		c, problems := readKept(t, dir)
		if !fileExists(filepath.Join(dir, clustergen.TopologyName)) || c.mistake == nil || len(problems) == 0 ||
			!strings.HasPrefix(c.what, "mistake nat-") {
			continue
		}
		n++
		if d := disagreement(c, checkErrors(t, dir), problems); d != "" {
			t.Errorf("%s: with the topology: %s", dir, d)
		}
		d := disagreement(c, checkErrorsWith(t, dir, false), problems)
		if d == "" || !strings.Contains(d, fmt.Sprintf("seed %d ", c.seed)) {
			t.Errorf("%s: without the topology the check agrees with the lab on %s, or does not say which case: %q", dir, c.what, d)
			continue
		}
		t.Logf("%s: without the topology, the differential says: %s", filepath.Base(dir), strings.SplitN(d, "\n", 2)[0])
	}
	if n == 0 {
		t.Fatal("no kept case of a NAT mistake with its topology")
	}
}
