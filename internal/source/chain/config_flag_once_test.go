package chain

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// plan and apply --config parse the file once: Find allocates what Unpack
// does (its parse is the tree handed on), not a second parse besides.
func TestConfigFileParsedOnce(t *testing.T) {
	doc := fixture.ManyLabels(2000)
	file := filepath.Join(t.TempDir(), "node.yaml")
	if err := os.WriteFile(file, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Root: rootfs.New(t.TempDir()), ConfigFile: file, Logger: slogTo(io.Discard)}
	allocs := func(f func()) float64 { return testing.AllocsPerRun(3, f) }
	find := allocs(func() { _, _ = Find(t.Context(), o) })
	unpack := allocs(func() { _, _ = source.Unpack(doc) })
	parse := allocs(func() { _, _ = schema.ReadTree(doc, false) })
	if find > unpack+parse/2 {
		t.Errorf("Find allocates %.0f times, Unpack %.0f: a second parse (%.0f) is in it", find, unpack, parse)
	}
}
