package deptest

import (
	"slices"
	"strings"
	"testing"
)

// A listing of a made-up module: pure imports fmt (which links os), a
// helper that imports rootfs, and once os itself.
func tierListing(pureImports ...string) map[string]Package {
	const m = "example.com/m/"
	pkgs := []Package{
		{ImportPath: "os", Standard: true},
		{ImportPath: "fmt", Standard: true, Imports: []string{"os"}, Deps: []string{"os"}},
		{ImportPath: m + "internal/rootfs", Imports: []string{"os"}, Deps: []string{"os"}},
		{ImportPath: m + "internal/helper", Imports: []string{m + "internal/rootfs"}, Deps: []string{"os", m + "internal/rootfs"}},
		{ImportPath: m + "internal/pure", Imports: pureImports},
	}
	out := map[string]Package{}
	for _, p := range pkgs {
		out[p.ImportPath] = p
	}
	pure := out[m+"internal/pure"]
	seen := map[string]bool{}
	var walk func(string)
	walk = func(path string) {
		for _, d := range append(out[path].Imports, out[path].Deps...) {
			if !seen[d] {
				seen[d] = true
				pure.Deps = append(pure.Deps, d)
				walk(d)
			}
		}
	}
	walk(pure.ImportPath)
	out[pure.ImportPath] = pure
	return out
}

var tierForTest = &Tier{
	Name:       "pure",
	BadImports: map[string]string{"os": "reads no file"},
	BadDeps:    map[string]string{"example.com/m/internal/rootfs": "touches no node file"},
}

func TestCheckTellsADirectImportFromALinkedOne(t *testing.T) {
	pl := Placement{Tier: tierForTest}
	if got := pl.Check("example.com/m/internal/pure", tierListing("fmt")); len(got) != 0 {
		t.Errorf("os linked through fmt is refused: %v", got)
	}
	got := pl.Check("example.com/m/internal/pure", tierListing("fmt", "os"))
	if len(got) != 1 || got[0].Path != "os" || !got[0].Direct || got[0].Reason != "reads no file" {
		t.Fatalf("a direct import of os: %v", got)
	}
	got = pl.Check("example.com/m/internal/pure", tierListing("example.com/m/internal/helper"))
	if len(got) != 1 || got[0].Direct || !slices.Equal(got[0].ImportedBy, []string{"example.com/m/internal/helper"}) {
		t.Fatalf("rootfs through a helper: %v", got)
	}
	if s := got[0].String(); !strings.Contains(s, "imported by example.com/m/internal/helper") || !strings.Contains(s, "touches no node file") {
		t.Errorf("the problem does not say the way in and the reason: %s", s)
	}
	also := Placement{Tier: tierForTest, Also: map[string]string{"fmt": "a leaf"}}
	if got := also.Check("example.com/m/internal/pure", tierListing("fmt")); len(got) != 1 || got[0].Reason != "a leaf" {
		t.Errorf("a package's own promise is not held: %v", got)
	}
}

func TestUnplacedBothWays(t *testing.T) {
	listing := tierListing()
	table := map[string]Placement{
		"internal/rootfs": {Tier: tierForTest},
		"internal/pure":   {Tier: tierForTest},
		"internal/gone":   {Tier: tierForTest},
	}
	missing, unknown := Unplaced(table, "example.com/m", listing)
	if !slices.Equal(missing, []string{"example.com/m/internal/helper"}) {
		t.Errorf("missing %v, want the helper", missing)
	}
	if !slices.Equal(unknown, []string{"internal/gone"}) {
		t.Errorf("unknown %v, want internal/gone", unknown)
	}
}
