package chain

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
)

// plan and apply --config parse the file once: Find allocates what Unpack
// does (its parse is the tree handed on), not a second parse besides.
func TestConfigFileParsedOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("role: worker\nnode:\n  labels:\n")
	for i := range 2000 {
		b.WriteString("    example.com/l" + itoa(i) + ": v\n")
	}
	doc := b.String()
	file := filepath.Join(t.TempDir(), "node.yaml")
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Root: rootfs.New(t.TempDir()), ConfigFile: file, Logger: slogTo(io.Discard)}
	allocs := func(f func()) float64 { return testing.AllocsPerRun(3, f) }
	find := allocs(func() { _, _ = Find(t.Context(), o) })
	unpack := allocs(func() { _, _ = source.Unpack([]byte(doc)) })
	parse := allocs(func() { _, _ = schema.ReadTree([]byte(doc), false) })
	if find > unpack+parse/2 {
		t.Errorf("Find allocates %.0f times, Unpack %.0f: a second parse (%.0f) is in it", find, unpack, parse)
	}
}
