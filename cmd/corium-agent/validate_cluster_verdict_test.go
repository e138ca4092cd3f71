package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The set's last line is a verdict on the whole set: with a file that fails
// its own check (here a warning under --strict), it must not read "valid"
// even when the cross-node checks find nothing.
func TestValidateClusterVerdictCountsEveryFile(t *testing.T) {
	dir := t.TempDir()
	a1 := strings.Replace(string(readTestFile(t, threeNodes[0])), "role: controller+worker", "role: controller", 1)
	a1 = strings.Replace(a1, "  name: a1\n", "  name: a1\n  labels: {site: a}\n", 1)
	path := filepath.Join(dir, "a1.yaml")
	if err := os.WriteFile(path, []byte(a1), 0o600); err != nil {
		t.Fatal(err)
	}
	files := append([]string{path}, threeNodes[1:]...)

	code, out, _ := runCLI(t, append([]string{"validate", "--strict", "--cluster"}, files...)...)
	last := lastLine(out)
	if code != exitFailed || !strings.HasPrefix(last, "cluster of 3 files: invalid") || !strings.Contains(last, path) {
		t.Errorf("--strict: exit %d, last line %q, want the set invalid naming %s\n%s", code, last, path, out)
	}

	code, out, _ = runCLI(t, append([]string{"validate", "--cluster"}, files...)...)
	if last := lastLine(out); code != exitOK || last != "cluster of 3 files: valid" {
		t.Errorf("without --strict: exit %d, last line %q, want valid\n%s", code, last, out)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
