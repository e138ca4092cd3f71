package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// threeNodeTopology puts a2 behind a 1:1 NAT at site a, with w1, and a1
// at site b: w1 dials a2 at its private address, a1 at its public one.
const threeNodeTopology = `sites:
  - name: a
    nodes: [a2, w1]
  - name: b
    nodes: [a1]
nat:
  - node: a2
    private: 192.0.2.12
    public: 198.51.100.12
`

// With --topology, the 1:1 NAT design passes --strict; without it the
// same files keep today's warning; and with it an address no site reaches
// a2 at fails at the dialler's endpoint.
func TestValidateClusterTopology(t *testing.T) {
	a1 := string(readTestFile(t, threeNodes[0]))
	outside := writeConfig(t, "a1.yaml", strings.Replace(a1, "endpoint: 192.0.2.12:51820", "endpoint: 198.51.100.12:51820", 1))
	topo := writeConfig(t, "lab.topology", threeNodeTopology)
	files := []string{outside, threeNodes[1], threeNodes[2]}

	code, out, errOut := runCLI(t, append([]string{"validate", "--strict", "--cluster", "--topology", topo}, files...)...)
	if code != exitOK || errOut != "" || !strings.HasSuffix(out, "cluster of 3 files: valid\n") {
		t.Errorf("the design the topology states: exit %d, stderr %q\n%s", code, errOut, out)
	}
	code, out, _ = runCLI(t, append([]string{"validate", "--strict", "--cluster"}, files...)...)
	if code != exitFailed || !strings.Contains(out, "warning: wireguard[0]: is dialled at 2 endpoints") {
		t.Errorf("without the topology: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "validate", "--cluster", "--topology", topo, threeNodes[0], threeNodes[1], threeNodes[2])
	if code != exitFailed || !strings.Contains(out, threeNodes[0]+":24:19: wireguard[0].peers[0].endpoint: dials a2 ("+threeNodes[1]+" wireguard[0]) at its private address 192.0.2.12 from site b") {
		t.Errorf("the private address from another site: exit %d\n%s", code, out)
	}
}

// The topology's own problems are the set's findings, in its file at their
// field paths, and fail the set.
func TestValidateClusterTopologyProblems(t *testing.T) {
	topo := writeConfig(t, "lab.topology", strings.Replace(threeNodeTopology, "public:", "publik:", 1))
	code, out, _ := runCLI(t, append([]string{"validate", "--cluster", "--topology", topo}, threeNodes...)...)
	if code != exitFailed || !strings.Contains(out, topo+":9:5: nat[0].publik: unknown key; known keys here: node, private, public\n") {
		t.Errorf("exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, append([]string{"validate", "--cluster", "--format", "json", "--topology", topo}, threeNodes...)...)
	var got struct {
		Cluster struct {
			Valid    bool
			Findings []struct{ File, Path, Severity string }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if f := got.Cluster.Findings; code != exitFailed || got.Cluster.Valid || len(f) == 0 || f[0].File != topo || f[0].Path != "nat[0].publik" || f[0].Severity != "error" {
		t.Errorf("json: exit %d\n%s", code, out)
	}
}

// A topology is no node's document: a command that configures a node
// refuses it by name, validate takes it only with --cluster --topology,
// --topology takes only a file so named, and a directory of documents
// never reads one.
func TestTopologyRefusedByName(t *testing.T) {
	topo := writeConfig(t, "lab.topology", threeNodeTopology)
	for _, args := range [][]string{
		{"plan", "--root", t.TempDir(), "--config", topo},
		{"apply", "--root", t.TempDir(), "--config", topo},
		{"resolve", "--root", t.TempDir(), "--config", topo},
		{"firewall", "show", "--root", t.TempDir(), "--config", topo},
	} {
		code, out, errOut := runCLI(t, args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "--config "+topo+": is a cluster topology") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"validate", topo}, "is a cluster topology, not a node's document: give it with --cluster --topology"},
		{[]string{"validate", "--topology", topo, threeNodes[0]}, "--topology describes a set of nodes: use it with --cluster"},
		{[]string{"validate", "--cluster", "--topology", writeConfig(t, "lab.yaml", threeNodeTopology), threeNodes[0]}, "name the topology NAME.topology"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.says) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut)
		}
	}
	dir := t.TempDir()
	for _, f := range threeNodes {
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), readTestFile(t, f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "lab.topology"), []byte(threeNodeTopology), 0o600); err != nil {
		t.Fatal(err)
	}
	if isDocumentName("lab.topology") {
		t.Error("a directory of documents reads a topology")
	}
	code, out, errOut := runCLI(t, "validate", "--strict", "--cluster", dir)
	if strings.Contains(out+errOut, "lab.topology") {
		t.Errorf("the directory's topology was read as a document: exit %d\n%s%s", code, out, errOut)
	}
}
