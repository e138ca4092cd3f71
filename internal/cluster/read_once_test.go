package cluster_test

import (
	"context"
	"testing"

	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// validate parses a document once: reading a file (Read) allocates what
// Unpack's parse and the check of that tree allocate, not a second parse on
// top of them.
func TestReadParsesOnce(t *testing.T) {
	data := fixture.ManyLabels(2000)
	ctx := context.Background()
	tree, err := schema.ReadTree(data, false)
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(f func()) float64 { return testing.AllocsPerRun(3, f) }
	parse := allocs(func() { _, _ = schema.ReadTree(data, false) })
	unpack := allocs(func() { _, _ = source.Unpack(data) })
	check := allocs(func() { _, _, _ = schema.CheckTree(ctx, func() (*schema.Tree, error) { return tree, nil }) })
	read := allocs(func() { _, _ = cluster.Read(ctx, "node.yaml", data) })
	if read > unpack+check+parse/2 {
		t.Errorf("Read allocates %.0f times; Unpack %.0f and the check of its tree %.0f: a second parse (%.0f) is in it", read, unpack, check, parse)
	}
}
