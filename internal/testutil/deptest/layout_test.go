package deptest

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestLayout places every package of the module on its tier and holds it
// there: a package missing from Layout fails, an entry naming no package
// fails, and each package is checked against its tier's rules, with the
// reason of each it breaks.
func TestLayout(t *testing.T) {
	module, err := Module()
	if err != nil {
		t.Fatal(err)
	}
	listing, err := ListAll(module + "/...")
	if err != nil {
		t.Fatal(err)
	}
	missing, unknown := Unplaced(Layout, module, listing)
	for _, p := range missing {
		t.Errorf("%s is in no tier: give it a line in deptest.Layout", p)
	}
	for _, k := range unknown {
		t.Errorf("deptest.Layout places %s, which is no package of %s: drop or rename its line", k, module)
	}
	for _, key := range slices.Sorted(maps.Keys(Layout)) {
		if slices.Contains(unknown, key) {
			continue
		}
		for _, p := range Layout[key].Check(module+"/"+key, listing) {
			t.Error(strings.ReplaceAll(p.String(), module+"/", ""))
		}
	}
}
