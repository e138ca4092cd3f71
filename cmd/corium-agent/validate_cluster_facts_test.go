package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/cluster/clustergen"
)

// writeSet writes a generated set's documents and facts/ into a new
// directory and returns it with the documents' paths, in order.
func writeSet(t *testing.T, s *clustergen.Set) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	for name, data := range s.Files() {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var docs []string
	for _, n := range s.Nodes {
		docs = append(docs, filepath.Join(dir, n.File()))
	}
	return dir, docs
}

// validate --cluster --facts DIR checks each node with its own host's
// facts: plan's checks and the set's. One facts file keeps its meaning
// (the same host for every file's own check, none for the set's), a node
// without facts there is a warning, and a facts file no node takes is a
// usage error.
func TestValidateClusterReadsEachNodesFacts(t *testing.T) {
	s := clustergen.Generate(5) // five nodes, HA on site A's controllers
	dir, docs := writeSet(t, s)
	factsDir := filepath.Join(dir, "facts")
	run := func(facts string) (int, string) {
		code, out, errOut := runCLI(t, append([]string{"validate", "--strict", "--cluster", "--facts", facts}, docs...)...)
		return code, out + errOut
	}
	if code, out := run(factsDir); code != exitOK || !strings.HasSuffix(out, "cluster of 5 files: valid\n") {
		t.Fatalf("the generated set with each node's facts: exit %d\n%s", code, out)
	}

	// One node states an mtu its own host's route cannot carry: found
	// with its facts, not with another host's facts for every file.
	w1 := s.Clone()
	w1.Nodes[3].MTU = 1480
	dir, docs = writeSet(t, w1)
	factsDir = filepath.Join(dir, "facts")
	at := docs[3] + ":"
	code, out := run(factsDir)
	if code != exitFailed || !strings.Contains(out, "wireguard[0].mtu: is 1480, but the route to ") || !strings.Contains(out, at) {
		t.Errorf("an mtu over the node's route, with each node's facts: exit %d\n%s", code, out)
	}
	if code, out := run(filepath.Join(factsDir, "c1.json")); strings.Contains(out, "is 1480, but the route") {
		t.Errorf("one facts file checks each file's own, not the set's: exit %d\n%s", code, out)
	}

	// Plan's own checks run with each node's facts: a controller whose
	// host lacks its VRRP interface is refused, and only that one.
	c2 := filepath.Join(factsDir, "c2.json")
	data, err := os.ReadFile(c2)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c2, []byte(strings.ReplaceAll(string(data), `"eth0"`, `"eth9"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out = run(factsDir)
	if code != exitFailed || !strings.Contains(out, docs[1]+": rendering the node: ha.interface:") || strings.Contains(out, docs[0]+": rendering") {
		t.Errorf("c2's host without eth0: exit %d\n%s", code, out)
	}

	// A node without facts there: a warning at its file. A facts file no
	// node takes: a usage error naming it.
	if err := os.Rename(c2, filepath.Join(factsDir, "c9.json")); err != nil {
		t.Fatal(err)
	}
	if code, out := run(factsDir); code != exitUsage || !strings.Contains(out, "c9.json is no node's") {
		t.Errorf("a facts file no node takes: exit %d\n%s", code, out)
	}
	// Unless a document could not be read: its node.name is not known.
	bad := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(bad, []byte("role: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCLI(t, append([]string{"validate", "--cluster", "--facts", factsDir, bad}, docs...)...); code != exitFailed || strings.Contains(out, "is no node's") {
		t.Errorf("a facts file beside a document that cannot be read: exit %d\n%s", code, out)
	}
	if err := os.Remove(filepath.Join(factsDir, "c9.json")); err != nil {
		t.Fatal(err)
	}
	code, out = run(factsDir)
	if code != exitFailed || !strings.Contains(out, docs[1]+": warning: --facts holds no facts for this node (c2.json)") {
		t.Errorf("a node without facts: exit %d\n%s", code, out)
	}

	// A directory without --cluster is a usage error.
	if code, _, errOut := runCLI(t, "validate", "--facts", factsDir, docs[0]); code != exitUsage || !strings.Contains(errOut, "is a directory") {
		t.Errorf("--facts DIR without --cluster: exit %d %q", code, errOut)
	}
}
