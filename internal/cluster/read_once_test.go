package cluster_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
)

// validate parses a document once: reading a file (Read) allocates what
// Unpack's parse and the check of that tree allocate, not a second parse on
// top of them. The document is large, so that a parse outweighs what else
// may vary.
func TestReadParsesOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("role: worker\nnode:\n  labels:\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "    example.com/l%d: v%d\n", i, i)
	}
	data := []byte(b.String())
	ctx := context.Background()
	tree, err := schema.ReadTree(data, false)
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(f func()) float64 { return testing.AllocsPerRun(3, f) }
	parse := allocs(func() { _, _ = schema.ReadTree(data, false) })
	unpack := allocs(func() { _, _ = source.Unpack(data) })
	check := allocs(func() { _, _, _ = schema.CheckTree(ctx, tree) })
	read := allocs(func() { _, _ = cluster.Read(ctx, "node.yaml", data) })
	if read > unpack+check+parse/2 {
		t.Errorf("Read allocates %.0f times; Unpack %.0f and the check of its tree %.0f: a second parse (%.0f) is in it", read, unpack, check, parse)
	}
}
