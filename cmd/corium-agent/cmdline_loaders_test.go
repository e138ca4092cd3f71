package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source"
)

// Each boot loader in source's table is a shape of every command: cmdline
// prints its script under its flag, validate reads a directory's files
// named with each of its suffixes, and validate's help names it and its
// suffixes. A loader added to the table and forgotten by one of them fails
// here.
func TestEveryLoaderIsAShape(t *testing.T) {
	_, help, _ := runCLI(t, "validate", "-h")
	file := writeConfig(t, "node.yaml", shapeDoc)
	dir := t.TempDir()
	var want []string
	for _, l := range source.Loaders() {
		if !strings.Contains(help, l.Noun) || !strings.Contains(help, l.Flag()) {
			t.Errorf("validate's help names no %s (%s):\n%s", l.Noun, l.Flag(), help)
		}
		code, script, errOut := runCLI(t, "cmdline", l.Flag(), file)
		if code != exitOK || errOut != "" {
			t.Errorf("cmdline %s: exit %d, stderr %q", l.Flag(), code, errOut)
			continue
		}
		for _, s := range l.Suffixes {
			if !strings.Contains(help, "*"+s+",") {
				t.Errorf("validate's help names no *%s:\n%s", s, help)
			}
			p := filepath.Join(dir, l.Name+s)
			if err := os.WriteFile(p, []byte(script), 0o600); err != nil {
				t.Fatal(err)
			}
			want = append(want, p+": valid")
		}
	}
	code, out, errOut := runCLI(t, "validate", dir)
	if code != exitOK || errOut != "" {
		t.Errorf("validate %s: exit %d, stderr %q", dir, code, errOut)
	}
	for _, w := range want {
		if !strings.Contains(out, w+"\n") {
			t.Errorf("validate of the directory does not read %s:\n%s", strings.TrimSuffix(w, ": valid"), out)
		}
	}
}
