package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The three-node cluster the cluster package tests: a standalone file, a
// cloud-config delivering its block gz+b64, a PXE kernel command line.
var threeNodes = []string{
	"../../internal/cluster/testdata/three-nodes/a1.yaml",
	"../../internal/cluster/testdata/three-nodes/a2-user-data.yaml",
	"../../internal/cluster/testdata/three-nodes/w1-cmdline.txt",
}

func TestValidateClusterText(t *testing.T) {
	args := append([]string{"validate", "--strict", "--cluster"}, threeNodes...)
	code, out, errOut := runCLI(t, args...)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	want := strings.Join(append(validLines(threeNodes), "cluster of 3 files: valid"), "\n") + "\n"
	if out != want {
		t.Errorf("output\n%s\nwant\n%s", out, want)
	}
	// The same files one by one: each is read as the node reads it.
	for _, f := range threeNodes {
		if code, out, _ := runCLI(t, "validate", "--strict", f); code != exitOK || out != f+": valid\n" {
			t.Errorf("validate %s: exit %d\n%s", f, code, out)
		}
	}
}

func validLines(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f + ": valid"
	}
	return out
}

// A mistake between the files fails the set (exit 1) in the file's own
// line form, naming the place in the file that delivers the document;
// a warning fails only with --strict.
func TestValidateClusterFindings(t *testing.T) {
	a1 := string(readTestFile(t, threeNodes[0]))
	broken := writeConfig(t, "a1.yaml", strings.Replace(a1, "allowedIPs: [10.30.0.11/32]", "allowedIPs: [10.30.0.12/32]", 1))
	code, out, _ := runCLI(t, "validate", "--cluster", broken, threeNodes[1], threeNodes[2])
	if code != exitFailed {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	if !strings.Contains(out, broken+":28:21: wireguard[0].peers[1].allowedIPs: do not hold 10.30.0.11 of w1 ("+threeNodes[2]+" wireguard[0])") ||
		strings.Contains(out, "cluster of 3 files: valid") {
		t.Errorf("output:\n%s", out)
	}
	// The fix is printed under its finding, indented, and written nowhere.
	if !strings.Contains(out, "add 10.30.0.11/32\n    # wireguard[0].peers[1] of "+broken+", with the addresses of w1 ("+threeNodes[2]+" wireguard[0]):\n    allowedIPs: [10.30.0.12/32, 10.30.0.11/32]\n") {
		t.Errorf("no fix under the finding:\n%s", out)
	}
	w1 := writeConfig(t, "w1.yaml", strings.Replace(string(readTestFile(t, "../../internal/cluster/testdata/three-nodes/w1.yaml")), "mtu: 1420", "mtu: 1380", 1))
	code, out, _ = runCLI(t, "validate", "--cluster", threeNodes[0], threeNodes[1], w1)
	if code != exitOK || !strings.Contains(out, w1+":14:10: warning: wireguard[0].mtu: is 1380") {
		t.Errorf("a warning: exit %d\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "validate", "--strict", "--cluster", threeNodes[0], threeNodes[1], w1); code != exitFailed {
		t.Errorf("a warning with --strict: exit %d, want 1", code)
	}
	// A finding inside an encoded document counts in that document.
	a2 := writeConfig(t, "a2.yaml", strings.Replace(string(readTestFile(t, "../../internal/cluster/testdata/three-nodes/a2.yaml")), "name: lab", "name: labs", 1))
	_, out, _ = runCLI(t, "validate", "--cluster", threeNodes[0], a2, threeNodes[2])
	if !strings.Contains(out, a2+":5:9: cluster.name: is labs, but "+threeNodes[0]+" has lab") {
		t.Errorf("output:\n%s", out)
	}
}

func readTestFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// --format json puts the set's findings beside the files', empty lists as
// [], and leaves "cluster" out without --cluster.
func TestValidateClusterJSON(t *testing.T) {
	type report struct {
		Files []struct {
			File        string          `json:"file"`
			Valid       bool            `json:"valid"`
			Via         string          `json:"via"`
			PositionsIn string          `json:"positionsIn"`
			Findings    json.RawMessage `json:"findings"`
		} `json:"files"`
		Cluster *struct {
			Valid    bool `json:"valid"`
			Findings []struct {
				File     string            `json:"file"`
				Path     string            `json:"path"`
				Line     int               `json:"line"`
				Severity string            `json:"severity"`
				Related  []json.RawMessage `json:"related"`
			} `json:"findings"`
			Error string `json:"error"`
		} `json:"cluster"`
	}
	decode := func(out string) report {
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		return r
	}
	args := append([]string{"validate", "--cluster", "--format", "json"}, threeNodes...)
	code, out, _ := runCLI(t, args...)
	r := decode(out)
	if code != exitOK || r.Cluster == nil || !r.Cluster.Valid || !strings.Contains(out, `"findings": []`) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if v := r.Files[1]; v.Via != "write_files[0].content (gz+b64)" || v.PositionsIn != "document" || string(v.Findings) != "[]" {
		t.Errorf("a2: %+v", v)
	}
	if v := r.Files[2]; !strings.HasPrefix(v.Via, "corium.config (data: URL, ") || v.PositionsIn != "document" {
		t.Errorf("w1: %+v", v)
	}

	dir := t.TempDir()
	a1 := filepath.Join(dir, "a1.yaml")
	if err := os.WriteFile(a1, []byte(strings.Replace(string(readTestFile(t, threeNodes[0])), "name: lab", "name: labs", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	args = append([]string{"validate", "--cluster", "--format", "json", a1}, threeNodes[1:]...)
	code, out, _ = runCLI(t, args...)
	r = decode(out)
	if code != exitFailed || r.Cluster == nil || r.Cluster.Valid || len(r.Cluster.Findings) == 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if f := r.Cluster.Findings[0]; f.Path != "cluster.name" || f.Severity != "error" || len(f.Related) != 1 {
		t.Errorf("first finding %+v", f)
	}

	missing := filepath.Join(dir, "missing.yaml")
	code, out, _ = runCLI(t, "validate", "--cluster", "--format", "json", threeNodes[0], missing)
	if r := decode(out); code != exitUsage || r.Cluster == nil || !strings.Contains(r.Cluster.Error, "missing.yaml could not be read") {
		t.Errorf("an unreadable file: exit %d\n%s", code, out)
	}
	_, out, _ = runCLI(t, "validate", "--format", "json", threeNodes[0])
	if strings.Contains(out, `"cluster"`) {
		t.Errorf("without --cluster:\n%s", out)
	}
}

// Files are checked in parallel, and reported in the order given however
// long each takes: large files (slow) alternate with small ones (fast).
func TestValidateManyFilesInOrder(t *testing.T) {
	var large strings.Builder
	large.WriteString("role: single\nnode:\n  labels:\n")
	for i := range 4_000 {
		large.WriteString("    example.com/l" + strings.Repeat("x", i%7) + itoa(i) + ": v\n")
	}
	var files, want []string
	for i := range 40 {
		name, body := "small"+itoa(i)+".yaml", "role: single\n"
		if i%2 == 0 {
			name, body = "large"+itoa(i)+".yaml", large.String()
		}
		if i%5 == 4 {
			body = "role: single\nversion: 2\n"
		}
		f := writeConfig(t, name, body)
		files = append(files, f)
		if i%5 == 4 {
			want = append(want, f+":2:10: version: must be 1", f+": invalid: 1 error")
		} else {
			want = append(want, f+": valid")
		}
	}
	code, out, _ := runCLI(t, append([]string{"validate"}, files...)...)
	if code != exitFailed || out != strings.Join(want, "\n")+"\n" {
		t.Errorf("exit %d, output\n%s\nwant\n%s", code, out, strings.Join(want, "\n"))
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
