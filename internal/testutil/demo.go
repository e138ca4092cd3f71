package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DemoRoot is a fresh copy of the demo's node root (DEMO/root: its secret
// files and machine-id) in a directory the test owns, laid out as
// scripts/demo.sh does: directories 0755, files 0600. demo is the path of
// examples/demo from the test's package.
func DemoRoot(t testing.TB, demo string) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(demo, "root")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// DemoSecrets are the values of the demo's secret files (DEMO/root/run/
// corium/secrets), trimmed as the agent reads them: what no output of a run
// on the demo may contain.
func DemoSecrets(t testing.TB, demo string) []string {
	t.Helper()
	dir := filepath.Join(demo, "root/run/corium/secrets")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, strings.TrimSpace(string(b)))
	}
	return out
}
